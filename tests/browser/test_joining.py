"""Joining a table (issue 43, item 8): a phone brought to the table by its link is asked "which one
are you?" before anything else, and the keyboard's Go on a name in the new game form moves to the
next name instead of sending the form half filled."""
import re

from playwright.sync_api import expect

from support.browser import new_phone, watched_page, close_phone


def test_the_keyboards_go_moves_to_the_next_name(page, orchard):
    orchard.start_crew()
    orchard.new_game_form()
    form_url = page.url
    for seat, name in enumerate(["Ann", "Ben", "Cleo", "Dan"]):
        field = page.locator(f"#player_{seat}")
        if seat:
            expect(field).to_be_focused()  # the Go on the name before brought the cursor here
        else:
            field.tap()
        expect(field).to_have_attribute("enterkeyhint", "next")
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    # Four names in, four Go's: still the form, the names kept, and nothing focused for a fifth.
    assert page.url == form_url
    expect(page.locator("#player_3")).to_have_value("Dan")
    expect(page.locator("#player_3")).not_to_be_focused()
    expect(page.locator("[data-seat-name='3']")).to_have_text("Seat 4 · Dan")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".totals .total")).to_have_count(4)


def test_a_phone_brought_to_the_table_is_asked_which_one_it_is_first(browser, server, page, orchard):
    orchard.start_crew()
    orchard.start_game()
    page.get_by_text("Bring another phone to this table").tap()
    table_link = page.locator(".table-link .qr").get_attribute("data-link")
    context = new_phone(browser)
    other, errors = watched_page(context)
    other.goto(table_link)
    asked = other.locator("section.seats")
    expect(asked.locator("h2")).to_have_text("Which one are you?")
    assert asked.bounding_box()["y"] < other.locator(".totals").bounding_box()["y"]  # above the totals
    expect(asked).to_be_in_viewport()
    asked.get_by_role("button", name=re.compile("^Ben")).tap()
    expect(other.locator(".seat.mine")).to_have_text("Ben · this phone")
    expect(other.locator("section.seats h2")).to_have_text("Phones at the table")
    assert other.locator("section.seats").bounding_box()["y"] > other.locator(".totals").bounding_box()["y"]
    assert errors == []
    close_phone(context)


def test_the_table_links_code_is_drawn_when_asked_for_and_stays_open_while_the_table_plays(browser, page, orchard):
    """bench/load.py: every scoreboard drew its table link's QR code (5-15 ms a code in each server
    process, and past 256 tables on every scoreboard), folded away where nobody looked. The code is
    now an image fetched when "Bring another phone" is opened; and a poll that brings the scoreboard
    anew (another phone took a seat) no longer folds it away under the phone being scanned."""
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "table-link.svg" in request.url else None)
    orchard.start_crew()
    orchard.start_game()
    page.mouse.wheel(0, 2000)  # the folded panel in view: still not fetched
    page.wait_for_timeout(300)
    assert asked == []
    page.get_by_text("Bring another phone to this table").tap()
    code = page.locator(".table-link .qr img")
    expect(code).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=code.element_handle())
    assert len(asked) == 1
    context = new_phone(browser)
    other, errors = watched_page(context)
    other.goto(page.locator(".table-link .qr").get_attribute("data-link"))
    other.locator("section.seats").get_by_role("button", name=re.compile("^Ben")).tap()
    expect(other.locator(".seat.mine")).to_have_text("Ben · this phone")
    expect(page.locator(".seat-buttons")).to_contain_text("Ben · on a phone")  # Ann's phone polled it
    expect(code).to_be_visible()
    assert page.locator(".table-link").evaluate("details => details.open")
    assert errors == []
    close_phone(context)
