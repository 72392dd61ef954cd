"""htmx served from its installed package (never a CDN or a copied file), compressed once."""
import gzip
from functools import lru_cache
from importlib import metadata, resources

from flask import Blueprint, abort, make_response, url_for

from assets import ONE_YEAR, accepts_gzip

bp = Blueprint("static_files", __name__)

HTMX_VERSION = metadata.version("django-js-lib-htmx")
_HTMX_DIR = resources.files("js_lib_htmx") / "static" / "htmx"


@bp.get("/vendor/htmx-<version>.min.js")
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
    return (_HTMX_DIR / "htmx.min.js").read_bytes()


@lru_cache(maxsize=1)
def _htmx_gzip():
    return gzip.compress(_htmx_bytes(), compresslevel=9, mtime=0)


@bp.app_template_global()
def htmx_url():
    return url_for("static_files.htmx_js", version=HTMX_VERSION)
