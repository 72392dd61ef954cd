"""The round page at a real table: every tap is kept, nothing jumps, and what a phone is doing is
never wiped by another phone or by the live poll. Real touch taps on a 390×844 phone."""
import json
import re
import sqlite3
from contextlib import closing, contextmanager

import pytest
from playwright.sync_api import expect

M = "−"


@pytest.fixture
def database(tmp_path):
    return tmp_path / "orchard.db"  # the server fixture's database (see conftest)


def stored_hands(database):
    with closing(sqlite3.connect(database)) as conn:
        return conn.execute(
            "SELECT hands.seat, hands.mode, hands.target, hands.won, hands.counts FROM hands"
            " JOIN rounds ON rounds.id = hands.round_id WHERE rounds.status = 'entering' ORDER BY seat"
        ).fetchall()


def open_round(orchard):
    orchard.start_crew()
    orchard.start_game()
    orchard.start_round(1)
    return orchard.page.url


def centre(page, selector):
    """Scroll so the control sits mid-screen, as a player's thumb finds it, and say where it is."""
    page.locator(selector).evaluate("el => el.scrollIntoView({block: 'center'})")
    return where(page, selector)


def where(page, selector):
    """The page's scroll position and the control's place on the screen."""
    return page.locator(selector).evaluate(
        "el => [Math.round(window.scrollY), Math.round(el.getBoundingClientRect().top)]"
    )


@contextmanager
def slow_line(page, url_pattern, delay_ms=400):
    """Requests to these URLs leave the phone `delay_ms` late, as on a slow line: a second tap comes
    while the first is still on its way."""
    def late(route):
        page.wait_for_timeout(delay_ms)
        route.continue_()

    page.route(url_pattern, late)
    try:
        yield
    finally:
        page.unroute(url_pattern)


def focused_id(page):
    return page.evaluate("document.activeElement && document.activeElement.id")


def test_a_tap_on_a_card_a_rank_or_a_tab_leaves_the_page_where_it_was(page, orchard):
    open_round(orchard)
    orchard.target(0, "10S")

    # A rank: one tap sets the count; the page does not move and the radio keeps focus.
    before = centre(page, "label:has(#n-J-3)")
    page.locator("label:has(#n-J-3)").tap()
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 20")
    orchard.settled()
    assert where(page, "label:has(#n-J-3)") == before
    assert focused_id(page) == "n-J-3"

    # A card of the exact grid, low on the page.
    orchard.mode("exact")
    before = centre(page, "#card-9D")
    page.locator("#card-9D").tap()
    expect(page.locator("#c-9D")).to_be_checked()
    expect(page.locator(".breakdown .score-line")).to_contain_text("· 1 card")
    orchard.settled()
    assert where(page, "#card-9D") == before
    assert focused_id(page) == "c-9D"

    # A player's tab, with the page scrolled down so the tabs are stuck at the top.
    page.evaluate("window.scrollBy(0, 400)")
    before = where(page, "#tab-2")
    page.locator("#tab-2").tap()
    expect(page.locator(".tab.current .tab-name")).to_have_text("Cleo")
    expect(page.locator("#target-summary")).to_contain_text("Cleo’s target card")
    orchard.settled()
    assert where(page, "#tab-2") == before
    assert focused_id(page) == "tab-2"


def test_ten_fast_taps_are_ten_changes_in_order(page, orchard, database):
    open_round(orchard)
    orchard.target(0, "AS")
    orchard.mode("exact")
    taps = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2C", "9C", "3C"]  # 2♣ and 3♣ twice: back out
    page.locator("#card-9D").evaluate("el => el.scrollIntoView({block: 'center'})")
    for code in taps:  # one after another, without waiting for answers (how fast: bench/tap_paint.py)
        page.locator(f"#card-{code}").tap(no_wait_after=True)
    orchard.settled()
    held = ["4C", "5C", "6C", "7C", "8C", "9C"]
    expect(page.locator(".card-grid input:checked")).to_have_count(len(held))
    seat, mode, target, won, counts = stored_hands(database)[0]
    assert (mode, target, sorted(won.split())) == ("exact", "AS", sorted(held))
    page.reload()
    expect(page.locator(".card-grid input:checked")).to_have_count(len(held))
    for code in held:
        expect(page.locator(f"#c-{code}")).to_be_checked()


