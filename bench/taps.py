"""Taps per round, counted as a player makes them: phones in a real phone-sized Chromium enter
realistic rounds (a shuffled deck, four targets, twelve tricks of four won at random), and every
tap is counted — each bid choice, each tab opened, each target, each count or card, the rest of the
cards, every confirm dialog accepted, "all in", "I agree", and "Start round" to "Save round"
inclusive (in seat mode, the tap on "← Scoreboard" that takes a phone from the round it agreed to
back to the next one too). Nothing a player must tap is left out; nothing a player need not tap is
made.

- quick: one phone enters every hand by rank counts (pairs and more, and a single of the target's
  rank, which pairs with the target; other singles score nothing and are left out);
- exact: one phone enters every card; the largest pile goes last, as "All the remaining cards";
- seat mode: four phones, each entering its own hand in quick mode.

It also measures how far each tap moves the page (the scroll position and the tapped control's
place on screen, the control scrolled mid-screen first, as a thumb finds it; a hand opened by
itself is a new view, not a jump).

Prints the taps of each round, their median and maximum, what they were for (card, count, target,
tab, mode, bid…, a mean per round) and how many the round's facts alone take (see `facts`: the taps
over them are the page's own cost), the largest move, and the limits: quick median ≤ 25, exact
median ≤ 40, a seated phone's taps besides its own counts ≤ 7 (start or continue, the bid's three,
mode, target, "all in"), no move > 40 px. Exits 1 if a limit is missed. `--only quick|exact|seat`
runs one mode (given twice, two).

It also counts the organiser's taps on a club night of nine players over three stages, from the
crew page to "Finish the night", each measured the same way (bench/night_taps.py; `--only night`).

    .venv/bin/python bench/taps.py [--rounds 8] [--seed 7]
"""
import argparse
import random
import re
import statistics
import sys
import tempfile
import threading
from collections import Counter as Tally
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from playwright.sync_api import Locator, expect, sync_playwright
from waitress import create_server

from app import create_app
from scoring import DECK, SUITS
from scoring import quick_counts as scoring_quick_counts
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the drivers in tests/support/
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, SCOREBOARD_URL, Orchard, close_phone, htmx_settled
from night_taps import organiser_night  # the organiser's taps on a club night

# quick and exact: the median round (an exact round's own facts alone take more than 40 taps when its
# largest pile holds under 18 cards, see `facts`); seat mode: what a phone taps to enter its hand besides
# its own counts (start or continue, the bid's three on the bidder's phone, mode, target, "all in").
LIMITS = {"quick": ("median", 25), "exact": ("median", 40), "seat": ("max", 7)}
NOT_ENTRY = {"count", "card", "agree", "scoreboard"}
JUMP_LIMIT = 40


def deal(rng):
    """One realistic round: (bidder, number, suit, [(target, pile codes)] for the four seats)."""
    cards = [card.code for card in DECK]
    rng.shuffle(cards)
    targets, rest = cards[:4], cards[4:]
    piles = [[] for _ in range(4)]
    for trick in range(12):
        piles[rng.randrange(4)].extend(rest[trick * 4:trick * 4 + 4])
    return rng.randrange(4), rng.randint(1, 4), rng.choice(SUITS), list(zip(targets, piles))


def quick_counts(target, pile):
    """What a player taps in quick entry, as the page's hint asks (scoring.quick_counts): every
    rank held twice or more, and every card of the target's rank."""
    return scoring_quick_counts(Tally(code[:-1] for code in pile), target[:-1])


# What each tap was for, read from the control's selector (the drivers' own, tests/support/browser.py).
KINDS = [
    ("card", r"#card-"), ("count", r"#n-"), ("target", r"#t-"), ("tab", r"#tab-"), ("mode", r"#mode-"),
    ("bid", r"#field-|#step-bid|summary"), ("rest", r"All the remaining"), ("all in", r"all in"),
    ("agree", r"agree"), ("singles", r"confirm-singles"), ("save", r"Save round"), ("start", r"(Start|Continue)\)? round"),
    ("scoreboard", r"Scoreboard"),
]


