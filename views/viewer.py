"""Who is looking: this phone's id, kept in its session cookie so a seat is remembered."""
import secrets

from flask import request, session

from store import games as game_store
from store import seats as seat_store
from table import phones


def device_id():
    """This browser's phone id, kept in its session cookie so a seat is remembered."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(16)
        session.permanent = True
    return session["device"]


def viewer_for(game):
    """This phone as the table sees it in `game`."""
    return phones.viewer_for(game, device_id())


def unchanged_since_shown(game_id):
    """Whether the game is still at the version (`v`) the polling page shows; notes the phone
    as still at the table on the way."""
    try:
        shown = int(request.args.get("v", ""))
    except ValueError:
        return False
    seat_store.note_seen(game_id, device_id())
    return game_store.game_version(game_id) == shown
