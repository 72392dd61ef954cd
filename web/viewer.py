"""Who is looking: this phone's id, kept in its session cookie so a seat is remembered."""
import secrets

from flask import abort, g, request, session

from services import phones


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
    version = phones.live_version(g.link.crew["id"], game_id, session.get("device"), board)
    if version is None:
        abort(404)
    return request.args.get("v", "") == str(version)
