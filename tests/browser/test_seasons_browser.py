"""A season (issue 47) as a club uses it: on a 390×844 phone the organiser opens one from the crew
page by taps (a name of 40 characters with accents), reads the standings, taps a player for the
breakdown, and leaves a game out with a reason, which moves the standings at once; a player's phone
opens the season's QR link and sees the same standings read only. On a 1920×1080 projector a
season of 200 players pages by itself, every player shown within one round of its pages, in type
read across a room, beside the season's QR code."""
import datetime
import re

from playwright.sync_api import expect

from support.axe_audit import Audit
from support.apps import make_app
from support.browser import ARTIFACTS, assert_fits_phone, close_phone, new_phone, shoot, watched_page
from support.club_nights import play_round
from support.loopback import in_a_thread
from support.table import Table

LONG = "Saison d’hiver à l’Œuf-Brûlé, Zürich 2027"[:40]
WALL = {"width": 1920, "height": 1080}
READABLE_PX = 24
PAGE_MS = 8000


def _games(app, client, table, games):
    """Finished games: each (names, order), seat s dealt the club night tests' hand order[s]."""
    for names, order in games:
        table.start_game(names=list(names), goal="other", goal_other="1")
        play_round(app, table.crew_url, int(table.game_url.rsplit("/", 1)[1]), list(order))


def test_a_season_opened_read_and_changed_by_taps_on_a_phone(browser, tmp_path):
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    table = Table(client)
    crew = table.start_crew("Club")
    # Game 1: Ann 40, Ben 10, Cleo 5, Dan 0; game 2: Ann 0, Ben 40, Cleo 10, Dan 5.
    _games(app, client, table, [(("Ann", "Ben", "Cleo", "Dan"), (0, 1, 2, 3)), (("Ann", "Ben", "Cleo", "Dan"), (3, 0, 1, 2))])
    with in_a_thread(app) as base:
        context = new_phone(browser)
        page, errors = watched_page(context)
        page.goto(base + crew)
        page.get_by_role("link", name="Seasons: the crew’s ladder").tap()
        expect(page.get_by_role("heading", name="Open a season")).to_be_visible()
        page.locator("#name").tap()
        page.locator("#name").fill(LONG)
        page.locator("#first_day").fill((datetime.date.today() - datetime.timedelta(days=30)).isoformat())
        page.locator("#best").fill("1")
        page.get_by_role("button", name="Open the season").tap()
        expect(page.get_by_role("heading", name=LONG)).to_be_visible()
        expect(page.locator("#season-rule")).to_have_text(
            "Each player’s best 1 event count; every player is ranked from their first event.")
        rows = page.locator("#standings tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.nth(0)).to_contain_text("Ann")
        expect(rows.nth(1)).to_contain_text("Ben")
        shoot(page, "season-standings")
        assert_fits_phone(page)
        shoot(page, "season-standings", dark=True)
        Audit(page)("a season's standings")

        rows.nth(2).get_by_role("link", name="Cleo").tap()
        expect(page.get_by_role("heading", name="Cleo")).to_be_visible()
        expect(page.locator(".player-summary")).to_have_text(
            "3rd of 4 · average 66.7 over 1 counted event of 2")
        expect(page.locator("tbody tr").nth(0)).to_contain_text("Counted: among the best 1")
        expect(page.locator("tbody tr").nth(1)).to_contain_text("Dropped: not among the best 1")
        assert_fits_phone(page)
        shoot(page, "season-breakdown")
        page.go_back()

        first_event = page.locator("#events li.event").last  # the oldest: game 1
        first_event.get_by_text("Leave it out (a friendly)").tap()
        first_event.get_by_label("Why it does not count").fill("A friendly with Émile’s cousins")
        first_event.get_by_role("button", name="Leave it out").tap()
        expect(page.locator("#events li.event").last).to_contain_text("Left out: A friendly with Émile’s cousins")
        expect(rows.nth(0)).to_contain_text("Ben")  # game 2 alone: Ben won it
        expect(rows.nth(0).locator(".average")).to_have_text("100")

        page.locator("#season-share summary").tap()
        watch = page.locator("#season-share .qr").get_attribute("data-link")
        assert crew not in watch
        player = new_phone(browser)
        phone, player_errors = watched_page(player)
        phone.goto(watch)
        expect(phone.locator("#standings tbody tr")).to_have_count(4)
        expect(phone.locator("#standings tbody tr").nth(0)).to_contain_text("Ben")
        assert phone.locator("form").count() == 0
        assert_fits_phone(phone)
        assert errors == [] and player_errors == []
        close_phone(player)
        close_phone(context)


NAMES = [f"Player {n:03d}" if n % 10 else f"Maximiliane Wolfeschlegelsteinhausen {n:03d}" for n in range(200)]
SHOWN = """() => {
    const rows = [...document.querySelectorAll('#big-board tbody tr')].filter(row => !row.hidden);
    const cells = [...document.querySelectorAll('#big-board thead th'), ...rows.flatMap(row => [...row.children])];
    const qr = document.querySelector('.season-corner').getBoundingClientRect();
    return {
        names: rows.map(row => row.querySelector('th').textContent.trim()),
        bottom: Math.max(...rows.map(row => row.getBoundingClientRect().bottom)),
        right: Math.max(...rows.map(row => row.getBoundingClientRect().right)),
        qrLeft: qr.left,
        smallest: Math.min(...cells.filter(cell => cell.offsetParent).map(cell => parseFloat(getComputedStyle(cell).fontSize))),
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
}"""


def test_a_season_of_two_hundred_on_a_projector_pages_through_everyone(browser, tmp_path):
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    table = Table(client)
    crew = table.start_crew("Club")
    _games(app, client, table, [(NAMES[n:n + 4], (0, 1, 2, 3)) for n in range(0, 200, 4)])
    opened = client.post(crew + "seasons", data={"name": LONG, "first_day": "2000-01-01", "minimum": "1"})
    season = opened.headers["Location"]
    screen = re.search(r'id="projector-link" href="([^"]+)"', client.get(season).get_data(as_text=True)).group(1)
    with in_a_thread(app) as base:
        context = browser.new_context(viewport=WALL)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.clock.install()
        page.goto(base + screen)
        label = page.locator("#board-page")
        expect(label).to_have_text(re.compile(r"^Page 1 of \d+$"))
        count = int(label.inner_text().split()[-1])
        seen = []
        for number in range(1, count + 1):
            expect(label).to_have_text(f"Page {number} of {count}")
            shown = page.evaluate(SHOWN)
            assert shown["bottom"] <= WALL["height"], f"page {number} runs off the screen: {shown['bottom']}"
            assert shown["right"] <= shown["qrLeft"], "the standings run under the QR code"
            assert shown["smallest"] >= READABLE_PX, f"page {number} has {shown['smallest']} px type"
            assert shown["sideways"] <= 0
            seen += shown["names"]
            if number == 1:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "season-projector-200.png"))
                page.emulate_media(color_scheme="dark")
                page.screenshot(path=str(ARTIFACTS / "season-projector-200-dark.png"))
                page.emulate_media(color_scheme="light")
            page.clock.run_for(PAGE_MS)
        expect(label).to_have_text(f"Page 1 of {count}")
        assert sorted(seen) == sorted(NAMES), "a player was never shown, or shown twice, in one round"
        assert count * PAGE_MS / 1000 <= 120, f"one round of the pages takes {count * PAGE_MS / 1000:.0f} s"
        assert errors == []
        close_phone(context)


