"""The layout sweep: every main page on a 390 px phone with the longest names the forms take (40
characters, accents, one unbroken word of 24 letters and more), under each ranking of a club night,
kept light and dark. Nothing may reach past the phone's right edge (the page's scroll width and every
element's right edge), a refusal is said inside the screen and above the bottom bar, and the
organiser's taps on a night leave the tapped control where it was with their result in view."""
import re
from urllib.parse import urlsplit
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from support.apps import make_app
from support.browser import PHONE, htmx_settled, shoot
from support.club_nights import night_of, play_round
from support.loopback import in_a_thread
from support.organiser import MOVE_LIMIT, measured_tap
from support.table import Table

# Nine names of 40 characters: seven with one word of 24 letters or more that no space breaks, two
# ordinary long names.
NAMES = [
    "Maximiliane Wolfeschlegelsteinhausenberg",
    "Zoë Hildegardisöstergaardsdottirbjørnson",
    "Anna-Katharina Schwarzenegger-Østergårds",
    "Christopher Montgomery-Wellington Façade",
    "Éléonore Llanfairpwllgwyngyllgogerychwyr",
    "Björn Aðalsteinnþórhallurssonbjarnasonar",
    "Ægidius Rindfleischetikettierungsüberwac",
    "Ñuñoa Constantinopolitanischerdudelsacks",
    "Åse Kraftfahrzeughaftpflichtversicherung",
]
CREW = "Obstbaumwiesenfreundeskreis Köln-Süd e.V"
NIGHT = "Vereinsmeisterschaftsabschlussturnier Nº"
RANKINGS = ("total", "per-hand", "placement")
WIDTH = PHONE["width"]


def test_the_names_are_the_longest_the_forms_take():
    assert all(len(name) == 40 for name in [*NAMES, CREW, NIGHT])
    assert sum(max(len(word) for word in re.split(r"[\s-]", name)) >= 24 for name in [*NAMES, CREW, NIGHT]) == 9


def built(app):
    """A crew with a game of four long names (two rounds saved, a third open: one hand in quick
    entry, one in exact), and a night of nine long names for each ranking, with a stage played
    and the next drawn; returns the pages' addresses."""
    client = app.test_client()
    table = Table(client)
    crew = table.start_crew(CREW)
    game = table.start_game(names=NAMES[:4])
    for _ in range(2):
        table.save_quick_round(["AS", "KS", "9S", "2S"], [{"A": 2}, {"K": 1}, {"9": 1}, {}])
    round_url = table.start_round()
    client.post(round_url + "/hands/0/target", data={"target": "JS"})
    client.post(round_url + "/hands/0/counts/J", data={"count": "3"})
    client.post(round_url + "/hands/1/mode", data={"mode": "exact"})
    for card in ("4C", "4D", "10C"):
        client.post(round_url + f"/hands/1/cards/{card}", data={"held": "1"})
    nights = {}
    for ranking in RANKINGS:
        night = client.post(crew + "club-nights", data={"name": NIGHT, "names": "\n".join(NAMES), "format": "hands",
                                                         "stage_hands": "1", "ranking": ranking}).headers["Location"]
        client.post(night + "/stages")
        client.post(night + "/stages/1/start")
        _, stages = night_of(app, night)
        for game_no, stage_table in stages[-1]["tables"].items():
            play_round(app, crew, stage_table["game_id"], (0, 1, 2, 3) if game_no == 1 else (3, 2, 1, 0))
        assert client.post(night + "/stages").status_code == 303
        nights[ranking] = night
    fresh = client.post(crew + "club-nights", data={"name": NIGHT, "names": "\n".join(NAMES), "format": "hands",
                                                    "stage_hands": "1", "ranking": "total"}).headers["Location"]
    players = re.findall(r'href="(/c/[^/]+/players/\d+)"', client.get(crew + "players").get_data(as_text=True))
    # A night whose first stage is being played, in a crew of its own (its players sit at running
    # tables, which would hold up the fresh night's start): a table's scoreboard and open round.
    other = Table(client).start_crew(CREW)
    playing = client.post(other + "club-nights", data={"name": NIGHT, "names": "\n".join(NAMES), "format": "hands",
                                                       "stage_hands": "2", "ranking": "per-hand"}).headers["Location"]
    client.post(playing + "/stages")
    client.post(playing + "/stages/1/start")
    _, stages = night_of(app, playing)
    night_table = f"{other}games/{stages[-1]['tables'][1]['game_id']}"
    assert client.post(night_table + "/rounds").status_code == 303
    return SimpleNamespace(crew=crew, game=game, round=round_url, nights=nights, player=players[0], fresh_night=fresh,
                           night_table=night_table)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("sweep") / "orchard.db")
    urls = built(app)
    with in_a_thread(app) as base:
        yield base, urls, app


