"""Exact entry (every card): a whole, consistent deal scored card by card, and a round that cannot be
saved because its cards do not add up.

Expected scores are worked out by hand from RULES.md section 2.
"""
import re

from playwright.sync_api import expect

from support.browser import assert_fits_phone, shoot

M = "−"

# A real deal: 4 targets, and piles of whole tricks (12 + 4 + 4 + 28 = 48 cards).
ANN_PILE = "3C 3D 4S 6C 9C 9D JC JD JH QC AC AD".split()  # 3 tricks, target 10♠
BEN_PILE = "4C 4D 10C 10D".split()  # 1 trick, target 4♥
CLEO_PILE = "KC KH 7C 7D".split()  # 1 trick, target K♦
# Dan (target 2♠) gets the other 28 cards (7 tricks) with "All the remaining cards":
# 2♦ 2♥ 2♣ 3♥ 3♠ 5♦ 5♥ 5♣ 5♠ 6♦ 6♥ 6♠ 7♥ 7♠ 8♦ 8♥ 8♣ 8♠ 9♥ 9♠ 10♥ J♠ Q♦ Q♥ Q♠ K♠ A♥ A♠.


def exact(orchard, seat):
    """Exact entry is chosen hand by hand: this player's tab, switched to card by card."""
    orchard.tab(seat)
    orchard.mode("exact")
    expect(orchard.page.locator(".card-grid .cardbtn")).to_have_count(52)
    expect(orchard.page.locator(".rank-grid")).to_have_count(0)


def start_exact_round(orchard, page):
    orchard.start_crew()
    orchard.start_game()
    orchard.start_round(1)
    orchard.bid(0, 3, "C")
    expect(page.locator("#step-bid .trump")).to_have_text("Trump ♣ · Ann won with Three Clubs and leads.")
    exact(orchard, 0)


