"""What the pass/fail benchmarks share: their command line, a throw-away folder, the server run as
an operator runs it (`orchard serve` on a free 127.0.0.1 port), the RESULT line, and percentiles.

    def check(args, folder, failures): ...  # appends a sentence per missed target
    sys.exit(run_checks(__doc__, [(("--games",), {"type": int, "default": 10})], "orchard-x-", check))
"""
import argparse
import contextlib
import math
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import ServerProcess


@contextlib.contextmanager
def served(database, log=None, env=None, **settings):
    """`orchard serve` on a free loopback port with the database at `database` and the settings in
    `env` or as keywords (e.g. ORCHARD_CONNECTION_LIMIT="40"), its output to the file `log` (closed
    after, when given); stopped after. The one way every bench starts a server."""
    server = ServerProcess(database, log=log, env={**(env or {}), **settings}).start()
    try:
        yield server
    finally:
        server.stop()
        if log:
            log.close()


def run_checks(doc, options, prefix, check, argv=None):
    """Parse the command line (`options`: (flags, keywords) pairs for argparse), run
    `check(args, folder, failures)` in a throw-away folder, print the RESULT line; the exit status."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for flags, keywords in options:
        parser.add_argument(*flags, **keywords)
    args = parser.parse_args(argv)
    failures = []
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        check(args, Path(folder), failures)
    print("RESULT: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures)))
    return 1 if failures else 0


def nearest_rank(values, share):
    """The nearest-rank percentile (`share` 0.95: the p95) of `values`; NaN when there are none."""
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)] if ordered else float("nan")
