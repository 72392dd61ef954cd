"""Club nights: more players than one table. Who is here, each stage's seating (drawn by the rule
engine, two players swapped by the organiser before it starts), a game per table when it starts,
and the night's live leaderboard. Every refusal is a `Refused` with the sentence to show."""
import dataclasses
import secrets
from dataclasses import dataclass

from scoring import NAME_MAX, PLAYERS, club_night
from scoring import names as name_rule
from scoring.club_night import NightError, Seating, TableScore
from store import club_nights as night_store
from store import crews as crew_store
from store import games as game_store
from store import write

from .games import house_rules


class Refused(Exception):
    """A change the night cannot take; `field` names the control the sentence belongs next to."""

    def __init__(self, sentence, field=None, status=409):
        super().__init__(sentence)
        self.sentence, self.field, self.status = sentence, field, status


@dataclass(frozen=True)
class Board:
    """The night's leaderboard: its lines, best first, and the stage in progress."""

    lines: list  # dicts: place, name, points, hands, per_hand, placement, where (this stage)
    stage_note: str


def clean_names(names):
    """The night's names as the one rule (`scoring.names`) has them, blank lines dropped; two the
    same name or a name the rule does not allow is refused."""
    seen, cleaned = {}, []
    for raw in names:
        name = name_rule.clean(raw)
        if not name:
            continue
        if len(name) > NAME_MAX:
            raise Refused(f"A name is at most {NAME_MAX} characters: {name[:NAME_MAX]}…", "names", 422)
        if name_rule.problem(name):
            raise Refused(f"{name_rule.problem(name)[:-1]}: type again the name that has one (pasted, perhaps).",
                          "names", 422)
        if name_rule.key(name) in seen:
            raise Refused(f"{name} is on the list twice: give each player their own name.", "names", 422)
        seen[name_rule.key(name)] = name
        cleaned.append(name)
    return cleaned


def create(crew_id, name, names, format, stage_hands, ranking):
    """A new night with its players; returns its id."""
    names = clean_names(names)
    try:
        club_night.check_format(format, stage_hands if format == "hands" else None, ranking)
        club_night.check_present(names)
    except NightError as error:
        raise Refused(f"{error}.", "names" if "player" in str(error) else "format", 422) from None
    with write() as db:
        return night_store.create(db, crew_id, name, format, stage_hands if format == "hands" else None,
                                  ranking, secrets.randbelow(2**31), names)


def find(crew_id, night_id):
    return night_store.night(crew_id, night_id)


def nights(crew_id):
    return night_store.nights(crew_id)


def stages(night):
    return night_store.stages(night["id"])


def changes(night):
    return night_store.changes(night["id"])


def table_of_game(game_id):
    """Where a game sits in a club night (night id and name, stage, table), or None."""
    return night_store.table_of_game(game_id)


def live_mark(token, night_id):
    """The leaderboard's live mark, in one read: its poll answers 204 while it is the same."""
    return night_store.live_mark(crew_store.token_hash(token), night_id)


# --- Stages ---------------------------------------------------------------------------------

def _names(night):
    return {player["id"]: player["name"] for player in night["players"]}


def seating(stage):
    """A stage's seating (tables in seat order, who sits out)."""
    return _seating(stage)


def _seating(stage):
    """A stored stage as the engine's seating: a started table as its game seats it now (after
    any "we sat wrong" repair), a planned one as drawn."""
    tables = {}
    for place in stage["places"]:
        if place["table_no"] is not None:
            tables.setdefault(place["table_no"], [None] * PLAYERS)[place["seat"]] = place["player_id"]
    for table_no, game in stage["tables"].items():
        tables[table_no] = game["players"]
    out = tuple(place["player_id"] for place in stage["places"] if place["table_no"] is None)
    return Seating(tuple(tuple(tables[number]) for number in sorted(tables)), out)


def _unfinished(stage):
    return [number for number, game in sorted(stage["tables"].items()) if game["status"] == "playing"]


def _present(night):
    return [player["id"] for player in night["players"] if player["here"]]


def draw_stage(night):
    """Draw the next stage's seating from who is here now; returns its number."""
    with write() as db:
        found = night_store.stages(night["id"], db)
        if found and found[-1]["status"] == "planned":
            raise Refused(f"Stage {found[-1]['number']} is drawn already: start it, or swap players in it.")
        if found and _unfinished(found[-1]):
            left = [str(n) for n in _unfinished(found[-1])]
            tables = f"tables {', '.join(left[:-1])} and {left[-1]}" if len(left) > 1 else f"table {left[0]}"
            raise Refused(f"Stage {found[-1]['number']} is still being played at {tables}: "
                          "draw the next stage when every table's game is over.")
        if len(found) >= club_night.MAX_STAGES:
            raise Refused(f"A night has at most {club_night.MAX_STAGES} stages.")
        present = _present(night_store.night(night["crew_id"], night["id"], db))
        try:
            seating = club_night.draw_seating(present, [_seating(stage) for stage in found],
                                              seed=night["seed"] * 1000 + len(found) + 1)
        except NightError as error:
            raise Refused(f"{error}: add players who are here, or mark them back.", "players") from None
        number = len(found) + 1
        night_store.add_stage(db, night["id"], number, seating)
        night_store.log(db, night["id"], "drawn", f"Stage {number} drawn for {len(present)} players")
        night_store.bump(db, night["id"])
    return number


