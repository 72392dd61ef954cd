"""A phone talking to a real Orchard server over 127.0.0.1 (an httpx client): its own cookies,
the CSRF token the page hands out, gzip as browsers ask for it, no redirect following (a 303 is
an answer worth seeing), never a proxy. Also the server itself, run as an operator runs it
(`orchard serve`), and rounds whose scores are known."""
import html
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from waitress import create_server

REPO = Path(__file__).resolve().parents[2]
CSRF_HEADER = re.compile(r"""hx-headers='(\{[^']*\})'""")
VERSION_FIELD = re.compile(r'name="version" value="(\d+)"')
SINGLES_FIELD = re.compile(r'name="singles" value="(\d+)"')
LIVE_VERSION = re.compile(r'/live\?v=(\d+)')
ROUND_NUMBER = re.compile(r"/rounds/(\d+)$")
TOTALS = re.compile(r'<span class="total">([^<]+)</span>')
TARGETS = ("4S", "2S", "3S", "5S")


@dataclass
class Answer:
    status: int
    headers: object
    body: str
    seconds: float
    wire_bytes: int

    @property
    def location(self):
        return self.headers.get("Location") or self.headers.get("HX-Redirect")


# Ports for servers that bind a moment after they are chosen (`orchard serve` takes a second to
# start). A port the kernel picks for port 0 is free only for that moment: every in-thread test
# server binds port 0 (in_a_thread) and may take it first, answer the new server's readiness probe
# with its own 200, and stop, leaving the test nothing to talk to. (A fresh clone's run once failed
# so: "connection refused" right after the probe's 200.) So these come from below the range the
# kernel picks from, each test process (pytest-xdist's gwN, or a bench by its pid) from a block of
# its own, each port checked free before it is handed out.
BLOCK = 1000


