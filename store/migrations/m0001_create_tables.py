"""m0001: The first tables: crews, players, games, seats, rounds, hands and their changes."""
from . import migrations


@migrations()
def m0001_create_tables(db):
    db["crews"].create(
        {"id": int, "name": str, "token": str, "created": str},
        pk="id",
        not_null={"name", "token", "created"},
    )
    db["crews"].create_index(["token"], unique=True)

    db["players"].create(
        {"id": int, "crew_id": int, "name": str, "created": str},
        pk="id",
        foreign_keys=[("crew_id", "crews", "id")],
        not_null={"crew_id", "name", "created"},
    )
    # Names are unique in a crew whatever their letter case.
    db.execute(
        "CREATE UNIQUE INDEX idx_players_crew_name ON players (crew_id, name COLLATE NOCASE)"
    )

    db["games"].create(
        {
            "id": int,
            "crew_id": int,
            "created": str,
            "finished": str,
            "goal": int,
            "first_dealer": int,
            "status": str,  # playing / finished / abandoned
            "winner_seats": str,  # comma-separated seats, a cache of the engine's verdict
            "rematch_of": int,
        },
        pk="id",
        foreign_keys=[("crew_id", "crews", "id"), ("rematch_of", "games", "id")],
        not_null={"crew_id", "created", "goal", "first_dealer", "status"},
    )
    db["games"].create_index(["crew_id", "created"])

    db["seats"].create(
        {"game_id": int, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
        not_null={"player_id"},
    )
    db["seats"].create_index(["player_id"])

    # A row per revision of a round: a correction is a new revision, so nothing is lost.
    db["rounds"].create(
        {
            "id": int,
            "game_id": int,
            "number": int,
            "revision": int,
            "status": str,  # entering / scored / replaced / deleted / discarded
            "mode": str,  # quick / exact
            "dealer": int,
            "redeals": int,
            "bid_seat": int,
            "bid_number": int,
            "bid_suit": str,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "number", "revision", "status", "mode", "dealer", "version"},
        defaults={"redeals": 0, "version": 1},
    )
    db["rounds"].create_index(["game_id", "number", "revision"], unique=True)
    # At most one saved and one open revision per round number.
    db.execute(
        "CREATE UNIQUE INDEX idx_rounds_scored ON rounds (game_id, number) WHERE status = 'scored'"
    )
    db.execute(
        "CREATE UNIQUE INDEX idx_rounds_entering ON rounds (game_id, number)"
        " WHERE status = 'entering'"
    )

    db["hands"].create(
        {
            "round_id": int,
            "seat": int,
            "target": str,  # card code, e.g. 10S
            "won": str,  # exact mode: card codes separated by spaces
            "counts": str,  # quick mode: JSON object rank -> count
            "score": int,  # cache of the engine's score, set when the round is saved
        },
        pk=("round_id", "seat"),
        foreign_keys=[("round_id", "rounds", "id")],
    )

    db["round_changes"].create(
        {
            "id": int,
            "round_id": int,
            "at": str,
            "action": str,  # started / saved / corrected / deleted / restored / discarded / redeal
            "detail": str,
        },
        pk="id",
        foreign_keys=[("round_id", "rounds", "id")],
        not_null={"round_id", "at", "action"},
    )
    db["round_changes"].create_index(["round_id"])