PAST_THE_EDGE = """width => {
    const name = el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
        `${typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : ''}`;
    // Cut short on purpose (an ellipsis): inside a box that hides what overflows it, in the phone.
    const clipped = start => {
        for (let el = start; el && el !== document.body; el = el.parentElement) {
            const overflow = getComputedStyle(el).overflowX;
            if ((overflow === 'hidden' || overflow === 'clip') && el.getBoundingClientRect().right <= width + 0.5) return true;
        }
        return false;
    };
    const past = [];
    for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && r.right > width + 0.5 && !clipped(el.parentElement))
            past.push(`${name(el)} right ${Math.round(r.right)} "${el.textContent.trim().slice(0, 24)}"`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    while (walker.nextNode()) {
        const text = walker.currentNode;
        if (!text.textContent.trim()) continue;
        range.selectNodeContents(text);
        const r = range.getBoundingClientRect();
        if (r.width > 0 && r.right > width + 0.5 && !clipped(text.parentElement))
            past.push(`text in ${name(text.parentElement)} right ${Math.round(r.right)} "${text.textContent.trim().slice(0, 24)}"`);
    }
    return [document.documentElement.scrollWidth, past.slice(0, 6)];
}"""


def wider_than_the_phone(page, name):
    """What reaches past the phone's right edge, as sentences (none when the page fits)."""
    scroll_width, past = page.evaluate(PAST_THE_EDGE, WIDTH)
    if scroll_width <= WIDTH and not past:
        return []
    return [f"{name}: {scroll_width} px wide; past the edge: {past}"]


def test_every_main_page_fits_the_phone_with_the_longest_names(site, page):
    """Measured once, in the light scheme: the dark one changes colours only, never a size
    (tests/test_assets.py checks the style sheets for that); each page is kept light and dark."""
    base, urls, _ = site
    found = []

    def check(name, url=None):
        if url:
            page.goto(base + url)
        htmx_settled(page)
        found.extend(wider_than_the_phone(page, name))
        shoot(page, f"sweep-{name}")
        shoot(page, f"sweep-{name}", dark=True)

    check("crew", urls.crew)
    check("scoreboard", urls.game)
    page.goto(base + urls.round)
    page.locator("#tab-0").tap()
    expect(page.locator(".tabs .tab.current")).to_have_id("tab-0")
    check("round-quick")
    page.locator("#tab-1").tap()
    expect(page.locator("#card-4C")).to_be_visible()
    check("round-exact")
    for ranking, night in urls.nights.items():
        check(f"night-{ranking}", night)
        check(f"big-screen-{ranking}", night + "/board")
    page.goto(base + night)
    page.locator("#night-log summary").tap()  # the night's log, open: long names in its lines
    expect(page.locator("#night-log li").first).to_be_visible()
    check("night-log")
    page.locator("#door-code summary").tap()  # the door code, open (issue 44, item 3)
    check("night-door-code")
    check("door", urlsplit(page.locator("#door-code .qr").get_attribute("data-link")).path)
    # Issue 44, item 6: a night table's scoreboard and round page, its 40-character names and night.
    check("night-table", urls.night_table)
    check("night-table-round", urls.night_table + "/rounds/1")
    check("club-nights", urls.crew + "club-nights")
    check("ladder", urls.crew + "ladder")
    check("history", urls.crew + "history")
    check("player", urls.player)
    assert not found, "Wider than the phone:\n" + "\n".join(found)


