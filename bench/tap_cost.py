"""What one tap, one save and one "nothing changed" poll cost in-process, against a Flask
hello-world in the same run, and how many SQL statements each sends to SQLite.

Everything goes through Flask's test client (no sockets), so the figures are the app's own work:
routing, hooks, forms, SQL, templates. The SQL statements are counted with
`sqlite3.Connection.set_trace_callback` on every connection the app opens (BEGIN and COMMIT
included). Prints each kind's median in milliseconds, its ratio to the hello-world request of the
same method, its statements, and the targets of issues 13 and 37; exits 1 when a target is missed.

    .venv/bin/python bench/tap_cost.py [--repeat 300] [--saves 150] [--show-sql]
"""
import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

import flask
import jinja2_fragments.flask as fragments

import store
import store.limits
import store
from app import create_app
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.table import Table

TARGETS = ("4S", "2S", "3S", "5S")
GAME_ROUNDS = 14  # the known game of the tests: 14 rounds to 250
BLOCK = 10  # calls timed one after another, each kind and its floor in turn
# kind: (largest ratio to hello-world, most SQL statements)
LIMITS = {"tap": (10, 10), "save": (15, None), "poll 204": (3, 2)}


class Statements:
    """Every statement any app connection runs (the database's and the guess counters'), while
    `on`. A trigger's statements are traced too: a statement that fires a trigger shows once
    more for each statement of the trigger."""

    def __init__(self):
        self.on = False
        self.seen = []

    def __call__(self, sql):
        if self.on:
            self.seen.append(sql)

    def install(self):
        connect = store.connect

        def traced(path):
            db = connect(path)
            db.conn.set_trace_callback(self)
            return db

        store.connect = traced
        open_counters = store.limits._connect

        def traced_counters(path):
            conn = open_counters(path)
            conn.set_trace_callback(self)
            return conn

        store.limits._connect = traced_counters

    def count(self, call):
        self.seen = []
        self.on = True
        try:
            call()
        finally:
            self.on = False
        return list(self.seen)


class Phases:
    """Where a request's time goes inside the app, summed over the calls made while `on`: Flask's
    hooks before the view, the view (templates apart), the templates (Flask's and jinja2-fragments'
    render signals), the hooks after it; the rest of a call is Werkzeug's request and response
    and the test client."""

    NAMES = ("hooks before", "view", "templates", "hooks after")

    def __init__(self, app):
        self.on, self.spent, self.started = False, dict.fromkeys(self.NAMES, 0.0), None
        for method, name in (("preprocess_request", "hooks before"), ("dispatch_request", "view"),
                             ("process_response", "hooks after")):
            setattr(app, method, self._timed(getattr(app, method), name))
        for before, after in ((flask.before_render_template, flask.template_rendered),
                              (fragments.before_render_template_blocks, fragments.template_blocks_rendered),
                              (fragments.before_render_template_block, fragments.template_block_rendered)):
            before.connect(self._render_starts, app, weak=False)
            after.connect(self._render_ends, app, weak=False)

    def _timed(self, call, name):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                if self.on:
                    self.spent[name] += time.perf_counter() - start
        return timed

    def _render_starts(self, sender, **extra):
        self.started = time.perf_counter()

    def _render_ends(self, sender, **extra):
        if self.on and self.started is not None:
            took = time.perf_counter() - self.started
            self.spent["templates"] += took
            self.spent["view"] -= took  # drawn inside the view
        self.started = None

    def measure(self, call, times):
        """Each phase's mean share of `call` in milliseconds, and the call's own mean."""
        self.spent = dict.fromkeys(self.NAMES, 0.0)
        self.on = True
        start = time.perf_counter()
        try:
            for _ in range(times):
                call()
        finally:
            self.on = False
        total = (time.perf_counter() - start) / times * 1000
        shares = {name: spent / times * 1000 for name, spent in self.spent.items()}
        return {**shares, "the rest": total - sum(shares.values()), "whole": total}


def median_ms(samples):
    return statistics.median(samples) * 1000


def paired(call, floor, repeat, before_block=None, block=BLOCK):
    """`call` and its hello-world `floor`, `repeat` times each, timed in alternating blocks of
    `block` calls: each kind runs warm, one call after another, and both see the machine in the
    same state. Its speed drifts from one second to the next on a shared box: timed in two
    separate phases, the ratio moved by 2× between runs. `before_block` runs untimed ahead of
    each block (it sets up what the block's calls use)."""
    samples, floors = [], []
    for turn in range(0, repeat, block):
        if before_block:
            before_block()
        for _ in range(min(block, repeat - turn)):
            start = time.perf_counter()
            floor()
            floors.append(time.perf_counter() - start)
        for _ in range(min(block, repeat - turn)):
            start = time.perf_counter()
            call()
            samples.append(time.perf_counter() - start)
    return samples, floors


