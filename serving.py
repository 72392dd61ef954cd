"""Serving Orchard: `python app.py` runs the app under Granian with the settings read here.

Granian answers HTTP in Rust (hyper), and body_first.py hands the Flask app only a whole request
(its body read on Granian's event loop, within a time limit), so open and idle connections and
slow bodies cost no thread. ORCHARD_WORKERS processes share the port (each with
ORCHARD_THREADS threads running the app) and one SQLite file in WAL mode; the guess limits are
counted in a file they share. Why Granian and not waitress: README, "Serving many tables".
"""
import os
import signal
from pathlib import Path

# What a start without settings gets; every one is a whole number above 0.
#   ORCHARD_WORKERS: processes running the app; one per core uses every core.
#   ORCHARD_THREADS: threads per process running the app. One process runs Python on one core at
#     a time, so threads only help while a request waits (on the database's write lock, on a
#     restore's child process); more of them cost CPU in handing Python's lock between them
#     (bench/load.py, 150 tables: 117 % of a core with 1 thread, 127 % with 2, 141 % with 4).
#     Two keep a process answering while one request waits on a restore.
#   ORCHARD_CONNECTION_LIMIT: connections held open at once, over all processes. A phone keeps
#     one open between polls (keep-alive): 2,000 holds 1,000 phones with a second connection
#     each. Connections beyond it wait in the kernel's queue; they are not refused.
#   ORCHARD_CHANNEL_TIMEOUT: seconds a connection may take to send a request's headers, and
#     again to send its body (plus a second per 64 KB the body declares), else 408.
def cores():
    """The processor cores this process may run on (a container or `taskset` may allow fewer than
    the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


SERVE_DEFAULTS = {
    "ORCHARD_WORKERS": cores(),  # one process per core: every core serves tables
    "ORCHARD_THREADS": 2,
    "ORCHARD_CONNECTION_LIMIT": 2000,
    "ORCHARD_CHANNEL_TIMEOUT": 20,
}
# The read buffer that holds a request's line and headers: far more than any phone sends. Headers
# that do not fit are refused (431); measured, 100 KB of headers pass and 300 KB are refused.
MAX_HEADER_BYTES = 64 * 1024
# Connections waiting to be accepted: phones that all reconnect at once (a server restart) wait.
BACKLOG = 2048
# Files a process needs besides its connections: the database, its WAL and index, the guess
# counters, logs, the listening socket.
SPARE_FILES = 64
# The address `python app.py` printed at start, handed to the worker processes that build the app.
LAN_URL_VARIABLE = "ORCHARD_LAN_URL"


def serve_settings(environ):
    """The server's settings from the environment (PORT, HOST, ORCHARD_*), with safe defaults; a
    setting that is not a whole number above 0 stops the start with one clear sentence."""
    numbers = {}
    for name, default in {"PORT": 5000, **SERVE_DEFAULTS}.items():
        raw = environ.get(name, str(default)).strip()
        if not raw.isdigit() or int(raw) < 1:
            raise SystemExit(f"{name} must be a whole number above 0, not {raw[:40]!r}.")
        numbers[name] = int(raw)
    workers = numbers["ORCHARD_WORKERS"]
    return {
        "host": environ.get("HOST", "0.0.0.0"),
        "port": numbers["PORT"],
        "workers": workers,
        "threads": numbers["ORCHARD_THREADS"],
        "connection_limit": numbers["ORCHARD_CONNECTION_LIMIT"],
        # Granian counts connections per process; the kernel spreads them over the processes.
        "connections_per_worker": -(-numbers["ORCHARD_CONNECTION_LIMIT"] // workers),
        "channel_timeout": numbers["ORCHARD_CHANNEL_TIMEOUT"],
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
    from body_first import BodyFirst
    from security import body_accepted
    from store.backup import start_daily_backups

    _end_with_parent()
    application = create_app()
    application.config["LAN_URL"] = os.environ.get(LAN_URL_VARIABLE) or None
    start_daily_backups(application.config["DATABASE"])  # in one worker of however many
    settings = serve_settings(os.environ)
    return BodyFirst(application, settings["threads"], body_accepted(application),
                     grace=settings["channel_timeout"], multiprocess=settings["workers"] > 1)


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
    from granian.constants import Interfaces, Loops
    from granian.http import HTTP1Settings

    os.environ["ORCHARD_SERVER_PID"] = str(os.getpid())
    if lan_url:
        os.environ[LAN_URL_VARIABLE] = lan_url
    Granian(
        # RSGI, not WSGI: body_first.py reads each body before the app takes a thread.
        "serving:worker_app", factory=True, interface=Interfaces.RSGI, loop=Loops.asyncio,
        working_dir=Path(__file__).resolve().parent,
        address=settings["host"], port=settings["port"],
        workers=settings["workers"],
        backlog=BACKLOG, backpressure=settings["connections_per_worker"],
        http="1",
        http1_settings=HTTP1Settings(header_read_timeout=settings["channel_timeout"] * 1000,
                                     max_buffer_size=MAX_HEADER_BYTES),
        websockets=False,
        log_level="warning",
    ).serve()
