"""How the history pages hold up as a crew's history grows: one run, two crews, same pages.

Builds, in a temporary database and with direct SQL inserts, a crew with 10 finished games and
a crew with 2,000 finished games (about 30,000 rounds), every round a real deal scored by the
rule engine and every game played to the engine's end; then times the history list, a player's
page, a head-to-head and a game page for both crews with the Flask test client, and prints the
figures and the large/small ratio against the 2x target. It prints PASS or FAIL, never asserts:
a noisy machine should not make it crash.

    .venv/bin/python bench/history_bench.py [--games 2000] [--repeat 40]
"""
import argparse
import datetime
import gc
import json
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path


from app import create_app
from scoring import DECK, HouseRules, game_result, score_counts
from scoring import names as name_rule
from store import connect, write
from store.crews import token_hash
from store.results import refresh_results
from store.stats import target_bonus

PLAYERS = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana"]
SUITS = "DHCS"
TARGET_RATIO = 2.0


def random_round(rng):
    """A whole deal: four targets, and twelve tricks shared out at random; scored by the engine."""
    deck = list(DECK)
    rng.shuffle(deck)
    targets, rest = deck[:4], deck[4:]
    cuts = sorted(rng.sample(range(1, 12), 3))
    tricks = [a - b for a, b in zip(cuts + [12], [0] + cuts)]
    hands, start = [], 0
    for seat in range(4):
        pile = rest[start:start + 4 * tricks[seat]]
        start += 4 * tricks[seat]
        counts = dict(Counter(card.rank for card in pile))
        hand = {"target": targets[seat].code, "won": [], "counts": counts}
        score = score_counts(counts, targets[seat].rank).total
        hands.append((hand, score, target_bonus("quick", hand)))
    return hands


def round_pool(rng, size=600):
    """Deals to draw rounds from: random ones, less the luckiest tenth, so that a game to 250
    lasts about 15 rounds, as at a real table where players steer clear of low pairs."""
    pool = [random_round(rng) for _ in range(size * 10 // 9)]
    pool.sort(key=lambda hands: sum(score for _, score, _ in hands))
    return pool[:size]


def _token(name):
    return f"bench-{name.lower().replace(' ', '-')}"


def build_crew(db, name, games, rng, pool, start):
    """A crew with `games` finished games, three a night every other evening."""
    crew_id = db.execute(
        "INSERT INTO crews (name, token_hash, created) VALUES (?, ?, ?)",
        [name, token_hash(_token(name)), start.isoformat(timespec="seconds")],
    ).lastrowid
    ids = [db.execute("INSERT INTO players (crew_id, name, name_key, created) VALUES (?, ?, ?, ?)",
                      [crew_id, player, name_rule.key(player), start.isoformat(timespec="seconds")]).lastrowid
           for player in PLAYERS]
    next_round = (db.execute("SELECT coalesce(max(id), 0) FROM rounds").fetchone()[0]) + 1
    round_rows, hand_rows, game_ids, total_rounds = [], [], [], 0
    for n in range(games):
        night, game_of_night = divmod(n, 3)
        created = start + datetime.timedelta(days=2 * night, minutes=90 * game_of_night)
        stamp = created.isoformat(timespec="seconds")
        goal = 500 if rng.random() < 0.1 else 250
        first_dealer = rng.randrange(4)
        scores, rounds = [], []
        while True:
            hands = rng.choice(pool)
            try:
                result = game_result(scores + [[score for _, score, _ in hands]], HouseRules(goal=goal))
            except Exception:  # pragma: no cover - the engine refuses a round after the end
                break
            scores.append([score for _, score, _ in hands])
            rounds.append(hands)
            if result.over or len(rounds) >= 80:
                break
        game_id = db.execute(
            "INSERT INTO games (crew_id, created, finished, rules, first_dealer, status)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [crew_id, stamp, stamp, json.dumps(HouseRules(goal=goal).as_json()), first_dealer,
             "finished" if result.over else "playing"],
        ).lastrowid
        game_ids.append(game_id)
        for seat, player_id in enumerate(rng.sample(ids, 4)):
            db.execute("INSERT INTO seats (game_id, seat, player_id, won) VALUES (?, ?, ?, ?)",
                       [game_id, seat, player_id, int(seat in result.winners)])
        for number, hands in enumerate(rounds, start=1):
            round_id = next_round
            next_round += 1
            round_rows.append([round_id, game_id, number, (first_dealer + number - 1) % 4,
                               rng.randrange(4), rng.randint(1, 4), rng.choice(SUITS), stamp, stamp])
            for seat, (hand, score, bonus) in enumerate(hands):
                hand_rows.append([round_id, seat, hand["target"], json.dumps(hand["counts"]), score, bonus])
        total_rounds += len(rounds)
    db.conn.executemany(
        "INSERT INTO rounds (id, game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
        " bid_number, bid_suit, version, created, updated)"
        " VALUES (?, ?, ?, 1, 'scored', 'quick', ?, 0, ?, ?, ?, 1, ?, ?)", round_rows)
    db.conn.executemany("INSERT INTO hands (round_id, seat, target, counts, score, target_bonus)"
                   " VALUES (?, ?, ?, ?, ?, ?)", hand_rows)
    refresh_results(db, game_ids)
    return crew_id, total_rounds


def pages(db, crew_id):
    """The four pages to time: the list, the busiest player, them against their most frequent
    opponent, and a game of 15 rounds."""
    token = _token(db.execute("SELECT name FROM crews WHERE id = ?", [crew_id]).fetchone()[0])
    busiest = db.execute(
        "SELECT player_id FROM seats JOIN games ON games.id = seats.game_id WHERE crew_id = ?"
        " GROUP BY player_id ORDER BY count(*) DESC LIMIT 1", [crew_id]).fetchone()[0]
    rival = db.execute(
        "SELECT b.player_id FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.player_id != a.player_id"
        " WHERE a.player_id = ? GROUP BY b.player_id ORDER BY count(*) DESC LIMIT 1", [busiest]).fetchone()[0]
    # The same kind of game in both crews: the newest one of 15 rounds (or as near as there is),
    # since a game page grows with its own rounds, not with the history.
    game = db.execute(
        "SELECT games.id FROM games JOIN rounds ON rounds.game_id = games.id AND rounds.status = 'scored'"
        " WHERE games.crew_id = ? GROUP BY games.id ORDER BY abs(count(*) - 15), games.created DESC LIMIT 1",
        [crew_id]).fetchone()[0]
    base = f"/c/{token}"
    return {
        "history list": f"{base}/history",
        "player page": f"{base}/players/{busiest}",
        "head-to-head": f"{base}/players/{busiest}/vs/{rival}",
        "game page": f"{base}/history/games/{game}",
    }


def median_ms(client, urls, repeat):
    """Median times of a GET of each page, in milliseconds; the pages are asked in turn, after a
    few warm-up requests, so that a busy moment slows them all alike."""
    for url in urls:
        for _ in range(3):
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"{url} answered {response.status_code}")
    times = {url: [] for url in urls}
    for _ in range(repeat):
        for url in urls:
            began = time.perf_counter()
            client.get(url).get_data()
            times[url].append((time.perf_counter() - began) * 1000)
    return [statistics.median(times[url]) for url in urls]


