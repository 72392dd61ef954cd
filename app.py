"""Orchard: the score keeper for Apples. `create_app()` builds the Flask app (the composition root:
blueprints, error pages, template filters); `orchard serve` serves it (cli/serving.py)."""
import errno
import os
import re
import sqlite3
from datetime import date, timedelta
from pathlib import Path

from flask import Flask, abort, g, render_template, request, session, url_for
from flask.templating import Environment
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from markupsafe import Markup, escape
from werkzeug.exceptions import InternalServerError
from werkzeug.routing import IntegerConverter

import settings
import store
from services import server_key
from services.refusals import Refused
from store.integrity import only_an_index, stray_journal
from scoring import PLAYERS
from services import health
from web.colours import game_colours
from web import (access, assets, club_nights, crews, door, filters, games, history, rounds, seasons, seat_repair,
                 security, stage_clock, static_files, tools)
from web.render import render_error
from web.nothing_new import NothingNew
from web.sessions import CheckedCookieSessions, moves_on_today

# Orchard's version: the newest entry of CHANGELOG.md (tests/test_version.py holds them together).
__version__ = "2.0.0"

csrf = CSRFProtect()


CREW_LINK = re.compile(r"/c/[^/]+")


class TemplateEnvironment(Environment):
    """Flask's Jinja environment, with each template's globals in one plain dict (Jinja's is a
    ChainMap over the environment's). Jinja copies a template's globals into every context it
    makes and compares them at every `{% from ... import %}`; through a ChainMap that was a fifth
    of a tap's rendering. Jinja asks for no global to change once a template is loaded: every one
    here is set in `create_app`, before any page is drawn."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}


class Orchard(Flask):
    jinja_environment = TemplateEnvironment

    def log_exception(self, exc_info):
        """Flask's error log line, without the crew link in the path (the link is the key)."""
        path = CREW_LINK.sub("/c/<link>", request.path)
        self.logger.error(f"Exception on {path} [{request.method}]", exc_info=exc_info)


class BoundedInt(IntegerConverter):
    """Flask's int converter, limited to what SQLite can store."""

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def csrf_field():
    """The CSRF token as a hidden input without an id, so a page can hold many forms (made once a
    request: the token is the same for all of them)."""
    field = g.get("csrf_field")
    if field is None:
        field = g.csrf_field = Markup(f'<input type="hidden" name="csrf_token" value="{escape(generate_csrf())}">')
    return field


def database_path(environ=None):
    return str(Path(settings.read("ORCHARD_DATABASE", environ)).absolute())


def _read_only(folder):
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def cannot_start(error, database):
    """The one sentence `orchard serve` stops with when the database cannot be opened and checked."""
    journal = stray_journal(database)
    if journal:
        return (f"Orchard cannot start: {journal} is a whole database file (a backup saved under that name, "
                f"perhaps), and SQLite takes a file of that name for the unfinished journal of {database} "
                f"({error}): move it to another name or folder and start again. Nothing was changed.")
    if (isinstance(error, OSError) and error.errno == errno.EROFS) or _read_only(database.parent):
        return (f"Orchard cannot start: the database {database} is on a read-only file system ({error}); "
                "Orchard writes beside it (the database, its journal, the backups): mount it read-write or "
                "point ORCHARD_DATABASE at a folder that can be written.")
    if isinstance(error, PermissionError) or "readonly database" in str(error):
        return (f"Orchard cannot start: the database {database} or its folder may not be written by this "
                f"user ({error}); give it write access, or point ORCHARD_DATABASE elsewhere.")
    # SQLite's own words: a copy's or the check's error carries them as its detail (the error's
    # own sentence would repeat this one inside it).
    detail = getattr(error, "detail", None) or error
    if only_an_index(str(detail)):
        return (f"Orchard cannot start: an index of the database {database} is damaged ({detail}); the rows "
                "themselves read whole, so rebuilding the indexes mends it: with Orchard stopped, run "
                f"python3 -c \"import sqlite3; sqlite3.connect('{database}').execute('REINDEX')\" and start again.")
    backups = database.parent / "backups"
    copies = sorted(backups.glob(f"{database.stem}-*.db")) if backups.is_dir() else []
    if not copies:
        return (f"Orchard cannot start: the database {database} is damaged or unreadable ({detail}); "
                f"there are no daily copies in {backups}: move the damaged file aside (SQLite's .recover "
                "command may save some of what it holds) and start again.")
    return (f"Orchard cannot start: the database {database} is damaged or unreadable ({detail}); "
            f"the daily copies in {backups} are untouched: move the damaged file aside and copy the newest "
            f"of them ({copies[-1].name}) in its place.")


