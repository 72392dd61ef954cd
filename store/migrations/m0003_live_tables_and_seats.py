"""m0003: Live follow (a version per game), seats taken by phones, private entry and sign-off."""
from . import migrations


@migrations()
def m0003_live_tables_and_seats(db):
    """Live follow (a version per game), seats taken by phones, private entry and sign-off."""
    db["games"].add_column("version", int, not_null_default=1)
    db["seat_claims"].create(
        {"game_id": int, "seat": int, "device": str, "claimed": str, "seen": str},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"device", "claimed", "seen"},
    )
    # One seat per phone in a game.
    db["seat_claims"].create_index(["game_id", "device"], unique=True)
    db["hands"].add_column("entered_by", str)  # the device that last entered this hand
    db["hands"].add_column("done", str)  # when the hand was marked as all in
    db["round_changes"].add_column("by", str)  # who made the change, e.g. "Ann's phone"
    db["signoffs"].create(
        {"round_id": int, "seat": int, "device": str, "at": str},
        pk=("round_id", "seat"),
        foreign_keys=[("round_id", "rounds", "id")],
        not_null={"device", "at"},
    )
