"""The service worker on a phone: it registers for the whole app, a page asked for without a
connection is the clear offline page (not the browser's error, not an old copy of the scores),
and nothing of a crew is ever stored in its cache."""
import pytest
from playwright.sync_api import expect

from support.browser import shoot

# In Debian's /usr/bin/chromium itself, not its headless shell (tests/browser/conftest.py):
# the service worker and the offline page.
pytestmark = pytest.mark.full_chromium

READY = "navigator.serviceWorker.ready.then(r => r.scope)"
CACHED_URLS = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) urls.push(request.url);
  }
  return urls;
}"""


def controlled(page):
    """Wait until the worker is active and controls this page (it claims open pages)."""
    scope = page.evaluate(READY)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return scope


def test_the_worker_covers_the_app_and_offline_pages_say_so(page, phone, orchard, server):
    orchard.start_crew()
    scoreboard = orchard.start_game()
    assert controlled(page) == server + "/"
    expect(page.locator(".totals .total")).to_have_text(["0", "0", "0", "0"])

    # The app shell is stored; no crew page, game or poll is.
    cached = page.evaluate(CACHED_URLS)
    assert any("/static/app.css" in url for url in cached) and server + "/offline" in cached
    assert not [url for url in cached if "/c/" in url], cached

    # Without a connection, the scoreboard address gives the offline page, styled from the cache.
    phone.set_offline(True)
    page.goto(scoreboard)
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("main")).to_contain_text("shows no scores")
    expect(page.locator(".totals")).to_have_count(0)  # never the scores seen a moment ago
    assert page.locator(".offline-page").evaluate("el => getComputedStyle(el).borderRadius") == "12px"
    shoot(page, "offline-01")
    shoot(page, "offline-01", dark=True)
    page.goto(server + "/")
    expect(page.locator("h1")).to_have_text("No connection")

    # Back online, "Try again" opens the page again with the scores as they are now. (The browser
    # may take a moment to find its connection again: on a loaded machine the first try once still
    # got the offline page, as a phone's first tap on "Try again" may.)
    phone.set_offline(False)
    for _ in range(20):
        page.goto(scoreboard)
        if page.locator(".totals .total").count():
            break
        page.wait_for_timeout(500)
    expect(page.locator(".totals .total")).to_have_text(["0", "0", "0", "0"])
    assert not [url for url in page.evaluate(CACHED_URLS) if "/c/" in url]


def test_a_score_changed_elsewhere_is_never_shown_from_an_old_copy(page, phone, orchard, server):
    orchard.start_crew()
    scoreboard = orchard.start_game()
    controlled(page)
    expect(page.locator(".totals .total")).to_have_text(["0", "0", "0", "0"])
    # Another phone saves a round while this one looks elsewhere.
    other = phone.new_page()
    other.goto(scoreboard)
    other.close()
    orchard.enter_round_one()
    orchard.save(1)
    page.goto(server + "/rules")
    page.goto(scoreboard)
    expect(page.locator(".totals .total")).to_have_text(["10", "40", "0", "−15"])
    # Going back in history asks the network too (crew pages are no-store, the worker stores none).
    page.go_back()
    page.go_forward()
    expect(page.locator(".totals .total")).to_have_text(["10", "40", "0", "−15"])


def test_a_home_screen_launch_opens_the_crew_used_last(page, orchard, server):
    manifest = page.request.get(server + "/static/manifest.webmanifest").json()
    assert manifest["start_url"] == "/?source=pwa"
    # A phone that never opened a crew gets the home page.
    page.goto(server + manifest["start_url"])
    expect(page.get_by_role("button", name="Start the crew")).to_be_visible()
    first = orchard.start_crew("First crew")
    second = orchard.start_crew("Second crew")
    page.goto(server + manifest["start_url"])
    assert page.url == second
    page.goto(first)
    page.goto(server + manifest["start_url"])
    assert page.url == first
    expect(page.locator("h1")).to_contain_text("First crew")
