"""The session cookie, checked once per distinct cookie.

A phone sends the same signed cookie with every live poll (every 3 s) until its session changes.
Flask checks the cookie's signature and decodes it again each time (about 45 µs here), which is
more than a tenth of a 204 poll. `CheckedCookieSessions` is Flask's signed-cookie session that
keeps what the last few thousand cookies held once they passed the check, keyed by the whole
signed string, so only a cookie that passed is ever found there. A cookie found there is checked
for its age again (the session's lifetime), and its contents are decoded anew for each request,
so no two requests share a session object. The signing serializer is made once per set of keys,
not twice per request (making one serializes an empty dict to learn its type).
"""
import time
from collections import OrderedDict
from datetime import date
from threading import Lock

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from web.assets import add_vary

CHECKED_COOKIES_KEPT = 4096  # per worker process: about 2 MB at most


class CheckedCookieSessions(SecureCookieSessionInterface):
    def __init__(self, kept=CHECKED_COOKIES_KEPT):
        self.kept = kept
        # (signing serializer, signed cookie) -> (signed at, the session as JSON): a cookie checked
        # under other keys is checked again.
        self._checked = OrderedDict()
        self._lock = Lock()
        self._signers = {}  # (secret key, fallback keys) -> its signing serializer

    def get_signing_serializer(self, app):
        """Flask's serializer for the app's keys, made once per set of keys (a changed key or
        fallback list gets its own)."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        signer = self._signers.get(keys)
        if signer is None:
            signer = self._signers[keys] = super().get_signing_serializer(app)
        return signer

    def save_session(self, app, session, response):
        """Flask's, with the common case first: a session read but not changed writes no cookie
        and only adds `Cookie` to `Vary` (without Flask's parse and rewrite of the header)."""
        if session and not self.should_set_cookie(app, session):
            if session.accessed:
                add_vary(response, "Cookie")
            return
        super().save_session(app, session, response)

    def open_session(self, app, request):
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        lifetime = int(app.permanent_session_lifetime.total_seconds())
        kept_as = (id(signer), cookie)
        with self._lock:
            found = self._checked.get(kept_as)
            if found is not None:
                self._checked.move_to_end(kept_as)
        if found is None:
            try:
                data, signed_at = signer.loads(cookie, max_age=lifetime, return_timestamp=True)
            except BadSignature:  # a forged, damaged or expired cookie: a new, empty session
                return self.session_class()
            found = (signed_at.timestamp(), self.serializer.dumps(data))
            with self._lock:
                self._checked[kept_as] = found
                while len(self._checked) > self.kept:
                    self._checked.popitem(last=False)
        elif time.time() - found[0] > lifetime:
            return self.session_class()
        return self.session_class(self.serializer.loads(found[1]))


def moves_on_today(session):
    """Whether a kept session's expiry is moved on by this request: once a day (app.py), so a crew
    in use never loses it. Such a request answers with a new cookie."""
    return session.permanent and session.get("day") != date.today().isoformat()
