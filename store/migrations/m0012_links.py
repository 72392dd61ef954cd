"""m0012: links that hand out less than the crew link: a table link (one game's play) and a watch
link (a game's scoreboard or a night's leaderboard, read only), each stored as its hash."""
from . import migrations


@migrations()
def m0012_links(db):
    """A link of a crew: its kind ('table' or 'watch'), the game or night it opens, the random
    nonce the token is made from (with the server's key: the token itself is never stored) and the
    token's SHA-256 hash, by which a request finds it."""
    db["links"].create(
        {"id": int, "crew_id": int, "kind": str, "game_id": int, "night_id": int, "nonce": str,
         "token_hash": str, "created": str},
        pk="id",
        foreign_keys=[("crew_id", "crews", "id"), ("game_id", "games", "id"), ("night_id", "club_nights", "id")],
        not_null={"crew_id", "kind", "nonce", "token_hash", "created"},
    )
    db["links"].create_index(["token_hash"], unique=True)
    db["links"].create_index(["crew_id", "kind", "game_id", "night_id"])
