"""The session cookie, checked once per distinct cookie.

A phone sends the same signed cookie with every live poll (every 3 s) until its session changes.
Flask checks the cookie's signature and decodes it again each time (about 45 µs here), which is
more than a tenth of a 204 poll. `CheckedCookieSessions` is Flask's signed-cookie session that
keeps what the last few thousand cookies held once they passed the check, keyed by the whole
signed string, so only a cookie that passed is ever found there. A cookie found there is checked
for its age again (the session's lifetime), and its contents are decoded anew for each request,
so no two requests share a session object.
"""
import time
from collections import OrderedDict
from threading import Lock

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

CHECKED_COOKIES_KEPT = 4096  # per worker process: about 2 MB at most


class CheckedCookieSessions(SecureCookieSessionInterface):
    def __init__(self, kept=CHECKED_COOKIES_KEPT):
        self.kept = kept
        self._checked = OrderedDict()  # signed cookie -> (signed at, the session as JSON)
        self._lock = Lock()

    def open_session(self, app, request):
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        lifetime = int(app.permanent_session_lifetime.total_seconds())
        with self._lock:
            found = self._checked.get(cookie)
            if found is not None:
                self._checked.move_to_end(cookie)
        if found is None:
            try:
                data, signed_at = signer.loads(cookie, max_age=lifetime, return_timestamp=True)
            except BadSignature:  # a forged, damaged or expired cookie: a new, empty session
                return self.session_class()
            found = (signed_at.timestamp(), self.serializer.dumps(data))
            with self._lock:
                self._checked[cookie] = found
                while len(self._checked) > self.kept:
                    self._checked.popitem(last=False)
        elif time.time() - found[0] > lifetime:
            return self.session_class()
        return self.session_class(self.serializer.loads(found[1]))
