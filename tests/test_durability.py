"""Rounds survive a killed server and a crowded table: real servers, real sockets, loopback only.

The crash test runs `orchard serve` as an operator does, streams round saves into it from several
phones, SIGKILLs it mid-stream and starts it again; every save that was answered must be there.
The concurrency test puts four phones on one round at once (and more tables beside it) against
waitress in a thread, and counts every tap and every saved round.
"""
import random
import sqlite3
from contextlib import closing
import threading
import time
from collections import Counter

import pytest

from app import create_app
from support.loopback import TOTALS, Phone, ServerProcess, in_a_thread, plan_scores, plan_taps

pytestmark = pytest.mark.crash

CRASH_CYCLES = 3
STREAMS = 3  # phones saving rounds into their own games at the same time
ANSWERED = range(200, 400)


def scored_rounds(database):
    """game id -> {number: [four scores]} for every counted round, and the numbers seen twice."""
    with closing(sqlite3.connect(database)) as conn:
        rows = conn.execute(
            "SELECT rounds.game_id, rounds.number, rounds.id FROM rounds WHERE status = 'scored'"
        ).fetchall()
        found, doubled = {}, []
        for game_id, number, round_id in rows:
            scores = [s for (s,) in conn.execute(
                "SELECT score FROM hands WHERE round_id = ? ORDER BY seat", [round_id])]
            if number in found.setdefault(game_id, {}):
                doubled.append((game_id, number))
            found[game_id][number] = scores
    return found, doubled


def check_database(database):
    with closing(sqlite3.connect(database)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


def game_id_of(game_url):
    return int(game_url.rsplit("/", 1)[1])


# --- Crash -------------------------------------------------------------------------------------

class Stream(threading.Thread):
    """One phone saving round after round into its own game until the server goes away."""

    def __init__(self, base, crew_url):
        super().__init__(daemon=True)
        self.phone = Phone(base, timeout=10)
        self.game_url = self.phone.start_game(crew_url)
        self.answered = []  # numbers whose save got a 2xx/3xx answer
        self.refused = []  # numbers whose save got any other answer: a failure unless explained
        self.failure = None

    def run(self):
        try:
            while True:
                number, answer = self.phone.enter_round(self.game_url)
                (self.answered if answer.status in ANSWERED else self.refused).append((number, answer.status))
        except OSError:  # ConnectionError: the server went away
            return  # the server was killed: the request in flight has no answer
        except Exception as error:  # noqa: BLE001  (reported by the test)
            self.failure = error


def test_answered_saves_survive_sigkill(tmp_path):
    database = tmp_path / "orchard.db"
    rng = random.Random(20241)
    expected = {}  # game id -> numbers whose save was answered
    with open(tmp_path / "server.log", "wb") as log:
        server = ServerProcess(database, log=log).start()
        try:
            crew_url = Phone(server.base).start_crew("Crash crew")
            for cycle in range(CRASH_CYCLES):
                streams = [Stream(server.base, crew_url) for _ in range(STREAMS)]
                for stream in streams:
                    stream.start()
                deadline = time.monotonic() + 20
                while sum(len(s.answered) for s in streams) < 2 * STREAMS and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(rng.uniform(0.05, 0.6))  # land the kill anywhere in a round
                server.kill()
                for stream in streams:
                    stream.join(timeout=15)
                    assert stream.failure is None, repr(stream.failure)
                    assert stream.refused == [], stream.refused
                    expected[game_id_of(stream.game_url)] = [n for n, _ in stream.answered]
                assert all(expected.values()), f"cycle {cycle}: a stream saved nothing before the kill"
                check_database(database)  # as SQLite recovers it, before the server touches it
                server = ServerProcess(database, log=log).start()
                check_database(database)
        finally:
            server.stop()
    stored, doubled = scored_rounds(database)
    assert doubled == []
    for game_id, answered in expected.items():
        numbers = sorted(stored.get(game_id, {}))
        # Every answered save is there; at most the one in flight at the kill landed as well.
        assert set(answered) <= set(numbers), (game_id, answered, numbers)
        assert numbers == list(range(1, len(numbers) + 1))
        assert len(numbers) - len(answered) in (0, 1)
        for number in numbers:
            assert stored[game_id][number] == plan_scores(number), (game_id, number)


def test_the_server_comes_back_with_the_totals_after_a_kill(tmp_path):
    """After a kill, the restarted server shows the stored rounds' totals on the scoreboard."""
    database = tmp_path / "orchard.db"
    server = ServerProcess(database).start()
    try:
        phone = Phone(server.base)
        game_url = phone.start_game(phone.start_crew())
        for _ in range(3):
            number, answer = phone.enter_round(game_url)
            assert answer.status == 303
        server.kill()
        server = ServerProcess(database).start()
        board = Phone(server.base).get(game_url).body
        totals = [sum(plan_scores(n)[seat] for n in (1, 2, 3)) for seat in range(4)]
        assert TOTALS.findall(board) == [str(total) for total in totals]
    finally:
        server.stop()


# --- Concurrency -------------------------------------------------------------------------------

@pytest.fixture
def served(tmp_path):
    """The app under waitress on a free loopback port (as in tests/browser): the base URL."""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "durability"})
    with in_a_thread(app, threads=8) as base:
        yield base, app.config["DATABASE"]