def two_crews(folder, games):
    """The benchmarks' database in `folder`, built by direct inserts: a small crew of 10 finished
    games and a large one of `games`. Returns (app, db, path, small crew id, large crew id,
    small crew's rounds, large crew's rounds)."""
    rng = random.Random(20260312)
    path = Path(folder) / "bench.db"
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "bench", "TESTING": True,
                      "GUESS_LIMIT": "1000000 per minute"})
    db = connect(path)
    pool = round_pool(rng)
    start = datetime.datetime(2022, 1, 6, 19, 0, tzinfo=datetime.timezone.utc)
    with write(db):
        small, small_rounds = build_crew(db, "Small crew", 10, rng, pool, start)
        large, large_rounds = build_crew(db, "Large crew", games, rng, pool, start)
    db.execute("ANALYZE")
    return app, db, path, small, large, small_rounds, large_rounds


def command_line(doc, argv=None):
    """--games and --repeat, as both benchmarks of a growing history take them."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="finished games in the large crew")
    parser.add_argument("--repeat", type=int, default=40, help="timed requests per page")
    return parser.parse_args(argv)


def main():
    args = command_line(__doc__)
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        app, db, path, small, large, small_rounds, large_rounds = two_crews(folder, args.games)
        built = time.perf_counter() - began
        print(f"Built in {built:.1f} s: small crew 10 games / {small_rounds} rounds; "
              f"large crew {args.games} games / {large_rounds} rounds; "
              f"database {path.stat().st_size / 1e6:.1f} MB")
        gc.collect()
        client = app.test_client()
        small_pages, large_pages = pages(db, small), pages(db, large)
        print()
        print(f"{'page':<14} {'10 games':>10} {f'{args.games} games':>12} {'ratio':>7}  target ≤{TARGET_RATIO:g}×")
        worst = 0
        for name in small_pages:
            fast, slow = median_ms(client, [small_pages[name], large_pages[name]], args.repeat)
            ratio = slow / fast
            worst = max(worst, ratio)
            verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
            print(f"{name:<14} {fast:>8.2f} ms {slow:>9.2f} ms {ratio:>7.2f}  {verdict}")
        print()
        print(f"Median of {args.repeat} requests per page (Flask test client, full page render).")
        print(f"{'PASS' if worst <= TARGET_RATIO else 'FAIL'}: the large crew's pages are at most "
              f"{worst:.2f}× the small crew's (target {TARGET_RATIO:g}×).")
        db.close()


if __name__ == "__main__":
    main()