def refusal_in_view(page, note, name):
    """A refusal's sentence is on the screen, whole, and above the bar at the bottom (if any),
    once htmx has settled: it brings a refusal into view (`show:`) after its settle, so the
    sentence is on the page 20 ms before it is scrolled to (measured then, it read 232 px above)."""
    expect(page.locator(note)).to_be_visible()
    htmx_settled(page)
    box = page.locator(note).evaluate("""el => { const r = el.getBoundingClientRect();
        const bar = document.getElementById('live-bar');
        return [r.top, r.bottom, r.right, bar ? bar.getBoundingClientRect().top : innerHeight]; }""")
    top, bottom, right, floor = box
    assert 0 <= top and bottom <= floor and right <= WIDTH, f"{name}: the refusal is at {box[:3]}, the bar at {floor}"


def test_every_refusal_is_said_inside_the_screen(site, page):
    base, urls, _ = site
    # A refused tap on the round page: a fourth Jack in a pile whose target is a Jack.
    page.goto(base + urls.round)
    page.locator("#tab-0").tap()
    expect(page.locator(".tabs .tab.current")).to_have_id("tab-0")
    page.locator("label:has(#n-J-4)").evaluate("el => el.scrollIntoView({block: 'end'})")
    page.locator("label:has(#n-J-4)").tap()
    expect(page.locator("#msg-rank-J")).to_contain_text("4 Jacks")
    refusal_in_view(page, "#msg-rank-J", "round page")
    # A refused club-night form: three names are too few for a night.
    page.goto(base + urls.crew + "club-nights/new")
    page.fill("#names", "\n".join(NAMES[:3]))
    page.wait_for_timeout(500)  # the count of who is here follows the typing (400 ms after it)
    htmx_settled(page)
    page.get_by_role("button", name="Start the night").tap()
    expect(page.locator("#note-names")).to_be_visible()
    refusal_in_view(page, "#note-names", "new night")
    # A refused late arrival on a night: a name longer than a name may be.
    page.goto(base + urls.nights["total"])
    page.fill("#name", NAMES[0] + "x")
    page.get_by_role("button", name="Add to tonight").tap()
    expect(page.locator("#note-name")).to_be_visible()
    refusal_in_view(page, "#note-name", "late arrival")


def organiser_tap(page, button, result, name):
    """Tap `button` as a thumb finds it and check the answer: the control, or the sentence that
    takes its place, moves at most 40 px; no other control lands under the thumb; the sentence
    `result` is on the screen, whole. Returns the move."""
    label = button.inner_text()
    moved, under = measured_tap(page, button, lambda: expect(page.locator(result)).to_be_visible())
    assert moved <= MOVE_LIMIT, f"{name} ({label}): moved {moved:.0f} px"
    assert under is None, f"{name} ({label}): under the thumb now: {under}"
    refusal_in_view(page, result, name)
    return moved


def test_the_organisers_taps_leave_the_thumb_where_it_was_with_the_answer_in_view(site, page):
    base, urls, app = site
    night = urls.fresh_night
    page.goto(base + night)
    moves = {}
    moves["draw"] = organiser_tap(page, page.get_by_role("button", name="Draw stage 1"), "#note-stage", "draw")
    expect(page.locator("#table-1")).to_be_in_viewport()
    shoot(page, "sweep-organiser-drawn")
    shoot(page, "sweep-organiser-drawn", dark=True)
    page.select_option("#first", index=0)
    page.select_option("#second", index=1)
    moves["swap"] = organiser_tap(page, page.get_by_role("button", name="Swap these two"), "#note-swap", "swap")
    moves["redraw"] = organiser_tap(page, page.get_by_role("button", name="Draw stage 1 again"), "#note-stage", "redraw")
    expect(page.locator("#table-1")).to_be_in_viewport()
    moves["start"] = organiser_tap(page, page.get_by_role("button", name="Start stage 1"), "#note-stage", "start")
    expect(page.locator("#table-1 .qr svg")).to_be_in_viewport()
    shoot(page, "sweep-organiser-started")
    shoot(page, "sweep-organiser-started", dark=True)
    # A player at a table still playing cannot leave: refused next to the button.
    player = page.locator("#players li", has_text=page.locator("#table-1 .seat-order li").first.inner_text().split(" dealt")[0])
    moves["leaves"] = organiser_tap(page, player.get_by_role("button", name="Leaves"), f"#{player.get_attribute('id')} .error", "leaves")
    page.fill("#name", "Zoë Late-Arrival")
    moves["add"] = organiser_tap(page, page.get_by_role("button", name="Add to tonight"), "#note-name", "add")
    print("organiser's taps, px moved:", moves)
