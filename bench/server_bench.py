"""How the server copes with a busy club night: phones following games and tables entering rounds.

Runs `orchard serve` (Granian, as an operator starts it) on a free 127.0.0.1 port with a fresh
database, then for a fixed time:
  * PHONES phones each follow a game, polling `GET .../live?v=N` every POLL seconds (204 while
    nothing changed, the scoreboard block when it did): half follow the tables' games (which change
    with every tap), half follow IDLE games where nobody is entering anything;
  * TABLES tables each enter and save rounds in their own game: start, bid, four targets, taps,
    the round page (for the save's version), save;
  * one probe fetches a static file (app.css, versioned and gzipped) from the same server: the floor.
It prints the latency of every kind of request (p50 / p95 / max, and p50 and p95 as a multiple of
the static floor's), every error, and whether every answered save is stored once with its scores.
Exit status 1 when anything failed.

    .venv/bin/python bench/server_bench.py [--seconds 30] [--phones 40] [--tables 10] [--idle 10]
                                           [--poll 3] [--tap-pause 0.25]
"""
import argparse
import random
import re
import sqlite3
from contextlib import closing
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import LIVE_VERSION, Phone, plan_scores
from serve import nearest_rank, served

KINDS = ("static", "live 204", "live 200", "start", "bid", "target", "tap", "round page", "save")
STATIC_URL = re.compile(r'href="(/static/app\.css\?v=[0-9a-f]+)"')


