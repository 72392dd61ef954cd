"""Taps per round: one phone enters the known games of the test suite in quick mode, in a real
phone-sized Chromium, and every tap it makes is counted.

A round is counted from "Start round N" on the scoreboard to "Save round N": the bid, four
targets, every rank count, the player tabs. Typing during a round is counted apart and must stay
at zero. Prints the taps of each round and their median; exits 1 if the median is over 40 or a
round needed typing.

    .venv/bin/python bench/taps.py
"""
import re
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")]

from playwright.sync_api import Locator, Page, expect, sync_playwright  # noqa: E402
from waitress import create_server  # noqa: E402

from app import create_app  # noqa: E402
from steps import CHROMIUM, CHROMIUM_ARGS, PHONE, SCOREBOARD_URL, Orchard  # noqa: E402
from support.known_history import KNOWN_GAMES  # noqa: E402

MEDIAN_LIMIT = 40


class Counter:
    """Every tap and every keystroke-ish call the phone makes, by wrapping Playwright's methods;
    taps are also counted per page (one page a phone)."""

    def __init__(self):
        self.taps = 0
        self.typing = 0
        self.by_page = {}

    def install(self):
        for cls in (Locator, Page):
            for name in ("tap", "click", "check", "uncheck", "select_option"):
                self._wrap(cls, name, "taps")
            for name in ("fill", "type", "press", "press_sequentially"):
                self._wrap(cls, name, "typing")

    def _wrap(self, cls, name, kind):
        original = getattr(cls, name, None)
        if original is None:
            return
        counter = self

        def counted(self, *args, **kwargs):
            setattr(counter, kind, getattr(counter, kind) + 1)
            if kind == "taps":
                page = self if isinstance(self, Page) else self.page
                counter.by_page[id(page)] = counter.by_page.get(id(page), 0) + 1
            return original(self, *args, **kwargs)

        setattr(cls, name, counted)


def play(orchard, counter):
    """Every known game, round by round; returns [(game, round, taps, typing)]."""
    page = orchard.page
    results = []
    for number, (names, rounds, _after) in enumerate(KNOWN_GAMES, start=1):
        orchard.names = list(names)
        page.goto(orchard.crew_url)
        orchard.start_game(goal="other", goal_other=100)
        for round_number, (bidder, bid_number, suit, hands) in enumerate(rounds, start=1):
            counter.taps = counter.typing = 0
            orchard.start_round(round_number)
            orchard.bid(int(bidder), int(bid_number), suit)
            for seat, (target, counts) in enumerate(hands):
                orchard.counts(seat, target, counts)
            orchard.save(round_number)
            results.append((number, round_number, counter.taps, counter.typing))
            expect(page).to_have_url(SCOREBOARD_URL)
            if page.locator(".winner").count():
                break
    return results


# Seat mode: three rounds of the first known game, each phone entering its own hand.
SEAT_ROUNDS = KNOWN_GAMES[0][1]
SEAT_LIMIT = 20


def play_seated(phones, counter, game_url):
    """Each phone's taps per round: open the round, its target, its rank counts, "all in", and
    "I agree" once the round has scored itself."""
    results = []
    for number, (bidder, bid_number, suit, hands) in enumerate(SEAT_ROUNDS, start=1):
        counter.by_page.clear()
        for seat, phone in enumerate(phones):
            phone.page.goto(game_url)
            label = f"Start round {number}" if seat == 0 else f"Continue round {number}"
            button = phone.page.get_by_role("button", name=re.compile(f"(Start|Continue) round {number}"))
            button.tap()
            phone.page.wait_for_url(re.compile(rf"/rounds/{number}$"))
            del label
        phones[int(bidder)].bid(int(bidder), int(bid_number), suit)
        for seat, phone in enumerate(phones):
            target, counts = hands[seat]
            phone.counts(seat, target, counts)
            phone.page.get_by_role("button", name=f"{phone.names[seat]}’s hand is all in").tap()
        for phone in phones:
            agree = phone.page.locator("#agree-top")
            expect(agree).to_be_in_viewport(timeout=15_000)
            agree.tap()
            expect(phone.page.locator("#totals-after .ok")).to_be_visible()
        results.append([counter.by_page.get(id(phone.page), 0) for phone in phones])
    return results


def seat_mode(browser, base, counter):
    contexts = [browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                for _ in range(4)]
    phones = []
    for context in contexts:
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        phones.append(Orchard(page, base, names=KNOWN_GAMES[0][0]))
    phones[0].start_crew("Seated crew")
    game_url = phones[0].start_game()
    for seat, phone in enumerate(phones):
        phone.page.goto(game_url)
        phone.page.locator(".seat-buttons").get_by_role("button", name=phone.names[seat], exact=True).click()
        expect(phone.page.locator(".seat.mine")).to_have_text(f"{phone.names[seat]} · this phone")
    counter.install()
    try:
        return play_seated(phones, counter, game_url)
    finally:
        for context in contexts:
            context.close()


def main():
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "orchard.db"), "SECRET_KEY": "taps-bench"})
        server = create_server(app, host="127.0.0.1", port=0, threads=4)
        threading.Thread(target=server.run, daemon=True).start()
        base = f"http://127.0.0.1:{server.effective_port}"
        counter = Counter()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            context.set_default_timeout(15_000)
            page = context.new_page()
            page.on("dialog", lambda dialog: dialog.accept())
            seated = seat_mode(browser, base, counter)  # installs the counter once the seats are taken
            orchard = Orchard(page, base)
            orchard.crew_url = orchard.start_crew("Known crew")
            results = play(orchard, counter)
            browser.close()
        server.close()
    print("game  round  taps  typing")
    for game, number, taps, typing in results:
        print(f"{game:>4}  {number:>5}  {taps:>4}  {typing:>6}")
    taps = [row[2] for row in results]
    median = statistics.median(taps)
    print(f"\n{len(results)} rounds, one phone in quick mode: taps per round median {median:g}, "
          f"min {min(taps)}, max {max(taps)} (limit: median at most {MEDIAN_LIMIT}); "
          f"typing during rounds: {sum(row[3] for row in results)}")
    print("\nSeat mode, four phones, three rounds: taps per phone (Ann, Ben, Cleo, Dan)")
    for number, taps_per_phone in enumerate(seated, start=1):
        print(f"  round {number}: {taps_per_phone}")
    worst = max(max(row) for row in seated)
    print(f"most taps by one phone in one round: {worst} (limit {SEAT_LIMIT})")
    failed = median > MEDIAN_LIMIT or any(row[3] for row in results) or worst > SEAT_LIMIT
    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
