"""Which link a request came by, and the links a crew hands out.

Four kinds: the crew link (everything: whoever keeps the crew), a table link (one game's play,
while it is being played), a watch link (read only: a game's scoreboard or a night's
leaderboard and big screen) and a night's door link (checking one player in at that night's door,
services/door.py). A table or watch token is made from its row's random nonce with the
server's key, so the crew page can show it again while the database holds only its hash; a new
nonce replaces it and the old token stops working at once."""
import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from store import crews as crew_store
from store import write
from store import links as link_store

CREW, TABLE, WATCH, DOOR = "crew", "table", "watch", "door"
KINDS = (CREW, TABLE, WATCH, DOOR)
PLAYING = "playing"


@dataclass(frozen=True)
class Polled:
    """A live poll's question, answered by the link's own read: the game's version (`board`: the
    scoreboard's; None when the link's crew has no such game) and when this phone's seat claim in
    it was last seen (None without one)."""
    game_id: int
    board: bool
    version: int | None
    seen: str | None


@dataclass(frozen=True)
class NightPolled:
    """A night's live poll's question, answered by the link's own read: the night's live mark
    (services/club_nights.py, `live_mark`; None when the link's crew has no such night)."""
    night_id: int
    mark: str | None


@dataclass(frozen=True)
class Link:
    """What a request's token opens: its kind, and for a table or watch link the game or night;
    `polled` (a game's) or `night_polled` when the read was asked a live poll's question too."""
    kind: str
    crew: dict
    game_id: int | None = None
    night_id: int | None = None
    game_status: str | None = None
    polled: Polled | None = None
    night_polled: NightPolled | None = None
    season_id: int | None = None

    @property
    def table_over(self):
        """A table link whose game is finished or abandoned: it no longer enters anything."""
        return self.kind == TABLE and self.game_status != PLAYING


def resolve(token, poll=None, night=None):
    """The link behind `token`, in one indexed read (the crew's row with it), or None. With `poll`
    (game id, device, board), the same read answers that live poll's question (`Link.polled`);
    with `night` (a night's id), the night's live poll's (`Link.night_polled`)."""
    found = link_store.resolve(crew_store.token_hash(token), poll, night)
    if found is None:
        return None
    crew, kind, game_id, night_id, status, polled, mark, season_id = found
    if polled is not None:
        polled = Polled(poll[0], bool(poll[2]), *polled)
    night_polled = None if night is None else NightPolled(night, mark)
    return Link(kind, {**crew, "token": token}, game_id, night_id, status, polled, night_polled, season_id)


def lost_by_an_index(token):
    """Whether `token`, which `resolve` did not find, is there all the same, found row by row: its
    table's index is damaged (services/health.py says so to every page then)."""
    return link_store.held_without_index(crew_store.token_hash(token))


def was_replaced(token):
    """Whether `token` was a table or watch link's until "Replace" gave the link a new one."""
    return link_store.was_replaced(crew_store.token_hash(token))


def _token(key, row):
    # A season's link names its season too (links made before seasons keep their tokens).
    season = f"/season/{row['season_id']}" if row.get("season_id") is not None else ""
    message = f"{row['crew_id']}/{row['kind']}/{row['game_id']}/{row['night_id']}{season}/{row['nonce']}".encode()
    digest = hmac.new(key if isinstance(key, bytes) else str(key).encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_for(key, crew_id, kind, game_id=None, night_id=None, season_id=None):
    """The table or watch link's token for a game, a night or a season, made on first use."""
    row = link_store.existing(crew_id, kind, game_id, night_id, season_id)
    if row is None:
        with write() as db:
            row = link_store.existing_in(db, crew_id, kind, game_id, night_id, season_id)
            if row is None:
                nonce = secrets.token_urlsafe(16)
                token = _token(key, {"crew_id": crew_id, "kind": kind, "game_id": game_id, "night_id": night_id,
                                     "season_id": season_id, "nonce": nonce})
                row = link_store.add(db, crew_id, kind, game_id, night_id, nonce, crew_store.token_hash(token),
                                     season_id)
    return _token(key, row)


def replace(key, crew_id, link_id):
    """A new token for one of the crew's links; False when the crew has no such link."""
    with write() as db:
        rows = list(db.query("SELECT * FROM links WHERE id = ? AND crew_id = ?", [link_id, crew_id]))
        if not rows:
            return False
        nonce = secrets.token_urlsafe(16)
        token = _token(key, {**rows[0], "nonce": nonce})
        link_store.replace(db, link_id, nonce, crew_store.token_hash(token))
    return True


def of_crew(key, crew_id):
    """The crew's table and watch links, each with its token, as the crew page lists them."""
    return [{**row, "token": _token(key, row)} for row in link_store.of_crew(crew_id)]


def table_tokens(key, crew_id, game_ids):
    """{game id: its table link's token} for a night's tables, in one read (and one write for
    the tables that have none yet)."""
    rows = {row["game_id"]: row for row in link_store.of_games(crew_id, TABLE, game_ids)}
    missing = [game_id for game_id in game_ids if game_id not in rows]
    if missing:
        for game_id in missing:
            token_for(key, crew_id, TABLE, game_id=game_id)
        rows = {row["game_id"]: row for row in link_store.of_games(crew_id, TABLE, game_ids)}
    return {game_id: _token(key, row) for game_id, row in rows.items()}
