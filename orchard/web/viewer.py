"""Who is looking: this phone's id, kept in its session cookie so a seat is remembered."""
import secrets

from flask import abort, request, session

from orchard.store import crews as crew_store
from orchard.store import games as game_store
from orchard.store import seats as seat_store
from orchard.services import phones


def device_id():
    """This browser's phone id, kept in its session cookie so a seat is remembered."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(16)
        session.permanent = True
    return session["device"]


def viewer_for(game):
    """This phone as the table sees it in `game`."""
    return phones.viewer_for(game, device_id())


def poll_unchanged(token, game_id, board=False):
    """A live poll's first question, in one indexed read and before any form, template or full
    load: is the game still at the version (`v`) the polling page shows? Notes the phone as
    still at the table on the way; a link without this game is a plain 404 (a guess)."""
    device = session.get("device")
    state = game_store.live_state(crew_store.token_hash(token), game_id, device, board)
    if state is None:
        abort(404)
    version, seen = state
    if device is not None:
        seat_store.note_seen(game_id, device, seen)
    return request.args.get("v", "") == str(version)
