"""Table and watch links on phones: the scoreboard hands out a table link, a phone that scanned it
plays that game and sees nothing of the crew, and the crew page lists and replaces the link."""
import re

from playwright.sync_api import expect

from support.browser import Orchard, assert_fits_phone, new_phone, shoot, watched_page, close_phone


def test_a_phone_brought_to_the_table_plays_its_game_and_no_more(browser, server, page, orchard):
    orchard.start_crew("Link crew")
    crew_url = page.url
    orchard.start_game()
    page.get_by_text("Bring another phone to this table").tap()
    code = page.locator(".table-link .qr")
    expect(code).to_be_visible()
    assert code.bounding_box()["y"] + code.bounding_box()["height"] <= page.viewport_size["height"] + page.evaluate(
        "window.scrollY") + 844  # on the page, under the summary tapped
    table_link = code.get_attribute("data-link")
    assert crew_url.split("/c/")[1].split("/")[0] not in table_link, "the crew's token stays with the crew"
    assert_fits_phone(page)

    context = new_phone(browser)
    other, errors = watched_page(context)
    other.goto(table_link)
    expect(other.locator(".totals")).to_be_visible()
    expect(other.locator("a.crew-link")).to_have_count(0)  # the crew's name, but no way to the crew page
    expect(other.get_by_role("link", name=re.compile("History"))).to_have_count(0)
    other.get_by_role("button", name=re.compile("^Ben")).tap()
    expect(other.locator(".seat.mine")).to_contain_text("Ben · this phone")
    table = Orchard(other, server)
    table.start_round(1)
    assert_fits_phone(other)
    crew_page = other.goto(table_link.rsplit("/games/", 1)[0] + "/")
    assert crew_page.status == 404

    page.goto(crew_url)
    links = page.locator("#links")
    expect(links).to_contain_text("Table link of game 1")
    assert_fits_phone(page)
    shoot(page, "crew-links")
    shoot(page, "crew-links", dark=True)
    links.get_by_role("button", name="Replace").first.tap()
    expect(links.get_by_role("status")).to_contain_text("That link was replaced")
    # The phone still holding the old link is told it was replaced (410), not answered as a guess.
    assert other.goto(table_link).status == 410
    expect(other.locator("h1")).to_have_text("This link was replaced")
    assert_fits_phone(other)
    assert errors == []
    close_phone(context)
