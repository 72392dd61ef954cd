"""What a phone does in the browser tests: the clicks a player makes, each waiting for its
answer, and the checks every page gets (fits a phone, tap targets, screenshots)."""
import os
import re
from pathlib import Path

from playwright.sync_api import expect

# Debian's Chromium, two ways: the browser itself, and the same build's headless shell (package
# chromium-headless-shell: Chromium's "old" headless mode, what Playwright itself runs headless).
# The shell draws the same pages with the same Blink at about half the CPU (the browser suite: 366 s
# against 599 s on 2 cores, 649 against 1,148 CPU-seconds), so the suite runs in it; the tests marked
# `full_chromium` run in the browser itself (tests/browser/conftest.py).
CHROMIUM = os.environ.get("ORCHARD_CHROMIUM", "/usr/bin/chromium")
HEADLESS_SHELL = os.environ.get("ORCHARD_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
# The live pages poll every 3 s; the browser tests' servers poll every half second, so a test that
# waits for another phone's change waits less (what a poll brings is the same).
POLL_SECONDS = 0.5
# A finished hand stays in view this long before the next opens (1.2 s for players; the pause itself
# is tested in tests/browser/test_thumb_stays.py with a longer one): the move still waits for it.
MOVE_ON_SECONDS = 0.05
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


SMALL_PHONE = {"width": 360, "height": 740}


def new_phone(browser, viewport=PHONE, **options):
    """A phone-sized browser context (its own cookies), 10 s for any step; `options` add to
    Playwright's (a time zone, a locale)."""
    context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True, **options)
    context.set_default_timeout(10_000)
    return context


def close_phone(context):
    """Close a phone's browser context once its pages are still: each is sent to about:blank first.
    A page that a poll is moving on (a game just ended sends every phone to the winner) can keep
    Chromium from ever answering the close, and the run waits for good."""
    for page in context.pages:
        try:
            page.goto("about:blank", timeout=5_000)
        except Exception:  # noqa: BLE001 - a page that will not go is closed all the same
            pass
    context.close()


def watched_page(context):
    """A page that accepts every confirm dialog and keeps its JavaScript errors and the browser's
    word of anything the Content-Security-Policy refused: (page, errors)."""
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if refused_by_the_policy(message.text) else None)
    return page, errors


def refused_by_the_policy(text):
    """Whether a console message is Chromium's about the Content-Security-Policy (a refusal, or a
    directive it ignored)."""
    return "Content Security Policy" in text or "Content-Security-Policy" in text


# The README's pictures (docs/pictures/): `make pictures` runs the browser tests that take these
# screenshots with ORCHARD_PICTURES set, and each is also kept there as the phone's screen shows it.
README_PICTURES = {"quick-04-round-quick": ("round-page.png", ".tabs"),
                   "club-night-board": ("club-night-leaderboard.png", "#leaderboard")}


