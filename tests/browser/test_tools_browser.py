"""Settling disputes on a phone: a pile, a trick, a bid and a what-if, each in a few taps.

Expected values come from RULES.md: the first worked example (target 10, won 3 3 4 6 9 9 J J J Q
A A) is 25; with trump ♠ the trick 4♥ K♥ 2♠ A♥ goes to 2♠, the only trump; Two Clubs cannot
follow Three Diamonds.
"""
import re

from playwright.sync_api import expect

from app import create_app
from support.browser import assert_fits_phone, htmx_settled, shoot, small_tap_targets
from support.table import Table

M = "−"
FIRST_EXAMPLE = ["3C", "3D", "4H", "6S", "9C", "9D", "JC", "JD", "JH", "QS", "AH", "AD"]


def snap(page, name):
    """The page fits a phone, has no small tap targets, and is kept in light and dark."""
    assert_fits_phone(page)
    assert small_tap_targets(page) == []
    page.evaluate("window.scrollTo(0, 0)")  # the answer box is sticky: shoot it in its place
    shoot(page, name)
    shoot(page, name, dark=True)


def mark_page(page):
    """Tag the loaded document: the tag survives htmx swaps and disappears on a full reload."""
    page.evaluate("window.orchardNoReload = true")


def still_same_page(page):
    return page.evaluate("window.orchardNoReload === true")


def tap(page, selector):
    page.locator(selector).click()
    htmx_settled(page)


def open_tools(orchard):
    orchard.start_crew()
    orchard.page.get_by_role("link", name="Tools").click()
    orchard.page.wait_for_url(re.compile(r"/c/[^/]+/tools/$"))
    expect(orchard.page.locator("main h1")).to_have_text("Settle it")


def test_settle_a_pile_by_tapping(page, orchard):
    open_tools(orchard)
    snap(page, "tools-01-index")
    page.get_by_role("link", name=re.compile("What is this pile worth")).click()
    page.wait_for_url(re.compile(r"/tools/pile$"))
    htmx_settled(page)
    mark_page(page)

    # The first tap sets the target; after that every tap is a won card.
    tap(page, ".cardbtn[data-card='10S']")
    expect(page.locator("#pile-result")).to_contain_text("Target 10♠ · 0 won")
    expect(page.locator("#pile-total")).to_have_text("0")
    assert re.search(r"/tools/pile\?target=10S$", page.url)
    for code in FIRST_EXAMPLE:
        tap(page, f".cardbtn[data-card='{code}']")
    expect(page.locator("#pile-total")).to_have_text("25")
    expect(page.locator("#pile-lines li")).to_have_text([
        f"Pair of 3s: {M}15",
        "Pair of 9s: +5",
        "Three Jacks: 2 × 10 = +20",
        "Pair of Aces: +15",
        "Singles score nothing: 4, 6, 10, Q",
        "Total: 25",
    ])
    assert still_same_page(page), "a tap reloaded the page"
    assert "target=10S" in page.url and "cards=" in page.url and "JH" in page.url
    snap(page, "tools-02-pile-exact")

    # A tap on a won card takes it out again; the back button puts it back.
    tap(page, ".cardbtn[data-card='AD']")
    expect(page.locator("#pile-total")).to_have_text("10")
    page.go_back()
    expect(page.locator("#pile-total")).to_have_text("25")
    assert "AD" in page.url
    htmx_settled(page)

    # The address is the pile: opened afresh, it shows the same answer.
    shared = page.url
    page.goto(shared)
    expect(page.locator("#pile-total")).to_have_text("25")

    # Quick mode keeps the pile as rank counts.
    mark_page(page)
    tap(page, "a.seg:has-text('Quick: ranks')")
    assert "mode=quick" in page.url
    expect(page.locator("#pile-total")).to_have_text("25")
    expect(page.locator(".tile-up[data-rank='J'] .count")).to_have_text("×3")
    tap(page, ".tile-up[data-rank='J']")
    expect(page.locator("#pile-total")).to_have_text("45")  # four Jacks: 4 × 10 = 40
    tap(page, ".tile-down[data-rank='J']")
    expect(page.locator("#pile-total")).to_have_text("25")
    assert still_same_page(page)
    snap(page, "tools-03-pile-quick")


def test_a_bad_pile_address_says_why_next_to_the_picker(page, orchard):
    orchard.start_crew()
    page.goto(orchard.page.url + "tools/pile?target=10S&cards=3C+10S")
    expect(page.locator("#tool-problems")).to_have_text("Your target 10♠ cannot also be in your won pile")
    assert_fits_phone(page)


