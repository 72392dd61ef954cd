"""The stage clock (issue 47, item 6) on phones: the organiser, on a 390×844 phone in Zürich's time
zone, taps a time into the night page's clock; the night page and a table's 360×740 phone show
the time of day in their own zone and the minutes left. When the time runs out on a table's
scoreboard left open, the page itself says so and its button becomes the one that ends the game;
one tap ends it with the hands played."""
import datetime as dt
import re
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from store import connect
from support.apps import make_app
from support.browser import assert_fits_phone, close_phone, new_phone, shoot, watched_page
from support.club_nights import new_night, night_of, play_round
from support.loopback import in_a_thread
from support.table import Table

EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
ZURICH = "Europe/Zurich"
SMALL = {"width": 360, "height": 740}


def _started_night(app, client):
    table = Table(client)
    crew = table.start_crew("Club")
    night = new_night(client, crew, names=EIGHT, format="game", ranking="per-hand").headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    return crew, night, [table["game_id"] for _, table in sorted(stages[0]["tables"].items())]


def test_the_organiser_sets_a_clock_by_taps_and_a_tables_phone_counts_down_to_it(browser, tmp_path):
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    crew, night, games = _started_night(app, client)
    until = (dt.datetime.now(ZoneInfo(ZURICH)) + dt.timedelta(minutes=31)).strftime("%H:%M")
    with in_a_thread(app) as base:
        organiser = new_phone(browser, timezone_id=ZURICH)
        player = new_phone(browser, SMALL)  # the machine's own zone
        try:
            page, errors = watched_page(organiser)
            page.goto(base + night)
            field = page.locator("#until")
            field.scroll_into_view_if_needed()
            field.tap()
            field.fill(until)
            page.get_by_role("button", name="Set the clock").tap()
            expect(page.locator("#note-clock")).to_have_text(f"Stage 1 plays until {until}: every table sees the time left.")
            clock = page.locator("#stage-view .stage-clock")
            expect(clock.locator("time")).to_have_text(until)  # Zürich's time of day, as the organiser typed it
            expect(clock.locator(".clock-left")).to_have_text(re.compile(r"^(30|31) min left$"))
            assert_fits_phone(page)
            shoot(page, "stage-clock-organiser")
            shoot(page, "stage-clock-organiser", dark=True)

            table_page, table_errors = watched_page(player)
            table_page.goto(f"{base}{crew}games/{games[0]}")
            mine = table_page.locator(".stage-clock")
            expect(mine).to_contain_text("Stage 1: play until")
            ends = dt.datetime.fromisoformat(mine.get_attribute("data-ends"))
            expect(mine.locator("time")).to_have_text(ends.astimezone().strftime("%H:%M"))  # this phone's zone
            expect(mine.locator(".clock-left")).to_have_text(re.compile(r"^(30|31) min left$"))
            assert_fits_phone(table_page)
            shoot(table_page, "stage-clock-table")
            assert errors == [] and table_errors == []
        finally:
            close_phone(organiser)
            close_phone(player)


def test_a_scoreboard_left_open_when_time_runs_out_offers_to_end_the_game(browser, tmp_path):
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    crew, night, games = _started_night(app, client)
    play_round(app, crew, games[0], (0, 1, 2, 3))  # table 1 has played a hand, and is between hands
    ends = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) + dt.timedelta(seconds=8)
    db = connect(app.config["DATABASE"])
    with db.conn:
        db.execute("UPDATE club_night_stages SET ends_at = ?", [ends.isoformat()])
    with in_a_thread(app) as base:
        context = new_phone(browser)
        try:
            page, errors = watched_page(context)
            page.goto(f"{base}{crew}games/{games[0]}")
            page.evaluate("window.notReloaded = true")
            start = page.get_by_role("button", name="Start round 2")
            expect(start).to_be_visible()
            expect(page.locator(".stage-clock .clock-left")).to_have_text("1 min left")
            # The time runs out with the page open: it says so, and its button changes, no reload.
            expect(page.locator(".stage-clock .clock-left")).to_have_text(
                "time is up: the game ends with the hands played", timeout=20_000)
            end = page.get_by_role("button", name="End the game: see who leads")
            expect(end).to_be_visible(timeout=10_000)
            expect(page.locator(".next-round p.big")).to_have_text(
                "The stage’s time is up: this game ends with the 1 hand played.")
            assert page.evaluate("window.notReloaded === true")
            shoot(page, "stage-clock-time-up")
            end.tap()
            expect(page.locator(".winner h1")).to_contain_text("leads after 1 hand")
            expect(page.locator(".goal-line")).to_have_text("1 hand played: the stage’s time was up")
            assert_fits_phone(page)
            shoot(page, "stage-clock-ended")
            assert errors == []
        finally:
            close_phone(context)
