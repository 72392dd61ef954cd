"""The big screen of a club night on a 1920×1080 wall screen: nobody scrolls it, so with 200
players it pages by itself, every player shown within one round of its pages, in type that can be
read across a room."""
import re

from playwright.sync_api import expect

from support.apps import make_app
from support.browser import ARTIFACTS, close_phone
from support.club_nights import new_night
from support.loopback import in_a_thread
from support.table import Table

WALL = {"width": 1920, "height": 1080}
READABLE_PX = 24  # the smallest type on the board: headers, names, numbers, where a player is now
PAGE_MS = 8000
# Twenty names of 40 characters among the 200: they take a line like any other.
NAMES = [f"Player {n:03d}" if n % 10 else f"Maximiliane Wolfeschlegelsteinhausen {n:03d}" for n in range(200)]

SHOWN = """() => {
    const rows = [...document.querySelectorAll('#big-board tbody tr')].filter(row => !row.hidden);
    const cells = [...document.querySelectorAll('#big-board thead th'), ...rows.flatMap(row => [...row.children])];
    return {
        names: rows.map(row => row.dataset.player),
        bottom: Math.max(...rows.map(row => row.getBoundingClientRect().bottom)),
        smallest: Math.min(...cells.filter(cell => cell.offsetParent).map(cell => parseFloat(getComputedStyle(cell).fontSize))),
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
}"""


def test_two_hundred_players_are_all_shown_within_one_round_of_pages_in_type_read_across_a_room(browser, tmp_path):
    app = make_app(tmp_path / "orchard.db")
    client = app.test_client()
    crew = Table(client).start_crew("Club")
    night = new_night(client, crew, NAMES).headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    with in_a_thread(app) as base:
        context = browser.new_context(viewport=WALL)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.clock.install()  # the pages turn on the page's own timer: the test moves its clock on
        page.goto(base + night + "/board")
        label = page.locator("#board-page")
        expect(label).to_have_text(re.compile(r"^Page 1 of \d+$"))
        count = int(label.inner_text().split()[-1])
        seen = []
        for number in range(1, count + 1):
            expect(label).to_have_text(f"Page {number} of {count}")
            shown = page.evaluate(SHOWN)
            assert shown["bottom"] <= WALL["height"], f"page {number} runs off the screen: {shown['bottom']}"
            assert shown["smallest"] >= READABLE_PX, f"page {number} has {shown['smallest']} px type"
            assert shown["sideways"] <= 0
            seen += shown["names"]
            if number == 1:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "club-night-big-screen-200.png"))
                page.emulate_media(color_scheme="dark")
                page.screenshot(path=str(ARTIFACTS / "club-night-big-screen-200-dark.png"))
                page.emulate_media(color_scheme="light")
            page.clock.run_for(PAGE_MS)
        expect(label).to_have_text(f"Page 1 of {count}")  # round again
        assert sorted(seen) == sorted(NAMES), "a player was never shown, or shown twice, in one round"
        assert len(seen) / count >= 15, f"{len(seen) / count:.0f} rows a page"
        assert count * PAGE_MS / 1000 <= 120, f"one round of the pages takes {count * PAGE_MS / 1000:.0f} s"
        print(f"{count} pages of {len(seen) / count:.0f} rows, a round of {count * PAGE_MS / 1000:.0f} s")
        assert errors == []
        close_phone(context)