def test_settle_a_trick_in_five_taps(page, orchard):
    open_tools(orchard)
    page.get_by_role("link", name=re.compile("Who wins this trick")).click()
    page.wait_for_url(re.compile(r"/tools/trick$"))
    htmx_settled(page)
    mark_page(page)
    tap(page, "a.seg:has-text('Spades')")
    for code in ["4H", "KH", "2S", "AH"]:
        tap(page, f".cardbtn[data-card='{code}']")
    expect(page.locator("#trick-result")).to_contain_text("2♠ wins the trick: the only trump.")
    expect(page.locator(".slot.wins .slot-card")).to_have_text("2♠")
    expect(page.locator(".slot .slot-card")).to_have_text(["4♥", "K♥", "2♠", "A♥"])
    assert still_same_page(page)
    assert page.url.endswith("/tools/trick?trump=S&cards=4H+KH+2S+AH")
    snap(page, "tools-04-trick")

    # Clubs trump, 2♠ taken back and A♠ played last: no trump in it, so the highest heart wins
    # and the ace of another suit loses.
    tap(page, "a.seg:has-text('Clubs')")
    tap(page, ".slot-card:has-text('2♠')")
    tap(page, ".cardbtn[data-card='AS']")
    expect(page.locator(".slot .slot-card")).to_have_text(["4♥", "K♥", "A♥", "A♠"])
    expect(page.locator("#trick-result")).to_contain_text(
        "A♥ wins the trick: highest of the suit led (♥); no trump was played."
    )
    assert page.url.endswith("/tools/trick?trump=C&cards=4H+KH+AH+AS")


def test_settle_a_bid_question(page, orchard):
    open_tools(orchard)
    page.get_by_role("link", name=re.compile("Is this bid legal")).click()
    page.wait_for_url(re.compile(r"/tools/bid$"))
    htmx_settled(page)
    mark_page(page)
    tap(page, "a.cardbtn[data-bid='2S']")
    expect(page.locator("#bid-verdict")).to_contain_text("Legal.")
    tap(page, "a.pass-button")
    tap(page, "a.cardbtn[data-bid='3D']")
    expect(page.locator("#bid-verdict")).to_contain_text("Legal.")
    tap(page, "a.cardbtn[data-bid='2C']")
    expect(page.locator("#calls-list li")).to_have_text(
        ["First bidder 2♠", "Second bidder Pass", "Third bidder 3♦"]
    )
    expect(page.locator("#bid-verdict")).to_contain_text("Not legal: 2♣ does not beat 3♦.")
    expect(page.locator("#lowest-legal")).to_have_text("3♥")
    assert still_same_page(page)
    assert page.url.endswith("/tools/bid?calls=2S+pass+3D&next=2C")
    snap(page, "tools-05-bid")

    # Three passes after the last bid end it.
    tap(page, "a.pass-button")
    tap(page, "a.pass-button")
    tap(page, "a.pass-button")
    expect(page.locator("#bid-status")).to_contain_text("The bidding is over.")
    expect(page.locator("#bid-status")).to_contain_text("Third bidder won with Three Diamonds")


def test_what_if_on_a_saved_round(page, orchard, tmp_path):
    # The round is recorded through the app itself, on the same database the browser uses.
    setup = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "browser-tests",
                        "WTF_CSRF_ENABLED": False})
    table = Table(setup.test_client())
    table.start_game()
    round_url = table.save_quick_round(
        ["10S", "4H", "KD", "2S"],
        [{"3": 2, "9": 2, "J": 3, "A": 2}, {"4": 2, "10": 2}, {"K": 1, "7": 3}, {"2": 1, "5": 2, "Q": 2}],
    )
    page.goto(orchard.base + round_url + "/what-if")
    expect(page.locator("#what-if-scores tbody td:nth-child(2)")).to_have_text(["25", "50", "20", f"{M}20"])
    mark_page(page)
    # Each choice asks again at once (the form answers every change), so wait for each answer.
    page.locator("label.choice:has(input[name=from][value='0'])").click()
    htmx_settled(page)
    page.select_option("#rank", "J")
    htmx_settled(page)
    page.locator("label.choice:has(input[name=to][value='1'])").click()
    htmx_settled(page)
    expect(page.locator("#what-if-change")).to_have_text("What if Ben had won one Jack instead of Ann?")
    expect(page.locator("#what-if-scores tbody td:nth-child(3)")).to_have_text(["15", "50", "20", f"{M}20"])
    expect(page.locator("#what-if-scores tbody td:nth-child(4)")).to_have_text([f"{M}10", "same", "same", "same"])
    assert still_same_page(page)
    assert "rank=J" in page.url and "from=0" in page.url and "to=1" in page.url
    snap(page, "tools-06-what-if")


def test_rules_page_fits_a_phone(page, orchard):
    open_tools(orchard)
    page.get_by_role("link", name=re.compile("The rules")).click()
    page.wait_for_url(re.compile(r"/tools/rules$"))
    expect(page.locator("#examples .example h3").first).to_contain_text("25")
    page.locator(".toc a[href='#target-bonus']").click()
    expect(page.locator("#target-bonus")).to_be_in_viewport()
    snap(page, "tools-07-rules")
