"""Issue 47, done means: a season's standings equal a reference computed here, independently of
`scoring.season`, after every step of random games finishing, rounds undone and brought back (a
finished game becoming unfinished and back), events left out and counted again, rule changes, and
export/restore round trips, all through the app's pages. Invariants after every step: the
standings page and its watch link show the reference's places, names, events, averages and best
results (to the tenth, half up); the log has a line for every rule change; nothing answers 5xx. A short run is in `make
check`, a long one marked `fuzz`; a club night as one event is worked by hand in test_seasons.py."""
import datetime
import shutil
import tempfile
from fractions import Fraction

import pytest

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from support.apps import make_app
from support.club_nights import HANDS, play_round
from support.db_watch import Commits
from support.exports import export_of, restore
from support.html_text import select, texts
from support.profiles import examples
from support.table import Table

POOL = ["Ann", "Ben", "Cleo", "Dan", "Émile", "Zoë Łukasiewicz-Brzęczyszczykiewiczówna"[:40]]


def tenths(value):
    """A result as a table works it by hand: to one decimal, half up, no needless ".0"."""
    whole, tenth = divmod(int(Fraction(value) * 10 + Fraction(1, 2)), 10)
    return f"{whole}.{tenth}" if tenth else f"{whole}"


def reference(games, best, minimum, left_out=()):
    """The standings as a club would work them by hand: for each counted game, each player's share
    of the other three they beat (a tie a half); each player's best `best` shares (all when None),
    ranked from `minimum` games by their average, equal averages sharing a place. Returns
    [(place, name, "counted/played", average, best)] for the ranked players, best first (ties by
    name), and {name: games still needed} for the others (a player of a left-out game only needs
    them all)."""
    shares = {name: [] for totals in left_out for name in totals}
    for totals in games:
        for name, total in totals.items():
            beaten = sum(1 for other, t in totals.items() if other != name and t < total)
            tied = sum(1 for other, t in totals.items() if other != name and t == total)
            shares.setdefault(name, []).append(Fraction(100) * (beaten + Fraction(tied, 2)) / (len(totals) - 1))
    rows, waiting = [], {}
    for name, own in shares.items():
        if len(own) < minimum or not own:
            waiting[name] = minimum - len(own)
            continue
        counted = sorted(own, reverse=True)[:best] if best else own
        rows.append((sum(counted) / len(counted), max(own), name, len(counted), len(own)))
    rows.sort(key=lambda row: (-row[0], -row[1], row[2]))
    placed = []
    for index, (average, top, name, counted, played) in enumerate(rows):
        place = placed[-1][0] if placed and placed[-1][3] == average else index + 1
        placed.append((place, name, f"{counted}/{played}", average, top))
    return placed, waiting


class SeasonMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="orchard-season-machine-")
        self.app = make_app(f"{self.folder}/orchard.db", CREW_LIMIT="1000000 per minute",
                            GUESS_LIMIT="1000000 per minute")
        self.client = self.app.test_client()
        self.table = Table(self.client)
        self.crew = self.table.start_crew("Season crew")
        yesterday = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
        opened = self.client.post(self.crew + "seasons", data={"name": "Saison", "first_day": yesterday, "minimum": "1"})
        assert opened.status_code == 303
        self.url = opened.headers["Location"]
        self.watch = select(self.client.get(self.url), "#season-share .qr")[0].get("data-link").removeprefix(
            "http://localhost")
        self.games = {}  # id -> {name: total}
        self.finished = set()
        self.left_out = set()
        self.best, self.minimum, self.rule_changes = None, 1, 0
        self.commits = Commits(self.app.config["DATABASE"])  # the pages are read again after a commit

    def _ok(self, response, *codes):
        assert response.status_code < 500, response.get_data(as_text=True)[:500]
        assert response.status_code in codes, (response.status_code, response.get_data(as_text=True)[:300])
        return response

    @rule(players=st.permutations(range(len(POOL))), order=st.permutations(range(4)))
    def finish_a_game(self, players, order):
        names = [POOL[i] for i in players[:4]]
        self.table.start_game(names=names, goal="other", goal_other="1")
        game_id = int(self.table.game_url.rsplit("/", 1)[1])
        scores = play_round(self.app, self.crew, game_id, list(order))
        assert scores == [HANDS[k][2] for k in order]
        self.games[game_id] = dict(zip(names, scores))
        self.finished.add(game_id)

    @precondition(lambda self: self.finished)
    @rule(data=st.data())
    def undo_its_round(self, data):
        game_id = data.draw(st.sampled_from(sorted(self.finished)))
        self._ok(self.client.post(f"{self.crew}games/{game_id}/rounds/1/delete"), 200, 303)
        self.finished.discard(game_id)

    @precondition(lambda self: set(self.games) - self.finished)
    @rule(data=st.data())
    def bring_its_round_back(self, data):
        game_id = data.draw(st.sampled_from(sorted(set(self.games) - self.finished)))
        self._ok(self.client.post(f"{self.crew}games/{game_id}/rounds/1/bring-back"), 200, 303)
        self.finished.add(game_id)

    @precondition(lambda self: self.games)
    @rule(data=st.data(), reason=st.sampled_from(["A friendly", "Practice: Émile's birthday", "   ", "x" * 201]))
    def leave_a_game_out(self, data, reason):
        game_id = data.draw(st.sampled_from(sorted(self.games)))
        answer = self.client.post(self.url + f"/game/{game_id}/leave-out", data={"reason": reason})
        if game_id not in self.finished:
            self._ok(answer, 404)  # not one of the season's events while it is not finished
        elif not reason.strip() or len(reason) > 200:
            self._ok(answer, 422)
        elif game_id in self.left_out:
            self._ok(answer, 409)
        else:
            self._ok(answer, 303)
            self.left_out.add(game_id)

    @precondition(lambda self: self.left_out)
    @rule(data=st.data())
    def count_a_game_again(self, data):
        game_id = data.draw(st.sampled_from(sorted(self.left_out)))
        answer = self.client.post(self.url + f"/game/{game_id}/count-again")
        if game_id not in self.finished:
            self._ok(answer, 404)
        else:
            self._ok(answer, 303)
            self.left_out.discard(game_id)

    @rule(best=st.none() | st.integers(1, 4), minimum=st.integers(1, 4))
    def change_the_rule(self, best, minimum):
        self._ok(self.client.post(self.url + "/rule", data={"best": "" if best is None else str(best),
                                                            "minimum": str(minimum)}), 303)
        if (best, minimum) != (self.best, self.minimum):
            self.rule_changes += 1
        self.best, self.minimum = best, minimum

    @rule()
    def export_and_restore(self):
        data = export_of(self.client, self.crew)
        response = self._ok(restore(self.client, data), 303)
        restored = response.headers["Location"].removesuffix("history")
        assert export_of(self.client, restored)["seasons"] == data["seasons"]
        season = select(self.client.get(restored + "seasons"), ".season-list a")[0].get("href")
        assert self._shown(season) == self._shown(self.url)

    def teardown(self):
        self.commits.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _shown(self, url, page=None):
        cells = texts(page or self.client.get(url), "#standings tbody td")  # place, name, average, events, best
        return [(cells[i], cells[i + 1], cells[i + 3], cells[i + 2], cells[i + 4]) for i in range(0, len(cells), 6)]

    @invariant()
    def the_standings_are_the_references(self):
        counted = [self.games[g] for g in sorted(self.finished - self.left_out)]
        placed, waiting = reference(counted, self.best, self.minimum,
                                    [self.games[g] for g in sorted(self.finished & self.left_out)])
        if not self.commits.changed("standings", repr((counted, self.best, self.minimum, self.rule_changes))):
            return  # the same stored season and reference: the same pages
        page = self.client.get(self.url)
        for url in (self.url, self.watch):
            shown = self._shown(url, page if url == self.url else None)
            assert [(row[0], row[1], row[2]) for row in shown] == [(str(p), n, c) for p, n, c, _, _ in placed]
            for row, (_, _, _, average, top) in zip(shown, placed):
                assert (row[3], row[4]) == (tenths(average), tenths(top))
        listed = texts(page, ".waiting-list li")
        assert {line.split(":")[0] for line in listed if "to qualify" in line} == set(waiting)
        assert len([line for line in texts(page, ".season-log li") if "Rule changed" in line]) == self.rule_changes


def _run(examples, steps):
    run_state_machine_as_test(SeasonMachine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))


def test_a_season_machine_short_run():
    _run(examples=examples(4, check=2), steps=10)


@pytest.mark.fuzz
def test_a_season_machine_long_run():
    _run(examples=12, steps=25)
