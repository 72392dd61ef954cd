"""Four phones at one table: seats, private entry, "waiting for", live scores and reconnection."""

import pytest
from playwright.sync_api import expect

from support.browser import NAMES, Orchard, shoot, close_phone

# In Debian's /usr/bin/chromium itself, not its headless shell (tests/browser/conftest.py):
# four phones at one table, the screen kept on.
pytestmark = pytest.mark.full_chromium

TARGETS = ["4S", "2S", "3S", "5S"]
PILES = [{"4": 3, "K": 4}, {"2": 2}, {"3": 3}, {"5": 1}]
SCORES = ["120", "40", "80", "−15"]  # four 4s with the target 80 + four Kings 40; three 2s 40; ...


@pytest.fixture
def four_phones(browser, server):
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        for _ in range(4)
    ]
    pages = []
    for context in contexts:
        context.set_default_timeout(12_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        pages.append(page)
    yield pages
    for context in contexts:
        close_phone(context)


def test_four_phones_play_a_round_in_seat_mode(four_phones, server):
    phones = [Orchard(page, server) for page in four_phones]
    ann = phones[0]
    ann.start_crew()
    game_url = ann.start_game()
    for seat, phone in enumerate(phones):
        if seat:
            phone.page.goto(game_url)
        phone.page.locator(".seat-buttons").get_by_role("button", name=NAMES[seat], exact=True).click()
        expect(phone.page.locator(".seat.mine")).to_have_text(f"{NAMES[seat]} · this phone")
    expect(phones[3].page.locator(".seat-buttons")).to_contain_text("Ann · on a phone")

    ann.start_round(1)
    round_url = ann.page.url
    ann.bid(0, 2, "S")
    for seat, phone in enumerate(phones):
        if seat:
            phone.page.goto(round_url)
        # A seated phone opens on its own hand.
        expect(phone.page.locator(".tabs .tab.current .tab-name")).to_have_text(NAMES[seat])

    for seat, phone in enumerate(phones[:3]):
        phone.counts(seat, TARGETS[seat], PILES[seat])
        phone.page.get_by_role("button", name=f"{NAMES[seat]}’s hand is all in").tap()
        expect(phone.page.locator(".hand-panel .ok")).to_contain_text("all in ✓")
        phone.settled()

    # The other phones only learn who is still entering, never the cards.
    dan = phones[3]
    expect(ann.page.locator(".waiting")).to_have_text("Waiting for Dan.", timeout=8_000)
    dan.page.reload()
    expect(dan.page.locator(".tabs .tab-score")).to_have_text(["secret ✓", "secret ✓", "secret ✓", "…"])
    for seat in range(3):
        target = TARGETS[seat][:-1] + "♠"
        # Dan's own target grid offers every card, each free to pick: nothing marks theirs.
        outside_grid = dan.page.evaluate(
            "() => { const c = document.body.cloneNode(true); c.querySelector('#target-picker')?.remove(); return c.innerHTML; }")
        assert target not in outside_grid, f"{NAMES[seat]}'s target {target} shows on Dan's phone"
        expect(dan.page.locator(f"#t-{TARGETS[seat]}")).to_be_enabled()
    for seat in range(3):
        dan.tab(seat)
        expect(dan.page.locator(".hand-panel .private")).to_contain_text(
            f"{NAMES[seat]} is entering this hand on their own phone.")
        expect(dan.page.locator(".hand-panel .private")).to_contain_text(f"{NAMES[seat]}’s hand is all in ✓")
        # None of the hand's controls, nor its score.
        expect(dan.page.locator("#target-picker, .rank-row, .card-grid, .breakdown")).to_have_count(0)
        assert TARGETS[seat][:-1] + "♠" not in dan.page.content()
        assert "Four 4s" not in dan.page.content()
    dan.tab(0)
    shoot(dan.page, "four-phones-01-waiting")

    dan.tab(3)
    dan.counts(3, TARGETS[3], PILES[3])
    dan.page.get_by_role("button", name="Dan’s hand is all in").tap()

    # The round scores itself; every phone shows it without a reload.
    for phone in phones:
        for seat, score in enumerate(SCORES):
            expect(phone.page.locator(f"#hand-{seat} h2 strong")).to_have_text(score, timeout=8_000)
    expect(ann.page.locator("#hand-0")).to_contain_text("Four 4s with your target: 80")
    # Each seated phone lands on the new totals and its own "I agree", in view without scrolling.
    for seat, phone in enumerate(phones):
        expect(phone.page.locator("#totals-after")).to_contain_text(f"{NAMES[seat]} {SCORES[seat]}")
        expect(phone.page.locator("#agree-top")).to_be_in_viewport()
    shoot(ann.page, "four-phones-02-scored")

    # Sign-off, and a phone that lost its connection catches up by itself.
    ben = phones[1]
    ben.page.context.set_offline(True)
    expect(ben.page.locator("#live-status")).to_contain_text("Offline", timeout=8_000)
    ann.page.get_by_role("button", name="I agree with my score").tap()
    expect(ann.page.locator("#hand-0 .ok")).to_have_text("Ann agreed ✓")
    ben.page.context.set_offline(False)
    expect(ben.page.locator("#hand-0 .ok")).to_have_text("Ann agreed ✓", timeout=10_000)
    expect(ben.page.locator("#live-status")).to_have_text("● Live")

    ben.page.goto(game_url)
    expect(ben.page.locator(".totals .total")).to_have_text(SCORES)
    expect(ben.page.get_by_text("Round 2: Ben deals")).to_be_visible()


def test_the_keep_screen_on_switch_is_remembered(page, server):
    phone = Orchard(page, server)
    phone.start_crew()
    phone.start_game()
    switch = page.locator("#keep-awake")
    expect(switch).to_be_checked()
    page.locator("label.wake").click()
    expect(switch).not_to_be_checked()
    assert page.evaluate("localStorage.getItem('orchard-keep-awake')") == "off"
    page.reload()
    expect(page.locator("#keep-awake")).not_to_be_checked()
