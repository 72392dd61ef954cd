"""Club nights: more players than one table. The night and who is here, and its live leaderboard;
its stages (drawn, swapped, started) and its finish are in `club_night_stages`. Every refusal is a
`Refused` with the sentence to show."""
import functools
import json
import secrets
from dataclasses import dataclass

from scoring import NAME_MAX, PLAYERS, club_night
from scoring import names as name_rule
from scoring.club_night import NightError, Seating, TableScore
from store import club_nights as night_store
from store import seasons as season_store
from store.club_nights import LogFull
from store.crews import LookAlike
from store import write

from .refusals import Refused


@dataclass(frozen=True)
class Board:
    """The night's leaderboard: its lines, best first, and the stage in progress."""

    lines: list  # dicts: place, name, points, hands, per_hand, placement, where (this stage)
    stage_note: str


def log_has_room(step):
    """A step of a night whose log has no room for its line (a restored file can fill it) is
    refused with nothing changed, so every export of the night still restores."""
    @functools.wraps(step)
    def refused_when_full(*args, **kwargs):
        try:
            return step(*args, **kwargs)
        except LogFull:
            raise Refused(f"This night's log is full ({club_night.MAX_LOG_LINES:,} lines): nothing more can "
                          "be recorded at it. Start a new night.") from None
    return refused_when_full


def clean_names(names):
    """The night's names as the one rule (`scoring.names`) has them, blank lines dropped; two the
    same name or a name the rule does not allow is refused."""
    seen, cleaned = {}, []
    for raw in names:
        name = name_rule.clean(raw)
        if not name:
            continue
        if len(name) > NAME_MAX:
            raise Refused(f"A name is at most {NAME_MAX} characters: {name[:NAME_MAX]}…", 422, field="names")
        if name_rule.problem(name):
            raise Refused(f"{name_rule.problem(name)[:-1]}: type again the name that has one (pasted, perhaps).",
                          422, field="names")
        if name_rule.key(name) in seen:
            raise Refused(f"{name} is on the list twice: give each player their own name.", 422, field="names")
        alike = name_rule.look_alike(name, cleaned)
        if alike:
            raise Refused(name_rule.look_alike_sentence(name, alike, "higher on the list"), 422, field="names")
        seen[name_rule.key(name)] = name
        cleaned.append(name)
    return cleaned


def create(crew_id, name, names, format, stage_hands, ranking, seating="mixed", season_id=None):
    """A new night with its players; returns its id. Seated by standing, its first stage follows
    the season `season_id` of the crew (none: stage 1 is seated in a drawn order)."""
    names = clean_names(names)
    try:
        club_night.check_format(format, stage_hands if format == "hands" else None, ranking)
        club_night.check_present(names)
    except NightError as error:
        raise Refused(f"{error}.", 422, field="names" if "player" in str(error) else "format") from None
    if seating not in club_night.SEATINGS:
        raise Refused("Tables are made mixed or by standing.", 422, field="seating")
    if season_id is not None and (seating != "standing" or season_store.season(crew_id, season_id) is None):
        raise Refused("Pick one of the crew's seasons, for a night seated by standing.", 422, field="season")
    try:
        with write() as db:
            return night_store.create(db, crew_id, name, format, stage_hands if format == "hands" else None,
                                      ranking, secrets.randbelow(2**31), names, seating, season_id)
    except LookAlike as alike:
        raise Refused(alike.sentence(), 422, field="names") from None


def find(crew_id, night_id):
    return night_store.night(crew_id, night_id)


def nights(crew_id):
    return night_store.nights(crew_id)


def stages(night):
    return night_store.stages(night["id"])


LOG_SHOWN = 200  # a night's page lists its log's latest lines; the export keeps them all


def changes(night, last=None):
    """The night's log as facts (a line's stage, the names of the players it names, a count, its
    `times`), or an older release's words in `detail`; `web/club_night_changes.py` words them.
    With `last`, only the latest that many lines."""
    return night_store.changes(night["id"], last)


def log_length(night):
    return night_store.log_length(night["id"])


def table_of_game(game_id):
    """Where a game sits in a club night (night id and name, stage, table), or None."""
    return night_store.table_of_game(game_id)


def live_mark(crew_id, night_id):
    """The leaderboard's live mark, in one read: its poll answers 204 while it is the same."""
    return night_store.live_mark(crew_id, night_id)


# --- Stages ---------------------------------------------------------------------------------

def _names(night):
    return {player["id"]: player["name"] for player in night["players"]}


