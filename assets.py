"""Serving text cheaply: versioned static URLs with long-lived caching, and gzip for text."""
import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

from flask import request

ONE_YEAR = 365 * 24 * 3600
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml",
                "application/manifest+json")
MIN_SIZE = 500


@lru_cache(maxsize=None)
def _fingerprint(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def init_app(app):
    @app.url_defaults
    def version_static_urls(endpoint, values):
        # The file's hash in its URL: a changed file gets a new address, so caching can be forever.
        if endpoint == "static" and "filename" in values and "v" not in values:
            path = Path(app.static_folder) / values["filename"]
            if path.is_file():
                values["v"] = _fingerprint(str(path))

    @app.after_request
    def cache_and_compress(response):
        if request.endpoint == "static" and request.args.get("v"):
            response.cache_control.no_cache = None  # send_file's default would force revalidation
            response.cache_control.public = True
            response.cache_control.max_age = ONE_YEAR
            response.cache_control.immutable = True
        return gzip_response(response)


def add_vary(response, name):
    """Add `name` to the response's Vary header (as `response.vary.add` does, without parsing
    the header into a set and writing it back on every answer)."""
    current = response.headers.get("Vary")
    if not current:
        response.headers["Vary"] = name
    elif name.lower() not in {part.strip().lower() for part in current.split(",")}:
        response.headers["Vary"] = f"{current}, {name}"


def accepts_gzip():
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def gzip_response(response):
    """Compress a text response when the client accepts gzip."""
    add_vary(response, "Accept-Encoding")
    if (
        not accepts_gzip()
        or response.status_code < 200
        or response.status_code in (204, 304)
        or "Content-Encoding" in response.headers
        or not (response.mimetype or "").startswith(COMPRESSIBLE)
    ):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response
