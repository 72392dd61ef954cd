"""htmx served from its installed package (never a CDN or a copied file), and the web app manifest."""
from importlib import metadata, resources

from flask import Blueprint, abort, send_file, url_for

bp = Blueprint("static_files", __name__)

HTMX_VERSION = metadata.version("django-js-lib-htmx")
_HTMX_DIR = resources.files("js_lib_htmx") / "static" / "htmx"
ONE_YEAR = 365 * 24 * 3600


@bp.get("/vendor/htmx-<version>.min.js")
def htmx_js(version):
    # The version in the URL makes the long cache safe: an upgrade changes the address.
    if version != HTMX_VERSION:
        abort(404)
    with resources.as_file(_HTMX_DIR / "htmx.min.js") as path:
        return send_file(path, mimetype="text/javascript", max_age=ONE_YEAR)


@bp.app_template_global()
def htmx_url():
    return url_for("static_files.htmx_js", version=HTMX_VERSION)
