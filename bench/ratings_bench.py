"""How ratings hold up as a crew's history grows: a 2,000-game crew's ratings worked out from
scratch, and the ladder page for 2,000 games against 10 games, in one run.

Builds the same two crews as bench/history_bench.py (direct SQL inserts, every round scored by
the rule engine), then times:
  - openskill over the large crew's finished games alone (ratings.rate), and the whole rebuild
    of its cache (reading the results, rating, writing every change), target under a second;
  - the ladder page of both crews after the cache is built, with a floor measured in the same
    run (the home page, which reads no crew), each printed as a multiple of that floor, and the
    large/small ratio against the 2x target.
It prints PASS or FAIL, never asserts: a noisy machine should not make it crash.

    .venv/bin/python bench/ratings_bench.py [--games 2000] [--repeat 40]
"""
import statistics
import tempfile
import time


from scoring import ratings
from history_bench import _token, command_line, median_ms, two_crews
from services import ratings as rating_service
from store import ratings as rating_store

REBUILD_TARGET = 1.0  # seconds
TARGET_RATIO = 2.0


def main():
    args = command_line(__doc__)
    with tempfile.TemporaryDirectory() as folder:
        app, db, _, small, large, _, _ = two_crews(folder, args.games)

        with app.app_context():
            results = rating_store.finished_results(large)
            rates, rebuilds = [], []
            for _ in range(5):
                began = time.perf_counter()
                ratings.rate(results)
                rates.append(time.perf_counter() - began)
                db.execute("DELETE FROM rating_state WHERE crew_id = ?", [large])
                db.conn.commit()
                began = time.perf_counter()
                rating_service.refresh(large)  # stale: the rebuild, in its write transaction
                rebuilds.append(time.perf_counter() - began)
        rate_s, rebuild_s = statistics.median(rates), statistics.median(rebuilds)
        print(f"Large crew: {len(results)} finished games, {len(results) * 4} rating changes")
        print(f"openskill alone:       {rate_s:.3f} s")
        print(f"rebuild of the cache:  {rebuild_s:.3f} s  "
              f"{'PASS' if rebuild_s < REBUILD_TARGET else 'FAIL'} (target under {REBUILD_TARGET:g} s)")

        client = app.test_client()
        floor, small_ms, large_ms = median_ms(
            client, ["/", f"/c/{_token('Small crew')}/ladder", f"/c/{_token('Large crew')}/ladder"], args.repeat)
        ratio = large_ms / small_ms
        print()
        for label, ms in (("floor (home page, no crew)", floor), ("ladder, 10 games", small_ms),
                          (f"ladder, {args.games} games", large_ms)):
            print(f"{label:<27} {ms:>6.2f} ms = {ms / floor:.2f}× the floor")
        print(f"{'PASS' if ratio <= TARGET_RATIO else 'FAIL'}: the large crew's ladder is {ratio:.2f}× "
              f"the small crew's (target {TARGET_RATIO:g}×); median of {args.repeat} requests each.")
        db.close()


if __name__ == "__main__":
    main()