def hello_client():
    hello = flask.Flask("hello")
    hello.add_url_rule("/", "get", lambda: "Hello, world!", methods=["GET"])
    hello.add_url_rule("/", "post", lambda: "Hello, world!", methods=["POST"])
    return hello.test_client()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--saves", type=int, default=150,
                        help="rounds saved (in blocks of 10 games, each taken to 14 rounds)")
    parser.add_argument("--show-sql", action="store_true")
    args = parser.parse_args(argv)
    statements = Statements()
    statements.install()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "orchard.db"), "SECRET_KEY": "bench",
                          "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        table = Table(client)
        table.start_game(goal="other", goal_other="100000")
        round_url = table.start_round()
        client.post(round_url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
        for seat, target in enumerate(TARGETS):
            client.post(round_url + f"/hands/{seat}/target", data={"target": target})
        counts = iter(range(10**9))

        def tap():
            response = client.post(round_url + "/hands/0/counts/7", data={"count": 1 + next(counts) % 2})
            assert response.status_code == 200, response.status_code

        live = {}

        def poll():
            response = client.get(round_url + f"/live?v={live['v']}&r={live['r']}")
            assert response.status_code == 204, response.status_code

        def fresh_poll():
            page = client.get(round_url).get_data(as_text=True)
            live["v"] = re.search(r"/live\?v=(\d+)", page).group(1)
            live["r"] = re.search(r"&amp;r=(\d+)", page).group(1)

        hello = hello_client()
        for _ in range(20):  # warm-up: templates compiled, connections open
            tap()
            hello.get("/")
            hello.post("/")

        # Saves are timed as everything else is: warm, a block of them one after another. Each
        # block saves one round in each of BLOCK games, entered just before (untimed); the games
        # go on round by round to a real game's length, since a save's work grows with the game's
        # saved rounds (in one game run to round 80, a save cost 28x instead of 19x).
        games = {"urls": [], "round": GAME_ROUNDS}  # the games saved in, and their last round
        unsaved = []  # (round URL, version): the rounds entered for the next block of saves

        def enter_block():
            if games["round"] == GAME_ROUNDS:
                games["urls"] = [table.start_game(goal="other", goal_other="100000") for _ in range(BLOCK)]
                games["round"] = 0
            games["round"] += 1
            for game_url in games["urls"]:
                table.game_url = game_url
                url = table.enter_quick_round(TARGETS, [{}, {}, {}, {}], save=False)
                unsaved.append((url, table.save_form(url)))  # what Save sends, the singles box ticked

        def save():
            url, fields = unsaved.pop(0)
            response = client.post(url + "/save", data=fields)
            assert response.status_code == 303, response.get_data(as_text=True)[:300]

        hello_get = lambda: hello.get("/")  # noqa: E731
        hello_post = lambda: hello.post("/", data={"count": "1"})  # noqa: E731
        # Each kind is timed in turn with its floor.
        results = {"tap": (*paired(tap, hello_post, args.repeat), "hello POST")}
        sql = {"tap": statements.count(tap)}
        fresh_poll()
        results["poll 204"] = (*paired(poll, hello_get, args.repeat), "hello GET")
        sql["poll 204"] = statements.count(poll)
        results["save"] = (*paired(save, hello_post, args.saves, before_block=enter_block),
                           "hello POST")
        enter_block()
        sql["save"] = statements.count(save)
        phases = Phases(app)
        spent = {"tap": phases.measure(tap, min(args.repeat, 100))}
        fresh_poll()
        spent["poll 204"] = phases.measure(poll, min(args.repeat, 100))
        unsaved.clear()
        enter_block()
        spent["save"] = phases.measure(save, BLOCK)

    failed = False
    print(f"{'request':<11} {'median ms':>9} {'floor ms':>9} {'× floor':>8} {'SQL':>4}   target")
    for kind, (samples, floor_samples, floor) in results.items():
        ratio = median_ms(samples) / median_ms(floor_samples)
        most_ratio, most_sql = LIMITS[kind]
        count = len(sql[kind])
        ok = ratio <= most_ratio and (most_sql is None or count <= most_sql)
        failed |= not ok
        target = f"≤ {most_ratio}× {floor}" + (f", ≤ {most_sql} SQL" if most_sql else "")
        print(f"{kind:<11} {median_ms(samples):>9.3f} {median_ms(floor_samples):>9.3f} {ratio:>7.1f}×"
              f" {count:>4}   {target}: {'ok' if ok else 'MISSED'}")
    print("\nWhere the time goes, mean ms a request: " + ", ".join(
        f"{kind} {parts['whole']:.2f} (" + ", ".join(f"{name} {ms:.2f}" for name, ms in parts.items()
                                                     if name != "whole") + ")" for kind, parts in spent.items()))
    if args.show_sql:
        for kind, seen in sql.items():
            print(f"\n{kind}: {len(seen)} statements")
            for text in seen:
                print("   ", " ".join(text.split())[:160])
    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
