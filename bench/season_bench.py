"""A season's standings at the size of a club's year (issue 47): 50 finished club nights of 40
players, each night a stage of one hand at ten tables, played through the app's own services, and
a season over them. Times the season's page (its standings worked out by the engine on every read)
against its floor, a plain page of the same size: the same template rendered by the same app (the
same request path, headers and session) from standings worked out once beforehand, so the ratio is
what working out the standings adds. The target is 5×. It prints, for scale, a page of the same
bytes ready-made too. It prints PASS or FAIL, never asserts: a noisy machine should not make it
crash.

    .venv/bin/python bench/season_bench.py [--nights 50] [--players 40] [--repeat 30]
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from flask import render_template  # noqa: E402

from support.apps import make_app  # noqa: E402
from services import seasons as season_service  # noqa: E402
from web import seasons as season_web  # noqa: E402
from support.club_nights import new_night, night_of, play_round  # noqa: E402
from support.table import Table  # noqa: E402

TARGET_RATIO = 5.0
BLOCK = 5
PLACE = b'<td class="place">'  # a ranked player's row of the standings
ORDERS = [(0, 1, 2, 3), (2, 3, 0, 1), (1, 0, 3, 2), (3, 2, 1, 0)]


def build(folder, nights, players):
    """The app with a crew of `players`, `nights` finished nights of them all, and a season over
    them; returns (app, the season page's path)."""
    app = make_app(Path(folder) / "orchard.db", CREW_LIMIT="1000000 per minute", GUESS_LIMIT="1000000 per minute")
    body = {"html": b"", "context": None}
    # The floors (registered before any request): the season's template rendered from standings
    # worked out beforehand, and its bytes ready-made.
    app.add_url_rule("/bench-plain-page", "bench_plain", lambda: render_template("seasons/show.html", **body["context"]))
    app.add_url_rule("/bench-ready-bytes", "bench_bytes", lambda: body["html"])
    client = app.test_client()
    crew = Table(client).start_crew("Season club")
    names = [f"Player {n:02d}" for n in range(players)]
    for number in range(nights):
        night = new_night(client, crew, names, stage_hands="1").headers["Location"]
        assert client.post(night + "/stages").status_code == 303
        assert client.post(night + "/stages/1/start").status_code == 303
        _, stages = night_of(app, night)
        for n, game in enumerate(stages[-1]["tables"].values()):
            play_round(app, crew, game["game_id"], ORDERS[(n + number) % len(ORDERS)])
        assert client.post(night + "/finish").status_code == 303
    season = client.post(crew + "seasons", data={"name": "The year", "first_day": "2000-01-01", "best": "40",
                                                 "minimum": "3"})
    path = season.headers["Location"]
    client.get(path)  # a crew's first visit to a page says more than its later ones
    body["html"] = client.get(path).data
    with app.test_request_context(path):
        found = season_service.find(1, int(path.rsplit("/", 1)[1]))
        crew = {"id": 1, "token": path.split("/")[2], "name": "Season club"}
        rule = season_web.RuleForm(formdata=None, best=found["best"], minimum=found["minimum"])
        body["context"] = dict(crew=crew, season=found, standing=season_service.standings_of(found), rule_form=rule,
                               leave_form=season_web.LeaveOutForm(formdata=None), error=None, error_field=None,
                               changes=season_service.changes(found), percent=season_web.percent,
                               trend_length=season_web.TREND_LENGTH, code=season_web.season_code(crew, found["id"]))
    return app, client, path, body["html"]


def paired(client, paths, repeat):
    """Each path's timings, `repeat` each, in alternating blocks (all see the machine alike)."""
    times = {path: [] for path in paths}
    for _ in range(0, repeat, BLOCK):
        for path in paths:
            for _ in range(BLOCK):
                start = time.perf_counter()
                assert client.get(path).status_code == 200
                times[path].append(time.perf_counter() - start)
    return [statistics.median(times[path]) for path in paths]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nights", type=int, default=50)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="orchard-season-bench-") as folder:
        started = time.perf_counter()
        app, client, path, html = build(folder, args.nights, args.players)
        print(f"built {args.nights} nights of {args.players} players in {time.perf_counter() - started:.1f} s; "
              f"the season's page is {len(html) / 1024:.1f} KB with {html.count(PLACE)} standings rows")
        page, plain, ready = paired(client, [path, "/bench-plain-page", "/bench-ready-bytes"], args.repeat)
        size = len(client.get("/bench-plain-page").data) / 1024
        ratio = page / plain
        print(f"season page median {page * 1000:.1f} ms; the floor, the same page of {size:.1f} KB rendered from "
              f"standings worked out beforehand, {plain * 1000:.1f} ms: {ratio:.1f}× the floor (target ≤ "
              f"{TARGET_RATIO:.0f}×); the same bytes ready-made {ready * 1000:.2f} ms ({page / ready:.0f}×)")
        print("PASS" if ratio <= TARGET_RATIO else "FAIL")


if __name__ == "__main__":
    main()
