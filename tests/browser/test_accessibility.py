"""axe-core (from the axe-playwright-python package) runs in the real browser on every page and
every state of the round page, in the light colour scheme and (its colour rules, the only ones a
change of scheme can move) the dark one: not one violation.

Each violation is printed with its rule id, impact and the nodes it found, so a failure says what
to fix. The states: home, crew, new game, scoreboard, round entry (fresh, bid folded, quick counts,
exact grid with cards held by others, a refused tap, a hand entered on its own phone), a saved
round, the winner screen, the tools, the rule book, the history pages, the restore page and the offline page."""
import re

from playwright.sync_api import expect

from app import create_app
from support.axe_audit import Audit
from support.browser import htmx_settled
from support.known_history import build_known_history

def all_in(phone, seat):
    phone.tab(seat)
    button = phone.page.get_by_role("button", name=f"{phone.names[seat]}’s hand is all in", exact=True)
    button.tap()
    expect(button).to_have_count(0)
    phone.settled()


def test_axe_finds_nothing_on_any_page_light_or_dark(page, orchard, other_phone, server, tmp_path):
    other = other_phone
    audit = Audit(page)

    page.goto(server + "/")
    audit("home")
    crew_url = orchard.start_crew("Axe crew")
    audit("crew")
    orchard.new_game_form()
    audit("new game")
    scoreboard = orchard.fill_new_game(goal="other", goal_other=60)
    audit("scoreboard")

    # --- Round 1 --------------------------------------------------------------------------------
    orchard.start_round(1)
    audit("round: fresh")
    orchard.bid(1, 2, "S")
    audit("round: bid folded")
    orchard.counts(0, "10S", {"3": 1, "9": 2, "J": 1})
    audit("round: quick counts")
    orchard.tab(1)
    orchard.mode("exact")
    orchard.cards(1, "4H", ["4C", "4D", "5H", "6H"])
    orchard.tab(2)
    orchard.mode("exact")
    orchard.target(2, "KD")
    audit("round: exact grid with cards held by others")
    orchard.tab(0)
    page.locator("label:has(#n-10-4)").tap()  # four 10s with the 10♠ target: refused
    expect(page.locator("#msg-rank-10")).to_contain_text("the deck has 4")
    audit("round: refused tap")
    orchard.target(2, "KD")
    # Cleo's pile by rank holds what the singles the other piles left out cannot: the round adds up.
    orchard.counts(2, "KD", {"2": 2, "3": 2, "6": 1, "7": 1, "8": 2, "9": 1, "10": 2, "J": 2, "Q": 2, "K": 1, "A": 2})

    # Dan enters his own hand on his own phone: this phone sees him "entering on his phone".
    other.page.goto(scoreboard)
    other.page.locator(".seat-buttons").get_by_role("button", name="Dan", exact=True).click()
    expect(other.page.locator(".seat.mine")).to_have_text("Dan · this phone")
    round_url = scoreboard + "/rounds/1"
    other.page.goto(round_url)
    other.counts(3, "2S", {"5": 2, "7": 2})
    page.goto(round_url + "?seat=3")
    expect(page.locator(".tabs .tab.current .tab-name")).to_have_text("Dan")
    audit("round: a hand entered on its own phone")
    # Only a hand a phone holds is marked "all in": Dan's is the only one, so the
    # round scores itself and each player signs off.
    all_in(other, 3)
    # Ann's and Cleo's piles by rank, entered on this phone, left singles out: the table says so.
    page.goto(round_url)
    expect(page.locator("#left-out")).to_contain_text("18 cards in no pile or target.")
    audit("round: cards left out, for the table to confirm")
    orchard.save(1)
    page.goto(round_url)
    expect(page.locator("#hand-0 h2 strong")).to_have_text("5")
    audit("round: scored, waiting for sign-off")
    page.goto(scoreboard)
    audit("scoreboard after a round")

    # --- Saved round, correction, undo ----------------------------------------------------------
    page.goto(round_url)
    audit("round: saved breakdown")
    page.get_by_role("button", name="Correct this round").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1 correcting")
    audit("round: correcting")
    page.get_by_role("button", name="Cancel correction").tap()
    expect(page.locator("#round-main h1")).to_have_text("Round 1")
    page.goto(scoreboard + "/rounds/1/what-if?rank=J&from=0&to=1")
    audit("what-if")

    # --- Round 2 ends the game ------------------------------------------------------------------
    other.page.goto(scoreboard)
    other.page.get_by_role("button", name="Leave Dan’s seat").click()
    expect(other.page.get_by_role("button", name="Leave Dan’s seat")).to_have_count(0)
    page.goto(scoreboard)
    orchard.start_round(2)
    orchard.bid(2, 1, "H")
    orchard.counts(0, "8C", {"8": 2})
    orchard.counts(1, "3D", {"3": 3, "6": 1})
    orchard.counts(2, "QH", {"Q": 1, "K": 2})
    orchard.counts(3, "9D", {"2": 2})
    orchard.save(2)
    expect(page.locator(".winner h1")).to_have_text("Ben wins!")
    audit("winner screen")

    # --- Tools and the rule book ----------------------------------------------------------------
    tools = crew_url + "tools/"
    for name, url in (("tools", tools), ("pile tool", tools + "pile"), ("trick tool", tools + "trick"),
                      ("bid tool", tools + "bid"), ("crew rules", tools + "rules"), ("rules", server + "/rules")):
        page.goto(url)
        audit(name)
    page.goto(tools + "pile")
    for code in ("10S", "3C", "3D"):
        page.locator(f".cardbtn[data-card='{code}']").click()
        htmx_settled(page)
    audit("pile tool with cards")
    page.goto(tools + "trick")
    page.locator(".cardbtn").first.click()
    audit("trick tool with a card")

    # --- History: the known history in a second crew of the same database -----------------------
    seed = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "seed", "WTF_CSRF_ENABLED": False})
    crew = server + build_known_history(seed.test_client()).rstrip("/")
    page.goto(crew + "/history")
    audit("history")
    page.goto(crew + "/history/games/1")
    audit("history: a game")
    page.goto(crew + "/players")
    audit("players")
    page.locator("main a[href*='/players/']").first.click()
    page.wait_for_url(re.compile(r"/players/\d+$"))
    audit("player")
    page.locator(".versus-links a").first.click()
    page.wait_for_url(re.compile(r"/vs/\d+$"))
    audit("versus")
    page.goto(scoreboard.split("/games/")[0] + "/history/games/1")
    audit("history: a game with change history")
    page.goto(server + "/restore")
    audit("restore")
    page.goto(server + "/offline")
    audit("offline page")

    print(f"axe ran on {len(audit.states)} page states, light and dark")
    assert audit.found == [], "axe-core violations:\n" + audit.report()


def test_axe_is_not_blind(page, server):
    """The audit sees a violation: a button with no name, and text as dark as the dark scheme's
    panels, which reads well on the light page and not at all on the dark one."""
    page.goto(server + "/")
    page.evaluate("""() => {
        const b = document.createElement("button"); b.className = "x"; document.querySelector("main").append(b);
        const p = document.createElement("p"); p.textContent = "Hard to read in the dark";
        p.style.color = "#1c211e"; document.querySelector("main").append(p);
    }""")
    audit = Audit(page)
    audit("home with a nameless button")
    assert any("[light] button-name (critical)" in line for line in audit.found), audit.report()
    assert any("[dark] color-contrast" in line for line in audit.found), audit.report()
    assert not any("[light] color-contrast" in line for line in audit.found), audit.report()
