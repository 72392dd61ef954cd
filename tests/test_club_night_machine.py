"""A club night as a state machine (hypothesis), through the Flask test client: two nights of one
crew that share a player (Wim), the second seating its tables by standing (issue 47, item 5), players arriving and leaving, stages drawn, drawn again, swapped
(from fresh and stale pages) and started, rounds saved and corrected at the tables, a table's "we
sat wrong" repair, and the night finished. After every step:

* no answer is a 5xx;
* each night's leaderboard, as its page shows it, is the engine's ranking (`rank_night`) of the
  tables' saved rounds, recomputed here from the rounds themselves;
* nobody sits at two running tables (of either night);
* a table phone polling its code, while the table plays, once its game is over or after its link
  was replaced, is never answered 404 and never has a guess counted (`support.night_links`);
* every draw seated fairly: whoever sits out has played at least as many stages as everyone
  seated (rule book 5: those who played most sit out, a stage missed counting as sat out);
* a finished night's games refuse a correction (they are final), and a reopened night's do not;
* a player's phone that sat at one of a night's tables, or checked in at its door, is told on the
  night's board where its own player sits now, with that table's link and no other; the door's
  page never shows the crew's link (`support.night_follow_steps`);
* no night lists more players than a night seats;
  (the pages' checks run again after each step that committed something or moved the clock: after
  one that did neither they would read the same answers, `support.db_watch.Commits`);
* a game its stage clock ended (issue 47, item 6: the clock set, the time moved on, the organiser's
  close, a table's next Start) ends with the hands it saved, at least one, and no hand open;
* and at the end, the crew's export restores whatever the steps left.

A tiny run is in `make check`; a longer one is marked `fuzz` for `make test`."""
import datetime as dt
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from scoring import club_night, parse_rank
from scoring.club_night import TableScore
from services import corrections as correction_service
from services import rounds as round_service
from services import stage_clock
from services import taps
from services import transfer
from services.refusals import Refused
from store import get_db
from store import crews as crew_store
from store import games as game_store
from store import rounds as round_store
from support.apps import make_app
from support.club_nights import board, new_night, night_of, play_round
from support.db_watch import Commits
from support.html_text import select
from support.night_follow_steps import NightFollowSteps
from support.night_links import NightLinkSteps
from support.rounds import BUILDER
from support.table import Table

NIGHTS = (["Wim", "Ann", "Bob", "Cat", "Dan", "Eve"], ["Wim", "Fay", "Gus", "Hal", "Ivy"])
OWN_RANK = ["Q", "J", "10", "8"]  # a correction gives a seat a pair of its own rank, or takes it away