def swap(night, number, a, b):
    """Swap two players' places in a drawn stage that has not started."""
    names = _names(night)
    with write() as db:
        stage = _planned(db, night, number)
        try:
            seating = club_night.swap(_seating(stage), a, b)
        except NightError as error:
            raise Refused(f"{error}.", "swap", 422) from None
        night_store.put_places(db, night["id"], number, seating)
        text = f"Stage {number}: {names[a]} and {names[b]} swapped places"
        night_store.log(db, night["id"], "swapped", text)
        night_store.bump(db, night["id"])
    return text


def start_stage(night, crew, number):
    """Start a drawn stage: one ordinary game per table, seated as drawn, seat 1 dealing first.
    A stage of hands is a game cut to that many hands (whichever comes first with the goal)."""
    rules = house_rules(crew)
    if night["format"] == "hands":
        rules = dataclasses.replace(rules, hand_limit=night["stage_hands"])
    names = _names(night)
    with write() as db:
        stage = _planned(db, night, number)
        here = set(_present(night_store.night(night["crew_id"], night["id"], db)))
        seating = _seating(stage)
        gone = [names[p] for p in seating.players if p not in here]
        if gone:
            raise Refused(f"{', '.join(gone)} left after the draw: draw the stage again.")
        games = {}
        for table_no, table in enumerate(seating.tables, start=1):
            games[table_no] = game_store.insert_game(db, crew["id"], [names[p] for p in table], 0, rules)
        night_store.start_stage(db, night["id"], number, games)
        night_store.log(db, night["id"], "started", f"Stage {number} started at {len(games)} tables")
        night_store.bump(db, night["id"])
    return games


def _planned(db, night, number):
    found = {stage["number"]: stage for stage in night_store.stages(night["id"], db)}
    stage = found.get(number)
    if stage is None:
        raise Refused(f"There is no stage {number} yet.", status=404)
    if stage["status"] != "planned":
        raise Refused(f"Stage {number} has started: its seats are its games' now "
                      "(a table that sat wrong can swap seats on its scoreboard).")
    return stage


def redraw(night, number):
    """Throw away a drawn stage that has not started (after arrivals or departures)."""
    with write() as db:
        _planned(db, night, number)
        db.execute("DELETE FROM club_night_places WHERE night_id = ? AND stage = ?", [night["id"], number])
        db.execute("DELETE FROM club_night_stages WHERE night_id = ? AND number = ?", [night["id"], number])
        night_store.log(db, night["id"], "undrawn", f"Stage {number} drawn again")
    return draw_stage(night_store.night(night["crew_id"], night["id"]))


# --- Who is here ----------------------------------------------------------------------------

def add_player(night, name):
    """A late arrival (known to the crew or new) joins the night from the next stage drawn."""
    [name] = clean_names([name]) or [""]
    if not name:
        raise Refused("Enter a name.", "name", 422)
    if name_rule.key(name) in {name_rule.key(known) for known in _names(night).values()}:
        raise Refused(f"{name} is already on tonight's list.", "name", 422)
    if len(night["players"]) >= club_night.MAX_PLAYERS:
        raise Refused(f"A night seats at most {club_night.MAX_PLAYERS} players.", "name", 422)
    with write() as db:
        night_store.add_player(db, night["crew_id"], night["id"], name)
        night_store.log(db, night["id"], "arrived", f"{name} joined")
        night_store.bump(db, night["id"])


def set_here(night, player_id, here):
    """A player leaves (or comes back); one at a table whose game is still being played cannot."""
    names = _names(night)
    if player_id not in names:
        raise Refused("That player is not on tonight's list.", status=404)
    with write() as db:
        if not here:
            for stage in night_store.stages(night["id"], db):
                for table_no, game in stage["tables"].items():
                    if game["status"] == "playing" and player_id in game["players"]:
                        raise Refused(f"{names[player_id]} is playing at table {table_no} of stage "
                                      f"{stage['number']}: they can leave once that table's game is over.",
                                      f"here-{player_id}")
        night_store.set_here(db, night["id"], player_id, here)
        night_store.log(db, night["id"], "back" if here else "left",
                        f"{names[player_id]} {'is back' if here else 'left'}")
        night_store.bump(db, night["id"])
    return names[player_id]


# --- The leaderboard ------------------------------------------------------------------------

def leaderboard(night, found=None):
    """The night's ranking as it stands: every saved round at any table counts at once."""
    names = _names(night)
    found = stages(night) if found is None else found
    tables = {}
    for row in night_store.results(night["id"]):
        table = tables.setdefault((row["stage"], row["table_no"]), {"players": [], "points": [], "hands": 0})
        table["players"].append(row["player_id"])
        table["points"].append(row["points"])
        table["hands"] = max(table["hands"], row["hands"])
    scores = [TableScore(tuple(t["players"]), tuple(t["points"]), t["hands"]) for t in tables.values()]
    lines = club_night.rank_night(list(names), scores, night["ranking"])
    where = _where_now(found)
    return Board(
        lines=[{"place": line.place, "name": names[line.player], "points": line.points, "hands": line.hands,
                "per_hand": line.per_hand, "placement": line.placement, "where": where.get(line.player, "")}
               for line in lines],
        stage_note=_stage_note(found),
    )


def _where_now(found):
    """Where each player is in the latest stage: "Table 2", or "Sitting out"."""
    if not found:
        return {}
    return {place["player_id"]: f"Table {place['table_no']}" if place["table_no"] else "Sitting out"
            for place in found[-1]["places"]}


def _stage_note(found):
    if not found:
        return "No stage drawn yet."
    stage = found[-1]
    if stage["status"] == "planned":
        return f"Stage {stage['number']} is drawn and about to start."
    left = _unfinished(stage)
    if left:
        return f"Stage {stage['number']} in play: {len(stage['tables']) - len(left)} of {len(stage['tables'])} tables finished."
    return f"Stage {stage['number']} is over."
