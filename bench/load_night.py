"""A club night of N tables entering at once against N separate tables: the same tap p95?

Each run starts a fresh server as bench/load.py does (Granian, `ORCHARD_WORKERS` processes, the
same phones: one keep-alive connection each, one scorekeeper a table tapping once a second out of
step with the other tables, the static-file and hello-world floors measured in the same run).

  * separate: N crews with one game each; at each table the scorekeeper enters rounds and four
    phones poll the scoreboard (bench/load.py's default);
  * night: one crew, a club night of 4 × N players, stage 1 drawn and started (N ordinary games,
    one a table); at each table the scorekeeper enters rounds, one phone polls the table's
    scoreboard and the other three poll the night's leaderboard (as a club night's players
    follow the standings), and one more phone, the big screen by the wall, polls the big-screen view.

So the night run serves as many phones as the separate one plus the big screen, and its polls are
the leaderboard's, which sums every table. The runs alternate (separate, night, separate, night,
...) so a noisy neighbour hits both alike. A run passes as bench/load.py's does (tap p95 at most
100 ms, save p95 at most 200 ms, no error); the verdict compares the night's tap p95 with the
separate tables' (the median over the repeats of each): the same when within 25 % or 5 ms.

    .venv/bin/python bench/load_night.py [--tables 10] [--repeats 2] [--seconds 30]
"""
import argparse
import re
import statistics
import sys
from pathlib import Path

import load
from load_phones import LIVE_VERSION, NIGHT_MARK
import settings
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone

GAME_LINK = re.compile(r'href="(/c/[^"/]+/games/\d+)"')
SAME_SHARE, SAME_MS = 0.25, 5.0


def set_up_night(base, entering, idle=0, watch="scoreboard"):
    """One crew and a club night of 4 × `entering` players, stage 1 started through the night's
    own pages; per table its game with round 1 open and its phones' polls."""
    organiser = Phone(base, timeout=120)
    crew_url = organiser.start_crew("Club")
    organiser.get(crew_url + "club-nights/new")
    names = [f"Player {i + 1}" for i in range(4 * entering)]
    answer = organiser.post(crew_url + "club-nights", {"name": "Load night", "names": "\n".join(names),
                                                       "format": "game", "stage_hands": "2", "ranking": "total"})
    assert answer.status == 303, answer.body[:500]
    night_url = answer.location
    for step in ("/stages", "/stages/1/start"):
        organiser.get(night_url)
        answered = organiser.post(night_url + step)
        assert answered.status in (200, 303), (step, answered.status, answered.body[:500])
    night_page = organiser.get(night_url).body
    game_urls = list(dict.fromkeys(GAME_LINK.findall(night_page)))
    assert len(game_urls) == entering, f"{len(game_urls)} tables started, not {entering}"
    night_mark = NIGHT_MARK.search(night_page).group(1)
    board_page = organiser.get(night_url + "/board").body
    tables = []
    for game_url in game_urls:
        phone = Phone(base, timeout=60)
        phone.get(game_url)
        phone.open_round(game_url)
        version = LIVE_VERSION.search(phone.get(game_url).body).group(1)
        cookie = load.cookie_of(phone)
        night_poll = (f"{night_url}/live?v={{v}}", night_mark, "night live")
        tables.append({"entering": True, "game_url": game_url, "csrf": phone.csrf, "cookie": cookie,
                       "polls": [(f"{game_url}/live?v={{v}}", version, "live"), night_poll, night_poll, night_poll]})
    tables.append({"entering": False, "cookie": load.cookie_of(organiser), "csrf": organiser.csrf,
                   "polls": [(f"{night_url}/board/live?v={{v}}", NIGHT_MARK.search(board_page).group(1),
                              "board live")]})
    static = load.STATIC_URL.search(night_page).group(1)
    return tables, static


def tap_p95(record):
    taps = record.seconds.get("tap", [])
    return load.nearest_rank(taps, 0.95) * 1000 if taps else float("nan")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables entering at once (default 10)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each kind, alternating (default 2)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds a run (default 30)")
    parser.add_argument("--warm-up", type=float, default=5.0)
    parser.add_argument("--poll", type=float, default=3.0)
    parser.add_argument("--tap-every", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=settings.read("ORCHARD_WORKERS", {}))
    parser.add_argument("--threads", type=int, default=settings.read("ORCHARD_THREADS", {}))
    # load.py's other defaults; no scoreboard timed after each run: the night is judged against
    # separate tables run beside it, not against the host's speed
    args = argparse.Namespace(**{**vars(load.options(["--no-work-floor"])), **vars(parser.parse_args(argv))})
    p95s = {"separate": [], "night": []}
    passed = True
    for repeat in range(args.repeats):
        for name, how in (("separate", load.set_up), ("night", set_up_night)):
            print(f"\n#### {name} tables, run {repeat + 1} of {args.repeats}")
            result = load.run_once(args.tables, 0, args, set_up=how)
            passed &= load.report(args.tables, 0, args, *result)
            p95s[name].append(tap_p95(result[0]))
    separate, night = (statistics.median(p95s[name]) for name in ("separate", "night"))
    same = night <= max(separate * (1 + SAME_SHARE), separate + SAME_MS)
    print(f"\ntap p95 over {args.repeats} runs each: {args.tables} separate tables "
          f"{', '.join(f'{v:.1f}' for v in p95s['separate'])} ms (median {separate:.1f}); a night of "
          f"{args.tables} tables {', '.join(f'{v:.1f}' for v in p95s['night'])} ms (median {night:.1f}): "
          f"{night / separate:.2f}x")
    print(f"VERDICT: {'PASS' if same and passed else 'FAIL'}: {'the same' if same else 'WORSE'} tap p95 (the same: "
          f"within {SAME_SHARE:.0%} or {SAME_MS:g} ms); every run {'passed' if passed else 'did NOT pass'} "
          "bench/load.py's limits")
    return 0 if same and passed else 1


if __name__ == "__main__":
    sys.exit(main())
