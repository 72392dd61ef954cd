"""Taps held offline survive a reload (issue 43, item 5): a phone taps counts while offline, the
page is reloaded (still offline, then back online), and every tap reaches the server once: the
counts are stored, and the hand's version rose by exactly as many taps."""
import pytest
from playwright.sync_api import Error, expect

from support.browser import PHONE, SMALL_PHONE, Orchard, new_phone, watched_page, close_phone

# In Debian's /usr/bin/chromium itself, not its headless shell (tests/browser/conftest.py):
# taps kept in the page's storage over a reload.
pytestmark = pytest.mark.full_chromium

TAPS = [("3", 2), ("9", 2), ("J", 3), ("A", 2)]


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_taps_made_offline_are_sent_once_after_a_reload(browser, server, size):
    context = new_phone(browser, viewport=size)
    page, errors = watched_page(context)
    phone = Orchard(page, server)
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    phone.bid(0, 1, "D")
    round_url = page.url
    version = int(page.locator("#hand-version").get_attribute("value"))

    context.set_offline(True)
    for rank, n in TAPS:
        page.locator(f"label:has(#n-{rank}-{n})").tap()
    expect(page.locator("#live-status")).to_have_text("○ Offline: 4 taps wait to be sent", timeout=8_000)
    try:
        page.reload()  # the phone is still offline: no page, or the offline page
    except Error:
        pass
    context.set_offline(False)
    page.goto(round_url)
    # The taps written down before the reload are sent again and the hand drawn as stored.
    for rank, n in TAPS:
        expect(page.locator(f"#n-{rank}-{n}")).to_be_checked(timeout=8_000)
    expect(page.locator("#live-status")).to_have_text("● Live")
    expect(page.locator("#hand-version")).to_have_value(str(version + len(TAPS)))
    page.reload()  # what the server holds, nothing sent again
    for rank, n in TAPS:
        expect(page.locator(f"#n-{rank}-{n}")).to_be_checked()
    expect(page.locator("#hand-version")).to_have_value(str(version + len(TAPS)))
    assert page.evaluate("localStorage.getItem('orchard-unsent')") == "{}"
    assert errors == []
    close_phone(context)
