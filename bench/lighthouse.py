"""Lighthouse (mobile) on six pages of a real server: performance, accessibility, best practices.

Serves the app with `orchard serve` on a free 127.0.0.1 port (a fresh database: a crew, a game
with two saved rounds and a third being entered), then runs Lighthouse, as pinned in
`bench/lighthouse/package.json`, with Debian's chromium on the home page, the crew page, the
scoreboard, the round being entered, the rule book and the history. Prints each page's three
scores and its total byte weight; every score must be 100.

    npm install --prefix bench/lighthouse      # once
    .venv/bin/python bench/lighthouse.py [--chromium /usr/bin/chromium]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from page_weight import CHROMIUM_ARGS
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.loopback import Phone
from serve import served

LIGHTHOUSE = REPO / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices")


def pages(base):
    host = Phone(base)
    crew = host.start_crew("Lighthouse crew")
    game = host.start_game(crew)
    for _ in range(2):
        host.enter_round(game)
    round_url, _ = host.open_round(game)
    host.post(round_url + "/bid", {"bidder": "1", "number": "2", "suit": "S"})
    return {"home": "/", "crew": crew, "scoreboard": game, "round entry": round_url, "rule book": "/rules",
            "history": crew + "history"}


def audit(chromium, url, folder):
    out = Path(folder) / "report.json"
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    subprocess.run([str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
                    f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}"],
                   env={**os.environ, "CHROME_PATH": chromium}, check=True, timeout=180)
    report = json.loads(out.read_text())
    scores = {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}
    return scores, int(report["audits"]["total-byte-weight"]["numericValue"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        print("Lighthouse is not installed: npm install --prefix bench/lighthouse")
        return 2
    failed = False
    with tempfile.TemporaryDirectory(prefix="orchard-lighthouse-") as folder:
        with served(Path(folder) / "orchard.db") as server:
            for name, path in pages(server.base).items():
                scores, weight = audit(args.chromium, server.base + path, folder)
                failed |= any(score < 100 for score in scores.values())
                print(f"{name:<12} " + "  ".join(f"{k} {v}" for k, v in scores.items()) + f"  weight {weight:,} bytes")
    print("RESULT: " + ("FAIL" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
