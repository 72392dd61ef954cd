"""A crew's games grouped into game nights, searched, noted, and one game's rounds as recorded.

The night rule: games are taken in the order they started; a game joins the night of the game
before it when it started on the same local date (the server's time zone) as that game, or less
than NIGHT_GAP after it; otherwise it opens a new night. A night is known by the id of the game
that opened it, which never changes as later games are added. The list reads the newest games
only, as far back as the page needs, so it costs the same however long the history is.
"""
import datetime
from dataclasses import dataclass

from . import get_db, now
from .lists import AMONG, listed
from .rounds import hand_from_row

NIGHT_GAP = datetime.timedelta(hours=6)
NIGHTS_PER_PAGE = 10
NOTE_KINDS = ("game", "night")
CHUNK = 48  # games read at a time, newest first


def local_start(created):
    """When a game started, in the server's time zone."""
    return datetime.datetime.fromisoformat(created).astimezone()


def same_night(earlier, later):
    """Whether a game started at `later` joins the night of the game started at `earlier`."""
    first, second = local_start(earlier), local_start(later)
    return first.date() == second.date() or second - first < NIGHT_GAP


@dataclass(frozen=True)
class Search:
    """What to look for: a player, a date range (local dates, inclusive), and "games where
    `ahead` finished higher than `behind`". None means any."""

    player: int | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    ahead: int | None = None
    behind: int | None = None

    @property
    def active(self):
        return any(value is not None for value in vars(self).values())

    def where(self):
        """The SQL conditions on `games` and their parameters."""
        conditions, params = [], {}
        if self.player is not None:
            conditions.append("id IN (SELECT game_id FROM seats WHERE player_id = :player)")
            params["player"] = self.player
        if self.since is not None:
            conditions.append("created >= :since")
            params["since"] = _utc_midnight(self.since, "0")
        if self.until is not None:
            conditions.append("created < :until")
            params["until"] = _utc_midnight(self.until, "9", days_after=1)
        if self.ahead is not None and self.behind is not None:
            conditions.append(
                """status = 'finished' AND id IN (
                    SELECT a.game_id FROM seat_results AS a
                    JOIN seat_results AS b ON b.game_id = a.game_id AND b.player_id = :behind
                    WHERE a.player_id = :ahead AND a.total > b.total)"""
            )
            params.update(ahead=self.ahead, behind=self.behind)
        return " AND ".join(conditions) or "1", params


def _utc_midnight(day, beyond, days_after=0):
    """The start of a local date as a stored (UTC) time, for comparing with games.created;
    `beyond` (sorting before or after every stored time) for a date at the end of the calendar."""
    try:
        midnight = datetime.datetime.combine(day + datetime.timedelta(days=days_after), datetime.time())
        return midnight.astimezone().astimezone(datetime.timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, ValueError):
        return beyond


@dataclass
class Night:
    id: int  # the id of the game that opened the night
    games: list  # oldest first, as the evening went
    note: str | None = None

    @property
    def day(self):
        return self.games[0]["day"]


@dataclass(frozen=True)
class NightsPage:
    nights: list
    more: bool  # older nights come after this page
    night_count: int | None = None  # with a search: matching nights and games in all
    game_count: int | None = None


def _newest_first(db, crew_id):
    """The crew's games, newest first, read a chunk at a time as the caller goes on."""
    query = ("SELECT id, created, goal, status FROM games WHERE crew_id = :crew {after}"
             " ORDER BY created DESC, id DESC LIMIT :chunk")
    params = {"crew": crew_id, "chunk": CHUNK}
    after = ""
    while True:
        rows = list(db.query(query.format(after=after), params))
        yield from rows
        if len(rows) < CHUNK:
            return
        after = "AND created <= :created AND (created < :created OR id < :id)"
        params.update(created=rows[-1]["created"], id=rows[-1]["id"])


def _grouped_into_nights(games):
    """Games (newest first) as whole nights, newest first, each a list of games newest first."""
    night = []
    for game in games:
        if night and not same_night(game["created"], night[-1]["created"]):
            yield night
            night = []
        night.append(game)
    if night:
        yield night


def nights(crew_id, search=Search(), page=1, per_page=NIGHTS_PER_PAGE):
    """One page of game nights, newest first, with the games that match the search, each game
    with its seats, totals, winner, rounds played and notes."""
    db = get_db()
    matching = None
    if search.active:
        where, params = search.where()
        matching = {row["id"] for row in db.query(
            f"SELECT id FROM games WHERE crew_id = :crew AND {where}", {**params, "crew": crew_id})}
    shown, first, night_count, seen = [], (page - 1) * per_page, 0, 0
    games_in_order = _newest_first(db, crew_id) if matching != set() else iter(())
    for night in _grouped_into_nights(games_in_order):
        games = night if matching is None else [game for game in night if game["id"] in matching]
        if not games:
            continue
        if first <= night_count < first + per_page:
            shown.append(Night(night[-1]["id"], games[::-1]))
        night_count += 1
        seen += len(games)
        # Without a search, the night after the page is enough; with one, count them all.
        if matching is None and night_count > first + per_page:
            break
        if matching is not None and seen == len(matching):
            break
    more = night_count > first + per_page
    listed = [game for night in shown for game in night.games]
    ids = [game["id"] for game in listed]
    seats = _seats(db, ids)
    notes = _notes(db, crew_id, ids, [night.id for night in shown])
    for night in shown:
        night.note = notes.get(("night", night.id))
        night.games = [_listed_game(game, seats.get(game["id"], []), notes.get(("game", game["id"])))
                       for game in night.games]
    if matching is None:
        return NightsPage(shown, more)
    return NightsPage(shown, more, night_count, len(matching))


