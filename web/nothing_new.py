"""A game's live poll that finds nothing new, answered before Flask.

Polls are most of a table's traffic: every phone asks every few seconds whether its game moved
on, and nearly always it has not (at 300 tables, bench/load.py: 11,161 of 25,882 requests were
such a 204). Through Flask each one cost as much again as the question itself: a request context,
the hooks before and after the view, a response object, the session saved. This middleware
answers that one case itself, the same way Flask would (tests/test_nothing_new.py compares the
two), and asks the question with the same functions Flask's path does: the route and the kinds of
link it allows (`web.access`), the guess limit, the damage mark, the session and the version
(`web.viewer.live_version_of`).

Anything else goes on to Flask untouched, which answers it as before: a link not found, replaced
or not allowed there, a table link whose game is over, a game that moved on, a database known
damaged, an address out of guesses, a session whose expiry moves on today, a request with a body,
a club night's poll."""
from werkzeug.exceptions import HTTPException

from services import health
from services import links as link_service

from . import security
from .access import allowed_kinds, live_poll_of, refusal
from .assets import add_vary
from .quick import POLL_ENDING
from .sessions import moves_on_today
from .viewer import live_version_of

# What a 204 poll's answer varies on, as Flask's hooks add it: every answer on HX-Request
# (app.py), a text answer on Accept-Encoding (web/assets.py), a session read on Cookie.
VARY = ("HX-Request", "Accept-Encoding", "Cookie")


class NothingNew:
    """WSGI middleware around `app`'s own `wsgi_app`, inside any proxy fix (the address it
    counts guesses for is the visitor's)."""

    def __init__(self, app, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app
        self._urls = None
        answer = app.response_class(status=204)
        for name in VARY:
            add_vary(answer, name)
        answer.headers.extend(security.HEADERS)
        answer.headers.extend(security.CREW_HEADERS)
        self.headers = list(answer.headers.items())
        self.status = answer.status

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO", "").endswith(POLL_ENDING):
            with self.app.app_context():
                nothing_new = self._nothing_new(environ)
            if nothing_new:
                start_response(self.status, list(self.headers))
                return []
        return self.wsgi_app(environ, start_response)

    def _nothing_new(self, environ):
        """Whether this request is a game's live poll, by a link that may use it, whose game is
        still at the version the phone shows (and nothing else would change Flask's answer)."""
        if environ.get("CONTENT_LENGTH", "0") not in ("", "0") or environ.get("CONTENT_TYPE"):
            return False
        if self._urls is None:
            self._urls = self.app.url_map.bind("localhost")
        request = self.app.request_class(environ)  # the path and the query read as Flask reads them
        try:
            endpoint, values = self._urls.match(request.path, "GET")
        except HTTPException:
            return False
        board = live_poll_of(endpoint)
        if board not in (True, False) or "token" not in values or values.get("game_id") is None:
            return False
        config = self.app.config
        if health.damage(config["DATABASE"]):
            return False
        guesses = self.app.extensions["orchard_limits"]
        if not guesses.left("GUESS_LIMIT", config["GUESS_LIMIT"], security.address_of(request)):
            return False
        session = self.app.session_interface.open_session(self.app, request)
        if session is None or moves_on_today(session):
            return False
        device, game_id = session.get("device"), values["game_id"]
        link = link_service.resolve(values["token"], poll=(game_id, device, board))
        if link is None or refusal(link, allowed_kinds(endpoint), values, "GET") is not None:
            return False
        version = live_version_of(link, game_id, device, board)
        return version is not None and request.args.get("v", "") == str(version)