def kind_of(locator):
    selector = getattr(getattr(locator, "_impl_obj", None), "_selector", "") or repr(locator)
    return next((kind for kind, pattern in KINDS if re.search(pattern, selector)), "other")


class Counter:
    """Every tap a phone makes (Playwright's tap, click, check; a confirm dialog accepted), per page
    and per kind (what it was for), and how far each Locator.tap moved its page."""

    def __init__(self):
        self.by_page = Tally()
        self.kinds = {}  # page id -> Tally of kinds
        self.moves = []
        self.typing = 0
        self.mode = ""  # which run the taps belong to, said with a move

    def reset(self, page):
        self.by_page[id(page)] = 0
        self.kinds[id(page)] = Tally()

    def install(self):
        counter = self
        for name in ("tap", "click", "check", "uncheck", "select_option"):
            original = getattr(Locator, name)

            def counted(self, *args, _original=original, _name=name, **kwargs):
                counter.by_page[id(self.page)] += 1
                counter.kinds.setdefault(id(self.page), Tally())[kind_of(self)] += 1
                if _name != "tap" or not re.search(r"/rounds/\d+$", self.page.url):
                    return _original(self, *args, **kwargs)
                return counter.measured(self, _original, *args, **kwargs)

            setattr(Locator, name, counted)
        for name in ("fill", "type", "press", "press_sequentially"):
            original = getattr(Locator, name)

            def typed(self, *args, _original=original, **kwargs):
                counter.typing += 1
                return _original(self, *args, **kwargs)

            setattr(Locator, name, typed)

    def watch(self, page):
        def accept(dialog):
            self.by_page[id(page)] += 1  # a confirm is one more tap
            self.kinds.setdefault(id(page), Tally())["confirm"] += 1
            dialog.accept()
        page.on("dialog", accept)

    def measured(self, locator, original, *args, **kwargs):
        page = locator.page
        locator.evaluate("el => el.scrollIntoView({block: 'center'})")
        probe = "() => [scrollY, (document.querySelector('.tab.current') || {}).id || '']"
        before = page.evaluate(probe)
        top = locator.evaluate("el => [el.id, el.getBoundingClientRect().top, el.id ? '#' + el.id : "
                               "el.outerHTML.slice(0, 70) + ' (' + el.textContent.trim().slice(0, 20) + ')']")
        url = page.url
        result = original(locator, *args, **kwargs)
        if not re.search(r"/rounds/\d+$", page.url):
            return result
        try:
            htmx_settled(page)
            page.wait_for_timeout(30)
            after = page.evaluate(probe)
        except Exception:  # the tap left the page (a save): no move to measure
            return result
        if after[1] == before[1] and page.url == url:  # the same hand of the same round page
            moved = abs(after[0] - before[0])
            if top[0] and page.locator(f"#{top[0]}").count():
                moved = max(moved, abs(page.locator(f"#{top[0]}").evaluate("el => el.getBoundingClientRect().top") - top[1]))
            self.moves.append((moved, f"{top[2]}, {self.mode}, {after[1]}"))
        return result


def by_kind(rows):
    """What the taps of these rounds were for, as a mean per round: "card 30.1, target 4, …"."""
    total = sum((kinds for _, kinds in rows), Tally())
    return ", ".join(f"{kind} {n / len(rows):.3g}" for kind, n in total.most_common())


