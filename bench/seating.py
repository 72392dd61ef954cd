"""How good and how fast a club night's seating draw is.

Small nights (5 to 9 players, 2 to 4 stages, the same players all night): the draw's repeat
meetings (meetings at a table beyond each pair's first, `club_night.repeat_meetings`) against the
optimum, found by an exhaustive branch-and-bound search over every fair seating of every stage:
each stage's sit-outs taken from those who have sat out least (nobody twice before everyone
once, as the rules require), the rest split into tables of four every possible way, a branch
cut as soon as it cannot beat the best found: by the cheapest seating of a stage, and by counting
(a meeting still to come is a repeat unless its pair has not met yet). The first stage is fixed
(every first stage is the same up to renaming the players), and the second stage's sit-outs are
tried once per shape (players who sat at one first-stage table are alike). The draw is run with
five seeds and its worst is reported.
Target: within 1 repeat of the optimum.

Big nights: the time to draw 8 stages for 40 and for 200 players (best of 3), in seconds and as a
multiple of a floor timed in the same run (drawing one stage for 8 players), with their repeats.
Target: 40 players over 8 stages under 1 s.

    .venv/bin/python bench/seating.py [--budget 60]
"""
import argparse
import itertools
import sys
import time

from scoring import club_night
from scoring.club_night import _splits

SEEDS = range(5)


def drawn(present, stages, seed):
    night = []
    for stage in range(stages):
        night.append(club_night.draw_seating(present, night, seed=seed * 1000 + stage + 1))
    return night


def fair_sit_outs(present, sat_out):
    """Every set of sit-outs the rules allow: taken from those who have sat out least."""
    need = club_night.sit_out_count(len(present))
    if not need:
        return [()]
    ordered = sorted(present, key=lambda p: sat_out[p])
    cut = sat_out[ordered[need - 1]]
    sure = [p for p in present if sat_out[p] < cut]
    tied = [p for p in present if sat_out[p] == cut]
    return [tuple(sure) + combo for combo in itertools.combinations(tied, need - len(sure))]


def optimum(present, stages, budget):
    """The fewest repeat meetings any fair night of `stages` stages can have, and whether the
    search finished within `budget` seconds (if not: the best found, an upper bound)."""
    deadline = time.monotonic() + budget
    first_out = tuple(present[:club_night.sit_out_count(len(present))])
    first = [tuple(present[len(first_out):][i:i + 4]) for i in range(0, len(present) - len(first_out), 4)]
    met = {}
    sat_out = dict.fromkeys(present, 0)
    best = [None]
    finished = [True]

    def canonical(out):
        """After the fixed first stage, players at the same first table are alike, and so are
        tables of the same size: the second stage's sit-outs need only be tried once for each
        number taken from each table (the first ones of it, from the fuller tables first)."""
        taken = [sum(p in out for p in table) for table in first]
        return (all(set(table[:n]) <= set(out) for table, n in zip(first, taken))
                and taken == sorted(taken, reverse=True))

    def meet(tables, step):
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + step

    def cost(tables):
        return sum(met.get(pair, 0) > 0 for table in tables for pair in itertools.combinations(sorted(table), 2))

    def lowest(fair):
        if fair[0][0] == 0:
            return 0
        need = club_night.sit_out_count(len(present))
        return min(cost(split) for out in itertools.combinations(present, need)
                   for split in _splits([p for p in present if p not in out]))

    per_stage = 6 * len(first)  # meetings at the tables of one stage
    pairs = len(present) * (len(present) - 1) // 2

    def search(stage, so_far):
        # Every meeting still to come is with a new pair or a repeat, and only the pairs not
        # yet met can be new: a bound that prunes most of the tree.
        unmet = pairs - sum(1 for count in met.values() if count > 0)
        if best[0] is not None and so_far + max(0, per_stage * (stages - stage) - unmet) >= best[0]:
            return
        if stage == stages:
            best[0] = so_far
            return
        if time.monotonic() > deadline:
            finished[0] = False
            return
        options = []
        for out in fair_sit_outs(present, sat_out):
            if stage == 1 and not canonical(out):
                continue
            playing = [p for p in present if p not in out]
            for split in _splits(playing):
                options.append((cost(split), out, split))
        options.sort(key=lambda option: option[0])
        # Meetings only add up, so no later stage can cost less than the cheapest seating of
        # anyone now (fair or not): a bound on the stages after this one.
        later = (stages - stage - 1) * lowest(options)
        for extra, out, split in options:
            if best[0] is not None and so_far + extra + later >= best[0]:
                break  # sorted: every later option costs as much or more
            for p in out:
                sat_out[p] += 1
            meet(split, 1)
            search(stage + 1, so_far + extra)
            meet(split, -1)
            for p in out:
                sat_out[p] -= 1

    for p in first_out:
        sat_out[p] += 1
    meet(first, 1)
    search(1, 0)
    return best[0], finished[0]


def timed(present, stages, repeat=3):
    best = None
    for _ in range(repeat):
        started = time.perf_counter()
        night = drawn(present, stages, seed=0)
        seconds = time.perf_counter() - started
        best = seconds if best is None else min(best, seconds)
    return best, club_night.repeat_meetings(night)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=60.0, help="seconds of search per small night (default 60)")
    args = parser.parse_args(argv)
    print("Small nights: the draw's repeat meetings (worst of 5 seeds) against the optimum")
    print(f"{'players':>8}{'stages':>8}{'draw':>6}{'optimum':>9}{'over':>6}  search")
    worst, stopped = 0, []
    for players in range(5, 10):
        present = [f"P{i}" for i in range(players)]
        for stages in range(2, 5):
            app = max(club_night.repeat_meetings(drawn(present, stages, seed)) for seed in SEEDS)
            started = time.perf_counter()
            best, finished = optimum(present, stages, args.budget)
            took = time.perf_counter() - started
            over = app - best
            if finished:
                worst = max(worst, over)
            else:
                stopped.append(f"{players}x{stages}")
            note = f"exhaustive, {took:.1f} s" if finished else f"stopped at {args.budget:g} s: the best found, not proven optimal"
            print(f"{players:>8}{stages:>8}{app:>6}{best:>9}{over:>6}  {note}")
    print(f"within 1 of the optimum wherever the search finished: {'yes' if worst <= 1 else 'NO'} "
          f"(worst: {worst} over)" + (f"; search stopped for {', '.join(stopped)}" if stopped else ""))

    floor = min(timed([f"P{i}" for i in range(8)], 1, repeat=20)[0] for _ in range(3))
    print(f"\nBig nights (floor: one stage for 8 players, {floor * 1000:.2f} ms)")
    verdict = None
    for players in (40, 200):
        seconds, repeats = timed([f"P{i}" for i in range(players)], 8)
        print(f"{players} players over 8 stages: {seconds:.3f} s, {seconds / floor:.0f}x the floor, "
              f"{repeats} repeat meetings")
        if players == 40:
            verdict = seconds < 1.0
    print(f"40 players over 8 stages under 1 s: {'yes' if verdict else 'NO'}")
    return 0 if worst <= 1 and verdict else 1


if __name__ == "__main__":
    sys.exit(main())
