"""The history on a phone: nights, a game's chart, a player's page, a head-to-head, a note added
in place, and a crew exported and restored, each screen fitting 390 px in light and dark."""
import json
import re

from playwright.sync_api import expect

from app import create_app
from support.browser import assert_fits_phone, htmx_settled, shoot, small_tap_targets
from support.known_history import build_known_history


def seeded(server, tmp_path):
    """The known history, written into the served database through a second app on the same file."""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "seed", "WTF_CSRF_ENABLED": False})
    return server + build_known_history(app.test_client()).rstrip("/")


def check(page, name):
    """Fits the phone, no small tap targets, and kept as a screenshot in light and dark."""
    assert_fits_phone(page)
    assert small_tap_targets(page) == []
    shoot(page, name)
    shoot(page, name, dark=True)


def test_history_on_a_phone(page, server, tmp_path):
    crew = seeded(server, tmp_path)
    page.goto(crew + "/")
    page.get_by_role("link", name=re.compile("^History")).first.click()
    page.wait_for_url(re.compile(r"/history$"))
    expect(page.locator("main h1")).to_have_text("History")
    expect(page.locator(".night")).to_have_count(1)
    expect(page.locator(".listed-game")).to_have_count(7)
    htmx_settled(page)
    check(page, "history-01-nights")

    # A note on the night, added in place (htmx swaps the note box only).
    page.evaluate("window.orchardNoReload = true")
    page.locator(".night .note-edit summary").first.click()
    page.locator(".night .note-edit input[name=text]").first.fill("at Dana’s, 3 bottles of cider")
    page.locator(".night .note-edit button").first.click()
    expect(page.locator(".night > .note-box .note")).to_have_text("Note: at Dana’s, 3 bottles of cider")
    assert page.evaluate("window.orchardNoReload === true")

    # Search: the games where Ben finished ahead of Ann.
    page.locator(".search summary").click()
    page.select_option("#ahead", label="Ben")
    page.select_option("#behind", label="Ann")
    page.get_by_role("button", name="Find").click()
    expect(page.locator(".found")).to_have_text("1 game found, on 1 night.")
    expect(page.locator(".listed-game")).to_have_count(1)
    assert re.search(r"ahead=\d+&behind=\d+", page.url)
    htmx_settled(page)
    check(page, "history-02-search")

    # A game: standings, its chart with the goal line, and the chart as a table.
    page.goto(crew + "/history/games/1")
    expect(page.locator("svg.chart .reference text")).to_have_text("Goal 100")
    expect(page.locator("svg.chart polyline")).to_have_count(4)
    box = page.locator("svg.chart").bounding_box()
    assert 300 <= box["width"] <= 366 and box["height"] > 150
    check(page, "history-03-game-chart")
    page.get_by_text("The chart as a table").click()
    expect(page.locator("table.numbers caption")).to_have_text("Each player's total after every round")
    page.locator("#round-1 summary").click()
    expect(page.locator("#round-1")).to_contain_text("Ann won the bid with 2 Spades")
    check(page, "history-04-game-rounds")

    # Ann's page and her head-to-head with Ben.
    page.locator(".final a", has_text="Ann").click()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    expect(page.locator("main h1")).to_have_text("Ann")
    expect(page.locator(".stat-grid dd").first).to_have_text("4")
    expect(page.locator("svg.chart .series .marker.filled")).to_have_count(3)
    check(page, "history-05-player")
    page.locator(".versus-links a", has_text="vs Ben").click()
    page.wait_for_url(re.compile(r"/vs/\d+$"))
    expect(page.locator("main p.big")).to_have_text("4 finished games together.")
    check(page, "history-06-head-to-head")


def test_export_and_restore_on_a_phone(page, server, tmp_path):
    crew = seeded(server, tmp_path)
    page.goto(crew + "/history")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export JSON").click()
    exported = tmp_path / "export.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["crew"]["name"] == "Known crew"

    page.goto(crew + "/history")
    page.get_by_role("link", name=re.compile("Restore a crew")).click()
    page.wait_for_url(re.compile(r"/restore$"))
    check(page, "history-07-restore")
    page.set_input_files("#file", str(exported))
    page.get_by_role("button", name="Restore as a new crew").click()
    page.wait_for_url(re.compile(r"/history$"))
    assert not page.url.startswith(crew)
    expect(page.locator(".flash")).to_contain_text("Known crew is restored with 7 games")
    expect(page.locator(".listed-game")).to_have_count(7)