def facts(mode, hands):
    """The fewest taps the round's facts take on one phone: "Start round", the bid's three, the four
    targets, "Save round", and the piles: quick, one count per rank entered (and the box saying the
    rest are singles, when some are); exact, every card of
    the three smaller piles and "All the remaining cards" for the largest. Tabs, modes and confirms
    are the page's cost, not the round's."""
    if mode == "quick":
        counted = [quick_counts(target, pile) for target, pile in hands]
        piles = sum(len(counts) for counts in counted)
        # The box that says the cards no count holds are singles, ticked once before saving.
        piles += sum(n for counts in counted for n in counts.values()) < 48
    else:
        piles = 48 - max(len(pile) for _, pile in hands) + 1
    return 1 + 3 + 4 + 1 + piles


def entry_taps(kinds):
    return sum(n for kind, n in kinds.items() if kind not in NOT_ENTRY)


def new_phone(browser, counter):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    counter.watch(page)
    return context, page


def one_phone(browser, base, counter, mode, rounds):
    """One phone enters `rounds` rounds in `mode`; returns each round's (taps, taps by kind)."""
    counter.mode = mode
    context, page = new_phone(browser, counter)
    phone = Orchard(page, base)
    phone.start_crew(f"{mode} crew")
    phone.start_game(goal="other", goal_other=5000)
    taps = []
    for number, (bidder, bid_number, suit, hands) in enumerate(rounds, start=1):
        counter.reset(page)
        phone.start_round(number)
        phone.bid(bidder, bid_number, suit)
        if mode == "quick":
            for seat, (target, pile) in enumerate(hands):
                phone.counts(seat, target, quick_counts(target, pile), stay=False)
        else:
            last = max(range(4), key=lambda s: len(hands[s][1]))
            for seat in [(last + step) % 4 for step in (1, 2, 3, 4)]:  # round the table, the largest last
                phone.tab(seat)
                phone.mode("exact")
                target, pile = hands[seat]
                if seat == last:
                    phone.target(seat, target, stay=False)
                    phone.remaining_to(seat, len(pile))
                else:
                    phone.cards(seat, target, pile, stay=False)
        phone.save(number)
        taps.append((counter.by_page[id(page)], counter.kinds[id(page)]))
        expect(page).to_have_url(SCOREBOARD_URL)
    close_phone(context)
    return taps