def test_a_poll_never_wipes_a_half_chosen_bid(page, orchard, other_phone):
    url = open_round(orchard)
    step = page.locator("#step-bid")
    step.get_by_role("radio", name="Cleo", exact=True).check()
    step.locator("label:has(#number-3)").tap()
    # Another phone at the table enters Ben's target meanwhile; this phone's poll brings it.
    other_phone.page.goto(url)
    other_phone.target(1, "4H")
    expect(page.locator("#tab-1 .tab-score")).to_have_text("0", timeout=8000)
    expect(step.get_by_role("radio", name="Cleo", exact=True)).to_be_checked()
    expect(page.locator("#number-3")).to_be_checked()
    step.locator("#field-suit label:has(input[value='H'])").tap()  # the third choice saves the bid
    expect(page.locator("#step-bid .trump")).to_have_text("Trump ♥ · Cleo won with Three Hearts and leads.")


def test_a_tap_made_offline_is_sent_once_when_the_phone_is_back(page, orchard, phone, database):
    open_round(orchard)
    orchard.target(0, "KS")
    phone.set_offline(True)
    page.locator("label:has(#n-Q-2)").tap()
    # Shown as waiting on the control itself and in the bar that stays in view.
    expect(page.locator("#rank-Q")).to_have_class(re.compile(r"\bpending\b"))
    status = page.locator("#live-status")
    expect(status).to_have_text("○ Offline: 1 tap waits to be sent")
    expect(status).to_be_in_viewport()
    assert stored_hands(database)[0][4] is None
    phone.set_offline(False)
    expect(page.locator("#rank-Q")).not_to_have_class(re.compile(r"\bpending\b"), timeout=8000)
    expect(status).to_have_text("● Live")
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 10")
    assert stored_hands(database)[0][4] == '{"Q": 2}'
    page.reload()
    expect(page.locator("#n-Q-2")).to_be_checked()


def test_a_refused_tap_says_why_where_the_player_is_looking(page, orchard):
    open_round(orchard)
    orchard.target(0, "JS")
    orchard.count("J", 3)
    before = centre(page, "label:has(#n-J-4)")
    page.locator("label:has(#n-J-4)").tap()
    message = page.locator("#msg-rank-J")
    expect(message).to_have_text("Ann has 4 Jacks in the pile and a Jack as target; the deck has 4.")
    expect(message).to_be_in_viewport()
    # Said once, next to the control: the bar at the bottom stays one line and covers neither.
    expect(page.locator("#bar-msg")).to_be_empty()
    bar_top = page.locator("#live-bar").evaluate("el => el.getBoundingClientRect().top")
    assert message.evaluate("el => el.getBoundingClientRect().bottom") <= bar_top
    assert page.locator("label:has(#n-J-4)").evaluate("el => el.getBoundingClientRect().bottom") <= bar_top
    expect(page.locator("#n-J-3")).to_be_checked()  # the control is back as stored
    orchard.settled()
    assert where(page, "label:has(#n-J-4)") == before
    assert focused_id(page) == "n-J-4"
    # The next good tap clears the message.
    page.locator("label:has(#n-K-2)").tap()
    expect(message).to_be_empty()


def test_a_tap_made_while_a_refused_tap_is_on_its_way_is_still_sent(page, orchard, database):
    """Ann has J♠ as target and 3 Jacks: 4 is refused. On a slow line she taps 4, then 2 before the
    refusal comes back; the 2 waits behind the 4 and is then sent, not dropped when the refusal
    puts the row back."""
    open_round(orchard)
    orchard.target(0, "JS")
    orchard.count("J", 3)

    with slow_line(page, "**/hands/0/counts/J"):
        page.locator("label:has(#n-J-4)").tap()
        page.locator("label:has(#n-J-2)").tap()
        expect(page.locator(".breakdown .score-line")).to_have_text("Ann 40")  # 2 Jacks + J♠ target
        orchard.settled()
    expect(page.locator("#n-J-2")).to_be_checked()
    expect(page.locator("#msg-rank-J")).to_be_empty()
    assert json.loads(stored_hands(database)[0][4]) == {"J": 2}


