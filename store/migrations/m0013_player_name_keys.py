"""m0013: every player's name key, the one rule for "the same name" (`scoring.names`).

A migration stands alone: the name rule it applied is copied in below, as it was then, so a later
change to `scoring.names` does not change what this step does to an old database."""
import unicodedata

from . import migrations

NAME_MAX = 40


def _clean(raw):
    return " ".join(unicodedata.normalize("NFC", raw).split()) if isinstance(raw, str) else ""


def _key(name):
    return unicodedata.normalize("NFC", _clean(name).casefold())


def _problem(name):
    """Not None when the cleaned text holds a control or format character (all `_allowed` asks)."""
    return "control" if any(unicodedata.category(ch).startswith("C") for ch in name) else None



@migrations()
def m0013_player_name_keys(db):
    """Players are matched by `name_key` (the name case-folded the full Unicode way, which SQLite's
    NOCASE cannot do: it folds A to Z only), unique in a crew in place of the NOCASE index. Each
    stored name is first cleaned by the rule (NFC, whitespace, no control characters). Names that
    now collide are one player when that is safe (they never sat at one game or came to one club
    night: the later one's seats, results and nights move to the first, as a merge does);
    otherwise the later one is renamed "Émile (2)"."""
    db["players"].add_column("name_key", str)
    db.execute("DROP INDEX IF EXISTS idx_players_crew_name")
    players = [(player_id, crew_id, _allowed(stored)) for player_id, crew_id, stored
               in db.execute("SELECT id, crew_id, name FROM players ORDER BY crew_id, id").fetchall()]
    taken = {(crew_id, _key(name)) for _, crew_id, name in players}  # a new "(2)" avoids them all
    kept = {}  # (crew, key) -> the player that keeps it
    for player_id, crew_id, name in players:
        first = kept.get((crew_id, _key(name)))
        if first is not None and not _met(db, first, player_id):
            _fold(db, crew_id, first, player_id)
            continue
        if first is not None:
            name = _numbered(name, crew_id, taken)
            taken.add((crew_id, _key(name)))
        kept.setdefault((crew_id, _key(name)), player_id)
        db.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?", [name, _key(name), player_id])
    db.execute("CREATE UNIQUE INDEX idx_players_crew_key ON players (crew_id, name_key)")


def _allowed(stored):
    """A stored name as the rule allows it: control characters (which a club night's list once let
    in) dropped, cut to NAME_MAX."""
    name = _clean("".join(ch for ch in _clean(stored) if _problem(ch) is None))
    return _clean(name[:NAME_MAX]) or "Player"


def _met(db, a, b):
    """Whether two players sat at one game or came to one club night (two people, then)."""
    return db.execute(
        "SELECT 1 FROM seats AS x JOIN seats AS y ON y.game_id = x.game_id WHERE x.player_id = ? AND y.player_id = ?"
        " UNION ALL SELECT 1 FROM club_night_players AS x JOIN club_night_players AS y ON y.night_id = x.night_id"
        " WHERE x.player_id = ? AND y.player_id = ? LIMIT 1", [a, b, a, b]).fetchone() is not None


def _fold(db, crew_id, keep, other):
    for table in ("seats", "seat_results", "club_night_players", "club_night_places"):
        db.execute(f"UPDATE {table} SET player_id = ? WHERE player_id = ?", [keep, other])
    for table in ("rating_changes", "rating_state"):  # a cache: worked out again on the next read
        db.execute(f"DELETE FROM {table} WHERE crew_id = ?", [crew_id])
    db.execute("DELETE FROM players WHERE id = ?", [other])


def _numbered(name, crew_id, taken):
    """The name with the first free number after it, "Émile (2)", within NAME_MAX."""
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = _clean(name[:NAME_MAX - len(suffix)]) + suffix
        if (crew_id, _key(candidate)) not in taken:
            return candidate
        number += 1
