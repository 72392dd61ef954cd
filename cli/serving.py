"""Serving Orchard: `orchard serve` runs the app under Granian with the settings read here.

Granian answers HTTP in Rust (hyper), and body_first.py hands the Flask app only a whole request
(its body read on Granian's event loop, within a time limit), so open and idle connections and
slow bodies cost no thread. ORCHARD_WORKERS processes share the port (each with
ORCHARD_THREADS threads running the app) and one SQLite file in WAL mode; the guess limits are
counted in a file they share. Why Granian and not waitress: docs/performance.md, "Why Granian, not waitress".
"""
import os
import signal
from pathlib import Path

import settings

# The read buffer that holds a request's line and headers: far more than any phone sends. Headers
# that do not fit are refused (431); measured, 100 KB of headers pass and 300 KB are refused.
MAX_HEADER_BYTES = 64 * 1024
# Connections waiting to be accepted: phones that all reconnect at once (a server restart) wait.
BACKLOG = 2048
# Files a process needs besides its connections: the database, its WAL and index, the guess
# counters, logs, the listening socket.
SPARE_FILES = 64
# The address `orchard serve` printed at start, handed to the worker processes that build the app.
LAN_URL_VARIABLE = "ORCHARD_LAN_URL"


def serve_settings(environ=None):
    """The server's settings (/settings.py: PORT, HOST, ORCHARD_WORKERS, ...), as serving
    needs them; one that cannot be read stops the start with one clear sentence."""
    try:
        numbers = {name: settings.read(name, environ) for name in (
            "PORT", "ORCHARD_WORKERS", "ORCHARD_THREADS", "ORCHARD_CONNECTION_LIMIT", "ORCHARD_CHANNEL_TIMEOUT",
            "ORCHARD_BODIES_PER_ADDRESS")}
        host = settings.read("HOST", environ)
    except settings.SettingError as error:
        raise SystemExit(str(error)) from None
    workers = numbers["ORCHARD_WORKERS"]
    return {
        "host": host,
        "port": numbers["PORT"],
        "workers": workers,
        "threads": numbers["ORCHARD_THREADS"],
        "connection_limit": numbers["ORCHARD_CONNECTION_LIMIT"],
        # Granian counts connections per process; the kernel spreads them over the processes.
        "connections_per_worker": -(-numbers["ORCHARD_CONNECTION_LIMIT"] // workers),
        "channel_timeout": numbers["ORCHARD_CHANNEL_TIMEOUT"],
        "bodies_per_address": numbers["ORCHARD_BODIES_PER_ADDRESS"],
    }


def open_files_for(connection_limit):
    """Raise this process's limit of open files (up to the hard limit the system allows) to fit
    `connection_limit` connections; a limit that cannot fit them stops the start with a sentence."""
    import resource

    needed = connection_limit + SPARE_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise SystemExit(
                f"ORCHARD_CONNECTION_LIMIT {connection_limit} needs {needed} open files, and this system "
                f"allows a process {hard}: lower ORCHARD_CONNECTION_LIMIT or raise the limit (ulimit -Hn).")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def claim_port(host, port):
    """Stop the start with a sentence when something already listens on the port. Granian's workers
    share their port with any other program that asks to (SO_REUSEPORT), so a second Orchard
    started on the same port would otherwise take half of the first one's phones, silently."""
    import socket

    try:
        socket.create_server((host, port)).close()
    except OSError as error:
        raise SystemExit(f"Orchard cannot start: port {port} is already in use ({error.strerror}); "
                         "stop the other server or set PORT to a free port.") from None


def worker_app():
    """The app as each worker process builds it (Granian's factory), with the daily backups taken
    by one of the workers. A worker ends with the first process, even one that was killed outright
    (Linux: parent-death signal)."""
    from app import create_app
    from cli.body_first import BodyFirst
    from web.quick import quick_pages
    from web.security import body_accepted
    import store
    from store.backup import start_daily_backups
    from store.checkpoints import checkpoint_in_background
    from store.limits import SharedBodies, limits_path

    _end_with_parent()
    application = create_app()
    application.config["LAN_URL"] = os.environ.get(LAN_URL_VARIABLE) or None
    start_daily_backups(application.config["DATABASE"])  # in one worker of however many
    checkpoint_in_background(application.config["DATABASE"])  # in each worker
    served = serve_settings()
    return BodyFirst(application, served["threads"], body_accepted(application),
                     grace=served["channel_timeout"], multiprocess=served["workers"] > 1,
                     per_address=served["bodies_per_address"], trusted_proxy=application.config["TRUSTED_PROXY"],
                     bodies=SharedBodies(limits_path(application.config["DATABASE"])),
                     quick=quick_pages(application), disk=store)


def _end_with_parent():
    parent = os.environ.get("ORCHARD_SERVER_PID")
    try:
        import ctypes

        # SIGKILL, not SIGTERM: a worker still starting has no handler yet that would stop it.
        # An orderly stop never needs it (the first process stops its workers before it ends).
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the first process stops its workers itself
        return
    if parent and os.getppid() != int(parent):  # the first process died before the line above
        os._exit(1)


def serve(settings, lan_url=None):
    """Serve `worker_app` under Granian until SIGTERM or SIGINT (then in-flight requests finish)."""
    from granian import Granian
    from granian.constants import Interfaces, Loops, TaskImpl
    from granian.http import HTTP1Settings

    os.environ["ORCHARD_SERVER_PID"] = str(os.getpid())
    if lan_url:
        os.environ[LAN_URL_VARIABLE] = lan_url
    Granian(
        # RSGI, not WSGI: body_first.py reads each body before the app takes a thread.
        "cli.serving:worker_app", factory=True, interface=Interfaces.RSGI, loop=Loops.asyncio,
        # asyncio's tasks, not Granian's Rust ones: body_first.read_body's deadlines cancel the
        # request's task, which a Rust task ignores.
        task_impl=TaskImpl.asyncio,
        working_dir=Path.cwd(),
        address=settings["host"], port=settings["port"],
        workers=settings["workers"],
        backlog=BACKLOG, backpressure=settings["connections_per_worker"],
        http="1",
        http1_settings=HTTP1Settings(header_read_timeout=settings["channel_timeout"] * 1000,
                                     max_buffer_size=MAX_HEADER_BYTES),
        websockets=False,
        log_level="warning",
    ).serve()


def run():
    """`orchard serve`: check the settings, the port and the database, take the day's backup, say
    where to point the phones, and serve until stopped."""
    import sqlite3

    from app import cannot_start, create_app, database_path
    from store.backup import BackupError, rolling_backup
    from store.integrity import check_file, clear_damage_mark
    from web.share_links import server_address, startup_message

    os.umask(0o077)  # whatever the server writes (database, backups, key) is the owner's alone
    served = serve_settings()
    open_files_for(served["connection_limit"])
    claim_port(served["host"], served["port"])
    try:
        if Path(database_path()).exists():  # read through before anything is written into it
            check_file(database_path())
            clear_damage_mark(database_path())  # found whole: a mark left from before is past
        application = create_app()
        rolling_backup(application.config["DATABASE"])
    except settings.SettingError as error:
        raise SystemExit(str(error)) from None
    except (sqlite3.DatabaseError, OSError, BackupError) as error:
        raise SystemExit(cannot_start(error, Path(database_path()))) from None
    address = server_address(served["host"], served["port"])
    print(startup_message(address, application.config["PUBLIC_URL"]), flush=True)
    del application  # each worker process builds its own
    serve(served, lan_url=None if address.this_device_only else address.url)
