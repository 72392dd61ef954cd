"""Two phones at one table: they show the same scores, and a round saved on one phone cannot be saved
a second time from the other, which is told so plainly."""
import re

from playwright.sync_api import expect

from support.browser import SCOREBOARD_URL

M = "−"


def test_two_phones_share_the_scores_and_a_round_is_saved_once(page, orchard, other_phone):
    a, b = orchard, other_phone
    crew_url = a.start_crew()
    scoreboard = a.start_game()
    a.start_round(1)
    a.bid(0, 2, "S")
    # Ann 10♠ + J J J → three Jacks +20; Ben 4♥ + 4 4 → three 4s with the target 40;
    # Cleo K♦ + 2 2 → pair of 2s −15; Dan 2♠ and nothing → 0.
    a.counts(0, "10S", {"J": 3})
    a.counts(1, "4H", {"4": 2})
    a.counts(2, "KD", {"2": 2})
    a.target(3, "2S")
    expect(page.locator(".tabs .tab-score")).to_have_text(["20", "40", f"{M}15", "0"])

    # The second phone opens the crew link, finds the game and the round being entered.
    b.page.goto(crew_url)
    b.page.locator(".game-list a").first.click()
    b.page.wait_for_url(scoreboard)
    b.page.get_by_role("button", name="Continue round 1").click()
    b.page.wait_for_url(re.compile(r"/rounds/1$"))
    expect(b.page.locator(".tabs .tab-score")).to_have_text(["20", "40", f"{M}15", "0"])
    expect(b.page.locator("#step-bid .trump")).to_have_text("Trump ♠ · Ann won with Two Spades and leads.")
    expect(b.page.get_by_role("button", name="Save round 1")).to_be_enabled()
    # A tap on one phone reaches the other by its poll: the score on the tab follows, and the
    # other phone, showing that same hand, is told it changed and can show what is stored.
    a.tab(0)
    a.count("J", 2)  # a pair of Jacks: +10
    expect(b.page.locator("#tab-0 .tab-score")).to_have_text("10", timeout=10_000)
    expect(b.page.locator("#hand-notice")).to_contain_text("Ann’s hand was changed on another phone.")
    b.page.get_by_role("button", name="Show what is stored").tap()
    expect(b.page.locator("#n-J-2")).to_be_checked()
    expect(b.page.locator("#hand-notice")).to_have_text("")
    b.settled()
    a.count("J", 3)  # three Jacks again: +20
    expect(b.page.locator("#tab-0 .tab-score")).to_have_text("20", timeout=10_000)
    expect(b.page.locator("#left-out")).to_contain_text(f"Scores if so: Ann 20 · Ben 40 · Cleo {M}15 · Dan 0")
    # Freeze what the second phone shows (its live updates answer "nothing new"), as when it
    # sleeps in a pocket: its Save button is still there after the first phone saves.
    b.page.route(re.compile(r"/live\?"), lambda route: route.fulfill(status=204))

    a.save(1)
    expect(a.totals()).to_have_text(["20", "40", f"{M}15", "0"])

    # The second phone saves the same round (its player ticks that the cards left out are
    # singles, as the first did): refused, with a clear message; no second round.
    b.page.locator("label.confirm-singles").tap()
    b.page.get_by_role("button", name="Save round 1").tap()
    notice = b.page.locator("#round-main .notice")
    expect(notice).to_have_text(
        "Round 1 changed on another phone before this save: nothing was overwritten. "
        "Check what is stored now, then save again if needed."
    )
    # It now shows the round as stored.
    expect(b.page.locator(".hand-result h2 strong")).to_have_text(["20", "40", f"{M}15", "0"])
    expect(b.page.get_by_role("button", name="Save round 1")).to_have_count(0)
    b.page.unroute(re.compile(r"/live\?"))
    b.page.get_by_role("link", name="← Scoreboard").click()
    b.page.wait_for_url(scoreboard)
    expect(b.totals()).to_have_text(["20", "40", f"{M}15", "0"])
    expect(b.round_rows()).to_have_count(1)
    b.page.reload()
    expect(b.totals()).to_have_text(["20", "40", f"{M}15", "0"])
    expect(b.round_rows()).to_have_count(1)
    page.reload()
    expect(a.round_rows()).to_have_count(1)
    expect(a.round_rows().nth(0).locator("td a")).to_have_text(["20", "40", f"{M}15", "0"])

    # Round 2 saved on the first phone; the second phone's scoreboard, left open, follows on its
    # own (it polls every few seconds) and after a reload.
    a.start_round(2)
    a.bid(1, 1, "H")
    a.counts(0, "8C", {"8": 2})  # three 8s with the target: 40
    a.target(1, "3D")
    a.target(2, "QH")
    a.target(3, "9D")
    a.save(2)
    expect(a.totals()).to_have_text(["60", "40", f"{M}15", "0"])
    expect(b.totals()).to_have_text(["60", "40", f"{M}15", "0"], timeout=10_000)
    expect(b.round_rows()).to_have_count(2)
    b.page.reload()
    assert SCOREBOARD_URL.search(b.page.url)
    expect(b.totals()).to_have_text(["60", "40", f"{M}15", "0"])
    expect(b.page.locator(".next-round")).to_contain_text("Round 3: Cleo deals, Dan bids first.")
