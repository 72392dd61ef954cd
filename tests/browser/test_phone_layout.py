"""The main pages on a 390 px phone, light and dark: nothing scrolls sideways and every button,
link and choice is at least 44 × 44 px (the size a thumb can hit)."""
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from support.browser import SCOREBOARD_URL, assert_fits_phone, close_phone, new_phone, shoot, sideways, small_tap_targets


def check_page(page, name, found):
    """Check one page in both colour schemes; keep what is wrong instead of stopping at the first."""
    for dark in (False, True):
        page.emulate_media(color_scheme="dark" if dark else "light")
        scheme = "dark" if dark else "light"
        try:
            assert_fits_phone(page)
        except AssertionError as error:
            found.append(f"{name} ({scheme}): {error}")
        small = small_tap_targets(page)
        if small:
            found.append(f"{name} ({scheme}): tap targets under 44 px: {small}")
        shoot(page, f"layout-{name}", dark=dark)
    page.emulate_media(color_scheme="light")


def test_main_pages_fit_a_phone_with_big_enough_tap_targets(page, orchard):
    found = []
    page.goto(orchard.base + "/")
    check_page(page, "home", found)

    orchard.start_crew("Thursday crew")
    check_page(page, "crew", found)
    page.goto(orchard.base + "/")  # now with "Your crews"
    check_page(page, "home-with-crews", found)
    page.locator(".link-list a").first.click()
    page.wait_for_url(re.compile(r"/c/[^/]+/$"))

    orchard.new_game_form()
    check_page(page, "new-game", found)
    for seat, name in enumerate(orchard.names):
        page.fill(f"#player_{seat}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SCOREBOARD_URL)
    check_page(page, "scoreboard-new", found)

    orchard.start_round(1)
    orchard.bid(0, 1, "S")
    orchard.counts(0, "10S", {"J": 2, "A": 1})
    check_page(page, "round-quick", found)
    orchard.tab(1)
    orchard.mode("exact")
    orchard.cards(1, "4H", ["4C", "4D", "10C", "10D"])
    check_page(page, "round-exact", found)

    # A saved round, so the scoreboard shows its rounds table, and the round's own page.
    orchard.mode("quick")
    for seat, target in enumerate(["10S", "4H", "KD", "2S"]):
        orchard.target(seat, target)
    orchard.save(1)
    check_page(page, "scoreboard-with-rounds", found)
    orchard.round_rows().nth(0).locator("th a").click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    check_page(page, "round-scored", found)

    assert not found, "Layout problems on a phone:\n" + "\n".join(found)


def test_long_names_do_not_push_pages_sideways(page, orchard):
    """Names as long as the forms allow (40 characters) must be cut short, not widen the page."""
    found = []
    orchard.start_crew("Friday night apple pickers of Orchard Ln")  # 40 characters
    check_page(page, "long-crew", found)
    # Short names deal and bid first in round 1, long names in round 2.
    orchard.names = ["Dan", "Bo", "Cleopatra Maximiliane", "Annabelle-Josephine"]
    orchard.start_game(first_dealer=0)
    check_page(page, "long-scoreboard-new", found)
    # A name cut short can still be read whole: a long press or hover shows its title.
    name = page.locator(".total-card .name").nth(3)
    assert name.evaluate("el => el.scrollWidth > el.clientWidth"), "the long name is not cut on this phone"
    expect(name).to_have_attribute("title", "Annabelle-Josephine")
    expect(page.locator("table.rounds thead th[title='Annabelle-Josephine'], .total-card .name[title='Cleopatra Maximiliane']")).not_to_have_count(0)
    # The dealer mark reads "D" on screen and "deals next" to a screen reader.
    mark = page.locator(".dealer-mark")
    expect(mark).to_have_text("Ddeals next")
    expect(mark.locator("[aria-hidden=true]")).to_have_text("D")
    assert "deals next" in page.locator(".totals").aria_snapshot()
    assert not re.search(r"\bD\b", page.locator(".totals").aria_snapshot())

    orchard.start_round(1)
    for seat, target in enumerate(["10S", "4H", "KD", "2S"]):
        orchard.target(seat, target)
    orchard.bid(3, 1, "S")
    check_page(page, "long-round-1", found)
    expect(page.locator("#tab-3 .tab-name")).to_have_attribute("title", "Annabelle-Josephine")
    orchard.save(1)
    check_page(page, "long-scoreboard-with-rounds", found)
    orchard.round_rows().nth(0).locator("th a").click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    check_page(page, "long-round-scored", found)

    # Round 2: Bo deals, Cleopatra Maximiliane bids first.
    page.get_by_role("link", name="← Scoreboard").click()
    orchard.start_round(2)
    check_page(page, "long-round-2", found)

    assert not found, "Layout problems on a phone with long names:\n" + "\n".join(found)


def test_a_page_is_measured_once_it_has_its_style_sheet(browser, orchard):
    """`assert_fits_phone` waits for the page's style sheets. Measured before them, a page is laid
    out as a phone never draws it (a fresh clone's run once failed on such a reading: 93 px)."""
    crew_url = orchard.start_crew("Obstbaumwiesenfreundeskreisvereinsheimat")  # 40 letters, one word
    context = new_phone(browser)  # a phone that has not fetched the style sheet yet
    held = []
    context.route("**/app.css*", lambda route: held.append(route))
    try:
        page = context.new_page()
        page.goto(crew_url, wait_until="commit")
        expect(page.locator("h1")).to_contain_text("Obstbaumwiesen")
        assert sideways(page) > 0, "without its style sheet the name runs past the edge: the case this is about"
        page.set_default_timeout(1_000)
        with pytest.raises(PlaywrightTimeout):  # it waits for the sheet rather than measure without it
            assert_fits_phone(page)
        page.set_default_timeout(10_000)
        held[0].continue_()
        assert_fits_phone(page)
    finally:
        close_phone(context)
