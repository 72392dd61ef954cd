"""htmx served from its installed package (never a CDN or a copied file), compressed once; the
service worker and its offline page; what every site is asked for: /favicon.ico, /robots.txt and
a health probe, /healthz."""
import gzip
import hashlib
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from flask import Blueprint, abort, current_app, make_response, render_template, url_for

from web.access import PUBLIC, allow
from services import health
from web.assets import ONE_YEAR, accepts_gzip

bp = Blueprint("static_files", __name__)

# django-htmx (requirements.txt) ships the htmx.org 2.0.x release file as htmx-2.min.js. Its own
# version is not htmx's, so the address carries the version written inside the file.
_HTMX_FILE = resources.files("django_htmx") / "static" / "django_htmx" / "htmx-2.min.js"
HTMX_VERSION = re.search(rb'version:"([0-9][0-9.]*)"', _HTMX_FILE.read_bytes())[1].decode()


@bp.get("/vendor/htmx-<version>.min.js")
@allow(PUBLIC)
def htmx_js(version):
    # The version in the URL makes the long cache safe: an upgrade changes the address.
    if version != HTMX_VERSION:
        abort(404)
    # Compressed once, not on every request (the after-request gzip leaves it alone).
    response = make_response(_htmx_gzip() if accepts_gzip() else _htmx_bytes())
    response.mimetype = "text/javascript"
    if accepts_gzip():
        response.headers["Content-Encoding"] = "gzip"
    response.cache_control.public = True
    response.cache_control.max_age = ONE_YEAR
    response.cache_control.immutable = True
    return response


@lru_cache(maxsize=1)
def _htmx_bytes():
    return _HTMX_FILE.read_bytes()


@lru_cache(maxsize=1)
def _htmx_gzip():
    return gzip.compress(_htmx_bytes(), compresslevel=9, mtime=0)


@bp.app_template_global()
def htmx_url():
    return url_for("static_files.htmx_js", version=HTMX_VERSION)


# The service worker, served from the root so that its scope covers every page. It is filled in
# with the versioned addresses of the app shell; its own address never changes, so it is always
# revalidated (a new release installs a new worker, which drops the old shell).
SHELL_FILES = ("app.css", "app.js", "local-time.js", "stage-clock.js", "share.js", "sw-register.js", "tools.css",
               "history.css", "icon.svg", "icon-192.png", "icon-512.png", "manifest.webmanifest")


@bp.get("/sw.js")
@allow(PUBLIC)
def service_worker():
    offline = url_for("static_files.offline_page")
    shell = [url_for("static", filename=name) for name in SHELL_FILES] + [htmx_url(), offline]
    version = hashlib.sha256(" ".join(shell).encode()).hexdigest()[:12]
    source = (Path(current_app.static_folder) / "sw.js").read_text(encoding="utf-8")
    source = (source.replace("__SHELL__", json.dumps(shell)).replace("__OFFLINE__", json.dumps(offline))
              .replace("__VERSION__", json.dumps(version)))
    response = make_response(source)
    response.mimetype = "text/javascript"
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
@allow(PUBLIC)
def offline_page():
    """What the service worker shows for a page while the phone has no connection."""
    return render_template("offline.html")


# Browsers ask for /favicon.ico whatever a page links; crawlers read /robots.txt first. Both are
# the same for everyone, so asking for them is never counted as guessing a crew's link.
ONE_DAY = 24 * 60 * 60
ROBOTS = "User-agent: *\n# Crew pages are private to whoever has the link.\nDisallow: /c/\n"


@bp.get("/favicon.ico")
@allow(PUBLIC)
def favicon():
    """The app's icon (a PNG, which every browser takes at this address)."""
    response = make_response(_favicon_bytes())
    response.mimetype = "image/png"
    response.cache_control.public = True
    response.cache_control.max_age = ONE_DAY
    return response


@lru_cache(maxsize=1)
def _favicon_bytes():
    return (Path(current_app.static_folder) / "icon-192.png").read_bytes()


@bp.get("/robots.txt")
@allow(PUBLIC)
def robots():
    response = make_response(ROBOTS)
    response.mimetype = "text/plain"
    response.cache_control.public = True
    response.cache_control.max_age = ONE_DAY
    return response


@bp.get("/healthz")
@allow(PUBLIC)
def healthz():
    """200 "ok" when the database answers a read of its crews, else 503: for an uptime probe."""
    trouble = health.database_trouble()
    if trouble:
        current_app.logger.error("Health probe: the database does not answer (%s)", trouble)
        # What kind of trouble, not SQLite's words: those go to the log.
        said = "the database is damaged" if trouble.startswith("the database is damaged") else "the database does not answer"
        response = make_response(said + "\n", 503)
    else:
        response = make_response("ok\n")
    response.mimetype = "text/plain"
    response.cache_control.no_store = True
    return response