def test_changing_a_target_ends_as_the_old_card_or_the_new_one(page, orchard, other_phone, database):
    """The target is one tap on a card, so a change can only end as the card it was or the card
    tapped. Ann's target is K♦; after her page loaded, another phone gave Ben 4♣ as target. Her tap
    on 4♣ is refused and stays lit as refused; K♦ stays stored (never a card nobody picked). On a
    slow line 4♣ then 7♣ in quick succession: the 7♣ waits for the refusal and is then sent."""
    url = open_round(orchard)
    orchard.target(0, "KD")
    other_phone.page.goto(url)
    other_phone.target(1, "4C")
    message = page.locator("#msg-target-C")  # under the clubs, next to the card tapped
    summary = page.locator("#target-summary")

    orchard.open_target(0)
    page.locator("label:has(#t-4C)").tap()
    expect(message).to_have_text("4♣ is already Ben's target card.")
    expect(page.locator("#t-4C")).to_be_checked()
    expect(page.locator("#target-picker")).to_have_class(re.compile(r"\brefused\b"))  # lit, not chosen
    expect(summary).to_contain_text("Ann’s target K♦")
    orchard.settled()
    assert stored_hands(database)[0][2] == "KD"

    orchard.target(0, "KD")
    orchard.open_target(0)
    with slow_line(page, "**/hands/0/target"):
        page.locator("label:has(#t-4C)").tap()
        page.locator("label:has(#t-7C)").tap()
        expect(summary).to_contain_text("Ann’s target 7♣")
        orchard.settled()
    assert stored_hands(database)[0][2] == "7C"
    expect(message).to_be_empty()
    expect(page.locator("#target-picker")).not_to_have_class(re.compile(r"\brefused\b"))


def test_one_phones_mode_switch_leaves_the_other_hands_as_they_were(page, orchard, other_phone, database):
    url = open_round(orchard)
    orchard.tab(1)
    orchard.mode("exact")
    for code in ["5S", "5H", "9C"]:
        orchard.add_card(code)
    orchard.tab(2)
    orchard.count("K", 2)
    other_phone.page.goto(url)
    other_phone.tab(0)
    other_phone.mode("exact")
    other_phone.mode("quick")
    hands = stored_hands(database)
    assert [(h[1], h[3], h[4]) for h in hands[1:3]] == [("exact", "5S 5H 9C", None), ("quick", None, '{"K": 2}')]
    orchard.tab(1)
    for code in ["5S", "5H", "9C"]:
        expect(page.locator(f"#c-{code}")).to_be_checked()
    expect(page.locator("#mode-exact")).to_have_attribute("aria-pressed", "true")


def test_finished_steps_fold_and_a_players_tiles_are_in_view(page, orchard):
    open_round(orchard)
    orchard.bid(1, 2, "S")
    expect(page.locator("#bid-summary")).to_contain_text("Ben won with Two Spades")
    page.reload()  # a saved bid is folded to its one-line summary on a page drawn anew
    expect(page.locator("#bid-details")).not_to_have_attribute("open", "")
    orchard.target(0, "10S")
    page.reload()  # a set target folds to its one-line summary too
    expect(page.locator("#target-step")).not_to_have_attribute("open", "")
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("#rank-2")).to_be_in_viewport()
    expect(page.locator("#tabs")).to_be_in_viewport()
    # Unfinished is a neutral list, not red errors, until a save is tried.
    expect(page.locator("#step-check .todo li").first).to_have_text("Ben has no target card yet.")
    expect(page.locator("#step-check .problems")).to_have_count(0)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#step-check .problems li").first).to_have_text("Ben has no target card yet.")
    expect(page.locator("#step-check .error")).to_have_text(
        "This round cannot be saved yet: fix the problems listed here.")


def test_the_first_dealer_is_picked_by_the_names_just_typed(page, orchard):
    orchard.start_crew()
    orchard.new_game_form()
    dealers = page.locator("#field-first_dealer .choice span")
    expect(dealers).to_have_text(["Seat 1", "Seat 2", "Seat 3", "Seat 4"])
    for seat, name in enumerate(["Ann", "Ben", "Cleo"]):
        page.locator(f"#player_{seat}").fill(name)
    expect(dealers).to_have_text(["Seat 1 · Ann", "Seat 2 · Ben", "Seat 3 · Cleo", "Seat 4"])
    page.get_by_role("radio", name="Seat 3 · Cleo", exact=True).check()
    page.locator("#player_3").fill("Dan")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".next-round")).to_contain_text("Round 1: Cleo deals, Dan bids first.")
