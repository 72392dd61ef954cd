"""What a phone does in the engine smoke tests (WebKit and Firefox through Selenium): every step of
a round (start, bid, target, counts, cards, the remaining cards, save) and every selector of the
round page live here, so a change to that page's controls is made in this one file.

Each step taps the way a player does (element.click(): WebKitGTK has no touch emulation) on the
control scrolled to mid-screen (the player tabs stick to the top, the live bar to the bottom), then
waits with WebDriverWait for what the player sees change, never a fixed sleep."""
import re

from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        NoSuchElementException, StaleElementReferenceException, TimeoutException,
                                        WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

NAMES = ("Ann", "Ben", "Cleo", "Dan")
STEP_SECONDS = 10  # any one step; a poll (every 3 s) fits in it with room to spare
SCOREBOARD_URL = re.compile(r"/c/[^/]+/games/\d+$")
SUITS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
MINUS = "−"  # scores are written with the minus sign, not a hyphen
# Things that happen between finding a control and clicking it while htmx swaps regions of the page.
FLEETING = (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException,
            NoSuchElementException)

# htmx 2 inserts new content, then binds its hx-* attributes only when it settles (`htmx-added`
# marks it until then): a tap in between would not go through htmx.
WATCH_ERRORS = """if (!window.orchardErrors) {
  window.orchardErrors = [];
  window.addEventListener("error", function (e) { window.orchardErrors.push(String(e.message)); });
  window.addEventListener("unhandledrejection", function (e) { window.orchardErrors.push(String(e.reason)); });
}"""
SETTLED = ("return !!window.htmx && !document.querySelector("
           "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added, .moving-on')")


def card_label(code):
    """"10S" -> "10♠", as the page writes a card."""
    return code[:-1] + SUITS[code[-1]]


