"""Keeping pages safe on the open internet: response headers, a limit on guessing crew links,
and the optional passphrase for starting crews."""
import hmac
from urllib.parse import urlsplit

from flask import abort, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from services.allowances import Allowances, counter_file
from services.refusals import Refused
from web.render import render_error

# Every form here is a few short fields; a restore upload is one crew's JSON export.
FORM_BODY_MAX = 256 * 1024
RESTORE_BODY_MAX = 64 * 1024 * 1024
RESTORE_ENDPOINT = "history.restore_create"

# Scripts and styles only from our own origin: no inline code, no eval (htmx is configured
# for that in base.html), and no framing. Crew tokens live in URLs, so no Referer ever.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)
CREW_PATHS = "/c/"
# Everything under a crew's link (its pages, their htmx answers and polls, its exports) is behind
# the link: no shared or back-button cache keeps it, and no search engine lists it.
CREW_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"}
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def add_security_headers(response):
    # One pass over the headers already set (a poll's 204 has almost none), not one per name.
    present = {name.lower() for name, _ in response.headers.items()}
    for name, value in HEADERS.items():
        if name.lower() not in present:
            response.headers.add(name, value)
    if request.path.startswith(CREW_PATHS):
        for name, value in CREW_HEADERS.items():
            response.headers[name] = value
    return response


def same_origin_path(url, fallback):
    """The path (and query) of `url` when it points into this site, else `fallback`: a link
    built from a header must never lead elsewhere."""
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or parts.netloc != request.host:
        return fallback
    path = "/" + parts.path.lstrip("/")  # never "//elsewhere", which a browser reads as a host
    return path + (f"?{parts.query}" if parts.query else "")


def limit_request_body():
    """Set this request's body limit before anything reads the body (CSRFProtect reads the
    form in its own before_request hook, registered after this one)."""
    if request.endpoint == RESTORE_ENDPOINT:
        request.max_content_length = RESTORE_BODY_MAX


def too_large(error):
    return render_error("errors/too_large.html", 413)


def refuse_json_bodies():
    """Every form here is a browser form; a JSON body is never one (and Flask-WTF would try
    to read it as the form)."""
    if request.method != "GET" and request.is_json:
        abort(415)



# Files that are the same for everyone reveal nothing about crews: no need to look at the count.
# A health probe is answered even from an address that used up its guesses.
UNGUARDED_ENDPOINTS = {"static", "static_files.htmx_js", "static_files.favicon", "static_files.robots",
                       "static_files.healthz"}


def _address():
    return address_of(request)


def address_of(request):
    """The address a request counts against (the visitor's, behind the trusted proxy)."""
    return request.remote_addr or "127.0.0.1"


def refuse_guessers(endpoint, values):
    """An address that got GUESS_LIMIT not-found answers this minute gets 429 for anything
    else this minute: before any view (or blueprint) looks a link up, so a valid link and a
    wrong one answer alike."""
    if endpoint in UNGUARDED_ENDPOINTS:
        return
    if not current_app.extensions["orchard_limits"].left("GUESS_LIMIT", current_app.config["GUESS_LIMIT"], _address()):
        abort(429)


def count_guesses(response):
    """Only answers that found nothing count towards the limit: phones polling a real crew
    every few seconds never run into it."""
    if response.status_code == 404:
        current_app.extensions["orchard_limits"].spend("GUESS_LIMIT", current_app.config["GUESS_LIMIT"], _address())
    return response


def passphrase_refusal(typed):
    """None when the server has no passphrase or `typed` is it; otherwise the `Refused` to say
    beside the passphrase field. Wrong passphrases are limited per address (PASSPHRASE_LIMIT);
    anything that is not text, such as a file posted in its place, counts as a wrong one."""
    passphrase = current_app.config.get("PASSPHRASE")
    if not passphrase:
        return None
    if not _allowance("PASSPHRASE_LIMIT", test_only=True):
        return Refused("Too many wrong passphrases from this address: wait a few minutes, then try again.", 429,
                       field="passphrase")
    typed = typed if isinstance(typed, str) else ""
    if hmac.compare_digest(typed.encode(), passphrase.encode()):
        return None
    _allowance("PASSPHRASE_LIMIT")
    return Refused("That is not this server's passphrase.", 403, field="passphrase")


