"""m0019: a club night's door code (issue 44, item 3). A phone that checks in at the door is that
player's for the night: the night's board follows them as it follows a phone that took a seat."""
from . import migrations


@migrations()
def m0019_door_check_ins(db):
    """One row a phone a night: the player it checked in as, when, and what the check-in did to
    tonight's list ('added' a new arrival, brought one 'back', or found them 'here' already), so
    the organiser's undo puts the list back as it was."""
    db["door_check_ins"].create(
        {"night_id": int, "device": str, "player_id": int, "at": str, "did": str},
        pk=("night_id", "device"),
        foreign_keys=[("night_id", "club_nights", "id"), ("player_id", "players", "id")],
        not_null={"player_id", "at", "did"},
    )
    db["door_check_ins"].create_index(["night_id", "player_id"])
