"""m0021: seasons (issue 47): a crew's ladder across its finished games and club nights between two
days, with its rule, the events left out of it by hand (and why), and its log."""
from . import migrations


@migrations()
def m0021_seasons(db):
    db["seasons"].create(
        {"id": int, "crew_id": int, "name": str, "first_day": str, "last_day": str, "best": int,
         "minimum": int, "created": str},
        pk="id", foreign_keys=[("crew_id", "crews", "id")],
        not_null={"crew_id", "name", "first_day", "minimum", "created"}, defaults={"minimum": 1},
    )
    db["seasons"].create_index(["crew_id"])
    # An event left out by hand: a game or a club night (exactly one of the two), and why.
    db["season_left_out"].create(
        {"id": int, "season_id": int, "game_id": int, "night_id": int, "reason": str, "at": str},
        pk="id", foreign_keys=[("season_id", "seasons", "id"), ("game_id", "games", "id"),
                               ("night_id", "club_nights", "id")],
        not_null={"season_id", "reason", "at"},
    )
    db["season_left_out"].create_index(["season_id", "game_id", "night_id"], unique=True)
    # The season's log: opened, a rule changed (with the standings before and after, as JSON lines
    # of place, name and average), an event left out or counted again.
    db["season_changes"].create(
        {"id": int, "season_id": int, "at": str, "action": str, "detail": str, "before": str, "after": str},
        pk="id", foreign_keys=[("season_id", "seasons", "id")], not_null={"season_id", "at", "action"},
    )
    db["season_changes"].create_index(["season_id"])