def new_crew_allowed():
    """Whether this address may start one more crew now (CREW_LIMIT); a yes counts one."""
    return _allowance("CREW_LIMIT")


def reserve_new_crew():
    """A restore counts as a new crew from the moment it starts, so restores still running count
    against the address's allowance: a reservation (give it back with `release_new_crew` when the
    file is refused and starts no crew), or None when the allowance is used up."""
    allowances = current_app.extensions["orchard_limits"]
    return allowances.reserve("CREW_LIMIT", current_app.config["CREW_LIMIT"], _address())


def release_new_crew(reservation):
    allowances = current_app.extensions["orchard_limits"]
    allowances.release("CREW_LIMIT", current_app.config["CREW_LIMIT"], _address(), reservation)


TOO_MANY_CREWS = "This address has started many crews lately: wait a while before starting another."


def _allowance(setting, test_only=False):
    """Count one against this address's allowance named by a config setting ("10 per hour"),
    or only look; False once it is used up."""
    allowances = current_app.extensions["orchard_limits"]
    if test_only:
        return allowances.left(setting, current_app.config[setting], _address())
    return allowances.spend(setting, current_app.config[setting], _address())


def trust_proxy(app):
    """Behind ORCHARD_TRUSTED_PROXY, the app as a whole (`app.wsgi_app` with whatever wraps it
    already) sees the visitor's address: call it last."""
    if app.config["TRUSTED_PROXY"]:
        app.wsgi_app = TrustedProxy(app.wsgi_app, app.config["TRUSTED_PROXY"])


def too_many_guesses(error):
    return render_error("errors/too_many.html", 429)


def init_app(app):
    if app.config["MAX_CONTENT_LENGTH"] is None:  # Flask's default is no limit at all
        app.config["MAX_CONTENT_LENGTH"] = FORM_BODY_MAX
    # The counters every worker process on this database shares (/services/allowances.py).
    app.config.setdefault("LIMITS_DATABASE", counter_file(app.config["DATABASE"]))
    app.config.setdefault("PASSPHRASE_LIMIT", "10 per 10 minutes")
    app.after_request(add_security_headers)
    app.before_request(limit_request_body)
    app.before_request(refuse_json_bodies)
    # One counter per address across every page, so guessing many different links adds up.
    app.extensions["orchard_limits"] = Allowances(app, app.config["LIMITS_DATABASE"])
    app.url_value_preprocessor(refuse_guessers)
    app.after_request(count_guesses)
    app.register_error_handler(429, too_many_guesses)
    app.register_error_handler(413, too_large)


PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")


class TrustedProxy:
    """Behind a TLS proxy (ORCHARD_TRUSTED_PROXY, its address): its X-Forwarded-For, -Proto and
    -Host name the real visitor and scheme, so the guess limit counts each visitor and crew links
    say https://. Only a request from that address is believed; from anyone else the headers are
    dropped, so nobody can pose as someone else by sending them."""

    def __init__(self, wsgi_app, address):
        self.address = address
        self.plain = wsgi_app
        self.forwarded = ProxyFix(wsgi_app, x_for=1, x_proto=1, x_host=1)

    def __call__(self, environ, start_response):
        if environ.get("REMOTE_ADDR") == self.address:
            return self.forwarded(environ, start_response)
        for name in PROXY_HEADERS:
            environ.pop(name, None)
        return self.plain(environ, start_response)


def body_accepted(app):
    """`(path, method, length) -> bool`: whether the page at `path` takes a body of `length` bytes
    (a form's, or a restore upload's). Asked before the body is read."""
    urls = app.url_map.bind("localhost")

    def accepted(path, method, length):
        if length <= app.config["MAX_CONTENT_LENGTH"]:
            return True
        try:
            endpoint, _ = urls.match(path, method)
        except HTTPException:  # not found, another method, a redirect: no page takes this body
            return False
        return endpoint == RESTORE_ENDPOINT and length <= RESTORE_BODY_MAX

    return accepted
