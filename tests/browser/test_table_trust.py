"""What phones driven from outside met at the table (issue 25), each as a player meets it: real touch
taps on 390×844 phones, two or four at once, checked where the player looks (the tab shown, the
scroll position, what the bar says, what is stored)."""
import re
import sqlite3
from contextlib import closing

import pytest
from playwright.sync_api import expect

from support.browser import NAMES, PHONE, Orchard, watched_page, close_phone

JUMP_LIMIT = 40  # px a tap may move the page, at most


@pytest.fixture
def database(tmp_path):
    return tmp_path / "orchard.db"  # the server fixture's database (see conftest)


def offline_noise(text):
    """What the browser and htmx log about a request made offline, which a test of going offline makes
    (htmx 2.0.10 adds the element: 'htmx:sendError, [object HTMLFormElement]')."""
    return "ERR_INTERNET_DISCONNECTED" in text or text.split(", ", 1)[0] in ("htmx:sendError", "htmx:afterRequest")


@pytest.fixture
def phones(browser, server):
    """Four phones at one table, each its own browser context; their JavaScript errors and console
    errors are kept and must stay empty."""
    contexts, orchards, problems = [], [], []
    for _ in range(4):
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        context.set_default_timeout(12_000)
        page, errors = watched_page(context)
        page.on("console", lambda message: message.type == "error" and not offline_noise(message.text)
                and problems.append(message.text))
        contexts.append(context)
        orchards.append(Orchard(page, server))
        orchards[-1].errors = errors
    yield orchards
    for context in contexts:
        close_phone(context)
    assert not problems, f"console errors: {problems}"
    assert not any(o.errors for o in orchards), [o.errors for o in orchards]


def take_seat(phone, game_url, seat):
    phone.page.goto(game_url)
    phone.page.locator(".seat-buttons").get_by_role("button", name=NAMES[seat], exact=True).tap()
    expect(phone.page.locator(".seat.mine")).to_have_text(f"{NAMES[seat]} · this phone")


def stored(database, column, seat):
    with closing(sqlite3.connect(database)) as conn:
        return conn.execute(
            f"SELECT hands.{column} FROM hands JOIN rounds ON rounds.id = hands.round_id"
            " WHERE rounds.status = 'entering' AND hands.seat = ?", [seat]).fetchone()[0]


def next_live_answer(page):
    """Wait for this phone's next poll that brought a change (a 200, not a 204)."""
    return page.expect_response(lambda r: "/live?" in r.url and r.status == 200, timeout=10_000)


def test_the_poll_keeps_the_tab_after_a_bid_while_another_phone_enters_its_seat(phones):
    """A shared phone on Ben's tab saves the bid (which sends no seat of its own); Ann enters her
    hand on her own phone; the shared phone's next poll must leave Ben's hand on screen."""
    ann, shared = phones[:2]
    ann.start_crew()
    game_url = ann.start_game()
    take_seat(ann, game_url, 0)
    ann.start_round(1)
    shared.page.goto(ann.page.url)
    shared.tab(1)
    shared.bid(1, 2, "S")
    with next_live_answer(shared.page):
        ann.count("K", 2)
    shared.settled()
    expect(shared.page.locator(".tabs .tab.current .tab-name")).to_have_text("Ben")
    expect(shared.page.locator("#mode-form .label")).to_have_text("Ben’s entry")
    expect(shared.page.locator("#hand-panel .private")).to_have_count(0)
    # A private hand's panel carries no version another phone could count a pile's size by.
    shared.page.locator("#tab-0").tap()
    expect(shared.page.locator("#hand-panel .private")).to_contain_text("Ann is entering this hand on their own phone.")
    expect(shared.page.locator("#hand-version")).to_have_value("")


def test_a_bid_saved_on_another_phone_folds_this_phones_bid_form(phones):
    one, two = phones[:2]
    one.start_crew()
    one.start_game()
    one.start_round(1)
    two.page.goto(one.page.url)
    expect(two.page.locator("#bid-details")).to_have_attribute("open", "")
    # The second phone's player is entering counts, the open bid form above the screen.
    row = two.page.locator("#rank-5")
    row.evaluate("el => el.scrollIntoView({block: 'center'})")
    top = row.evaluate("el => el.getBoundingClientRect().top")
    with next_live_answer(two.page):
        one.bid(2, 3, "H")
    expect(two.page.locator("#bid-summary")).to_have_text(re.compile("Cleo won with Three Hearts"))
    expect(two.page.locator("#bid-details")).not_to_have_attribute("open", "")
    two.settled()
    moved = abs(row.evaluate("el => el.getBoundingClientRect().top") - top)
    assert moved <= JUMP_LIMIT, f"the fold above moved the counts {moved} px"
    expect(two.page.get_by_role("button", name="Everyone passed: redeal")).to_be_hidden()
    # A redeal on the first phone (its bid form still open under the thumb) clears the bid on the
    # second too.
    expect(one.page.locator("#bid-details")).to_have_attribute("open", "")
    one.page.get_by_role("button", name="Everyone passed: redeal").tap()
    expect(two.page.locator("#bid-summary")).to_contain_text("Bid: who won it", timeout=10_000)
    expect(two.page.locator("#bid-details")).to_have_attribute("open", "")