def seating(stage):
    """A stored stage as the engine's seating (tables in seat order, who sits out): a started table as its game seats it now (after
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


# --- Who is here ----------------------------------------------------------------------------

@log_has_room
def add_player(night, name):
    """A late arrival (known to the crew or new) joins the night from the next stage drawn."""
    [name] = clean_names([name]) or [""]
    if not name:
        raise Refused("Enter a name.", 422, field="name")
    try:
        with write() as db:
            _add(db, night, name)
    except LookAlike as alike:
        raise Refused(alike.sentence(), 422, field="name") from None


def _add(db, night, name):
    """add_player's write, in db's transaction."""
    still_open(db, night, "name")
    # Who is on the list is read inside the write: arrivals at once each see the one before.
    found = night_store.night(night["crew_id"], night["id"], db)
    if name_rule.key(name) in {name_rule.key(known) for known in _names(found).values()}:
        raise Refused(f"{name} is already on tonight's list.", 422, field="name")
    if len(found["players"]) >= club_night.MAX_PLAYERS:
        raise Refused(f"A night seats at most {club_night.MAX_PLAYERS} players.", 422, field="name")
    player_id = night_store.add_player(db, night["crew_id"], night["id"], name)
    night_store.log(db, night["id"], "arrived", players=[player_id])
    night_store.bump(db, night["id"])


@log_has_room
def set_here(night, player_id, here):
    """A player leaves (or comes back); one at a table whose game is still being played cannot."""
    names = _names(night)
    if player_id not in names:
        raise Refused("That player is not on tonight's list.", status=404)
    with write() as db:
        still_open(db, night, f"here-{player_id}")
        if not here:
            for stage in night_store.stages(night["id"], db):
                for table_no, game in stage["tables"].items():
                    if game["status"] == "playing" and player_id in game["players"]:
                        raise Refused(f"{names[player_id]} is playing at table {table_no} of stage "
                                      f"{stage['number']}: they can leave once that table's game is over.",
                                      field=f"here-{player_id}")
        night_store.set_here(db, night["id"], player_id, here)
        night_store.log_again(db, night["id"], ("back", "left") if here else ("left", "back"), "players",
                              players=[player_id])
        night_store.bump(db, night["id"])
    return names[player_id]


def still_open(db, night, field):
    if night_store.finished(db, night["id"]):
        raise Refused("The night is over: its standings are final, and nobody joins or leaves it now.", field=field)


def count_names(names):
    """How many players the new-night form names (the crew's players tapped and the names typed),
    each counted once: what "N players here" says while the form is filled in."""
    return len({name_rule.key(name) for name in map(name_rule.clean, names) if name})


# --- The leaderboard ------------------------------------------------------------------------

def _tables(rows):
    """A night's results rows as the engine's tables."""
    tables = {}
    for row in rows:
        table = tables.setdefault((row["stage"], row["table_no"]), {"players": [], "points": [], "hands": 0})
        table["players"].append(row["player_id"])
        table["points"].append(row["points"])
        table["hands"] = max(table["hands"], row["hands"])
    return [TableScore(tuple(t["players"]), tuple(t["points"]), t["hands"]) for t in tables.values()]


def _ranked(night, names, db=None):
    """The engine's ranking of the night from every saved round at any table."""
    return club_night.rank_night(list(names), _tables(night_store.results(night["id"], db)), night["ranking"])


def how_made(night, stage):
    """For a stage of a night seated by standing, how its tables were made, in words: the
    standings it followed, and each table's places in them as drawn (None for a mixed night)."""
    if not stage or not stage.get("made"):
        return None
    made = json.loads(stage["made"])
    season = night["season_id"] and season_store.season(night["crew_id"], night["season_id"])
    if made["by"] == "tonight":
        by = f"Tables by standing: tonight’s standings after stage {stage['number'] - 1}."
    elif season:
        by = f"Tables by standing: the season {season['name']}’s standings."
    else:
        by = "Tables by standing: nobody has a standing yet, so stage 1 is seated in a drawn order."
    words = {}
    for table_no, places in enumerate(made["tables"], start=1):
        ranked = sorted(place for place in places if place is not None)
        unranked = len(places) - len(ranked)
        said = ([f"places {ranked[0]}–{ranked[-1]}" if len(ranked) > 1 else f"place {ranked[0]}"] if ranked else [])
        said += [f"{unranked} not ranked yet"] if unranked else []
        words[table_no] = " and ".join(said)
    return {"by": by, "tables": words}


def ranked_players(night):
    """The night's players, best first in its ranking as it stands."""
    return [line.player for line in _ranked(night, _names(night))]


def places_of(nights, db=None):
    """For each night (rows with `id` and `ranking`), its players who played a hand, by id, and
    their place among them in the night's ranking (a season's result of the night); one read."""
    rows = {}
    for row in night_store.results_of_nights([night["id"] for night in nights], db):
        rows.setdefault(row["night_id"], []).append(row)
    found = {}
    for night in nights:
        tables = _tables(rows.get(night["id"], []))
        players = list(dict.fromkeys(player for table in tables for player in table.players))
        lines = club_night.rank_night(players, [t for t in tables if t.hands], night["ranking"])
        found[night["id"]] = {line.player: line.place for line in lines if line.hands}
    return found


def leaderboard(night, found=None):
    """The night's ranking as it stands: every saved round at any table counts at once."""
    names = _names(night)
    found = stages(night) if found is None else found
    lines = _ranked(night, names)
    where = _where_now(found)
    return Board(
        lines=[{"place": line.place, "name": names[line.player], "points": line.points, "hands": line.hands,
                "per_hand": line.per_hand, "per_hand_text": club_night.per_hand_text(line.per_hand),
                "placement": line.placement, "where": where.get(line.player, "")}
               for line in lines],
        stage_note=_stage_note(found, night.get("finished")),
    )


def _where_now(found):
    """Where each player is now: at the drawn stage's table, or at the table of the stage in play
    whose game is still being played ("Table 2"), or sitting that stage out; nowhere once the
    stage is over."""
    if not found or (found[-1]["status"] != "planned" and not _unfinished(found[-1])):
        return {}
    stage = found[-1]
    playing = set(_unfinished(stage))
    return {place["player_id"]: "Sitting out" if place["table_no"] is None else f"Table {place['table_no']}"
            for place in stage["places"]
            if place["table_no"] is None or stage["status"] == "planned" or place["table_no"] in playing}


def _stage_note(found, finished=None):
    if finished:
        return f"The night is over: final standings after {len(found)} stage{'' if len(found) == 1 else 's'}."
    if not found:
        return "No stage drawn yet."
    stage = found[-1]
    if stage["status"] == "planned":
        return f"Stage {stage['number']} is drawn and about to start."
    left = _unfinished(stage)
    if left:
        return f"Stage {stage['number']} in play: {len(stage['tables']) - len(left)} of {len(stage['tables'])} tables finished."
    return f"Stage {stage['number']} is over."
