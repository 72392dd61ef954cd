"""A club night's door (issue 44, item 3): a player scans the door code, picks their name from the
crew's players or types a new one, and is on tonight's list for the next draw; that phone is theirs
for the night (the night's board follows them, services/night_follow.py). The door link can do that
and nothing else. The organiser sees each arrival on the night's page and can undo it."""
from dataclasses import dataclass

from scoring import club_night
from scoring import names as name_rule
from store import club_nights as night_store
from store import door as door_store
from store import write
from store.crews import LookAlike

from .club_nights import log_has_room, still_open
from .refusals import Refused

ADDED, BACK, HERE = door_store.ADDED, door_store.BACK, door_store.HERE


@dataclass(frozen=True)
class CheckedIn:
    name: str
    did: str  # ADDED to tonight's list, brought BACK, or found HERE already


def checked_in_as(night, device):
    """The name this phone checked in as at the night's door, or None."""
    found = door_store.of_device(night["id"], device) if device else None
    if found is None:
        return None
    return next((player["name"] for player in night["players"] if player["id"] == found["player_id"]), None)


def arrivals(night):
    """{player id: when they checked in at the door} for the players still on tonight's list."""
    on_list = {player["id"] for player in night["players"]}
    return {player_id: at for player_id, (at, _) in door_store.of_night(night["id"]).items() if player_id in on_list}


@log_has_room
def check_in(night, device, name):
    """Check this phone in as `name` (a crew player's, or new to the crew): on tonight's list from
    the next draw. One phone is one player's: a second name from the same phone is refused."""
    if not device:
        raise Refused("This phone keeps no cookie, so it cannot check in: allow cookies and scan again.", 400,
                      field="name")
    name = name_rule.clean(name)
    if not name:
        raise Refused("Enter your name, or tap it in the list.", 422, field="name")
    if name_rule.problem(name):
        raise Refused(name_rule.problem(name), 422, field="name")
    try:
        with write() as db:
            still_open(db, night, "name")
            found = night_store.night(night["crew_id"], night["id"], db)  # read inside the write
            mine = door_store.of_device(night["id"], device, db)
            listed = {name_rule.key(player["name"]): player for player in found["players"]}
            player = listed.get(name_rule.key(name))
            if mine is not None:
                if player is not None and player["id"] == mine["player_id"]:
                    return CheckedIn(player["name"], HERE)
                checked = next((p["name"] for p in found["players"] if p["id"] == mine["player_id"]), "someone")
                raise Refused(f"This phone checked in as {checked} tonight. Someone else checks in on their own "
                              "phone, or the organiser adds them.", field="name")
            if player is not None and player["here"]:
                did, player_id = HERE, player["id"]
            elif player is not None:
                did, player_id = BACK, player["id"]
                night_store.set_here(db, night["id"], player_id, True)
                night_store.log_again(db, night["id"], ("back", "left"), "players", players=[player_id])
            else:
                if len(found["players"]) >= club_night.MAX_PLAYERS:
                    raise Refused(f"Tonight's list is full: a night seats at most {club_night.MAX_PLAYERS} players.",
                                  field="name")
                if door_store.arrivals_logged(db, night["id"]) >= club_night.MAX_DOOR_ARRIVALS:
                    raise Refused(f"The door has added {club_night.MAX_DOOR_ARRIVALS} new names tonight, as many as "
                                  "it may: ask the organiser to add you.", field="name")
                did, player_id = ADDED, night_store.add_player(db, night["crew_id"], night["id"], name)
                night_store.log(db, night["id"], "door", players=[player_id])
            door_store.check_in(db, night["id"], device, player_id, did)
            night_store.bump(db, night["id"])
    except LookAlike as alike:
        raise Refused(alike.sentence(), 422, field="name") from None
    return CheckedIn(player["name"] if player else name, did)


@log_has_room
def undo(night, player_id):
    """The organiser undoes a player's check-in: tonight's list as it was before it (a new arrival
    off the list, one brought back gone again), and their phone no longer theirs. Only until the
    next draw: once a stage was drawn with them, "Leaves" is the way. Returns the name, and whether
    they are still on tonight's list."""
    names = {player["id"]: player["name"] for player in night["players"]}
    field = f"here-{player_id}"
    if player_id not in names:
        raise Refused("That player is not on tonight's list.", 404)
    with write() as db:
        still_open(db, night, field)
        checked = door_store.of_night(night["id"], db).get(player_id)
        if checked is None:
            raise Refused(f"{names[player_id]} did not check in at the door.", field=field)
        did = door_store.undo(db, night["id"], player_id)
        if did != HERE and door_store.drawn_since(db, night["id"], checked[0]):
            raise Refused(f"A stage was drawn since {names[player_id]} checked in: if they are not here, tap Leaves.",
                          field=field)
        # The log stays bounded: an arrival's undo is one line each (arrivals are), one brought back
        # and out again is counted on the line "left"/"back" keeps, and a phone freed is no change.
        if did == ADDED:
            door_store.leave_night(db, night["id"], player_id)
            night_store.log(db, night["id"], "door undone", players=[player_id])
        elif did == BACK:
            night_store.set_here(db, night["id"], player_id, False)
            night_store.log_again(db, night["id"], ("left", "back"), "players", players=[player_id])
        night_store.bump(db, night["id"])
    return names[player_id], did != ADDED


def undoable(night, stages):
    """The players whose check-in the organiser may undo now: checked in since the last draw."""
    drawn = max((stage["drawn"] for stage in stages), default="")
    return {player_id for player_id, at in arrivals(night).items() if at > drawn}