def test_a_whole_round_card_by_card(page, orchard):
    start_exact_round(orchard, page)

    # Ann: target 10♠, won 3♣ 3♦ 4♠ 6♣ 9♣ 9♦ J♣ J♦ J♥ Q♣ A♣ A♦ (the rule book's first example):
    # pair of 3s −15, pair of 9s +5, three Jacks +20, pair of Aces +15 → 25.
    orchard.cards(0, "10S", ANN_PILE)
    expect(page.locator(".card-grid .label")).to_have_text("Ann’s won cards: tap to add or remove.")
    expect(page.locator(".card-grid .cardbtn:has(input:checked)")).to_have_count(12)
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 25 · 12 cards")
    expect(page.locator(".breakdown li")).to_have_text([
        f"Pair of 3s: {M}15",
        "Pair of 9s: +5",
        "Three Jacks: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 4, 6, 10, Q",
    ])
    # A mistaken tap is taken back with a second tap.
    orchard.add_card("KS")
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 25 · 13 cards")
    orchard.remove_card("KS")
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 25 · 12 cards")
    expect(page.locator(".card-grid .cardbtn:has(input:checked)")).to_have_count(12)

    # Ben: target 4♥, won 4♣ 4♦ 10♣ 10♦ → three 4s with the target 40, pair of 10s +10 → 50.
    exact(orchard, 1)
    orchard.cards(1, "4H", BEN_PILE)
    expect(page.locator(".breakdown .score-line")).to_have_text("Ben 50 · 4 cards")
    expect(page.locator(".breakdown li")).to_have_text(["Three 4s with your target: 40 target rule", "Pair of 10s: +10"])
    # Ann's 12 cards and target, and Ben's own target, are greyed out on Ben's grid, each saying
    # whose it is.
    expect(page.locator("#card-grid .cardbtn.elsewhere")).to_have_count(14)
    expect(page.locator("#card-grid .cardbtn.elsewhere input:disabled")).to_have_count(14)
    expect(page.locator("#card-4H .owner")).to_have_text("target")
    expect(page.locator("#c-JH")).to_be_disabled()
    expect(page.locator("#card-JH .owner")).to_have_text("Ann")
    expect(page.locator("#card-JH .owner")).to_be_visible()
    expect(page.locator("#card-10S .owner")).to_have_text("Ann target")
    assert_fits_phone(page)
    shoot(page, "exact-01-card-grid")
    shoot(page, "exact-01-card-grid", dark=True)

    # Cleo: target K♦, won K♣ K♥ 7♣ 7♦ → pair of 7s +5, three Kings with the target 40 → 45.
    exact(orchard, 2)
    orchard.cards(2, "KD", CLEO_PILE)
    expect(page.locator(".breakdown li")).to_have_text(["Pair of 7s: +5", "Three Kings with your target: 40 target rule"])

    # Dan: target 2♠, then every card nobody holds yet (28 cards, 7 tricks). The button shows once
    # every hand is entered card by card and every target is known.
    expect(page.get_by_role("button", name="All the remaining cards")).to_have_count(0)
    exact(orchard, 3)
    expect(page.get_by_role("button", name="All the remaining cards")).to_have_count(0)
    orchard.target(3, "2S")
    orchard.remaining_to(3, 28)
    expect(page.locator(".card-grid .label")).to_contain_text("Dan’s won cards")
    expect(page.locator(".breakdown .score-line")).to_have_text("Dan 80 · 28 cards")
    expect(page.locator(".card-grid .cardbtn:has(input:checked)")).to_have_count(28)
    expect(page.locator(".card-grid .cardbtn:not(:has(input:checked)):not(.elsewhere)")).to_have_count(0)
    # Four 2s with the target 80, pair of 3s −15, four 5s −60, three 6s +10, pair of 7s +5,
    # four 8s +20, pair of 9s +5, three Queens +20, pair of Aces +15 → 80.
    expect(page.locator(".breakdown li")).to_have_text([
        "Four 2s with your target: 80 (whatever the rank's value) target rule",
        f"Pair of 3s: {M}15",
        f"Four 5s: 4 × {M}15 = {M}60",
        "Three 6s: 2 × 5 = +10",
        "Pair of 7s: +5",
        "Four 8s: 4 × 5 = +20",
        "Pair of 9s: +5",
        "Three Queens: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 10, J, K",
    ])
    expect(page.locator(".tabs .tab-score")).to_have_text(["25", "50", "45", "80"])
    expect(page.locator("#step-check .problems")).to_have_count(0)
    expect(page.locator("#step-check .todo")).to_have_count(0)
    expect(page.locator("#step-check .ok")).to_have_text(
        "Everything adds up. Scores: Ann 25 · Ben 50 · Cleo 45 · Dan 80"
    )
    assert_fits_phone(page)
    orchard.save(1)

    expect(orchard.totals()).to_have_text(["25", "50", "45", "80"])
    expect(page.locator(".total-card.leader .name")).to_have_text("Dan")
    expect(page.locator(".next-round")).to_contain_text("Round 2: Ben deals, Cleo bids first.")
    expect(orchard.round_rows().nth(0).locator("td a")).to_have_text(["25", "50", "45", "80"])

    # The saved round lists every won card, sorted, and the same breakdown.
    orchard.round_rows().nth(0).locator("td a").nth(3).tap()
    page.wait_for_url("**/rounds/1#hand-3")
    dan = page.locator("#hand-3")
    expect(dan.locator("h2")).to_have_text("Dan 80")
    expect(dan.locator(".won .card")).to_have_count(28)
    expect(dan.locator("p").first).to_have_text("Target 2♠")
    expect(dan.locator(".breakdown-lines li").last).to_have_text("Total: 80")
    expect(page.locator("#hand-0 .won .card")).to_have_count(12)
    expect(page.locator(".bid-line")).to_contain_text("Ann won the bid with Three Clubs: trump ♣.")
    assert_fits_phone(page)


