"""The Content-Security-Policy holds on every kind of page: a whole game in the browser, with the
tools, corrections, a live update, the error pages, and then every link any of those pages shows,
and not one `securitypolicyviolation` event is reported (nor a CSP message on the console). Every
other browser test's pages fail on such a console message too (support/browser.py `watched_page`)."""
import re
import time
from urllib.parse import urldefrag

from playwright.sync_api import expect

from support.browser import htmx_settled, refused_by_the_policy, watched_page

# Every document reports its violations to Python the moment they happen (the binding survives
# navigations; the listener is installed before any page script runs). Once Python has the
# report, the page counts it, so a test can wait for it rather than sleep.
REPORT_VIOLATIONS = """
window.orchardCspReported = 0;
document.addEventListener("securitypolicyviolation", (event) => {
  window.orchardCspViolation({
    page: document.location.href, directive: event.violatedDirective, blocked: event.blockedURI,
    sample: event.sample, source: event.sourceFile, line: event.lineNumber,
  }).then(() => { window.orchardCspReported += 1; });
}, true);
"""
CRAWL_LIMIT = 60


class Watch:
    """What the browser reported: violation events and CSP messages on the console."""

    def __init__(self, page):
        self.events, self.console = [], []
        page.expose_function("orchardCspViolation", self._event)
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", self._console)

    def _event(self, event):
        self.events.append(event)

    def _console(self, message):
        if refused_by_the_policy(message.text):
            self.console.append(message.text)

    def clear(self):
        self.events.clear()
        self.console.clear()


def test_the_watch_sees_a_violation(phone, server):
    """The watch is not blind: an inline style attribute set from script is a violation (on a page
    of its own: the `page` of every other test fails on one, support/browser.py `watched_page`)."""
    page = phone.new_page()
    watch = Watch(page)
    page.goto(server + "/")
    page.evaluate("document.querySelector('main').setAttribute('style', 'color: red')")
    # A function, not an expression: Playwright evaluates an expression with eval() on each poll
    # after the first, which this very policy refuses.
    page.wait_for_function("() => window.orchardCspReported >= 1")  # Python has heard it
    assert [event["directive"] for event in watch.events] == ["style-src-attr"]
    # The console message is a separate event from the browser and may come a little later:
    # each round trip to the page lets Playwright hand over the events that came meanwhile.
    deadline = time.monotonic() + 5
    while not watch.console and time.monotonic() < deadline:
        page.evaluate("0")
    assert watch.console


def test_every_browser_tests_page_is_told_of_a_violation(phone, server):
    """The page every browser test gets (support/browser.py `watched_page`) keeps the browser's word
    of a violation among its errors, which the test then fails on."""
    page, errors = watched_page(phone)
    page.goto(server + "/")
    assert errors == []
    page.evaluate("document.querySelector('main').setAttribute('style', 'color: red')")
    deadline = time.monotonic() + 5
    while not errors and time.monotonic() < deadline:
        page.evaluate("0")
    assert len(errors) == 1 and "inline style violates the following Content Security Policy" in errors[0], errors


