"""Seat mode that players can trust, with four phones (and a fifth) at one table: an early
"all in", a refused card and a seat moved to another phone reveal nothing of a private hand, and
the phone that lost its seat is told at once."""
import re

import pytest
from playwright.sync_api import expect

from support.browser import NAMES, PHONE, Orchard, close_phone

ANN_PILE = ["7D", "8D", "9D", "10D"]
SUITS = {"D": "♦", "H": "♥", "C": "♣", "S": "♠"}


@pytest.fixture
def phones(browser, server):
    """Five phones: the four players' and a spare one, each its own browser context."""
    contexts = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(5)]
    orchards = []
    for context in contexts:
        context.set_default_timeout(12_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        orchards.append(Orchard(page, server))
    yield orchards
    for context in contexts:
        close_phone(context)


def take_seat(phone, game_url, seat):
    phone.page.goto(game_url)
    phone.page.locator(".seat-buttons").get_by_role("button", name=NAMES[seat], exact=True).tap()
    expect(phone.page.locator(".seat.mine")).to_have_text(f"{NAMES[seat]} · this phone")


def seated_round(phones):
    """Ann starts a crew and a game, the first four phones take a seat each, and Ann starts round
    1: (the game's address, the round's address)."""
    ann = phones[0]
    ann.start_crew()
    game_url = ann.start_game()
    for seat, phone in enumerate(phones[:4]):
        take_seat(phone, game_url, seat)
    ann.page.goto(game_url)
    ann.start_round(1)
    return game_url, ann.page.url


def test_an_early_all_in_a_refusal_and_a_moved_seat_reveal_nothing(phones):
    ann, ben, cleo, dan, spare = phones
    game_url, round_url = seated_round(phones)
    for phone in phones[1:4]:
        phone.page.goto(round_url)

    # Ann, Ben and Cleo enter exact piles and are all in; Dan taps "all in" before any pile.
    for seat, (phone, target, pile) in enumerate([(ann, "QH", ANN_PILE), (ben, "2C", ["3C", "4C", "5C", "6C"]),
                                                 (cleo, "KS", ["2H", "3H", "4H", "5H"])]):
        phone.mode("exact")
        phone.cards(seat, target, pile)
        phone.page.get_by_role("button", name=f"{NAMES[seat]}’s hand is all in").tap()
        expect(phone.page.locator(".hand-panel .ok")).to_contain_text("all in ✓")
    dan.mode("exact")
    dan.target(3, "AS")
    dan.page.get_by_role("button", name="Dan’s hand is all in").tap()

    # Nobody's check names a card that only a hidden hand explains.
    for seat, phone in enumerate(phones[:4]):
        check = phone.page.locator("#step-check")
        expect(check).to_contain_text("The piles are not complete yet (Dan has not entered a pile).", timeout=15_000)
        expect(check).not_to_contain_text("Not yet in any pile")
        for code in [code for s, code in enumerate(["Q♥", "2♣", "K♠", "A♠"]) if s != seat]:
            assert code not in check.inner_text(), f"{code} in the check on {NAMES[seat]}'s phone"
        # On the phone's own card grid, only its own target is marked as held.
        expect(phone.page.locator("#card-grid .cardbtn.elsewhere")).to_have_count(1)

    # Ben taps a card Ann holds in private: it is only "taken", never whose.
    ben.page.locator("#c-8D").evaluate("el => el.closest('label').scrollIntoView({block: 'center'})")
    ben.page.locator("#card-8D").tap()
    message = ben.page.locator("#msg-suit-D")
    expect(message).to_have_text("8♦ is taken.")
    expect(message).to_be_in_viewport()
    expect(ben.page.locator("#bar-msg")).to_be_empty()  # said once, next to the card
    expect(ben.page.locator("#c-8D")).not_to_be_checked()

    # Ann's seat is moved to a spare phone mid-round: her hand goes with it, private, and her
    # old phone is told at once, in the bar that stays in view.
    spare.page.goto(game_url)
    spare.page.locator(".seat-buttons").get_by_role("button", name="Ann · on a phone", exact=True).tap()
    spare.page.get_by_role("button", name="Reassign Ann’s seat to this phone").tap()
    expect(spare.page.locator(".seat.mine")).to_have_text("Ann · this phone")
    bar = ann.page.locator("#bar-msg")
    expect(bar).to_have_text("Your seat was moved to another phone.", timeout=8_000)
    expect(bar).to_be_in_viewport()
    ann.tab(0)
    expect(ann.page.locator(".hand-panel .private")).to_contain_text("Ann is entering this hand on their own phone.")
    spare.page.goto(round_url)
    expect(spare.page.locator("#target-summary")).to_contain_text("Ann’s target Q♥")
    for code in ANN_PILE:
        expect(spare.page.locator(f"#c-{code}")).to_be_checked()
    for phone in (ann, ben, cleo, dan):
        phone.page.goto(round_url + "?seat=0")
        expect(phone.page.locator(".hand-panel .private")).to_contain_text("Ann is entering this hand")
        expect(phone.page.locator(".tabs .tab-score").first).to_have_text("secret ✓")


# Issue 36: a deal whose piles add up to the deck. Ben forgets his 8 cards and says he is all in.
TARGETS = ["AD", "2D", "6D", "5C"]
PILES = [
    "4C 5H 6C 6S 7C 7H 9C 9D 9S 10D JC AS".split(),
    "3D 3S 4H 8C 8D 10H QD KH".split(),
    "2H 2S 3C 4D 4S 10S JS QS KC KD KS AC".split(),
    "2C 3H 5D 5S 6H 7D 7S 8H 8S 9H 10C JD JH QC QH AH".split(),
]
SCORES = ["35", "−10", "−10", "70"]


def test_the_rest_goes_to_the_hand_still_open_never_to_a_finished_one(phones):
    """Ben is all in with nothing in his pile: no finished phone is offered the rest, each is told
    8 cards are missing (never which), Ben opens his hand again and the rest is his alone."""
    ann, ben, cleo, dan = phones[:4]
    game_url, round_url = seated_round(phones)
    ann.bid(0, 1, "C")
    for seat, phone in enumerate(phones[:4]):
        if seat:
            phone.page.goto(round_url)
        phone.mode("exact")
    for seat in (0, 2, 3):
        phones[seat].cards(seat, TARGETS[seat], PILES[seat])
        phones[seat].page.get_by_role("button", name=f"{NAMES[seat]}’s hand is all in").tap()
        expect(phones[seat].page.locator(".hand-panel .ok")).to_contain_text("all in ✓")
    ben.target(1, TARGETS[1])
    ben.page.get_by_role("button", name="Ben’s hand is all in").tap()
    expect(ben.page.locator(".hand-panel .ok")).to_contain_text("all in ✓")

    rest = re.compile("All the remaining cards")
    for seat, phone in enumerate(phones[:4]):
        check = phone.page.locator("#step-check")
        expect(check).to_contain_text("The piles are not complete yet (Ben has not entered a pile).", timeout=8_000)
        expect(phone.page.get_by_role("button", name=rest)).to_have_count(0)
        expect(check).to_contain_text("8 cards are in no pile or target yet")
        for code in PILES[1]:
            assert code[:-1] + SUITS[code[-1]] not in check.inner_text(), f"{code} on {NAMES[seat]}'s phone"
        expect(phone.page.get_by_role("button", name=f"Not done: change {NAMES[seat]}’s hand")).to_be_visible()

    # Ben opens his hand again: the rest is his, and his "all in" scores the round as played.
    ben.page.get_by_role("button", name="Not done: change Ben’s hand").tap()
    ben.remaining_to(1, 8)
    expect(ben.page.locator(".breakdown .score-line")).to_contain_text("· 8 cards")
    expect(ann.page.get_by_role("button", name=rest)).to_have_count(0)
    ben.page.get_by_role("button", name="Ben’s hand is all in").tap()
    for phone in phones[:4]:
        for seat, score in enumerate(SCORES):
            expect(phone.page.locator(f"#hand-{seat} h2 strong")).to_have_text(score, timeout=8_000)