class ClubNightMachine(NightLinkSteps, NightFollowSteps, RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="orchard-machine-")
        # Refused draws of a stage not there yet are 404s: the guess limit must not turn them 429.
        self.app = make_app(Path(self.folder) / "orchard.db", GUESS_LIMIT="1000000 per minute")
        self.client = self.app.test_client()
        self.crew = Table(self.client).start_crew()
        self.token = self.crew.split("/c/")[1].strip("/")
        self.nights = []
        # The stage clock reads the machine's time, which only `time_passes` moves.
        self.now = dt.datetime(2026, 12, 5, 19, 0, tzinfo=dt.timezone.utc)
        self.real_now, stage_clock.now = stage_clock.now, lambda: self.now
        # The second night seats its tables by standing (Swiss), in stages of two hands (a clock
        # that runs out can end its games between them).
        for k, names in enumerate(NIGHTS):
            response = new_night(self.client, self.crew, names, stage_hands=str(k + 1), seating=("mixed", "standing")[k % 2])
            assert response.status_code == 303
            self.nights.append(response.headers["Location"])
        self.arrivals = 0
        self.old_versions = {}
        self.commits = Commits(self.app.config["DATABASE"])  # the page checks run again after a commit

    def teardown(self):
        """Whatever live entry left, the crew's export restores (and says the same again)."""
        try:
            with self.app.app_context():
                crew_id = crew_store.crew_by_token(self.token)["id"]
                exported = json.loads(transfer.json_text(crew_id))
                restored = transfer.restore(exported)
                again = json.loads(transfer.json_text(restored["id"]))
                assert again["club_nights"] == exported["club_nights"]
        finally:
            stage_clock.now = self.real_now
            self.commits.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    # --- Requests: never a 5xx ---------------------------------------------------------------

    def post(self, url, data=None):
        response = self.client.post(url, data=data or {})
        assert response.status_code < 500, (url, response.status_code)
        return response

    def get(self, url):
        response = self.client.get(url)
        assert response.status_code < 500, (url, response.status_code)
        return response

    def state(self, k):
        return night_of(self.app, self.nights[k])

    def playing_games(self, k):
        _, stages = self.state(k)
        if not stages:
            return []
        return [game for _, game in sorted(stages[-1]["tables"].items()) if game["status"] == "playing"]

    @initialize(start_first=st.booleans())
    def stage_one(self, start_first):
        """Both nights draw stage 1, and one of them starts it: the tables are there from step one."""
        for night_url in self.nights:
            assert self.post(night_url + "/stages").status_code == 303
        assert self.post(self.nights[0 if start_first else 1] + "/stages/1/start").status_code == 303

    # --- Who is here ---------------------------------------------------------------------------

    @rule(k=st.integers(0, 1))
    def arrive(self, k):
        self.arrivals += 1
        self.post(self.nights[k] + "/players", {"name": f"Late {self.arrivals}"})

    @rule(k=st.integers(0, 1), pick=st.integers(0, 20), here=st.booleans())
    def leave_or_come_back(self, k, pick, here):
        found, _ = self.state(k)
        player = found["players"][pick % len(found["players"])]
        self.post(self.nights[k] + f"/players/{player['id']}/here", {"here": "1" if here else "0"})

    # --- Stages --------------------------------------------------------------------------------

    @rule(k=st.integers(0, 1))
    def draw(self, k):
        if self.post(self.nights[k] + "/stages").status_code == 303:
            self.check_fair_draw(k)

    @rule(k=st.integers(0, 1))
    def draw_again(self, k):
        _, stages = self.state(k)
        number = stages[-1]["number"] if stages else 1
        if self.post(self.nights[k] + f"/stages/{number}/redraw").status_code == 303:
            self.check_fair_draw(k)

    @rule(k=st.integers(0, 1), a=st.integers(0, 20), b=st.integers(0, 20), stale=st.booleans())
    def swap(self, k, a, b, stale):
        found, stages = self.state(k)
        page = self.get(self.nights[k])
        fields = select(page, ".swap-form input[name=version]")
        version = fields[0].get("value") if fields else str(found["version"])
        if stale and k in self.old_versions:
            version = self.old_versions[k]
        self.old_versions[k] = version
        players = [p["id"] for p in found["players"]]
        number = stages[-1]["number"] if stages else 1
        response = self.post(self.nights[k] + f"/stages/{number}/swap",
                             {"first": players[a % len(players)], "second": players[b % len(players)],
                              "version": version})
        if str(found["version"]) != version:
            assert response.status_code in (404, 409)

    @rule(k=st.integers(0, 1))
    def start(self, k):
        _, stages = self.state(k)
        self.post(self.nights[k] + f"/stages/{stages[-1]['number'] if stages else 1}/start")

    @rule(k=st.integers(0, 1), now=st.integers(0, 7))
    def finish(self, k, now):
        if now == 0:  # seldom: a finished night takes nothing more
            self.post(self.nights[k] + "/finish")

    @rule(k=st.integers(0, 1), now=st.integers(0, 3))
    def reopen(self, k, now):
        found, _ = self.state(k)
        if found["finished"] and now == 0:  # the organiser opens a finished night again (logged)
            assert self.post(self.nights[k] + "/reopen").status_code == 303
            found, _ = self.state(k)
            assert not found["finished"]

    # --- At the tables -------------------------------------------------------------------------

    @rule(k=st.integers(0, 1), pick=st.integers(0, 3), order=st.permutations(range(4)))
    def save_a_round(self, k, pick, order):
        games = self.playing_games(k)
        if not games:
            return
        game = games[pick % len(games)]
        _, stages = self.state(k)
        with self.app.app_context():
            between_hands = game["hands"] >= 1 and round_store.open_round(game["game_id"]) is None
        if between_hands and stage_clock.time_up(stages[-1]):
            # The stage's time is up and the table is between hands: its Start ends the game with
            # the hands it played, and no round is opened.
            self.post(f"{self.crew}games/{game['game_id']}/rounds")
            assert self.state(k)[1][-1]["tables"][game["table_no"]]["status"] == "finished"
            return
        play_round(self.app, self.crew, game["game_id"], tuple(order))

    @rule(k=st.integers(0, 1), pick=st.integers(0, 20), seat=st.integers(0, 3), pair=st.booleans())
    def correct_a_round(self, k, pick, seat, pair):
        _, stages = self.state(k)
        games = [game for stage in stages for game in stage["tables"].values() if game["hands"]]
        if not games:
            return
        game_id = games[pick % len(games)]["game_id"]
        found, _ = self.state(k)
        with self.app.app_context():
            game = game_store.game(crew_store.crew_by_token(self.token)["id"], game_id)
            number = len(round_store.scored(game_id))
            if found["finished"]:  # a finished night's games are final: nothing is opened
                with pytest.raises(Refused, match="which is finished: its results are final"):
                    correction_service.start_correction(game, BUILDER, number)
                return
            assert correction_service.start_correction(game, BUILDER, number)
            taps.set_count(game, BUILDER, number, seat, parse_rank(OWN_RANK[seat]), 2 if pair else 0)
            entry = round_service.shown_revision(game, number)
            if round_service.save(game, BUILDER, number, entry["version"]):
                correction_service.discard_correction(game, BUILDER, number)

    @rule(k=st.integers(0, 1), pick=st.integers(0, 3), a=st.integers(0, 3), b=st.integers(0, 3))
    def we_sat_wrong(self, k, pick, a, b):
        games = self.playing_games(k)
        if not games:
            return
        url = f"{self.crew}games/{games[pick % len(games)]['game_id']}/seats/swap"
        version = select(self.get(url), "input[name=version]")[0].get("value")
        self.post(url, {"first": a, "second": b, "version": version})

    # --- The stage clock -------------------------------------------------------------------------

    @rule(k=st.integers(0, 1), minutes=st.integers(1, 400), clear=st.booleans())
    def set_the_clock(self, k, minutes, clear):
        _, stages = self.state(k)
        if not stages:
            return
        number = stages[-1]["number"]
        if clear:
            self.post(self.nights[k] + f"/stages/{number}/clock/clear")
        else:
            until = self.now + dt.timedelta(minutes=minutes)
            self.post(self.nights[k] + f"/stages/{number}/clock", {"until": f"{until:%H:%M}", "offset": "0"})

    @rule(minutes=st.integers(1, 120))
    def time_passes(self, minutes):
        self.now += dt.timedelta(minutes=minutes)

    @rule(k=st.integers(0, 1))
    def the_organiser_closes_the_stage(self, k):
        _, stages = self.state(k)
        if stages:
            self.post(self.nights[k] + f"/stages/{stages[-1]['number']}/clock/close")

    @rule(k=st.integers(0, 1), pick=st.integers(0, 3))
    def a_table_taps_start(self, k, pick):
        games = self.playing_games(k)
        if games:
            self.post(f"{self.crew}games/{games[pick % len(games)]['game_id']}/rounds")

    @invariant()
    def a_game_the_clock_ended_ends_with_the_hands_it_saved(self):
        for k in range(len(self.nights)):
            found, stages = self.state(k)
            with self.app.app_context():
                for stage in stages:
                    for table in stage["tables"].values():
                        game = game_store.game(found["crew_id"], table["game_id"])
                        limit = json.loads(game["rules"]).get("hand_limit")
                        if limit == found["stage_hands"]:
                            continue  # the night's own limit, or not ended by a clock
                        saved = len(round_store.scored(game["id"]))
                        assert limit == saved >= 1, (limit, saved)
                        if game["status"] == "finished":
                            assert not round_store.open_from(get_db(), game["id"], saved + 1)

    # --- What must always hold -------------------------------------------------------------------

    @invariant()
    def the_leaderboard_is_the_engines_ranking_of_the_saved_rounds(self):
        if not self.commits.changed("leaderboard", self.now):
            return  # the same stored rounds: the same board
        for k, night_url in enumerate(self.nights):
            found, stages = self.state(k)
            names = {p["id"]: p["name"] for p in found["players"]}
            tables = []
            with self.app.app_context():
                for stage in stages:
                    for game in stage["tables"].values():
                        saved = round_store.scored(game["game_id"])
                        points = tuple(sum(row["scores"][seat] for row in saved) for seat in range(4))
                        tables.append(TableScore(tuple(game["players"]), points, len(saved)))
            expected = {names[line.player]: (line.place, line.points, line.hands)
                        for line in club_night.rank_night(list(names), tables, found["ranking"])}
            assert board(self.client, night_url) == expected

    @invariant()
    def nobody_sits_at_two_running_tables(self):
        with self.app.app_context():
            twice = get_db().execute(
                "SELECT seats.player_id FROM club_night_tables JOIN games ON games.id = club_night_tables.game_id"
                " JOIN seats ON seats.game_id = games.id WHERE games.status = 'playing'"
                " GROUP BY seats.player_id HAVING count(*) > 1").fetchall()
        assert twice == []

    @invariant()
    def no_night_lists_more_players_than_it_seats(self):
        for k in range(len(self.nights)):
            found, _ = self.state(k)
            assert len(found["players"]) <= club_night.MAX_PLAYERS

    def check_fair_draw(self, k):
        found, stages = self.state(k)
        drawn = stages[-1]
        assert drawn["status"] == "planned"
        played = {}
        for stage in stages[:-1]:
            for game in stage["tables"].values():
                for player in game["players"]:
                    played[player] = played.get(player, 0) + 1
        out = [p["player_id"] for p in drawn["places"] if p["table_no"] is None]
        seated = [p["player_id"] for p in drawn["places"] if p["table_no"] is not None]
        here = {p["id"] for p in found["players"] if p["here"]}
        assert set(out) | set(seated) == here
        if out and seated:
            assert min(played.get(p, 0) for p in out) >= max(played.get(p, 0) for p in seated)


def _run(examples, steps):
    run_state_machine_as_test(ClubNightMachine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, derandomize=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))


def test_a_club_night_machine_tiny_run():
    _run(examples=3, steps=25)


@pytest.mark.fuzz
def test_a_club_night_machine_long_run():
    _run(examples=20, steps=50)