def test_a_whole_game_and_every_page_keep_to_the_policy(page, orchard, server):
    watch = Watch(page)
    visited = []

    def visit(url):
        page.goto(url)
        htmx_settled(page)
        visited.append(page.url)

    # --- Home, crew, new game ----------------------------------------------------------------
    visit(server + "/")
    crew_url = orchard.start_crew("CSP crew")
    expect(page.locator(".qr svg")).to_be_visible()
    orchard.new_game_form()
    scoreboard = orchard.fill_new_game(goal="other", goal_other=60)

    # --- Round 1: every control of the round page -----------------------------------------------
    # A redeal, a bid and the bid changed (its form folds away once saved).
    orchard.start_round(1)
    page.get_by_role("button", name="Everyone passed: redeal").tap()
    expect(page.locator("#step-bid .notice")).to_contain_text("Everyone passed")
    orchard.settled()
    orchard.bid(0, 1, "C")
    orchard.bid(1, 2, "S")
    # Exact entry on Ann's hand: the target picker and the card grid.
    orchard.mode("exact")
    orchard.target(0, "10S")
    orchard.add_card("3C")
    orchard.add_card("JD")
    orchard.remove_card("JD")
    # A refused tap: Ben cannot hold four Jacks with a Jack as target; the message shows next to
    # the control.
    orchard.tab(1)
    orchard.target(1, "JS")
    orchard.count("J", 3)
    page.locator("label:has(#n-J-4)").tap()
    expect(page.locator("#msg-rank-J")).to_contain_text("the deck has 4")
    orchard.settled()
    orchard.count("J", 0)
    # Quick entry: Ann's cards become rank counts, then one tap per rank, a count changed.
    orchard.tab(0)
    orchard.mode("quick")
    orchard.counts(0, "10S", {"3": 1, "9": 2, "J": 3, "A": 1})
    orchard.count("A", 2)
    orchard.counts(1, "4H", {"4": 2, "10": 2})
    # A hand with counts switched to exact (a confirm), then back to quick.
    orchard.counts(2, "KD", {"K": 1})
    orchard.mode("exact")
    orchard.mode("quick")
    expect(page.locator("#n-K-0")).to_be_checked()
    orchard.counts(2, "KD", {"K": 1, "7": 3, "8": 2})
    orchard.count("8", 0)
    orchard.counts(3, "2S", {"2": 1, "5": 2, "Q": 2})
    # A target changed through its folded summary.
    orchard.target(3, "2H")
    orchard.target(3, "2S")
    orchard.save(1)

    # --- A live update: another tab starts round 2; this scoreboard's poll swaps it in ----------
    other = page.context.new_page()
    other.goto(scoreboard)
    with page.expect_response(lambda r: "/live?v=" in r.url and r.status == 200, timeout=10_000):
        other.get_by_role("button", name="Start round 2").click()
        other.wait_for_url(re.compile(r"/rounds/2$"))
    htmx_settled(page)
    expect(page.get_by_role("button", name="Continue round 2")).to_be_visible()
    other.close()

    # --- Round 2 ends the game ------------------------------------------------------------------
    page.get_by_role("button", name="Continue round 2").click()
    page.wait_for_url(re.compile(r"/rounds/2$"))
    orchard.bid(2, 1, "H")
    orchard.counts(0, "8C", {"8": 2})
    orchard.counts(1, "3D", {"3": 1, "6": 2})
    orchard.counts(2, "QH", {"Q": 1, "K": 2})
    orchard.counts(3, "9D", {"2": 2})
    orchard.save(2)
    expect(page.locator(".winner h1")).to_have_text("Ann wins!")

    # --- A saved round, a correction dropped, the what-if tool ---------------------------------
    orchard.round_rows().nth(0).locator("td a").nth(0).click()
    page.wait_for_url(re.compile(r"/rounds/1#hand-0$"))
    page.get_by_role("button", name="Correct this round").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1 correcting")
    orchard.settled()
    page.get_by_role("button", name="Cancel correction").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1")
    orchard.settled()
    visit(scoreboard + "/rounds/1/what-if?rank=J&from=0&to=1")
    with page.expect_response(re.compile(r"/what-if\?")):
        page.select_option("#rank", "A")
    htmx_settled(page)

    # --- A seat taken on the scoreboard (an htmx swap of the whole board) ----------------------
    visit(scoreboard)
    seat_buttons = page.locator("form[hx-post*='/seats/'] button")
    if seat_buttons.count():
        seat_buttons.first.click()
        htmx_settled(page)

    # --- Tools ----------------------------------------------------------------------------------
    tools = crew_url + "tools/"
    visit(tools)
    visit(tools + "pile")
    for code in ("10S", "3C", "3D"):
        page.locator(f".cardbtn[data-card='{code}']").click()
        htmx_settled(page)
    visit(tools + "trick")
    page.locator(".cardbtn").first.click()
    htmx_settled(page)
    visit(tools + "bid")
    visit(tools + "rules")
    visit(server + "/rules")

    # --- Error pages: a link that leads nowhere, and a stale CSRF token on an htmx post ---------
    visit(crew_url.replace("/c/", "/c/x") + "games/new")
    expect(page.locator("main")).to_contain_text(re.compile(r"\S"))
    visit(scoreboard)
    page.evaluate("""() => {
        document.body.setAttribute("hx-headers", '{"X-CSRFToken": "stale"}');
        document.querySelectorAll("input[name=csrf_token]").forEach((input) => { input.value = "stale"; });
    }""")
    page.get_by_role("button", name=re.compile("^Rematch")).click()
    expect(page.locator("#main")).to_contain_text("Reload to continue")

    # --- Every other page any of those pages links to (history, exports, new features ...) -----
    seen = {urldefrag(url)[0] for url in visited}
    queue = [crew_url, scoreboard]
    crawled = 0
    while queue and crawled < CRAWL_LIMIT:
        visit(queue.pop(0))
        crawled += 1
        links = page.eval_on_selector_all(
            "a[href]:not([download])", "links => links.map(a => a.href)")
        for href in links:
            url = urldefrag(href)[0]
            if url.startswith(server) and url not in seen and not re.search(r"\.(csv|json)(\?|$)", url):
                seen.add(url)
                queue.append(url)

    assert watch.events == [], watch.events
    assert watch.console == [], watch.console
    assert crawled >= 5
