"""m0011: club nights, several tables of four stage after stage, and games cut to a number of hands."""
from . import migrations


@migrations()
def m0011_club_nights(db):
    """A club night in a crew: who is here, its stages, each stage's places (a table and seat, or
    sitting out), each table's game, and a log of the organiser's changes. A game gets its hand
    limit (a stage of N hands is a game that ends after N)."""
    db["games"].add_column("hand_limit", int)
    db["club_nights"].create(
        {"id": int, "crew_id": int, "name": str, "created": str, "format": str, "stage_hands": int,
         "ranking": str, "seed": int, "version": int},
        pk="id", foreign_keys=[("crew_id", "crews", "id")],
        not_null={"crew_id", "name", "created", "format", "ranking", "seed", "version"},
        defaults={"version": 1},
    )
    db["club_nights"].create_index(["crew_id", "created"])
    db["club_night_players"].create(
        {"night_id": int, "player_id": int, "here": int, "joined": str},
        pk=("night_id", "player_id"),
        foreign_keys=[("night_id", "club_nights", "id"), ("player_id", "players", "id")],
        not_null={"here", "joined"},
    )
    db["club_night_stages"].create(
        {"night_id": int, "number": int, "status": str, "drawn": str, "started": str},
        pk=("night_id", "number"), foreign_keys=[("night_id", "club_nights", "id")],
        not_null={"status", "drawn"},
    )
    # A player's place at a stage: a table and a seat, or both NULL when sitting the stage out.
    db["club_night_places"].create(
        {"night_id": int, "stage": int, "player_id": int, "table_no": int, "seat": int},
        pk=("night_id", "stage", "player_id"),
        foreign_keys=[("night_id", "club_nights", "id"), ("player_id", "players", "id")],
    )
    db.execute("CREATE UNIQUE INDEX idx_club_night_places_seat ON club_night_places"
               " (night_id, stage, table_no, seat) WHERE table_no IS NOT NULL")
    db["club_night_tables"].create(
        {"night_id": int, "stage": int, "table_no": int, "game_id": int},
        pk=("night_id", "stage", "table_no"),
        foreign_keys=[("night_id", "club_nights", "id"), ("game_id", "games", "id")],
        not_null={"game_id"},
    )
    db["club_night_tables"].create_index(["game_id"], unique=True)
    db["club_night_changes"].create(
        {"id": int, "night_id": int, "at": str, "action": str, "detail": str},
        pk="id", foreign_keys=[("night_id", "club_nights", "id")],
        not_null={"night_id", "at", "action", "detail"},
    )
    db["club_night_changes"].create_index(["night_id"])