def steady_tap(page, locator):
    """Tap a control where a thumb finds it (mid-screen) and return how far the page moved: the
    scroll position, and the control's own place on the screen while it is still there."""
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    before = page.evaluate("() => [scrollY, document.querySelector('.tab.current').id]")
    top = locator.evaluate("el => el.getBoundingClientRect().top")
    selector = locator.evaluate("el => el.id ? '#' + el.id : null")
    locator.tap()
    page.wait_for_function(  # a finished hand's move to the next (`moving-on`) is waited for too
        "() => window.htmx && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added,"
        " .moving-on')")
    page.wait_for_timeout(50)  # a focus or a scroll anchoring lands after the settle
    after = page.evaluate("() => [scrollY, document.querySelector('.tab.current').id]")
    if after[1] != before[1]:
        return 0  # the next hand opened by itself: a new view, brought into view on purpose
    moved = abs(after[0] - before[0])
    if selector and page.locator(selector).count():
        moved = max(moved, abs(page.locator(selector).evaluate("el => el.getBoundingClientRect().top") - top))
    return moved


def test_no_tap_of_a_whole_exact_round_moves_the_page(phones, database):
    phone = phones[0]
    page = phone.page
    phone.start_crew()
    phone.start_game()
    phone.start_round(1)
    moves = {}

    def tap(name, locator):
        moves[name] = steady_tap(page, locator)

    page.get_by_role("button", name="Everyone passed: redeal").tap()
    expect(page.locator("#step-bid .notice")).to_be_visible()
    tap("bidder", page.locator("#field-bidder label:has(input[value='1'])"))
    tap("number", page.locator("label:has(#number-2)"))
    tap("suit", page.locator("#field-suit label:has(input[value='S'])"))
    expect(page.locator("#step-bid .trump")).to_contain_text("Ben won with Two Spades")
    piles = {0: ["2C", "3C", "4C", "5C"], 1: ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"], 2: ["2H", "3H", "4H", "5H"]}
    targets = ["AS", "KS", "QS", "JS"]
    for seat in range(4):
        phone.tab(seat)
        tap(f"mode {seat}", page.locator("#mode-exact"))
        for code in piles.get(seat, []):
            tap(f"{NAMES[seat]} {code}", page.locator(f"#card-{code}"))
        tap(f"{NAMES[seat]} target", page.locator(f"label:has(#t-{targets[seat]})"))
    expect(page.locator(".tabs .tab.current .tab-name")).to_have_text("Dan")
    tap("the rest", page.get_by_role("button", name="All the remaining cards to Dan (32)"))
    expect(page.locator(".breakdown .score-line")).to_contain_text("· 32 cards")
    assert len(stored(database, "won", 3).split()) == 32
    jumps = {name: px for name, px in moves.items() if px > JUMP_LIMIT}
    assert not jumps, f"taps that moved the page more than {JUMP_LIMIT} px: {jumps}"


def test_the_last_seated_phone_gives_its_pile_the_rest(phones):
    """Seat mode: once the other three hands are all in, the fourth phone's exact pile is one tap."""
    ann = phones[0]
    ann.start_crew()
    game_url = ann.start_game()
    for seat, phone in enumerate(phones):
        take_seat(phone, game_url, seat)
    ann.page.goto(game_url)
    ann.start_round(1)
    ann.bid(0, 1, "C")
    piles = [["2C", "3C", "4C", "5C"], ["2D", "3D", "4D", "5D"], ["2H", "3H", "4H", "5H"]]
    dan = phones[3]
    dan.page.goto(ann.page.url)
    dan.mode("exact")
    dan.target(3, "JS")
    expect(dan.page.get_by_role("button", name=re.compile("All the remaining cards"))).to_have_count(0)
    for seat, (phone, target, pile) in enumerate(zip(phones, ["AS", "KS", "QS"], piles)):
        if seat:
            phone.page.goto(ann.page.url)
        phone.mode("exact")
        phone.cards(seat, target, pile)
        moved = steady_tap(phone.page, phone.page.get_by_role("button", name=f"{NAMES[seat]}’s hand is all in"))
        expect(phone.page.locator(".hand-panel .ok")).to_contain_text("all in ✓")
        assert moved <= JUMP_LIMIT, f"“all in” moved {NAMES[seat]}'s page {moved} px"
    rest = dan.page.get_by_role("button", name="All the remaining cards to Dan (36)")
    expect(rest).to_be_visible(timeout=10_000)
    rest.tap()
    expect(dan.page.locator(".breakdown .score-line")).to_contain_text("· 36 cards")
    # The other phones have done their part: they leave before the game ends, so none is being sent
    # to the winner by a poll when the fixture closes it (a close then waited for good, twice).
    for phone in phones[:3]:
        phone.page.goto("about:blank")
    dan.page.get_by_role("button", name="Dan’s hand is all in").tap()
    # Dan's 36 cards take him past 250: his "all in" saved the round and ended the game, so his
    # phone shows the winner.
    expect(dan.page.locator(".winner h1")).to_have_text("Dan wins!", timeout=10_000)


def round_one_saved(phone):
    """A new crew and game with round 1 entered and saved on `phone`; returns the game's URL."""
    phone.start_crew()
    game_url = phone.start_game()
    phone.enter_round_one()
    phone.save(1)
    return game_url


def test_the_bar_says_only_what_is_true_and_stays_at_the_bottom(phones):
    phone = phones[0]
    page = phone.page
    game_url = round_one_saved(phone)
    bar, status, message = page.locator("#live-bar"), page.locator("#live-status"), page.locator("#bar-msg")
    # The scoreboard's bar is at the bottom of the screen, at the top of the page and scrolled down.
    page.set_viewport_size({"width": PHONE["width"], "height": 480})  # a page longer than the screen
    page.evaluate("() => window.scrollTo(0, 0)")
    assert bar.evaluate("el => Math.round(el.getBoundingClientRect().bottom)") == 480  # stuck to the bottom
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    expect(bar).to_be_in_viewport()
    page.set_viewport_size(PHONE)
    # An offline poll is not a tap nobody made: the status says offline, the bar says nothing else.
    page.context.set_offline(True)
    expect(status).to_have_text("○ Offline: reconnecting…", timeout=8_000)
    expect(message).to_be_empty()
    page.context.set_offline(False)
    expect(status).to_have_text("● Live", timeout=8_000)

    # On the round page a tap made offline on a control that is not kept is said, and the word
    # goes once the phone is back.
    page.goto(game_url)
    phone.start_round(2)
    page.context.set_offline(True)
    page.locator("#mode-exact").tap()
    expect(message).to_have_text("Not sent: this phone is offline. Tap again when it is back online.")
    page.context.set_offline(False)
    expect(status).to_have_text("● Live", timeout=8_000)
    expect(message).to_be_empty()


def test_a_saved_round_polls_quietly_and_its_rule_link_keeps_the_line(phones):
    """No 'hx-include returned no matches' on every poll of a saved round (the fixture fails on any
    console error), and the target-rule link in a breakdown line keeps the line's height."""
    phone = phones[0]
    page = phone.page
    page.goto(round_one_saved(phone) + "/rounds/1")
    expect(page.locator("#round-main h1")).to_have_text("Round 1")
    with page.expect_response(lambda r: "/live?" in r.url, timeout=10_000):
        pass
    line = page.locator("#hand-1 .breakdown-lines li", has=page.locator(".rule-link"))
    expect(line).to_have_count(1)
    height = line.evaluate("el => el.getBoundingClientRect().height")
    plain = page.locator("#hand-0 .breakdown-lines li").first.evaluate("el => el.getBoundingClientRect().height")
    lines = height / plain  # a wrapped line is two plain lines, not a plain one and a 44 px one
    assert abs(lines - round(lines)) < 0.05, f"the line with the link is {height}px high, a plain one {plain}px"


def test_an_old_poll_that_comes_back_after_a_tap_and_a_save_elsewhere_is_let_go(phones):
    """This phone's poll leaves; a tap's answer brings the phone a newer poll; another phone saves
    the round; then the old poll's answer ("the round was saved") lands. It belongs to a poll the
    page no longer has: it must not break the page, and the newer poll brings the saved round."""
    one, two = phones[:2]
    one.start_crew()
    one.start_game()
    one.enter_round_one()
    held = []
    polls = re.compile(r"/live\?")
    one.page.route(polls, lambda route: route.continue_() if held else held.append(route))
    with one.page.expect_request(polls, timeout=8000):
        pass
    one.count("7", 1)  # Dan's pile gains a 7: the answer replaces the poll that is on its way
    two.page.goto(one.page.url)
    two.save(1)
    one.page.unroute(polls)
    try:
        held[0].continue_()
    except Exception:  # the page gave up on it first
        pass
    expect(one.page.get_by_role("button", name="Save round 1")).to_have_count(0, timeout=10_000)
    expect(one.page.locator("#round-main")).to_contain_text("Round 1")