def test_a_round_whose_cards_do_not_add_up_cannot_be_saved(page, orchard):
    start_exact_round(orchard, page)
    save = page.get_by_role("button", name="Save round 1")
    todo = page.locator("#step-check .todo li")
    problems = page.locator("#step-check .problems li")
    # Every hand card by card, so the check can count the whole deck.
    for seat in (1, 2, 3):
        exact(orchard, seat)

    # Ann's pile gets 5 cards: not whole tricks; and most of the deck is nowhere yet. While the
    # round is simply unfinished, that is a neutral to-do list, not problems in red.
    orchard.cards(0, "10S", ["3C", "3D", "4S", "6C", "9C"])
    pile_of_5 = "Ann's pile has 5 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards."
    expect(todo.filter(has_text=pile_of_5)).to_have_count(1)
    expect(todo.filter(has_text="The piles hold 5 cards; the 12 tricks make 48.")).to_have_count(1)
    expect(todo.filter(has_text="Not yet in any pile or target (46): ")).to_have_count(1)
    expect(todo.filter(has_text="Ben has no target card yet.")).to_have_count(1)
    expect(page.locator("#step-check .todo .label")).to_have_text("Still to do")
    expect(page.locator("#step-check .problems")).to_have_count(0)
    expect(page.locator("#step-check .ok")).to_have_count(0)

    # Saving anyway is refused: every item turns into a problem in red, with a message.
    expect(save).to_be_enabled()
    save.tap()
    expect(page.locator("#step-check .error")).to_have_text(
        "This round cannot be saved yet: fix the problems listed here."
    )
    expect(problems.filter(has_text=pile_of_5)).to_have_count(1)
    expect(problems.filter(has_text="The piles hold 5 cards; the 12 tricks make 48.")).to_have_count(1)
    expect(problems.filter(has_text="Not yet in any pile or target (46): ")).to_have_count(1)
    expect(problems.filter(has_text="Ben has no target card yet.")).to_have_count(1)
    expect(page.locator("#step-check .todo")).to_have_count(0)
    expect(page.locator("#step-check .ok")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/rounds/1$"))
    orchard.settled()
    assert_fits_phone(page)
    shoot(page, "exact-02-cannot-save")
    shoot(page, "exact-02-cannot-save", dark=True)

    # On Ben's grid Ann's cards cannot be tapped, nor chosen as his target.
    orchard.tab(1)
    expect(page.locator("#c-3C")).to_be_disabled()
    expect(page.locator("#card-3C")).to_have_class(re.compile(r"\belsewhere\b"))
    expect(page.locator("#card-3C .owner")).to_have_text("Ann")
    expect(page.locator("#card-10S .owner")).to_have_text("Ann target")
    # Ann's own target, or a card already in her pile, cannot be Ben's target either: greyed out
    # on his target grid with her name.
    for code, owner in (("10S", "Ann target"), ("4S", "Ann")):
        expect(page.locator(f"#t-{code}")).to_be_disabled()
        expect(page.locator(f"label:has(#t-{code}) .owner")).to_have_text(owner)
    expect(page.locator("#target-summary")).to_have_text("Ben’s target card: tap it")
    expect(page.locator("#tab-1 .tab-score")).to_have_text("…")
    # A free card is taken as his target with one tap.
    orchard.target(1, "3H")
    expect(page.locator("#msg-target")).to_have_text("")
    expect(page.locator("#target-picker input:checked")).to_have_count(1)

    # Back on Ann's tab, taking one card out leaves a whole trick: that item goes away at once.
    orchard.tab(0)
    orchard.remove_card("9C")
    red_or_todo = page.locator("#step-check li")
    expect(red_or_todo.filter(has_text="Ann's pile has")).to_have_count(0)
    expect(red_or_todo.filter(has_text="The piles hold 4 cards; the 12 tricks make 48.")).to_have_count(1)
    # 52 cards − 4 in Ann's pile − Ann's target 10♠ − Ben's target 3♥ = 46.
    expect(red_or_todo.filter(has_text="Not yet in any pile or target (46): ")).to_have_count(1)
    expect(red_or_todo.filter(has_text="Ben has no target card yet.")).to_have_count(0)
    expect(page.locator("#step-check .ok")).to_have_count(0)

    # Nothing was saved.
    page.get_by_role("link", name="← Scoreboard").tap()
    expect(page.get_by_role("button", name="Continue round 1")).to_be_visible()
    expect(orchard.round_rows()).to_have_count(0)
