"""Does drawing a club night's stage stall other crews' saves? (issue 38.4)

Starts `orchard serve` (as bench/load.py does: Granian, ORCHARD_WORKERS processes, a fresh database
on a free loopback port). One crew runs a club night of 200 players: stages 1 to `--earlier` are
drawn, started and their 50 games abandoned (so the next draw has meetings to avoid, as late in a
night), and the next stage is drawn. Other crews, `--tables` of them, each have one game into which
a scorekeeper enters rounds flat out (bench/load.py's round plan: start, bid, targets, taps, save).

  * quiet: the scorekeepers save for `--seconds`, nobody draws;
  * drawing: the organiser taps "Draw stage N again" `--draws` times back to back, `--repeats`
    times, while the scorekeepers save; only saves sent while a draw is in progress count.

Prints each phase's save p50/p95 (ms), the drawing phase's save p95 as a ratio of the quiet one's,
the draws' own times, and PASS when the drawing phase's save p95 is at most SAVE_P95_MS.

    .venv/bin/python bench/draw_contention.py [--earlier 3] [--draws 10] [--repeats 3] [--tables 4]
"""
import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone  # noqa: E402
from serve import served

SAVE_P95_MS = 200
PLAYERS = 200
GAME_LINK = re.compile(r'href="(/c/[^"/]+/games/(\d+))"')


def p(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))] * 1000 if ordered else float("nan")


def set_up_night(base, earlier):
    organiser = Phone(base, timeout=120)
    crew_url = organiser.start_crew("Club")
    organiser.get(crew_url + "club-nights/new")
    names = "\n".join(f"Player {n + 1}" for n in range(PLAYERS))
    answer = organiser.post(crew_url + "club-nights", {"name": "Big night", "names": names, "format": "hands",
                                                       "stage_hands": "1", "ranking": "total"})
    assert answer.status == 303, answer.body[:300]
    night_url = answer.location
    for number in range(1, earlier + 1):
        assert organiser.post(night_url + "/stages").status == 303
        assert organiser.post(night_url + f"/stages/{number}/start").status == 303
        page = organiser.get(night_url).body
        for _, game_id in dict.fromkeys(GAME_LINK.findall(page)):
            assert organiser.post(f"{crew_url}history/games/{game_id}/abandon").status == 303
    assert organiser.post(night_url + "/stages").status == 303
    return organiser, night_url, earlier + 1


class Savers:
    """Scorekeepers of other crews entering rounds without a pause; every save's (start, seconds)."""

    def __init__(self, base, tables):
        self.saves, self.stop, self.errors = [], threading.Event(), []
        self.phones = []
        for k in range(tables):
            phone = Phone(base, timeout=60)
            self.phones.append((phone, phone.start_game(phone.start_crew(f"Crew {k}"))))
        self.threads = [threading.Thread(target=self.run, args=pair, daemon=True) for pair in self.phones]

    def run(self, phone, game_url):
        while not self.stop.is_set():
            sent = time.perf_counter()
            try:
                _, answer = phone.enter_round(game_url)
            except Exception as error:  # noqa: BLE001 (a bench counts every failure and goes on)
                self.errors.append(repr(error)[:200])
                continue
            if answer.status != 303:
                self.errors.append(f"save answered {answer.status}")
            self.saves.append((sent, time.perf_counter() - answer.seconds, answer.seconds))

    def start(self):
        for thread in self.threads:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)

    def between(self, spans):
        """Save times whose request was sent during one of the (start, end) spans."""
        return [seconds for _, began, seconds in self.saves if any(a <= began <= b for a, b in spans)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--earlier", type=int, default=3, help="stages played before the one drawn (default 3)")
    parser.add_argument("--draws", type=int, default=10, help="draws again back to back (default 10)")
    parser.add_argument("--repeats", type=int, default=3, help="sets of draws (default 3)")
    parser.add_argument("--tables", type=int, default=4, help="other crews saving flat out (default 4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the quiet phase (default 20)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="orchard-draws-") as folder:
        with served(Path(folder) / "orchard.db") as server:
            organiser, night_url, number = set_up_night(server.base, args.earlier)
            savers = Savers(server.base, args.tables)
            savers.start()
            time.sleep(2.0)  # warm up
            quiet_from = time.perf_counter()
            time.sleep(args.seconds)
            quiet = savers.between([(quiet_from, time.perf_counter())])
            spans, draws = [], []
            for _ in range(args.repeats):
                began = time.perf_counter()
                for _ in range(args.draws):
                    answer = organiser.post(night_url + f"/stages/{number}/redraw")
                    assert answer.status == 303, (answer.status, answer.body[:300])
                    draws.append(answer.seconds)
                spans.append((began, time.perf_counter()))
                time.sleep(1.0)
            savers.finish()
            drawing = savers.between(spans)
    ratio = p(drawing, 0.95) / p(quiet, 0.95)
    print(f"a night of {PLAYERS}, stage {number} drawn again {args.draws} x {args.repeats} times after "
          f"{args.earlier} stages; {args.tables} other crews saving flat out")
    print(f"draw again: p50 {p(draws, 0.5):.0f} ms, p95 {p(draws, 0.95):.0f} ms, max {max(draws) * 1000:.0f} ms")
    print(f"other crews' saves, quiet:   n={len(quiet)} p50 {p(quiet, 0.5):.1f} ms, p95 {p(quiet, 0.95):.1f} ms")
    print(f"other crews' saves, drawing: n={len(drawing)} p50 {p(drawing, 0.5):.1f} ms, p95 {p(drawing, 0.95):.1f} ms")
    print(f"drawing / quiet save p95: {ratio:.2f}x; errors: {len(savers.errors)}"
          + (f" (first: {savers.errors[0]})" if savers.errors else ""))
    passed = p(drawing, 0.95) <= SAVE_P95_MS and not savers.errors
    print(f"{'PASS' if passed else 'FAIL'}: save p95 while drawing at most {SAVE_P95_MS} ms, no errors "
          f"(median draw {statistics.median(draws) * 1000:.0f} ms)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
