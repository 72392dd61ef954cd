"""Fixing the past: correct a saved round, drop a correction, undo the last round and bring it back;
every step shows in the round's change history and the scoreboard totals follow."""
import re

from playwright.sync_api import expect

from support.browser import SCOREBOARD_URL, assert_fits_phone, shoot

M = "−"


def history_lines(page):
    history = page.locator("details.history")
    if history.get_attribute("open") is None:
        history.locator("summary").click()
    return history.locator("li")


def test_correct_undo_and_bring_back_rounds(page, orchard):
    orchard.start_crew()
    scoreboard = orchard.start_game()

    # Round 1: Ann 10♠ + J J → pair of Jacks +10; Ben 4♥ + 4 4 → three 4s with the target 40;
    # Cleo K♦ and nothing → 0; Dan 2♠ + 5 5 → pair of 5s −15.
    orchard.enter_round_one()
    orchard.save(1)
    # "Round 1 saved." came with the address; the address is the plain scoreboard's again, so a
    # reload does not say it twice.
    assert page.url.endswith(scoreboard.split("/c/")[1]) and "saved=" not in page.url
    page.reload()
    expect(orchard.totals()).to_have_text(["10", "40", "0", f"{M}15"])
    expect(page.locator(".flash")).to_have_count(0)
    # Round 2: Ann 8♣ + 8 → pair of 8s +5; Ben 3♦ + A A → pair of Aces +15;
    # Cleo Q♥ + Q Q → three Queens with the target 40; Dan 9♦ and nothing → 0.
    orchard.start_round(2)
    orchard.bid(2, 2, "H")
    orchard.counts(0, "8C", {"8": 1})
    orchard.counts(1, "3D", {"A": 2})
    orchard.counts(2, "QH", {"Q": 2})
    orchard.target(3, "9D")
    orchard.save(2)
    expect(orchard.totals()).to_have_text(["15", "55", "40", f"{M}15"])

    # --- Correct round 1: a third Jack was missed, Ann's round is three Jacks = +20 -------------
    orchard.round_rows().nth(0).locator("th a").click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    expect(page.locator("#hand-0 h2")).to_have_text("Ann 10")
    page.get_by_role("button", name="Correct this round").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1 correcting")
    orchard.settled()
    # The copy starts from the saved round.
    expect(page.locator(".tabs .tab-score")).to_have_text(["10", "40", "0", f"{M}15"])
    expect(page.locator("#step-bid .trump")).to_have_text("Trump ♦ · Ben won with One Diamond and leads.")
    orchard.tab(0)
    expect(page.locator("#n-J-2")).to_be_checked()
    expect(page.locator("#target-summary")).to_contain_text("Ann’s target 10♠")

    # First a correction that is dropped: nothing changes.
    orchard.count("J", 3)
    expect(page.locator("#tab-0 .tab-score")).to_have_text("20")
    page.get_by_role("button", name="Cancel correction").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1")
    expect(page.locator("#hand-0 h2")).to_have_text("Ann 10")
    orchard.settled()
    page.get_by_role("link", name="← Scoreboard").click()
    page.wait_for_url(scoreboard)
    expect(orchard.totals()).to_have_text(["15", "55", "40", f"{M}15"])

    # Then the real correction, saved.
    orchard.round_rows().nth(0).locator("th a").click()
    page.get_by_role("button", name="Correct this round").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1 correcting")
    orchard.settled()
    orchard.tab(0)
    orchard.count("J", 3)
    expect(page.locator(".breakdown li")).to_have_text(["Three Jacks: 2 × 10 = +20", "Singles score nothing: 10"])
    expect(page.get_by_role("button", name="Save round 1")).to_have_count(0)
    assert_fits_phone(page)
    shoot(page, "corrections-01-correcting")
    page.locator("label.confirm-singles").tap()  # the singles quick entry left out, said by the table
    page.get_by_role("button", name="Save correction").tap()
    page.wait_for_url(scoreboard)
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    # Round 1 now 20 · 40 · 0 · −15; the totals and the running totals after it follow.
    expect(orchard.round_rows()).to_have_count(2)
    expect(orchard.round_rows().nth(0).locator("td a")).to_have_text(["20", "40", "0", f"{M}15"])
    expect(orchard.round_rows().nth(1).locator(".running")).to_have_text(["25", "55", "40", f"{M}15"])
    expect(orchard.totals()).to_have_text(["25", "55", "40", f"{M}15"])

    # --- Undo the last round ------------------------------------------------------------------------
    orchard.round_rows().nth(1).locator("th a").click()
    page.wait_for_url(re.compile(r"/rounds/2$"))
    round_2 = page.url
    # Only the last round can be undone; the corrected round 1 offers no undo (checked below).
    page.get_by_role("button", name="Undo this round").click()
    page.wait_for_url(scoreboard)
    # One notice says so, with the way back (not a flash saying the same thing above it).
    expect(page.locator("main .notice")).to_have_text("Round 2 was undone. Open it to bring it back.")
    expect(page.locator(".flash")).to_have_count(0)
    expect(page.get_by_text(re.compile("undone"))).to_have_count(1)
    expect(orchard.round_rows()).to_have_count(1)
    expect(orchard.totals()).to_have_text(["20", "40", "0", f"{M}15"])
    expect(page.locator(".next-round")).to_contain_text("Round 2: Ben deals, Cleo bids first.")

    # The undone round's page says so and offers it back.
    page.get_by_role("link", name="Open it to bring it back").click()
    page.wait_for_url(round_2)
    expect(page.locator("#round-main h1")).to_have_text("Round 2 undone")
    expect(page.get_by_text("This round was undone and does not count.")).to_be_visible()
    expect(page.get_by_role("button", name="Correct this round")).to_have_count(0)
    shoot(page, "corrections-02-undone")
    page.get_by_role("button", name="Bring back round 2").click()
    page.wait_for_url(scoreboard)
    expect(page.locator(".flash")).to_have_text("Round 2 brought back.")
    expect(orchard.round_rows()).to_have_count(2)
    expect(orchard.totals()).to_have_text(["25", "55", "40", f"{M}15"])
    expect(page.locator(".next-round")).to_contain_text("Round 3: Cleo deals, Dan bids first.")

    # --- The change history of each round -----------------------------------------------------------
    page.goto(round_2)
    expect(page.locator("#round-main h1")).to_have_text("Round 2")
    expect(page.locator("details.history summary")).to_have_text("Changes to this round (4)")
    expect(history_lines(page)).to_have_text([
        re.compile(r"\d\d:\d\d · started\b"),
        re.compile(r"\d\d:\d\d · saved · 5 · 15 · 40 · 0\b"),
        re.compile(r"\d\d:\d\d · undone\b"),
        re.compile(r"\d\d:\d\d · brought back\b"),
    ])
    page.goto(round_2.replace("/rounds/2", "/rounds/1"))
    expect(page.get_by_role("button", name="Undo this round")).to_have_count(0)
    expect(page.locator("#hand-0 h2")).to_have_text("Ann 20")
    expect(page.locator("details.history summary")).to_have_text("Changes to this round (5)")
    expect(history_lines(page)).to_have_text([
        re.compile(r"\d\d:\d\d · started\b"),
        re.compile(r"\d\d:\d\d · saved · 10 · 40 · 0 · [-−]15\b"),
        # A discarded correction is not kept: the saved revision says it happened, once.
        re.compile(r"\d\d:\d\d · correction discarded · by "),
        re.compile(r"\d\d:\d\d · correction started · from revision 1\b.*\(revision 2\)$"),
        re.compile(r"\d\d:\d\d · corrected · Ann 10 → 20\b.*\(revision 2\)$"),
    ])
    assert_fits_phone(page)
    shoot(page, "corrections-03-history")
    assert SCOREBOARD_URL.search(scoreboard)