def test_a_night_seated_by_the_seasons_standing_is_chosen_on_the_new_night_form(browser, tmp_path):
    """The organiser taps the crew's players, picks "By standing" and the season, starts the night
    and draws stage 1: the page says the tables follow the season, table by table."""
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    table = Table(client)
    crew = table.start_crew("Club")
    nine = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    _games(app, client, table, [(nine[:4], (0, 1, 2, 3)), (nine[4:8], (0, 1, 2, 3))])
    assert client.post(crew + "seasons", data={"name": LONG, "first_day": "2000-01-01", "minimum": "1"}).status_code == 303
    with in_a_thread(app) as base:
        context = new_phone(browser)
        page, errors = watched_page(context)
        page.goto(base + crew)
        page.get_by_role("link", name="Club night: more than four players").tap()
        page.get_by_role("link", name="New club night").tap()
        # Seven of the eight ranked players and Ivy, who has played nothing: eight, so nobody sits
        # out (a drawn sit-out could have left Ivy out, and the second table with no unranked).
        for name in nine[:7]:
            page.locator("label.pick", has_text=re.compile(rf"^{name}$")).tap()
        page.locator("#names").fill("Ivy")
        by_standing = page.get_by_label("By standing: the season’s for stage 1, tonight’s after")
        by_standing.scroll_into_view_if_needed()
        by_standing.tap()
        expect(by_standing).to_be_checked()
        expect(page.locator("#season")).to_have_value("1")
        assert_fits_phone(page)
        shoot(page, "night-by-standing-form")
        page.get_by_role("button", name="Start the night").tap()
        page.wait_for_url(re.compile(r"/club-nights/\d+$"))
        page.get_by_role("button", name="Draw stage 1").tap()
        expect(page.locator("#made")).to_have_text(f"Tables by standing: the season {LONG}’s standings.")
        expect(page.locator(".table-made")).to_have_count(2)
        expect(page.locator(".table-made").nth(0)).to_have_text("As drawn: places 1–4")
        expect(page.locator(".table-made").nth(1)).to_have_text("As drawn: places 5–7 and 1 not ranked yet")
        assert_fits_phone(page)
        shoot(page, "night-by-standing-drawn")
        assert errors == []
        close_phone(context)