def create_app(test_config=None):
    """Build the app; test_config overrides the settings (DATABASE, SECRET_KEY, ...)."""
    database = database_path()
    app = Orchard(__name__, instance_path=str(Path(database).parent))
    app.config.from_mapping(
        DATABASE=database,
        # A phone left on the table all evening must still be able to save.
        WTF_CSRF_TIME_LIMIT=int(timedelta(days=7).total_seconds()),
        # Over https Flask-WTF would also demand a same-site Referer, but our pages send none
        # (Referrer-Policy: no-referrer keeps crew links private): the token and the SameSite
        # cookie are the check.
        WTF_CSRF_SSL_STRICT=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=90),
        # The cookie is re-sent only when the session changes (at most daily, see below), not
        # with every answer and static file.
        SESSION_REFRESH_EACH_REQUEST=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=settings.read("ORCHARD_SECURE_COOKIES"),
        PASSPHRASE=settings.read("ORCHARD_PASSPHRASE"),
        # Share links and QR codes point here when set (e.g. https://orchard.example.org).
        PUBLIC_URL=settings.read("ORCHARD_PUBLIC_URL"),
        # The address `orchard serve` printed at start, for share links opened as localhost.
        LAN_URL=None,
        GUESS_LIMIT=settings.read("ORCHARD_GUESS_LIMIT"),
        CREW_LIMIT=settings.read("ORCHARD_CREW_LIMIT"),
        TRUSTED_PROXY=settings.read("ORCHARD_TRUSTED_PROXY"),
        # Seconds between a live page's polls (the browser tests poll faster, to wait less).
        POLL_SECONDS=3,
        # How long a finished hand's target and score stay in view before the next hand opens.
        MOVE_ON_SECONDS=1.2,
    )
    if test_config:
        app.config.update(test_config)
    Path(app.config["DATABASE"]).parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    app.session_interface = CheckedCookieSessions()

    store.init_app(app)
    if not app.config.get("SECRET_KEY"):  # kept in the database, so a backup keeps every link working
        app.config["SECRET_KEY"] = server_key.load(app.config["DATABASE"])
    @app.url_value_preprocessor
    def refuse_a_damaged_file(endpoint, values):
        """Once the file is known damaged, no page reads it or writes into it: asked first, before a
        link in the address is looked up (a wrong one too is the damage page, not a 404)."""
        if endpoint not in security.UNGUARDED_ENDPOINTS and health.damage(app.config["DATABASE"]):
            abort(render_error("errors/damaged.html", 503))

    security.init_app(app)
    access.init_app(app)
    assets.init_app(app)
    csrf.init_app(app)
    # Ids in URLs fit SQLite's integers: a longer number is simply not found.
    app.url_map.converters["int"] = BoundedInt
    for blueprint in (static_files.bp, crews.bp, games.bp, rounds.bp, tools.bp, history.bp, club_nights.bp,
                      door.bp, seasons.bp, seat_repair.bp, stage_clock.bp):
        app.register_blueprint(blueprint)
    # A game's poll that finds nothing new is answered before Flask (web/nothing_new.py), inside
    # the proxy fix, so that the guesses it looks at are the visitor's.
    app.wsgi_app = NothingNew(app, app.wsgi_app)
    security.trust_proxy(app)

    @app.errorhandler(CSRFError)
    def csrf_expired(error):
        """A stale or missing token: a friendly page that offers a reload, never a bare 400. It says
        why by Flask-WTF's reason: only an expired token was "open for a long time"."""
        back = security.same_origin_path(
            request.headers.get("HX-Current-URL") or request.referrer, url_for("crews.home"))
        why = ("expired" if "expired" in error.description
               else "no-cookie" if "session token is missing" in error.description else "mismatch")
        app.logger.info("Form refused by its security token: %s", error.description)
        return render_error("errors/expired.html", 400, back=back, why=why)

    @app.errorhandler(sqlite3.OperationalError)
    def storage_fault(error):
        """A full disk (or a write that waited too long for the lock) is the server's trouble,
        not the visitor's: say so, and that nothing was saved, instead of a bare 500."""
        message = str(error)
        if "disk is full" in message or "database is locked" in message:
            app.logger.error("Storage fault on %s: %s", CREW_LINK.sub("/c/<link>", request.path), message)
            return render_error("errors/storage.html", 503, full="full" in message)
        raise error

    @app.errorhandler(sqlite3.DatabaseError)
    def damaged_file(error):
        """A page that found the file damaged on the disk (confirmed by reading it through): 503,
        for this request and every later one of this process, and the probe fails alike."""
        found = health.confirmed_damage(error)
        if not found:
            raise error
        app.logger.error("The database %s is damaged (%s): every page answers 503", app.config["DATABASE"], found)
        return render_error("errors/damaged.html", 503)

    @app.errorhandler(InternalServerError)
    def unexpected_fault(error):
        """Any other failure: when the file turns out damaged (a damaged row can fail as anything),
        the damage page and 503, as for SQLite's own complaint; else the plain 500."""
        original = getattr(error, "original_exception", None)
        if original is not None and health.confirmed_damage(original, any_error=True):
            app.logger.error("The database %s is damaged: every page answers 503", app.config["DATABASE"])
            return render_error("errors/damaged.html", 503)
        return error

    @app.errorhandler(404)
    def not_found(error):
        return render_template("errors/not_found.html"), 404

    @app.errorhandler(410)
    def replaced(error):
        return render_error("errors/replaced.html", 410)

    @app.errorhandler(Refused)
    def refused(error):
        """A service's refusal that its page did not place beside a control: its sentence and its
        status (a 4xx, never a 500), on a page of its own, or in the page's main part for htmx."""
        back = security.same_origin_path(request.referrer, None)
        return render_error("errors/refused.html", error.status, sentence=error.sentence, back=back)

    @app.before_request
    def keep_session_alive():
        """Move a kept session's expiry on once a day, so a crew in use never loses it."""
        if request.endpoint not in (None, "static", "static_files.htmx_js") and moves_on_today(session):
            session["day"] = date.today().isoformat()

    @app.after_request
    def vary_on_htmx(response):
        # Every answer: a page and its htmx fragment share a URL (views need not say it).
        assets.add_vary(response, "HX-Request")
        return response

    filters.init_app(app)
    # The game's own sizes, for templates (never typed into them).
    app.add_template_global(PLAYERS, "seats")
    app.add_template_global(csrf_field)
    app.add_template_global(game_colours)

    @app.context_processor
    def htmx_context():
        return {"is_htmx": request.headers.get("HX-Request") == "true",
                "poll_every": f"every {app.config['POLL_SECONDS']}s",
                "move_on_ms": round(app.config["MOVE_ON_SECONDS"] * 1000)}

    return app