def seat_mode(browser, base, counter, rounds):
    """Four phones, each entering its own hand (quick); returns each round's (taps, taps by kind) per
    phone. A phone goes from the round it agreed to back to the scoreboard by its link, as a player
    does, to start or continue the next round."""
    counter.mode = "seat mode"
    made = [new_phone(browser, counter) for _ in range(4)]
    phones = [Orchard(page, base) for _, page in made]
    phones[0].start_crew("Seated crew")
    game_url = phones[0].start_game(goal="other", goal_other=5000)
    for seat, phone in enumerate(phones):
        phone.page.goto(game_url)
        phone.page.locator(".seat-buttons").get_by_role("button", name=phone.names[seat], exact=True).tap()
        expect(phone.page.locator(".seat.mine")).to_have_text(f"{phone.names[seat]} · this phone")
    results = []
    for number, (bidder, bid_number, suit, hands) in enumerate(rounds, start=1):
        for phone in phones:
            counter.reset(phone.page)
        for phone in phones:
            if not re.search(r"/games/\d+$", phone.page.url):  # the round before, agreed to
                phone.page.locator("nav.crumbs").get_by_role("link", name="← Scoreboard").tap()
                phone.page.wait_for_url(game_url)
            phone.page.get_by_role("button", name=re.compile(f"(Start|Continue) round {number}")).tap()
            phone.page.wait_for_url(re.compile(rf"/rounds/{number}$"))
        phones[bidder].bid(bidder, bid_number, suit)
        for seat, phone in enumerate(phones):
            target, pile = hands[seat]
            phone.counts(seat, target, quick_counts(target, pile), stay=False)
            phone.page.get_by_role("button", name=f"{phone.names[seat]}’s hand is all in").tap()
        for phone in phones:
            agree = phone.page.locator("#agree-top")
            expect(agree).to_be_in_viewport(timeout=15_000)
            agree.tap()
            expect(phone.page.locator("#totals-after .ok")).to_be_visible()
        results.append([(counter.by_page[id(phone.page)], counter.kinds[id(phone.page)]) for phone in phones])
    for context, _ in made:
        close_phone(context)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds per mode (seat mode: a third of them, at least 3)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", choices=["quick", "exact", "seat", "night"], action="append",
                        help="run only this mode (may be given twice); all four by default")
    args = parser.parse_args()
    only = set(args.only or ["quick", "exact", "seat", "night"])
    rng = random.Random(args.seed)
    quick_rounds = [deal(rng) for _ in range(args.rounds)]
    exact_rounds = [deal(rng) for _ in range(args.rounds)]
    seat_rounds = [deal(rng) for _ in range(max(3, args.rounds // 3))]
    counter = Counter()
    counter.install()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "orchard.db"), "SECRET_KEY": "taps-bench"})
        server = create_server(app, host="127.0.0.1", port=0, threads=6)
        threading.Thread(target=server.run, daemon=True).start()
        base = f"http://127.0.0.1:{server.effective_port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            quick = one_phone(browser, base, counter, "quick", quick_rounds) if "quick" in only else []
            exact = one_phone(browser, base, counter, "exact", exact_rounds) if "exact" in only else []
            seated = seat_mode(browser, base, counter, seat_rounds) if "seat" in only else []
            night = organiser_night(browser, base, app, counter) if "night" in only else None  # bench/night_taps.py
            browser.close()
        server.close()

    failed = False
    floors = {"quick": [facts("quick", hands) for *_, hands in quick_rounds],
              "exact": [facts("exact", hands) for *_, hands in exact_rounds]}
    for mode, rows in (("quick", quick), ("exact", exact)):
        if not rows:
            continue
        taps = [n for n, _ in rows]
        which, limit = LIMITS[mode]
        figure = statistics.median(taps) if which == "median" else max(taps)
        failed |= figure > limit
        print(f"{mode}: {len(taps)} rounds on one phone, taps per round {taps}: median {statistics.median(taps):g}, "
              f"max {max(taps)}; limit: {which} ≤ {limit}")
        print(f"  taps by kind, mean per round: {by_kind(rows)}")
        print(f"  the facts alone take {floors[mode]}: taps over them {[n - f for n, f in zip(taps, floors[mode])]}")
    if seated:
        totals = [n for row in seated for n, _ in row]
        entry = [entry_taps(kinds) for row in seated for _, kinds in row]
        failed |= max(entry) > LIMITS["seat"][1]
        print(f"seat mode: {len(seated)} rounds, four phones (quick), taps per phone and round "
              f"{[[n for n, _ in row] for row in seated]}: median {statistics.median(totals):g}, max {max(totals)}")
        print(f"  besides its own counts, \"I agree\" and the way back to the scoreboard: "
              f"{[[entry_taps(kinds) for _, kinds in row] for row in seated]}: median {statistics.median(entry):g}, "
              f"max {max(entry)}; limit: max ≤ {LIMITS['seat'][1]}")
        print(f"  taps by kind, mean per phone and round: {by_kind([cell for row in seated for cell in row])}")
    if night:
        lines, missed = night.report()
        print("\n".join(lines))
        failed |= missed
    biggest = max(counter.moves, default=(0, "-"))
    failed |= biggest[0] > JUMP_LIMIT or counter.typing > 0
    print(f"page moves over {len(counter.moves)} taps on round pages: largest {biggest[0]:.0f} px ({biggest[1]}), "
          f"over {JUMP_LIMIT} px: {sum(1 for m, _ in counter.moves if m > JUMP_LIMIT)}; typing: {counter.typing}")
    for moved, control in sorted(counter.moves, reverse=True)[:10]:
        if moved > JUMP_LIMIT or moved == biggest[0] > 0:
            print(f"  moved {moved:.0f} px: {control}")
    print("FAIL" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