def together(jobs):
    """Run the callables at the same instant, one thread each; their results, errors re-raised."""
    start = threading.Barrier(len(jobs))
    results, errors = [None] * len(jobs), []

    def run(index, job):
        start.wait()
        try:
            results[index] = job()
        except Exception as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    if errors:
        raise errors[0]
    return results


class Statuses:
    """Every status any phone got, by kind of request."""

    def __init__(self):
        self.seen = Counter()
        self.lock = threading.Lock()

    def __call__(self, kind, answer):
        with self.lock:
            self.seen[(kind, answer.status)] += 1

    def server_errors(self):
        return {key: n for key, n in self.seen.items() if key[1] >= 500}


ROUNDS_AT_ONE_TABLE = 4


def test_four_phones_on_one_round_lose_no_tap_and_save_it_once(served):
    base, database = served
    statuses = Statuses()
    phones = [Phone(base, observer=statuses) for _ in range(4)]
    game_url = phones[0].start_game(phones[0].start_crew("Busy table"))
    for phone in phones:
        phone.get(game_url)
    stop_polling = threading.Event()

    def poll():
        watcher = Phone(base, observer=statuses)
        while not stop_polling.is_set():
            watcher.get(game_url + "/live?v=1", kind="live")
            time.sleep(0.05)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        for number in range(1, ROUNDS_AT_ONE_TABLE + 1):
            # Everyone taps "Start round" at once: one round opens, all land on it.
            opened = together([lambda p=p: p.open_round(game_url) for p in phones])
            assert {number_ for _, number_ in opened} == {number}
            url = opened[0][0]
            phones[0].post(url + "/bid", {"bidder": "1", "number": "2", "suit": "H"})
            together([lambda p=p, s=s, t=t: p.post(url + f"/hands/{s}/target", {"target": t})
                      for s, (p, t) in enumerate(zip(phones, ("4S", "2S", "3S", "5S")))])
            # The round's taps, dealt out to the four phones in turn, all sent at once: several
            # phones tap the same pile (one stored row) at the same moment.
            taps = plan_taps(number)
            random.Random(number).shuffle(taps)
            shares = [taps[i::4] for i in range(4)]
            answers = together([
                lambda p=p, share=share: [p.post(url + f"/hands/{s}/counts/{r}", {"count": str(n)}, kind="tap").status
                                          for s, r, n in share]
                for p, share in zip(phones, shares)
            ])
            assert all(status == 200 for statuses_ in answers for status in statuses_), answers
            fields = together([lambda p=p: p.save_fields(url) for p in phones])
            assert all(f == fields[0] for f in fields), fields
            saves = together([lambda p=p: p.post(url + "/save", fields[0], kind="save").status
                              for p in phones])
            assert sorted(saves) == [303, 409, 409, 409], saves
    finally:
        stop_polling.set()
        poller.join(timeout=5)
    assert statuses.server_errors() == {}
    stored, doubled = scored_rounds(database)
    assert doubled == []
    game = stored[game_id_of(game_url)]
    assert sorted(game) == list(range(1, ROUNDS_AT_ONE_TABLE + 1))
    for number, scores in game.items():
        assert scores == plan_scores(number), number  # no tap lost, none counted twice
    totals = [sum(plan_scores(n)[seat] for n in game) for seat in range(4)]
    assert TOTALS.findall(phones[1].get(game_url).body) == [str(total) for total in totals]


def test_many_tables_saving_at_once_all_keep_their_rounds(served):
    base, database = served
    statuses = Statuses()
    tables, rounds_each = 6, 3
    crew_url = Phone(base).start_crew("Club night")
    phones = [Phone(base, observer=statuses) for _ in range(tables)]
    games = [phone.start_game(crew_url) for phone in phones]

    def play(phone, game_url):
        return [phone.enter_round(game_url)[1].status for _ in range(rounds_each)]

    saves = together([lambda p=p, g=g: play(p, g) for p, g in zip(phones, games)])
    assert saves == [[303] * rounds_each] * tables
    assert statuses.server_errors() == {}
    stored, doubled = scored_rounds(database)
    assert doubled == []
    for game_url in games:
        game = stored[game_id_of(game_url)]
        assert {n: s for n, s in game.items()} == {n: plan_scores(n) for n in range(1, rounds_each + 1)}