class EnginePhone:
    """One phone at the table (one WebDriver session) on the app at `base`."""

    def __init__(self, driver, base, names=NAMES):
        self.driver = driver
        self.base = base
        self.names = list(names)
        self.errors = []  # JavaScript errors seen on the round pages (see watch_errors)

    # Waiting and tapping -------------------------------------------------------------------------
    def wait(self, condition, message, seconds=STEP_SECONDS):
        """Until `condition(driver)` is true; on time out, says `message` and the last thing in the way."""
        last = []

        def attempt(driver):
            try:
                return condition(driver)
            except FLEETING as error:
                last[:] = [error]
                return False
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(attempt)
        except TimeoutException:
            cause = f" (last: {type(last[0]).__name__}: {last[0].msg})" if last else ""
            message = message() if callable(message) else message
            raise TimeoutException(f"{message}{cause} after {seconds} s at {self.driver.current_url};"
                                   f" the page says: {self.said()!r}") from None

    def said(self):
        """The page's main text, cut short: what a timed-out step found instead."""
        try:
            return " ".join(self.driver.find_element(By.TAG_NAME, "main").text.split())[:300]
        except Exception:  # noqa: BLE001 - only for the message
            return "(no main)"

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        """The element's text as read, its white space made single spaces (engines break the lines
        of a flex box's text differently)."""
        return " ".join(self.find(css).text.split())

    def texts(self, css):
        return [" ".join(el.text.split()) for el in self.all(css)]

    def wait_text(self, css, expected, seconds=STEP_SECONDS, contains=False):
        """Until the element at `css` shows `expected` (or, with contains, shows it among its text)."""
        def shown(_):
            found = self.text(css)
            return expected in found if contains else found == expected
        self.wait(shown, f"{css} never showed {expected!r} (it shows {self._safe_text(css)!r})", seconds)

    def wait_texts(self, css, expected, seconds=STEP_SECONDS):
        self.wait(lambda _: self.texts(css) == list(expected),
                  f"{css} never showed {list(expected)} (they show {self._safe_texts(css)})", seconds)

    def wait_selected(self, css, selected=True):
        self.wait(lambda _: self.find(css).is_selected() == selected,
                  f"{css} is {'not ' if selected else ''}checked")

    def _safe_text(self, css):
        try:
            return self.text(css)
        except FLEETING:
            return None

    def _safe_texts(self, css):
        try:
            return self.texts(css)
        except FLEETING:
            return None

    def settled(self):
        self.wait(lambda d: d.execute_script(SETTLED), "htmx never settled")

    def tap(self, css):
        """Tap the control at `css`: scrolled to mid-screen first, so no sticky bar covers it."""
        def tapped(driver):
            element = self.find(css)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
            element.click()
            return True
        self.wait(tapped, f"could not tap {css}")

    def accept_confirm(self, expected):
        """The browser's confirm dialog (htmx's hx-confirm): its question checked, then OK."""
        alert = self.wait(EC.alert_is_present(), f"no confirm dialog asking {expected!r}")
        assert expected in alert.text, alert.text
        alert.accept()

    def open(self, path_or_url):
        self.driver.get(path_or_url if path_or_url.startswith("http") else self.base + path_or_url)

    def wait_url(self, pattern):
        self.wait(lambda d: re.search(pattern, d.current_url), f"never reached {pattern}")

    # Crew and game -------------------------------------------------------------------------------
    def start_crew(self, name="Thursday crew"):
        self.open("/")
        self.find("#name").send_keys(name)
        self.tap("#crew-form button[type=submit]")
        # A fresh browser's first form: WebKit on a loaded machine once took over 10 s.
        self.wait(lambda d: re.search(r"/c/[^/]+/$", d.current_url), r"never reached /c/[^/]+/$", seconds=30)
        return self.driver.current_url

    def start_game(self, first_dealer=0):
        """From the crew page: the four players, who deals first and the goal 250; lands on the
        scoreboard and returns its URL."""
        self.tap("a.button[href$='/games/new']")
        self.wait_url(r"/games/new$")
        for seat, name in enumerate(self.names):
            self.find(f"#player_{seat}").send_keys(name)
        self.tap(f"#field-first_dealer label:has(input[value='{first_dealer}'])")
        self.tap("#field-goal label:has(input[value='250'])")
        self.tap("#game-form button[type=submit]")
        self.wait(lambda d: SCOREBOARD_URL.search(d.current_url), "the new game never opened its scoreboard")
        # The address changes as the navigation commits, before the page is parsed (Firefox once
        # had no ".next-round" yet): the step ends when the scoreboard is there to be read.
        self.wait(lambda _: self.find("#scoreboard .next-round"), "the scoreboard never showed its next round")
        return self.driver.current_url

    # Round entry: every selector of the round page ------------------------------------------------
    def start_round(self, number):
        """From the scoreboard: "Start round N" (or "Continue round N"), landing on its page."""
        self.tap(".next-round button[type=submit]")
        self.wait_round_page(number)

    def wait_round_page(self, number):
        """The page of round `number`, ready for taps (and watched for JavaScript errors)."""
        self.wait_url(rf"/rounds/{number}$")
        self.wait_text("#round-main h1", f"Round {number}", contains=True)
        self.settled()
        self.watch_errors()

    def watch_errors(self):
        """Keep the JavaScript errors the page meets from now on (WebDriver has no engine-neutral
        way to hear them): read back by page_errors()."""
        self.driver.execute_script(WATCH_ERRORS)

    def page_errors(self):
        """The errors kept so far on this phone, those of the page open now included."""
        try:
            self.errors += self.driver.execute_script("return (window.orchardErrors || []).splice(0)")
        except WebDriverException:
            pass  # no page to ask (about:blank, an alert)
        return self.errors

    def bid(self, seat, number, suit):
        """Three taps: who won the bid, its number and its suit; the third saves it (a saved bid is
        unfolded first, and only a choice that differs is tapped: each one changes the bid)."""
        if self.find("#bid-details").get_attribute("open") is None:  # a saved bid folds its form away
            self.tap("#bid-summary")
        for field, value in (("bidder", seat), ("number", number), ("suit", suit)):
            box = f"#field-{field} input[value='{value}']"
            if not self.find(box).is_selected():
                self.tap(f"#field-{field} label:has(input[value='{value}'])")
                self.wait_selected(box)
        self.wait_text("#step-bid .trump", f"{self.names[seat]} won with", contains=True)
        self.settled()

    def tab(self, seat):
        """The hand of `seat` on this phone's screen (its player tab)."""
        if self.text(".tabs .tab.current .tab-name") != self.names[seat]:
            self.tap(f"#tab-{seat}")
        self.wait_text(".tabs .tab.current .tab-name", self.names[seat])
        self.settled()

    def mode(self, mode):
        """Quick ("quick": ranks) or exact ("exact": cards) entry for the hand on the current tab."""
        if self.find(f"#mode-{mode}").get_attribute("aria-pressed") != "true":
            self.tap(f"#mode-{mode}")
        self.wait(lambda _: self.find(f"#mode-{mode}").get_attribute("aria-pressed") == "true",
                  f"the hand never switched to {mode} entry")
        self.settled()

    def target(self, seat, code, stay=False):
        """The target card of `seat`: one tap on the target grid (below the pile). A hand's first
        target, once its pile is in, opens the next hand still without one (its tab); with `stay`
        the phone goes back to this hand's tab."""
        self.tab(seat)
        if self.find("#target-step").get_attribute("open") is None:  # a set target folds to its summary
            self.tap("#target-summary")
        self.tap(f"#target-picker label:has(#t-{code})")
        shown = f"{self.names[seat]}’s target {card_label(code)}"
        # Stored when the summary says so, or when the page moved on to the next hand.
        self.wait(lambda _: self.text(".tabs .tab.current .tab-name") != self.names[seat]
                  or shown in self.text("#target-summary"),
                  lambda: f"{shown!r} was never shown (the tab is {self._safe_text('.tabs .tab.current .tab-name')!r},"
                          f" the summary says {self._safe_text('#target-summary')!r})")
        self.settled()
        if stay:
            self.tab(seat)
            self.wait_text("#target-summary", shown, contains=True)

    def tap_count(self, rank, n):
        """Quick entry's tap alone (what the page does with it is the caller's to wait for)."""
        self.tap(f"#rank-{rank} label:has(#n-{rank}-{n})")

    def count(self, rank, n):
        """Quick entry, one tap: the pile holds `n` cards of `rank`."""
        self.tap_count(rank, n)
        self.wait_selected(f"#n-{rank}-{n}")
        self.settled()

    def counts(self, seat, target, counts, stay=False):
        """Quick entry for one player, in the page's order: one tap per rank the pile holds, then
        the target card (which may open the next hand; `stay` comes back to this one)."""
        self.tab(seat)
        for rank, n in counts.items():
            self.count(rank, n)
        self.target(seat, target, stay=stay)

    def add_card(self, code):
        """Exact entry, one tap on the 52-card grid: the card is in this hand's pile."""
        self.tap(f"#card-{code}")
        self.wait_selected(f"#c-{code}")
        self.settled()

    def cards(self, seat, target, codes, stay=False):
        """Exact entry for one player: a tap on every won card, then the target card."""
        self.tab(seat)
        for code in codes:
            self.add_card(code)
        self.target(seat, target, stay=stay)

    def remaining_to(self, seat, expected_count):
        """"All the remaining cards" to the hand of `seat` (confirmed, if the page asks)."""
        self.tab(seat)
        self.wait_text("#remaining", f"All the remaining cards to {self.names[seat]} ({expected_count})")
        asks = self.find("#remaining").find_element(By.XPATH, "ancestor::form").get_attribute("hx-confirm")
        self.tap("#remaining")
        if asks:
            self.accept_confirm(asks)
        self.wait(lambda _: not self.all("#remaining"), "the remaining cards button is still there")
        self.settled()

    def save(self, number):
        """Save the round: back on the scoreboard, which says so."""
        self.page_errors()  # the round page's, before it goes
        if self.driver.find_elements(By.CSS_SELECTOR, "#singles"):
            self.tap("label.confirm-singles")  # quick entry left cards out: the table says they are singles
        self.tap("#step-check form[hx-post$='/save'] button[type=submit]")
        self.wait(lambda d: SCOREBOARD_URL.search(d.current_url), f"saving round {number} never opened the scoreboard")
        self.wait_text(".flash", f"Round {number} saved.")

    # What the player sees on the round page ---------------------------------------------------------
    def tab_scores(self):
        """The score on each player's tab ("…" before a target is known)."""
        return self.texts(".tabs .tab-score")

    def wait_tab_scores(self, scores, seconds=STEP_SECONDS):
        self.wait_texts(".tabs .tab-score", scores, seconds)

    def wait_tab_score(self, seat, score, seconds=STEP_SECONDS):
        self.wait_text(f"#tab-{seat} .tab-score", score, seconds)

    def wait_hand_score(self, line):
        """The current hand's score as its breakdown says it, e.g. "Ann 20 · 4 cards"."""
        self.wait_text(".breakdown .score-line", line)

    def wait_all_adds_up(self, scores):
        """The round's check finds nothing wrong and lists the scores ("Ann 20 · Ben 0 · …")."""
        self.wait_text("#step-check .ok", f"Everything adds up. Scores: {scores}")

    def wait_changed_elsewhere(self, seat):
        """The hand on screen says another phone changed it."""
        self.wait_text("#hand-notice", f"{self.names[seat]}’s hand was changed on another phone.", contains=True)

    def wait_count_shown(self, rank, n):
        """Quick entry shows `n` cards of `rank` chosen (as after a reload)."""
        self.wait_selected(f"#n-{rank}-{n}")

    def grid_size(self):
        """Cards on the exact-entry grid of the hand on screen."""
        return len(self.all("#card-grid .cardbtn"))

    # What the round page says about the connection (static/app.js) --------------------------------
    def wait_live_status(self, text):
        """The status in the bar at the bottom: "● Live", "○ Offline: 1 tap waits to be sent"…"""
        self.wait_text("#live-status", text)

    def count_pending(self, rank):
        """Whether the quick-entry row of `rank` is marked as waiting to be sent."""
        return "pending" in (self.find(f"#rank-{rank}").get_attribute("class") or "").split()

    def wait_count_pending(self, rank, pending=True):
        self.wait(lambda _: self.count_pending(rank) == pending,
                  f"the {rank} row is {'never' if pending else 'still'} marked as waiting to be sent")

    # Reading the scoreboard -------------------------------------------------------------------------
    def totals(self):
        return self.texts(".totals .total-card .total")