def shoot(page, name, dark=False):
    """Keep a full-page screenshot as a test artifact (git ignores the folder), one image pixel a CSS
    pixel: a quarter of the phone's own pixels to encode (0.09 s a page, not 0.29), the same to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.screenshot(path=str(ARTIFACTS / f"{name}{'-dark' if dark else ''}.png"), full_page=True, scale="css")
    pictures = os.environ.get("ORCHARD_PICTURES")
    if pictures and name in README_PICTURES:
        file, region = README_PICTURES[name]
        scrolled = page.evaluate("window.scrollY")
        page.locator(region).evaluate("element => element.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(Path(pictures) / (f"dark-{file}" if dark else file)))
        page.evaluate(f"window.scrollTo(0, {scrolled})")
    page.emulate_media(color_scheme="light")


def sideways(page):
    """How far the page scrolls sideways now, in CSS pixels (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def assert_fits_phone(page):
    """No sideways scrolling on a phone, measured once the page has its style sheets: a page that
    is still loading them is laid out without, and a phone does not draw it so (a fresh clone's run
    once read 93 px just after a tap had opened the night's board)."""
    page.wait_for_load_state("load")
    overflow = sideways(page)
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


def small_tap_targets(page):
    """Visible buttons, links and choices smaller than 44 px in either direction.

    A checkbox or radio is tapped through its label (the card grid, the count and target pickers):
    the label is what the thumb hits, so the label is measured. Measured once the page has its
    style sheets, as `assert_fits_phone` is."""
    page.wait_for_load_state("load")
    return page.evaluate(
        """() => [...new Set([...document.querySelectorAll('button, a, .choice span, select, input:not([type=hidden])')]
            .map(el => el.matches('input[type=checkbox], input[type=radio]') ? el.closest('label') || el : el))]
            .filter(el => el.offsetParent !== null)
            .map(el => [el, el.getBoundingClientRect()])
            .filter(([el, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
            .map(([el, r]) => `${el.tagName} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )


# ---------------------------------------------------------------------------------------------
# Steps a table takes in the browser, each waiting for what the user would see change (every
# htmx swap replaces #round-main, so each step waits for the new content, never a fixed sleep).

NAMES = ("Ann", "Ben", "Cleo", "Dan")
SCOREBOARD_URL = re.compile(r"/c/[^/]+/games/\d+$")
SUIT_LABELS = {"D": "♦ Diamonds", "H": "♥ Hearts", "C": "♣ Clubs", "S": "♠ Spades"}


def htmx_settled(page):
    """Wait until htmx has no request in flight and has wired up the content it swapped in.

    htmx 2 inserts new content, then binds its hx-* attributes only when the content settles
    (20 ms later, `htmx-added` marks it until then): a tap in between would not go through htmx.
    """
    page.wait_for_function(
        "() => window.htmx && !document.querySelector("
        "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added, .moving-on')"
    )


class Orchard:
    """One phone at the table: the clicks a player makes, each waiting for its answer."""

    def __init__(self, page, base, names=NAMES):
        self.page = page
        self.base = base
        self.names = list(names)

    def settled(self):
        htmx_settled(self.page)

    # Crew and game -------------------------------------------------------------------------
    def start_crew(self, name="Thursday crew"):
        self.page.goto(self.base + "/")
        self.page.fill("#name", name)
        self.page.get_by_role("button", name="Start the crew").click()
        self.page.wait_for_url(re.compile(r"/c/[^/]+/$"))
        return self.page.url

    def new_game_form(self):
        self.page.get_by_role("link", name="New game").click()
        self.page.wait_for_url(re.compile(r"/games/new$"))

    def start_game(self, first_dealer=0, goal="250", goal_other=None):
        """From the crew page: the new game form filled in and sent; lands on the scoreboard."""
        self.new_game_form()
        return self.fill_new_game(first_dealer, goal, goal_other)

    def fill_new_game(self, first_dealer=0, goal="250", goal_other=None):
        """On the new game form: the players, the first dealer and the goal, sent; lands on the
        scoreboard and returns its URL."""
        for seat, name in enumerate(self.names):
            self.page.fill(f"#player_{seat}", name)
        self.page.locator(f"#field-first_dealer input[value=\"{first_dealer}\"]").check()
        self.page.get_by_role("radio", name={"250": "250", "500": "500 (long game)"}.get(goal, "Other"), exact=True).check()
        if goal_other is not None:
            self.page.fill("#goal_other", str(goal_other))
        self.page.get_by_role("button", name="Start the game").click()
        self.page.wait_for_url(SCOREBOARD_URL)
        return self.page.url

    # Round entry ---------------------------------------------------------------------------
    def start_round(self, number):
        self.page.get_by_role("button", name=f"Start round {number}").click()
        self.page.wait_for_url(re.compile(rf"/rounds/{number}$"))
        expect(self.page.locator("#round-main h1")).to_contain_text(f"Round {number}")

    def bid(self, seat, number, suit):
        """Three taps: who won the bid, its number and its suit; the third saves it (a bid already
        saved is opened first, and each choice that differs changes it at once)."""
        step = self.page.locator("#step-bid")
        details = step.locator("details")
        if details.get_attribute("open") is None:  # a saved bid folds its form away
            step.locator("summary").tap()
        for field, value in (("bidder", seat), ("number", number), ("suit", suit)):
            box = step.locator(f"#field-{field} input[value='{value}']")
            if not box.is_checked():
                step.locator(f"#field-{field} label:has(input[value='{value}'])").tap()
                expect(box).to_be_checked()
        expect(self.page.locator("#step-bid .trump")).to_contain_text(f"{self.names[seat]} won with")
        self.settled()

    def mode(self, mode):
        """Quick or exact entry for the hand on the current tab."""
        button = self.page.locator(f"#mode-{mode}")
        if button.get_attribute("aria-pressed") != "true":
            button.tap()
        expect(self.page.locator(f"#mode-{mode}")).to_have_attribute("aria-pressed", "true")
        self.settled()

    def tab(self, seat):
        current = self.page.locator(".tabs .tab.current .tab-name")
        if current.text_content() != self.names[seat]:
            self.page.locator(f"#tab-{seat}").tap()
        expect(current).to_have_text(self.names[seat])
        self.settled()

    def open_target(self, seat):
        """On this hand's tab, the target grid unfolded (a set target folds to its summary)."""
        self.tab(seat)
        step = self.page.locator("#target-step")
        if step.get_attribute("open") is None:
            step.locator("summary").tap()
        expect(step).to_have_attribute("open", "")

    def target(self, seat, code, stay=True):
        """One tap on the target grid. A hand's first target, once its pile is in, opens the next
        hand still without one; with `stay` the phone goes back to this hand's tab (one more tap
        when it opened one), as a test checking this hand next would."""
        self.open_target(seat)
        self.page.locator(f"label:has(#t-{code})").tap()
        expect(self.page.locator(f"#tab-{seat} .tab-score")).not_to_have_text("…")
        self.settled()
        if stay:
            self.tab(seat)
            label = code[:-1] + {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[code[-1]]
            expect(self.page.locator("#target-summary")).to_contain_text(f"{self.names[seat]}’s target {label}")

    def count(self, rank, n):
        """One tap: the pile holds `n` cards of `rank`."""
        self.page.locator(f"label:has(#n-{rank}-{n})").tap()
        expect(self.page.locator(f"#n-{rank}-{n}")).to_be_checked()
        self.settled()

    def counts(self, seat, target, counts, stay=True):
        """Quick entry for one player, as the page orders it: one tap per rank the pile holds, then
        the target card (which opens the next hand; `stay` comes back to this one). A hand that
        was entered card by card in the round before starts exact: it is switched first."""
        self.tab(seat)
        self.mode("quick")
        for rank, n in counts.items():
            self.count(rank, n)
        self.target(seat, target, stay=stay)

    def enter_round_one(self):
        """Round 1 as several tests share it, in quick mode, not saved: Ben bids 1♦; Ann 10♠ + J J
        (a pair of Jacks, +10), Ben 4♥ + 4 4 (three 4s with the target, 40), Cleo K♦ and nothing
        (0), Dan 2♠ + 5 5 (a pair of 5s, −15)."""
        self.start_round(1)
        self.bid(1, 1, "D")
        self.counts(0, "10S", {"J": 2})
        self.counts(1, "4H", {"4": 2})
        self.target(2, "KD")
        self.counts(3, "2S", {"5": 2})

    def add_card(self, code):
        self.page.locator(f"#card-{code}").tap()
        expect(self.page.locator(f"#c-{code}")).to_be_checked()
        self.settled()

    def remove_card(self, code):
        self.page.locator(f"#card-{code}").tap()
        expect(self.page.locator(f"#c-{code}")).not_to_be_checked()
        self.settled()

    def cards(self, seat, target, codes, stay=True):
        """Exact entry for one player: a tap on every won card, then the target card."""
        self.tab(seat)
        self.mode("exact")
        for code in codes:
            self.add_card(code)
        self.target(seat, target, stay=stay)

    def remaining_to(self, seat, expected_count):
        self.tab(seat)
        self.page.get_by_role(
            "button", name=f"All the remaining cards to {self.names[seat]} ({expected_count})"
        ).tap()
        expect(self.page.get_by_role("button", name=re.compile("All the remaining cards"))).to_have_count(0)
        self.settled()

    def save(self, number):
        """Save the round; when quick entry left cards out, first tick the box that says they are
        singles, as the table does."""
        singles = self.page.locator("#singles")
        if singles.count():
            self.page.locator("label.confirm-singles").tap()
            expect(singles).to_be_checked()
        self.page.get_by_role("button", name=f"Save round {number}").tap()
        self.page.wait_for_url(SCOREBOARD_URL)
        expect(self.page.locator(".flash")).to_have_text(f"Round {number} saved.")

    # Reading the scoreboard ----------------------------------------------------------------
    def totals(self):
        return self.page.locator(".totals .total-card .total")

    def round_rows(self):
        return self.page.locator("table.rounds tbody tr")