def _port_blocks():
    """The first port and the number of blocks below the kernel's range for port 0."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    first = max(10000, low - 16 * BLOCK)
    return first, (low - first) // BLOCK


_PORTS = {"next": None}


def free_port():
    """A loopback port nobody is listening on, which no port-0 bind can take meanwhile."""
    first, blocks = _port_blocks()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if blocks == 0:  # no room below the kernel's range: its own pick, as before
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1]
    block = int(worker[2:]) % blocks if worker[2:].isdigit() else os.getpid() % blocks
    start = first + block * BLOCK
    if _PORTS["next"] is None or not start <= _PORTS["next"] < start + BLOCK:
        _PORTS["next"] = start + os.getpid() % BLOCK
    for _ in range(BLOCK):
        port = _PORTS["next"]
        _PORTS["next"] = start + (port + 1 - start) % BLOCK
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {start}–{start + BLOCK - 1}")


class Phone:
    """One browser: its session cookie and the CSRF token of the last page it loaded.

    `observer(kind, answer)`, when given, hears every answer (the benchmark times them by kind).
    A request the server does not answer (refused, reset, timed out) raises ConnectionError."""

    def __init__(self, base, timeout=30, observer=None):
        assert base.startswith("http://127.0.0.1:"), "loopback only"
        self.base = base
        self.observer = observer
        self.csrf = None
        # A connection a request (none kept alive), so a phone nobody closes leaves no socket open.
        self.client = httpx.Client(base_url=base, timeout=timeout, follow_redirects=False, trust_env=False,
                                   headers={"Accept-Encoding": "gzip"},  # as every phone's browser does
                                   limits=httpx.Limits(max_keepalive_connections=0))

    def request(self, method, path, data=None, headers=None, kind=None, files=None):
        headers = dict(headers or {})
        if method == "POST" and self.csrf:
            headers["X-CSRFToken"] = self.csrf
        started = time.perf_counter()
        try:
            response = self.client.request(method, path, data=data if method == "POST" else None,
                                           files=files, headers=headers)
        except httpx.TransportError as error:
            raise ConnectionError(f"no answer to {method} {path}: {error!r}") from error
        seconds = time.perf_counter() - started
        answer = Answer(response.status_code, response.headers, response.text, seconds,
                        response.num_bytes_downloaded)
        found = CSRF_HEADER.search(answer.body)
        if found:
            self.csrf = json.loads(html.unescape(found.group(1)))["X-CSRFToken"]
        if self.observer:
            self.observer(kind or method, answer)
        return answer

    def get(self, path, headers=None, kind=None):
        return self.request("GET", path, headers=headers, kind=kind)

    def post(self, path, data=None, headers=None, kind=None, files=None):
        return self.request("POST", path, data, headers, kind=kind, files=files)

    # Steps of a table, each checking the answer the app gives a healthy table ------------------
    def start_crew(self, name="Loopback crew"):
        if self.csrf is None:
            self.get("/")
        answer = self.post("/crews", {"name": name})
        _expect(answer, 303)
        return answer.location

    def start_game(self, crew_url, names=("Ann", "Ben", "Cleo", "Dan")):
        """A game that never ends (goal 100000), so rounds can be streamed into it."""
        if self.csrf is None:
            self.get(crew_url)
        data = {f"player_{seat}": name for seat, name in enumerate(names)}
        data.update(first_dealer="0", goal="other", goal_other="100000", tie_rule="play-on",
                    min_bid="1", redeal_moves_deal="no")
        answer = self.post(crew_url + "games", data)
        _expect(answer, 303)
        return answer.location

    def open_round(self, game_url):
        """Start the next round (or land on the one already open); its URL and number."""
        answer = self.post(game_url + "/rounds", kind="start")
        _expect(answer, 303)
        return answer.location, int(ROUND_NUMBER.search(answer.location).group(1))

    def round_version(self, round_url):
        answer = self.get(round_url, kind="round page")
        _expect(answer, 200)
        return int(VERSION_FIELD.search(answer.body).group(1))

    def save_fields(self, round_url):
        """What the round page's Save button sends: its version, and the "they are all singles" box
        ticked when the page shows one (quick entry left cards out)."""
        answer = self.get(round_url, kind="round page")
        _expect(answer, 200)
        fields = {"version": VERSION_FIELD.search(answer.body).group(1)}
        singles = SINGLES_FIELD.search(answer.body)
        if singles:
            fields["singles"] = singles.group(1)
        return fields

    def enter_round(self, game_url, pause=0.0):
        """Enter the next round by its plan (bid, four targets, taps) and save it.

        Returns (number, the save's answer); every step before the save must succeed."""
        url, number = self.open_round(game_url)
        _expect(self.post(url + "/bid", {"bidder": str(number % 4), "number": "2", "suit": "H"}, kind="bid"), 200)
        for seat, target in enumerate(TARGETS):
            time.sleep(pause)
            _expect(self.post(url + f"/hands/{seat}/target", {"target": target}, kind="target"), 200)
        for seat, rank, n in plan_taps(number):
            time.sleep(pause)
            _expect(self.post(url + f"/hands/{seat}/counts/{rank}", {"count": str(n)}, kind="tap"), 200)
        return number, self.post(url + "/save", self.save_fields(url), kind="save")


def _expect(answer, status):
    if answer.status != status:
        raise AssertionError(f"expected {status}, got {answer.status}: {answer.body[:300]}")


# Rounds whose scores are known ------------------------------------------------------------------

def plan_counts(number):
    """Rank counts per seat for round `number`: a different pile shape every round."""
    counts = [{}, {}, {}, {}]
    counts[number % 4] = {"K": 2, "Q": 2} if number % 2 else {"J": 3}
    counts[(number + 1) % 4] = {"A": 2} if number % 3 else {"9": 2, "6": 2}
    return counts


def plan_taps(number):
    """The round's taps: one per rank a pile holds, each saying how many (seat, rank, count)."""
    return [(seat, rank, n) for seat, pile in enumerate(plan_counts(number)) for rank, n in pile.items()]


def plan_scores(number):
    """What round `number` scores (the app must store exactly this), worked by hand from
    docs/RULES.md §2, not by the engine under test:
      the targets 4, 2, 3 and 5 are never in a pile, so each is a single and scores nothing;
      K K Q Q: a pair of Kings 10 + a pair of Queens 10 = 20; J J J: three Jacks, 2 x 10 = 20;
      A A: a pair of Aces, 15; 9 9 6 6: a pair of 9s 5 + a pair of 6s 5 = 10; an empty pile: 0."""
    scores = [0, 0, 0, 0]
    scores[number % 4] = 20  # K K Q Q (odd rounds) or J J J (even rounds): 20 either way
    scores[(number + 1) % 4] = 15 if number % 3 else 10  # A A, or 9 9 6 6 every third round
    return scores


# The server in this process, or as an operator runs it ---------------------------------------------

@contextmanager
def in_a_thread(app, threads=4, host="127.0.0.1"):
    """`app` under waitress in a thread of this process, on a free port of a loopback address
    (Linux routes all of 127/8 to lo): its base URL."""
    server = create_server(app, host=host, port=0, threads=threads)
    stop = threading.Event()

    def serve():
        # The loop closes the server itself: `server.close()` from another thread races with the
        # loop's select() over the same sockets (EBADF kills the loop; Pylons/waitress#468).
        try:
            while not stop.is_set():
                # poll(), not select(): a long test run holds file numbers past select()'s 1024
                server.asyncore.loop(timeout=0.05, map=server._map, count=1, use_poll=True)
        finally:
            server.close()
            for channel in list(server._map.values()):  # the connections still open go too
                channel.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.effective_port}"
    finally:
        stop.set()
        thread.join(timeout=5)


class ServerProcess:
    """`orchard serve` on a free loopback port with its own database."""

    def __init__(self, database, log=None, env=None):
        self.database = Path(database)
        self.env = env or {}
        self.port = free_port()
        self.log = log
        # Without a log file the server writes in its database's folder (a test's own; the nearest
        # one there is, if the server is to make it), and what it said is in the error if it exits
        # as it starts.
        folder = next(parent for parent in self.database.parents if parent.is_dir())
        self.output = folder / f"serve-{self.port}.log"
        self.process = None

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout=20):
        env = {**os.environ, "PORT": str(self.port), "HOST": "127.0.0.1",
               "ORCHARD_DATABASE": str(self.database), "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("ORCHARD_PASSPHRASE", None)
        env.pop("ORCHARD_PUBLIC_URL", None)
        with ExitStack() as files:
            output = self.log or files.enter_context(open(self.output, "ab"))
            self.process = subprocess.Popen([sys.executable, "-m", "cli", "serve"], cwd=REPO, env=env,
                                            stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        probe = Phone(self.base, timeout=2)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server on port {self.port} exited with {self.process.returncode}; "
                                   f"it said:\n{self.said()}")
            try:
                if probe.get("/").status == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not answer on {self.base} within {timeout} s; it said:\n{self.said()}")

    def said(self, limit=3000):
        """The end of what the server wrote (when no log file was given)."""
        if self.log is not None:
            return "(in the log file given)"
        return self.output.read_bytes()[-limit:].decode(errors="replace")

    def kill(self):
        """SIGKILL: no shutdown handler runs, nothing is flushed or committed on the way out."""
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
