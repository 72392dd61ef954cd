"""A phone follows its player through a club night (issue 44, item 1): once it took a seat at one of
the night's tables, or checked in at its door (services/door.py), the night's board tells it where that player sits in the latest stage, with
the table to open; no code to scan again."""
from dataclasses import dataclass

from store import club_nights as night_store


@dataclass(frozen=True)
class MyTable:
    name: str  # the player's
    stage: int  # the night's latest stage
    state: str  # "playing" (their table's game is on), "away" (they left tonight's list), "done" (their
    # table ended), "drawn" (the stage is not started), "out" (they sit this stage out), "waiting" (on the
    # list, and no stage drawn since they came: checked in at the door, or added late)
    table_no: int | None = None
    seat: int | None = None  # 0-based, clockwise from who deals first
    game_id: int | None = None


def my_table(night, stages, device):
    """Where the player this phone sat for stands in the night's latest stage, or None (the phone
    never sat at one of its tables, or the night is over). `stages`: the night's stages, or a
    function that reads them (only for a phone that sat)."""
    player_id = night_store.player_of_device(night["id"], device) if device else None
    if player_id is None or night["finished"]:
        return None
    name = next((player["name"] for player in night["players"] if player["id"] == player_id), None)
    if name is None:  # a check-in at the door undone: they are off tonight's list
        return None
    stages = stages() if callable(stages) else stages
    if not stages:
        return MyTable(name, 0, "waiting")
    stage = stages[-1]
    tables = sorted(stage["tables"].items())
    for table_no, table in tables:
        if player_id in table["players"] and table["status"] == "playing":
            return MyTable(name, stage["number"], "playing", table_no, table["players"].index(player_id), table["game_id"])
    if not next(player["here"] for player in night["players"] if player["id"] == player_id):
        return MyTable(name, stage["number"], "away")
    if any(player_id in table["players"] for _, table in tables):
        return MyTable(name, stage["number"], "done")
    place = next((place for place in stage["places"] if place["player_id"] == player_id), None)
    if place is None:  # on the list since this stage was drawn
        return MyTable(name, stage["number"], "waiting")
    if stage["status"] == "planned" and place["table_no"] is not None:  # not drawn to sit out
        return MyTable(name, stage["number"], "drawn", place["table_no"], place["seat"])
    return MyTable(name, stage["number"], "out")
