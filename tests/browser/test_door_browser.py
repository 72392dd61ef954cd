"""Check-in at the door (issue 44, item 3), tapped as a club night lives it: the organiser opens the
door code and enlarges it with a tap; a player's phone (360×740) opens the code, types a name of 40
characters with accents and taps Check in; the organiser's page (never reloaded) shows the arrival
with its Undo; the organiser draws and starts stage 1, and the player's board (never reloaded) says
where they sit, with one tap to open their table. The big screen shows the door code."""
import re

from playwright.sync_api import expect

from support.axe_audit import Audit
from support.browser import SMALL_PHONE, assert_fits_phone, close_phone, new_phone, shoot, watched_page
from support.club_nights import NINE

LONG = "Émilie-Éléonore de la Tour-Saint-Jacques"  # 40 characters


def test_a_player_checks_in_at_the_door_and_is_drawn(browser, server, page):
    organiser = page
    organiser.goto(server + "/")
    organiser.fill("#name", "Club")
    organiser.get_by_role("button", name="Start the crew").tap()
    organiser.wait_for_url(re.compile(r"/c/[^/]+/$"))
    crew = organiser.url
    organiser.goto(crew + "club-nights/new")
    organiser.fill("#names", "\n".join(NINE[:8]))
    organiser.fill("#stage_hands", "2")
    organiser.get_by_role("button", name="Start the night").tap()
    organiser.wait_for_url(re.compile(r"/club-nights/\d+$"))

    door_code = organiser.locator("#door-code")
    door_code.locator("summary").tap()
    code = door_code.locator(".qr")
    expect(code).to_be_visible()
    code.tap()  # the code fills the screen for a phone across the table to scan
    expect(code).to_have_class(re.compile(r"\bqr-big\b"))
    size = code.locator("svg").bounding_box()
    assert size["width"] >= 0.9 * 390 and size["x"] >= 0 and size["x"] + size["width"] <= 390
    shoot(organiser, "door-code-enlarged")
    code.tap()
    expect(code).not_to_have_class(re.compile(r"\bqr-big\b"))
    door_code.get_by_role("button", name="Copy link").tap()
    expect(door_code.locator("[data-share-status]")).to_have_text(re.compile(r"Copied|Could not copy"))
    door = code.get_attribute("data-link")
    assert re.search(r"/club-nights/\d+/door$", door)

    context = new_phone(browser, viewport=SMALL_PHONE)
    player, errors = watched_page(context)
    player.goto(door)
    expect(player.get_by_role("heading", name="Checking in: who are you?")).to_be_visible()
    assert player.get_by_role("button", name="Ann").is_visible()  # the crew's names to tap
    shoot(player, "door-check-in")
    audit = Audit(player)
    audit("the door")
    player.locator("#name").tap()
    player.locator("#name").fill(LONG)
    player.get_by_role("button", name="Check in").tap()
    box = player.locator("#my-table")
    expect(box).to_have_text(re.compile(rf"{LONG}, you are on tonight's list\."))
    assert_fits_phone(player)
    shoot(player, "door-checked-in", dark=True)
    player.goto(door)  # the code scanned again: this phone is checked in
    expect(player.locator("#checked-in")).to_contain_text(f"This phone is checked in as {LONG}.")
    audit("the door, checked in")
    assert audit.found == [], "axe-core violations:\n" + audit.report()
    player.get_by_role("link", name="Tonight's board").tap()

    arrival = organiser.locator(".night-players li", has_text=LONG)  # the organiser's page follows
    expect(arrival.locator(".door-chip")).to_be_visible(timeout=8_000)
    expect(arrival.get_by_role("button", name="Undo check-in")).to_be_visible()
    shoot(organiser, "door-arrival")
    organiser.get_by_role("button", name="Draw stage 1").tap()
    expect(organiser.get_by_role("button", name="Start stage 1")).to_be_visible()
    expect(arrival.get_by_role("button", name="Undo check-in")).to_have_count(0)  # drawn with them now
    organiser.get_by_role("button", name="Start stage 1").tap()
    expect(organiser.locator(".night-table .qr svg")).to_have_count(2)

    expect(box).to_have_text(re.compile(rf"Stage 1: {LONG}, you (are at table \d, seat \d|sit this stage out)"),
                             timeout=8_000)
    if "sit this stage out" not in box.inner_text():
        table_no = re.search(r"table (\d)", box.inner_text())[1]
        player.get_by_role("link", name=f"Open table {table_no}").tap()
        expect(player.get_by_role("heading", name="Which one are you?")).to_be_visible()
        player.get_by_role("button", name=LONG).tap()
        expect(player.locator(".seat.mine")).to_have_text(f"{LONG} · this phone")
    assert errors == []
    close_phone(context)

    screen = browser.new_context(viewport={"width": 1280, "height": 720})
    board, board_errors = watched_page(screen)
    board.goto(server + organiser.locator("a", has_text="Big-screen view").get_attribute("href"))
    corner = board.locator(".door-corner")
    expect(corner).to_be_visible()
    assert corner.locator(".qr").get_attribute("data-link") == door
    shoot(board, "door-big-screen")
    assert board_errors == []
    close_phone(screen)
