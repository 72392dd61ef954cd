"""ORCHARD_WORKERS: several server processes on one port and one SQLite file, as the README
describes for using every core."""
import subprocess
import threading
import time
from pathlib import Path

import pytest

from support.loopback import Phone, ServerProcess

# Real `orchard serve` processes and their timeouts: in `make test`, not in `make check`.
pytestmark = pytest.mark.served


def test_two_worker_processes_serve_one_database_and_share_the_guess_limit(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db", env={"ORCHARD_WORKERS": "2"}).start()
    try:
        # The first process starts two workers; the first one up may answer before the other is
        # there (seen once in a fresh clone's run, under load): give it 20 s.
        deadline = time.monotonic() + 20
        while True:
            children = subprocess.run(["ps", "--ppid", str(server.process.pid), "-o", "pid="],
                                      capture_output=True, text=True).stdout.split()
            if len(children) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert len(children) == 2
        games, failures = [], []

        def table(n):
            try:
                phone = Phone(server.base, timeout=30)
                game = phone.start_game(phone.start_crew(f"Table {n}"))
                number, answer = phone.enter_round(game)
                assert (number, answer.status) == (1, 303)
                games.append(game)
            except Exception as error:  # noqa: BLE001 (reported below)
                failures.append(repr(error))

        threads = [threading.Thread(target=table, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == [] and len(games) == 8
        reader = Phone(server.base)
        for game in games:
            assert "Start round 2" in reader.get(game).body
        # Every request opens a new connection, which either process may accept: the 31st
        # not-found answer within the minute is refused whichever process counts it.
        guesser = Phone(server.base)
        statuses = [guesser.get(f"/c/guess-{n}/").status for n in range(31)]
        assert statuses[:30] == [404] * 30 and statuses[30] == 429
    finally:
        server.stop()
    # The workers end with the first process.
    assert _ended(children)


def _ended(pids, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            return True
        time.sleep(0.1)
    return False


def test_workers_end_when_the_first_process_is_killed_outright(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db", env={"ORCHARD_WORKERS": "2"}).start()
    children = subprocess.run(["ps", "--ppid", str(server.process.pid), "-o", "pid="],
                              capture_output=True, text=True).stdout.split()
    assert len(children) == 2
    server.kill()  # SIGKILL: no shutdown handler runs in the first process
    assert _ended(children)
    # Nothing answers on the port any more: a restarted server would not share it with orphans.
    with pytest.raises(OSError):
        Phone(server.base, timeout=2).get("/")
