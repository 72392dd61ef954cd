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
    """A live poll's first question, before any form, template or full load: is the game still at
    the version (`v`) the polling page shows? Notes the phone as still at the table on the way; a
    link without this game is a plain 404 (a guess)."""
    version = live_version_of(g.link, game_id, session.get("device"), board)
    if version is None:
        abort(404)
    return request.args.get("v", "") == str(version)


def live_version_of(link, game_id, device, board=False):
    """The version a live poll of `game_id` by `link` compares with (the scoreboard's with
    `board`), or None when the link holds no such game; notes `device` as still at the table. A
    route declared `@live_poll` (web/access.py) has its answer from the link's read; any other asks
    in one indexed read of its own."""
    polled = link.polled
    state = ...
    if polled is not None and (polled.game_id, polled.board) == (game_id, board):
        state = None if polled.version is None else (polled.version, polled.seen)
    return phones.live_version(link.crew["id"], game_id, device, board, state)