def is_night(crew_id, game_id):
    """Whether this game of the crew opened a night (so that a night note can hang on it)."""
    db = get_db()
    rows = list(db.query("SELECT id, created FROM games WHERE id = ? AND crew_id = ?", [game_id, crew_id]))
    if not rows:
        return False
    before = list(db.query(
        "SELECT created FROM games WHERE crew_id = :crew AND created <= :created"
        " AND (created < :created OR id < :id) ORDER BY created DESC, id DESC LIMIT 1",
        {"crew": crew_id, "created": rows[0]["created"], "id": game_id}))
    return not before or not same_night(before[0]["created"], rows[0]["created"])


def _listed_game(row, seats, note):
    for seat in seats:
        seat["won"] = row["status"] == "finished" and bool(seat["won"])
    return {
        "id": row["id"], "created": row["created"], "day": local_start(row["created"]).date(),
        "goal": row["goal"], "status": row["status"],
        "rounds": max((seat["rounds"] for seat in seats), default=0),
        "seats": seats, "standings": sorted(seats, key=lambda seat: (-seat["total"], seat["seat"])),
        "winners": [seat for seat in seats if seat["won"]], "note": note,
    }


def _seats(db, game_ids):
    """game id -> its four seats with player and cached total, in seat order."""
    if not game_ids:
        return {}
    rows = db.query(
        f"""
        SELECT seats.game_id, seats.seat, seats.player_id, seats.won, players.name,
            coalesce(results.total, 0) AS total, coalesce(results.rounds, 0) AS rounds, results.place
        FROM seats
        JOIN players ON players.id = seats.player_id
        LEFT JOIN seat_results AS results
            ON results.game_id = seats.game_id AND results.seat = seats.seat
        WHERE seats.game_id {AMONG}
        ORDER BY seats.game_id, seats.seat
        """,
        [listed(game_ids)],
    )
    found = {}
    for row in rows:
        found.setdefault(row["game_id"], []).append(row)
    return found


def _notes(db, crew_id, game_ids, night_ids):
    """(kind, game id) -> note text, for the listed games and nights."""
    ids = sorted(set(game_ids) | set(night_ids))
    if not ids:
        return {}
    rows = db.query(
        f"SELECT kind, game_id, text FROM notes WHERE crew_id = ? AND game_id {AMONG}",
        [crew_id, listed(ids)],
    )
    return {(row["kind"], row["game_id"]): row["text"] for row in rows}


# --- One game as recorded ------------------------------------------------------------------

def seated_players(game_id):
    """The game's seats in order: seat, player id and name."""
    return list(
        get_db().query(
            "SELECT seats.seat, players.id AS player_id, players.name FROM seats"
            " JOIN players ON players.id = seats.player_id WHERE seats.game_id = ? ORDER BY seats.seat",
            [game_id],
        )
    )


def recorded_rounds(game_id):
    """The game's counted (saved) rounds in order, each with its four hands as entered, their
    cached scores, and whether the round was corrected after it was first saved."""
    db = get_db()
    rounds = list(
        db.query(
            "SELECT * FROM rounds WHERE game_id = ? AND status = 'scored' ORDER BY number",
            [game_id],
        )
    )
    hands = {}
    for row in db.query(
        "SELECT hands.* FROM hands JOIN rounds ON rounds.id = hands.round_id"
        " WHERE rounds.game_id = ? AND rounds.status = 'scored' ORDER BY hands.seat",
        [game_id],
    ):
        hands.setdefault(row["round_id"], []).append(row)
    for row in rounds:
        row["hands"] = [hand_from_row(hand, row["mode"]) for hand in hands.get(row["id"], [])]
        row["scores"] = [hand["score"] for hand in row["hands"]]
    return rounds


# --- Notes -----------------------------------------------------------------------------------

def note(kind, game_id):
    rows = list(get_db().query("SELECT text FROM notes WHERE kind = ? AND game_id = ?", [kind, game_id]))
    return rows[0]["text"] if rows else None


def set_note(db, crew_id, kind, game_id, text):
    """Keep a short note on a game or a night (in db's transaction); an empty text removes it."""
    assert kind in NOTE_KINDS
    if not text:
        db.execute("DELETE FROM notes WHERE kind = ? AND game_id = ?", [kind, game_id])
        return
    db.execute(
        "INSERT INTO notes (crew_id, kind, game_id, text, updated) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, game_id) DO UPDATE SET text = excluded.text, updated = excluded.updated",
        [crew_id, kind, game_id, text, now()],
    )