class Record:
    """Every answer's latency by kind, and everything that went wrong."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seconds = defaultdict(list)
        self.statuses = Counter()
        self.errors = []
        self.counting = threading.Event()  # set while the measured window is open

    def __call__(self, kind, answer):
        if kind == "live":
            kind = f"live {answer.status}"
        with self.lock:
            self.statuses[(kind, answer.status)] += 1
            if answer.status >= 500:
                self.errors.append(f"{answer.status} on {kind}: {answer.body[:200]}")
            if self.counting.is_set():
                self.seconds[kind].append(answer.seconds)

    def error(self, text):
        with self.lock:
            self.errors.append(text)


class Table(threading.Thread):
    """One table entering rounds into its own game, a pause between taps, until told to stop."""

    def __init__(self, base, record, stop, pause, index):
        super().__init__(daemon=True)
        self.phone = Phone(base, observer=record)
        self.game_url = self.phone.start_game(self.phone.start_crew(f"Table {index + 1}"))
        self.record, self.stop, self.pause = record, stop, pause
        self.answered, self.refused = [], []

    def run(self):
        while not self.stop.is_set():
            try:
                number, answer = self.phone.enter_round(self.game_url, pause=self.pause)
            except Exception as error:  # noqa: BLE001  (counted and printed)
                self.record.error(f"table {self.game_url}: {error!r}")
                return
            (self.answered if answer.status == 303 else self.refused).append((number, answer.status))
            if answer.status != 303:
                self.record.error(f"save of round {number} in {self.game_url} answered {answer.status}")


class Follower(threading.Thread):
    """One phone following a game: a live poll every `every` seconds, as the scoreboard does."""

    def __init__(self, base, record, stop, game_url, every, rng):
        super().__init__(daemon=True)
        self.phone = Phone(base, observer=record)
        self.record, self.stop, self.game_url, self.every = record, stop, game_url, every
        self.version = int(LIVE_VERSION.search(self.phone.get(game_url, kind="page").body).group(1))
        self.offset = rng.uniform(0, every)  # phones did not all open the page at the same instant

    def run(self):
        next_poll = time.monotonic() + self.offset
        while not self.stop.wait(max(next_poll - time.monotonic(), 0)):
            next_poll += self.every
            try:
                answer = self.phone.get(f"{self.game_url}/live?v={self.version}", kind="live")
            except Exception as error:  # noqa: BLE001
                self.record.error(f"poll {self.game_url}: {error!r}")
                return
            if answer.status == 200:
                self.version = int(LIVE_VERSION.search(answer.body).group(1))
            elif answer.status != 204:
                self.record.error(f"poll {self.game_url} answered {answer.status}")


class StaticProbe(threading.Thread):
    def __init__(self, base, record, stop, url, every=0.25):
        super().__init__(daemon=True)
        self.phone = Phone(base, observer=record)
        self.record, self.stop, self.url, self.every = record, stop, url, every

    def run(self):
        while not self.stop.wait(self.every):
            try:
                answer = self.phone.get(self.url, kind="static")
            except Exception as error:  # noqa: BLE001
                self.record.error(f"static: {error!r}")
                return
            if answer.status != 200:
                self.record.error(f"static answered {answer.status}")


def stored_rounds(database):
    """game id -> {number: scores} for 'scored' rounds, and (game, number) pairs stored twice."""
    found, doubled = defaultdict(dict), []
    with closing(sqlite3.connect(database)) as conn:
        for game_id, number, round_id in conn.execute(
                "SELECT game_id, number, id FROM rounds WHERE status = 'scored'"):
            if number in found[game_id]:
                doubled.append((game_id, number))
            found[game_id][number] = [s for (s,) in conn.execute(
                "SELECT score FROM hands WHERE round_id = ? ORDER BY seat", [round_id])]
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    return found, doubled, integrity


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time (default 30)")
    parser.add_argument("--phones", type=int, default=40, help="phones polling (default 40)")
    parser.add_argument("--tables", type=int, default=10, help="tables entering rounds (default 10)")
    parser.add_argument("--idle", type=int, default=10, help="idle games, one round saved (default 10)")
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between a phone's polls (default 3)")
    parser.add_argument("--tap-pause", type=float, default=0.25,
                        help="seconds a table waits before each target and tap (default 0.25; 0 = flat out)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="orchard-bench-") as folder:
        database = Path(folder) / "orchard.db"
        record, stop = Record(), threading.Event()
        with served(database, log=open(Path(folder) / "server.log", "wb"),
                    ORCHARD_CREW_LIMIT="10000 per hour") as server:  # one address
            tables = [Table(server.base, record, stop, args.tap_pause, i) for i in range(args.tables)]
            idle = []
            for i in range(args.idle):
                host = Phone(server.base)
                idle.append(host.start_game(host.start_crew(f"Quiet table {i + 1}")))
                host.enter_round(idle[-1])
            active = [table.game_url for table in tables]
            pools = [active, idle] if idle else [active]
            followed = []
            for i in range(args.phones):
                pool = pools[i % len(pools)]
                followed.append(pool[(i // len(pools)) % len(pool)])
            rng = random.Random(7)
            followers = [Follower(server.base, record, stop, url, args.poll, rng) for url in followed]
            static_url = STATIC_URL.search(Phone(server.base).get(tables[0].game_url).body).group(1)
            workers = [*tables, *followers, StaticProbe(server.base, record, stop, static_url)]
            record.counting.set()
            started = time.monotonic()
            for worker in workers:
                worker.start()
            time.sleep(args.seconds)
            stop.set()
            record.counting.clear()
            measured = time.monotonic() - started
            for worker in workers:
                worker.join(timeout=60)
            stuck = [w for w in workers if w.is_alive()]
        stored, doubled, integrity = stored_rounds(database)

    answered = {int(t.game_url.rsplit("/", 1)[1]): [n for n, _ in t.answered] for t in tables}
    answered.update({int(url.rsplit("/", 1)[1]): [1] for url in idle})
    lost = [(g, n) for g, numbers in answered.items() for n in numbers if n not in stored.get(g, {})]
    unanswered = [(g, n) for g, rounds in stored.items() for n in rounds if n not in answered.get(g, [])]
    wrong = [(g, n) for g, rounds in stored.items() for n, scores in rounds.items() if scores != plan_scores(n)]
    total_requests = sum(len(v) for v in record.seconds.values())

    print(f"Orchard server benchmark: Granian via `orchard serve` (default settings) on {server.base}")
    print(f"{args.phones} phones polling every {args.poll:g} s ({sum(url in active for url in followed)} follow "
          f"the tables' games, {sum(url in idle for url in followed)} follow {len(idle)} idle games); "
          f"{args.tables} tables entering rounds "
          f"({args.tap_pause:g} s before each target and tap); static floor: {static_url.split('?')[0]}")
    print(f"measured {measured:.1f} s: {total_requests} requests, {total_requests / measured:.1f} per second\n")
    floor = record.seconds.get("static") or [float("nan")]
    floor50, floor95 = nearest_rank(floor, 0.5), nearest_rank(floor, 0.95)
    print(f"{'kind':<11}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'p50 ×static':>13}{'p95 ×static':>13}")
    for kind in KINDS:
        values = record.seconds.get(kind)
        if not values:
            print(f"{kind:<11}{0:>7}")
            continue
        p50, p95 = nearest_rank(values, 0.5), nearest_rank(values, 0.95)
        print(f"{kind:<11}{len(values):>7}{p50 * 1000:>9.1f}{p95 * 1000:>9.1f}{max(values) * 1000:>9.1f}"
              f"{p50 / floor50:>13.2f}{p95 / floor95:>13.2f}")
    statuses = ", ".join(f"{kind} {status}: {n}" for (kind, status), n in sorted(record.statuses.items()))
    print(f"\nstatuses (set-up requests included): {statuses}")
    server_errors = sum(n for (kind, status), n in record.statuses.items() if status >= 500)
    saved = sum(len(v) for v in answered.values())
    print(f"errors: {len(record.errors)} (5xx answers: {server_errors}, workers stuck: {len(stuck)})")
    for line in record.errors[:20]:
        print(f"  {line}")
    print(f"rounds: {saved} saves answered 303, {sum(len(r) for r in stored.values())} stored as scored; "
          f"lost {len(lost)}, doubled {len(doubled)}, stored without an answer {len(unanswered)}, "
          f"wrong scores {len(wrong)}; integrity_check: {integrity}")
    ok = not (record.errors or stuck or lost or doubled or unanswered or wrong) and integrity == "ok" and saved > 0
    print("RESULT:", "PASS (zero errors, zero lost rounds)" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
