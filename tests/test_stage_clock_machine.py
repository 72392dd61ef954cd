"""The stage clock as a state machine (hypothesis), through the Flask test client: a night of eight
at two tables, playing to a goal nobody reaches, where the organiser sets, changes and takes away
the clock (times refused too), the time moves on, tables start hands, save them and tap Start
between hands, and the organiser closes the stage. A reference kept here says what each table
must be after every step:

* no answer is a 5xx;
* each table's saved hands, open hand and game over are the reference's: a game ends by the clock
  only between hands, with at least one hand played, once the time is up; its hand limit is then
  the hands it saved;
* a table's scoreboard shows the clock while its game plays, and offers to end the game exactly
  when the reference says its next tap would;
* the night's leaderboard ranks the tables' saved rounds by points per hand, as the engine does.

The pages are read again after a step that committed something, moved the clock or changed the
reference; after any other step they would give the same answers (`support.db_watch.Commits`).

A short run is in `make check`; a longer one is marked `fuzz` for `make test`."""
import datetime as dt
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from scoring import MAX_GOAL, club_night
from scoring.club_night import TableScore
from services import stage_clock
from store import connect
from store import rounds as round_store
from support.apps import make_app
from support.club_nights import board, new_night, night_of, play_round
from support.db_watch import Commits
from support.html_text import select, texts
from support.profiles import examples
from support.table import Table

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


class StageClockMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="orchard-clock-")
        self.app = make_app(Path(self.folder) / "orchard.db")
        self.client = self.app.test_client()
        self.crew = Table(self.client).start_crew()
        self.post(self.crew + "house-rules", {"goal": "other", "goal_other": str(MAX_GOAL), "tie_rule": "play-on",
                                              "min_bid": "1", "redeal_moves_deal": "no"})
        self.now = dt.datetime(2026, 12, 5, 19, 0, tzinfo=dt.timezone.utc)
        self.real_now, stage_clock.now = stage_clock.now, lambda: self.now
        self.night = new_night(self.client, self.crew, EIGHT, format="game", ranking="per-hand").headers["Location"]
        assert self.post(self.night + "/stages").status_code == 303
        assert self.post(self.night + "/stages/1/start").status_code == 303
        _, stages = night_of(self.app, self.night)
        self.games = [table["game_id"] for _, table in sorted(stages[0]["tables"].items())]
        self.ends = None
        self.tables = [{"saved": 0, "open": False, "over": False} for _ in self.games]
        self.commits = Commits(self.app.config["DATABASE"])  # the page checks run again after a commit

    def teardown(self):
        stage_clock.now = self.real_now
        self.commits.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def post(self, url, data=None):
        response = self.client.post(url, data=data or {})
        assert response.status_code < 500, (url, response.status_code)
        return response

    def time_up(self):
        return self.ends is not None and self.now >= self.ends

    def any_playing(self):
        return any(not table["over"] for table in self.tables)

    def end_between_hands(self, table):
        """What the app does for a table between hands once the time is up."""
        if self.time_up() and not table["open"] and table["saved"] >= 1:
            table["over"] = True

    @initialize(hands=st.lists(st.booleans(), min_size=2, max_size=2), minutes=st.none() | st.integers(1, 30))
    def the_night_so_far(self, hands, minutes):
        """Where a run starts: a hand saved at each table or not, and a clock of a few minutes or none
        (so a short run reaches the clock's end)."""
        for t, played in enumerate(hands):
            if played:
                self.a_table_saves_a_hand(t, (0, 1, 2, 3))
        if minutes is not None:
            self.set_the_clock(minutes)

    # --- The organiser ---------------------------------------------------------------------------

    @rule(minutes=st.integers(1, 30) | st.integers(1, 400))
    def set_the_clock(self, minutes):
        until = self.now + dt.timedelta(minutes=minutes)
        response = self.post(self.night + "/stages/1/clock", {"until": f"{until:%H:%M}", "offset": "0"})
        accepted = minutes <= club_night.MAX_CLOCK_MINUTES and self.any_playing()
        assert (response.status_code == 303) == accepted, (minutes, response.status_code)
        if accepted:
            self.ends = until

    @rule()
    def take_the_clock_away(self):
        response = self.post(self.night + "/stages/1/clock/clear")
        assert (response.status_code == 303) == self.any_playing()
        if self.any_playing():
            self.ends = None

    @rule(minutes=st.integers(1, 90))
    def time_passes(self, minutes):
        self.now += dt.timedelta(minutes=minutes)

    @rule()
    def the_organiser_closes_the_stage(self):
        response = self.post(self.night + "/stages/1/clock/close")
        assert (response.status_code == 303) == (self.time_up() and self.any_playing()), response.status_code
        for table in self.tables:
            if not table["over"]:
                self.end_between_hands(table)

    # --- The tables ------------------------------------------------------------------------------

    @rule(t=st.integers(0, 1))
    def a_table_taps_start(self, t):
        table = self.tables[t]
        response = self.post(f"{self.crew}games/{self.games[t]}/rounds")
        assert response.status_code == 303
        if table["over"] or table["open"]:
            return
        self.end_between_hands(table)
        table["open"] = not table["over"]

    @rule(t=st.integers(0, 1), order=st.permutations(range(4)))
    def a_table_saves_a_hand(self, t, order):
        table = self.tables[t]
        if table["over"] or (not table["open"] and self.time_up() and table["saved"] >= 1):
            return  # its game is over, or its next Start ends it: no hand to save
        play_round(self.app, self.crew, self.games[t], tuple(order))
        table["saved"] += 1
        table["open"] = False
        self.end_between_hands(table)

    # --- What must always hold -------------------------------------------------------------------

    @invariant()
    def every_table_is_as_the_reference_says(self):
        db = connect(self.app.config["DATABASE"])
        for game_id, table in zip(self.games, self.tables):
            game = db.execute("SELECT status, rules FROM games WHERE id = ?", [game_id]).fetchone()
            saved = db.execute("SELECT count(*) FROM rounds WHERE game_id = ? AND status = 'scored'", [game_id]).fetchone()[0]
            opened = db.execute("SELECT count(*) FROM rounds WHERE game_id = ? AND status = 'entering'", [game_id]).fetchone()[0]
            assert (saved, bool(opened), game[0] == "finished") == (table["saved"], table["open"], table["over"])
            if table["over"]:
                assert json.loads(game[1])["hand_limit"] == saved >= 1

    @invariant()
    def each_scoreboard_shows_the_clock_and_offers_the_end_when_its_next_tap_would_end_it(self):
        if not self.commits.changed("scoreboards", self.now, self.ends, repr(self.tables)):
            return  # the same stored games, clock and expectations: the same pages
        for game_id, table in zip(self.games, self.tables):
            page = self.client.get(f"{self.crew}games/{game_id}")
            shown = bool(select(page, ".stage-clock"))
            assert shown == (self.ends is not None and not table["over"])
            ends_now = self.time_up() and not table["over"] and not table["open"] and table["saved"] >= 1
            assert ("End the game: see who leads" in texts(page, ".next-round button")) == ends_now

    @invariant()
    def the_leaderboard_ranks_the_saved_hands_by_points_per_hand(self):
        if not self.commits.changed("leaderboard"):
            return  # the same stored rounds: the same board
        found, stages = night_of(self.app, self.night)
        names = {p["id"]: p["name"] for p in found["players"]}
        scores = []
        with self.app.app_context():
            for game in stages[0]["tables"].values():
                rows = round_store.scored(game["game_id"])
                points = tuple(sum(row["scores"][seat] for row in rows) for seat in range(4))
                scores.append(TableScore(tuple(game["players"]), points, len(rows)))
        expected = {names[line.player]: (line.place, line.points, line.hands)
                    for line in club_night.rank_night(list(names), scores, "per-hand")}
        assert board(self.client, self.night) == expected


def _run(examples, steps):
    run_state_machine_as_test(StageClockMachine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))


def test_the_stage_clock_machine_short_run():
    _run(examples=examples(5, check=3), steps=15)


@pytest.mark.fuzz
def test_the_stage_clock_machine_long_run():
    _run(examples=20, steps=30)
