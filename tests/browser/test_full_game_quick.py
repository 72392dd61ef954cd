"""A whole game on a phone in quick entry (rank counts), from a new crew to the winner screen.

Every expected score is worked out by hand from RULES.md section 2 (values: 2-5 → −15, 6-9 → 5,
10-K → 10, A → 15; pair = value, triple = 2 × value, four = 4 × value; three of the target's rank
= 40, four of it = 80; the target card counts as one more card of its rank).
"""
import re

import pytest
from playwright.sync_api import expect

from support.browser import SCOREBOARD_URL, assert_fits_phone, shoot

# In Debian's /usr/bin/chromium itself, not its headless shell (tests/browser/conftest.py):
# a whole game to the winner screen.
pytestmark = pytest.mark.full_chromium

M = "−"  # the app writes negative points with a real minus sign


def snap(page, name):
    """The page fits a phone, kept as a light and a dark screenshot."""
    assert_fits_phone(page)
    shoot(page, name)
    shoot(page, name, dark=True)
    assert_fits_phone(page)


def test_full_game_in_quick_mode_to_the_winner_screen(page, orchard):
    # --- Home, a new crew -------------------------------------------------------------------
    page.goto(orchard.base + "/")
    expect(page.get_by_role("heading", name="Score Apples at the table")).to_be_visible()
    snap(page, "quick-01-home")
    orchard.start_crew("Thursday crew")
    expect(page.locator("main h1")).to_have_text("Thursday crew")
    expect(page.locator(".qr svg")).to_be_visible()
    expect(page.locator(".crew-url code")).to_have_text(page.url)
    expect(page.get_by_text("No games yet.")).to_be_visible()
    snap(page, "quick-02-crew")

    # --- New game: four seats, Ann deals first, play to "Other" = 60 --------------------------
    orchard.new_game_form()
    for seat, name in enumerate(orchard.names):
        page.fill(f"#player_{seat}", name)
    page.get_by_role("radio", name="Seat 1 · Ann", exact=True).check()  # named as typed
    page.get_by_role("radio", name="Other", exact=True).check()
    page.fill("#goal_other", "60")
    snap(page, "quick-03-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(SCOREBOARD_URL)
    scoreboard = page.url
    expect(page.locator(".goal-line")).to_have_text("Playing to 60")
    expect(orchard.totals()).to_have_text(["0", "0", "0", "0"])
    expect(page.locator(".next-round")).to_contain_text("Round 1: Ann deals, Ben bids first.")

    # --- Round 1 ------------------------------------------------------------------------------
    orchard.start_round(1)
    who = page.locator(".who-deals .big")  # "Deals", "Bids first"
    expect(who).to_have_text(["Ann", "Ben"])
    # Everyone passed once: a redeal by the same dealer, the bid is still to come.
    page.get_by_role("button", name="Everyone passed: redeal").tap()
    expect(page.locator("#step-bid .notice")).to_have_text(
        "Everyone passed: same dealer, deal again and bid."
    )
    expect(page.get_by_text("Redeals this round: 1 (everyone passed).")).to_be_visible()
    expect(who).to_have_text(["Ann", "Ben"])
    orchard.bid(1, 2, "S")
    expect(page.locator("#step-bid .trump")).to_have_text("Trump ♠ · Ben won with Two Spades and leads.")
    # Once saved, the bid form stays open under the thumb, saying so; its summary folds it away.
    change = page.locator("#bid-summary")
    expect(change.locator(".change")).to_have_text("Change")
    expect(page.locator("#bid-details")).to_have_attribute("open", "")
    expect(page.locator("#bid-details .hint")).to_have_text("Saved ✓ A new choice changes it at once.")
    change.tap()
    expect(page.locator("#bid-details")).not_to_have_attribute("open", "")
    expect(page.get_by_role("button", name="Everyone passed: redeal")).to_be_hidden()
    change.tap()
    expect(page.locator("#bid-details .hint")).to_have_text("Saved ✓ A new choice changes it at once.")
    expect(page.get_by_role("radio", name="Ben", exact=True)).to_be_checked()
    expect(page.locator("#number-2")).to_be_checked()
    expect(page.locator("#step-bid input[name=number]:checked")).to_have_count(1)
    expect(page.get_by_role("radio", name="♠ Spades")).to_be_checked()
    expect(page.get_by_role("button", name="Quick: ranks")).to_have_attribute("aria-pressed", "true")

    # Ann: target 10♠, won 3 3 4 6 9 9 J J J Q A A (the rule book's first worked example;
    # the singles 4, 6, Q may be left out in quick entry) → 25.
    orchard.counts(0, "10S", {"3": 2, "9": 2, "J": 4, "A": 2})
    # One Jack too many: a tap on 3 takes it back.
    orchard.count("J", 3)
    expect(page.locator("#rank-J input:checked")).to_have_count(1)
    expect(page.locator("#n-J-3")).to_be_checked()
    expect(page.locator(".breakdown .score-line")).to_have_text("Ann 25")
    expect(page.locator(".breakdown li")).to_have_text([
        f"Pair of 3s: {M}15",
        "Pair of 9s: +5",
        "Three Jacks: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 10",
    ])
    expect(page.locator("#tab-0 .tab-score")).to_have_text("25")

    # Ben: target 4♥, won 4 4 10 10 (the second worked example) → 40 + 10 = 50.
    orchard.counts(1, "4H", {"4": 2, "10": 2})
    expect(page.locator(".breakdown .score-line")).to_have_text("Ben 50")
    expect(page.locator(".breakdown li")).to_have_text(["Three 4s with your target: 40 target rule", "Pair of 10s: +10"])

    # Cleo: target K♦, won K 7 7 7 → pair of Kings (with the target, a normal pair) +10,
    # three 7s 2 × 5 = +10 → 20.
    orchard.counts(2, "KD", {"K": 1, "7": 3})
    expect(page.locator(".breakdown .score-line")).to_have_text("Cleo 20")
    expect(page.locator(".breakdown li")).to_have_text([
        "Three 7s: 2 × 5 = +10",
        "Pair of Kings with your target: +10 (a normal pair) target rule",
    ])

    # Dan: target 2♠, won 2 5 5 Q Q → pair of 2s −15, pair of 5s −15, pair of Queens +10 → −20.
    orchard.counts(3, "2S", {"2": 1, "5": 2, "Q": 2})
    expect(page.locator(".breakdown .score-line")).to_have_text(f"Dan {M}20")
    expect(page.locator(".breakdown li")).to_have_text([
        f"Pair of 2s with your target: {M}15 (a normal pair) target rule",
        f"Pair of 5s: {M}15",
        "Pair of Queens: +10",
    ])

    expect(page.locator(".tabs .tab-score")).to_have_text(["25", "50", "20", f"{M}20"])
    # 26 of the 52 cards are in a pile or a target: the rest are singles only if the table says so.
    expect(page.locator("#step-check .ok")).to_have_count(0)
    expect(page.locator("#left-out")).to_contain_text("26 cards in no pile or target: two 2s, two 3s, a 4, two 5s, four 6s, a 7, four 8s, two 9s, a 10, a Jack, "
                                                     "two Queens, two Kings, two Aces.")
    expect(page.locator("#left-out")).to_contain_text(f"Scores if so: Ann 25 · Ben 50 · Cleo 20 · Dan {M}20")
    expect(page.get_by_role("button", name="Save round 1")).to_be_enabled()
    orchard.tab(0)
    snap(page, "quick-04-round-quick")
    orchard.save(1)

    # --- Scoreboard after round 1 ---------------------------------------------------------------
    assert page.url == scoreboard
    expect(orchard.totals()).to_have_text(["25", "50", "20", f"{M}20"])
    expect(page.locator(".total-card .to-goal")).to_have_text(["35 to go", "10 to go", "40 to go", "80 to go"])
    # "D" on screen, "deals next" to a screen reader.
    expect(page.locator(".total-card.leader .name")).to_have_text("Ben Ddeals next")
    # The redeal did not move the deal: the next dealer is the one after Ann.
    expect(page.locator(".next-round")).to_contain_text("Round 2: Ben deals, Cleo bids first.")
    expect(page.locator(".total-card").nth(1).locator(".dealer-mark [aria-hidden=true]")).to_have_text("D")
    expect(orchard.round_rows()).to_have_count(1)
    expect(orchard.round_rows().nth(0).locator("td a")).to_have_text(["25", "50", "20", f"{M}20"])
    snap(page, "quick-05-scoreboard")

    # --- Round 2: Ben deals; Ann reaches 60 -------------------------------------------------------
    orchard.start_round(2)
    expect(page.locator(".who-deals .big")).to_have_text(["Ben", "Cleo"])
    orchard.bid(2, 1, "H")
    expect(page.locator("#step-bid .trump")).to_have_text("Trump ♥ · Cleo won with One Heart and leads.")
    # Ann: target 8♣, won 8 8 → three of the target's rank: 40.
    orchard.counts(0, "8C", {"8": 2})
    expect(page.locator(".breakdown li")).to_have_text(["Three 8s with your target: 40 target rule"])
    # Ben: target 3♦, won 3 6 6 → pair of 3s −15, pair of 6s +5 → −10.
    orchard.counts(1, "3D", {"3": 1, "6": 2})
    # Cleo: target Q♥, won Q K K → pair of Queens +10, pair of Kings +10 → 20.
    orchard.counts(2, "QH", {"Q": 1, "K": 2})
    # Dan: target 9♦, won 2 2 → pair of 2s −15, the lone 9 scores nothing → −15.
    orchard.counts(3, "9D", {"2": 2})
    expect(page.locator(".breakdown li")).to_have_text([f"Pair of 2s: {M}15", "Singles score nothing: 9"])
    expect(page.locator("#left-out")).to_contain_text(
        "38 cards in no pile or target:"
    )
    expect(page.locator("#left-out")).to_contain_text(f"Scores if so: Ann 40 · Ben {M}10 · Cleo 20 · Dan {M}15")
    orchard.save(2)

    # --- The winner screen ----------------------------------------------------------------------
    # Totals: Ann 25 + 40 = 65, Ben 50 − 10 = 40, Cleo 20 + 20 = 40, Dan −20 − 15 = −35.
    expect(page.locator(".winner h1")).to_have_text("Ann wins!")
    expect(page.locator(".winner .standings li")).to_have_text(
        ["Ann 65", "Ben 40", "Cleo 40", f"Dan {M}35"]
    )
    expect(orchard.totals()).to_have_text(["65", "40", "40", f"{M}35"])
    expect(page.locator(".total-card .to-goal")).to_have_text(["goal reached", "20 to go", "20 to go", "95 to go"])
    expect(page.locator(".next-round")).to_have_count(0)
    expect(page.locator(".dealer-mark")).to_have_count(0)
    expect(orchard.round_rows()).to_have_count(2)
    expect(orchard.round_rows().nth(1).locator("td a")).to_have_text(["40", f"{M}10", "20", f"{M}15"])
    expect(orchard.round_rows().nth(1).locator(".running")).to_have_text(["65", "40", "40", f"{M}35"])
    snap(page, "quick-07-winner")

    # --- A score in the table opens that round's breakdown ----------------------------------------
    orchard.round_rows().nth(0).locator("td a").nth(0).click()
    page.wait_for_url(re.compile(r"/rounds/1#hand-0$"))
    expect(page.locator(".bid-line")).to_have_text(re.compile(
        r"Ann dealt, Ben bid first\.\s+Ben won the bid with Two Spades: trump ♠\.\s+Redeals: 1\."
    ))
    ann = page.locator("#hand-0")
    expect(ann.locator("h2")).to_have_text("Ann 25")
    expect(ann.locator(".chip")).to_have_text(["3 ×2", "9 ×2", "J ×3", "A ×2"])
    expect(ann.locator(".breakdown-lines li")).to_have_text([
        f"Pair of 3s: {M}15",
        "Pair of 9s: +5",
        "Three Jacks: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 10",
        "Total: 25",
    ])
    expect(page.locator("#hand-1 .breakdown-lines li")).to_have_text(
        ["Three 4s with your target: 40 target rule", "Pair of 10s: +10", "Total: 50"]
    )
    expect(page.locator(".hand-result h2 strong")).to_have_text(["25", "50", "20", f"{M}20"])
    # Round 1 is not the last round, so it can be corrected but not undone.
    expect(page.get_by_role("button", name="Correct this round")).to_be_visible()
    expect(page.get_by_role("button", name="Undo this round")).to_have_count(0)
    snap(page, "quick-06-round-breakdown")

    # --- The crew page lists the finished game; a rematch moves the deal on -----------------------
    page.goto(scoreboard)
    page.get_by_role("button", name=re.compile("^Rematch")).click()
    page.wait_for_url(lambda url: bool(SCOREBOARD_URL.search(url)) and url != scoreboard)
    expect(page.locator(".winner")).to_have_count(0)
    expect(page.locator(".goal-line")).to_have_text("Playing to 60")
    expect(orchard.totals()).to_have_text(["0", "0", "0", "0"])
    expect(page.locator(".next-round")).to_contain_text("Round 1: Ben deals, Cleo bids first.")
    page.locator(".crew-link").click()
    page.wait_for_url(re.compile(r"/c/[^/]+/$"))
    expect(page.locator(".game-list .game-players")).to_have_text(["Ann · Ben · Cleo · Dan"] * 2)
    expect(page.locator(".game-list .game-meta")).to_have_text(
        [re.compile(r"to 60 · playing$"), re.compile(r"to 60 · finished$")]
    )
    expect(page.locator(".chip")).to_have_text(["Ann", "Ben", "Cleo", "Dan"])
