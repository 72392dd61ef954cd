"""A player's phone follows its player through a club night (issue 44, item 1), tapped as a player
does: the table's code, "which one are you?", the table ends and sends the phone to its outcome,
one tap back to the night's board, and when the organiser starts the next stage the board (never
reloaded) says where the player sits now, with one tap to open that table. No code scanned again."""
import re

import pytest
from playwright.sync_api import expect

from app import create_app
from support.browser import MOVE_ON_SECONDS, POLL_SECONDS, SMALL_PHONE, new_phone, watched_page, close_phone
from support.club_nights import NINE, play_round
from support.loopback import in_a_thread


@pytest.fixture
def served(tmp_path):
    """The app (for saving the tables' hands as their own phones would) and its address."""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "browser-tests",
                      "POLL_SECONDS": POLL_SECONDS, "MOVE_ON_SECONDS": MOVE_ON_SECONDS})
    with in_a_thread(app) as base:
        yield app, base


def test_a_players_phone_is_shown_its_next_table_and_opens_it_with_one_tap(browser, served, page):
    app, base = served
    organiser = page
    organiser.goto(base + "/")
    organiser.fill("#name", "Club")
    organiser.get_by_role("button", name="Start the crew").tap()
    organiser.wait_for_url(re.compile(r"/c/[^/]+/$"))
    crew = organiser.url
    organiser.goto(crew + "club-nights/new")
    organiser.fill("#names", "\n".join(NINE))
    organiser.fill("#stage_hands", "2")
    organiser.get_by_role("button", name="Start the night").tap()
    organiser.wait_for_url(re.compile(r"/club-nights/\d+$"))
    organiser.get_by_role("button", name="Draw stage 1").tap()
    organiser.get_by_role("button", name="Start stage 1").tap()
    expect(organiser.locator(".night-table .qr svg")).to_have_count(2)
    games = [re.search(r"/games/(\d+)", organiser.locator(f"#table-{n} .qr").get_attribute("data-link"))[1]
             for n in (1, 2)]

    context = new_phone(browser, viewport=SMALL_PHONE)
    phone, errors = watched_page(context)
    phone.goto(organiser.locator("#table-1 .qr").get_attribute("data-link"))
    first_seat = phone.locator(".seat-buttons button").first
    name = first_seat.inner_text().strip()
    first_seat.tap()
    expect(phone.locator(".seat.mine")).to_have_text(f"{name} · this phone")

    for game_id in games:  # both tables play their two hands on their own phones
        for _ in range(2):
            play_round(app, crew.removeprefix(base), game_id, [0, 1, 2, 3])
    back = phone.get_by_role("link", name=re.compile("Back to Club night"))
    expect(back).to_be_visible(timeout=8_000)  # the finished table sent the phone to how it ended
    back.tap()
    panel = phone.locator("#my-table")
    expect(panel).to_have_text(re.compile(rf"{name}, your table of stage 1 has finished\."))

    organiser.get_by_role("button", name="Draw stage 2").tap()
    # Read stage 2's sit-outs once its draw is on the page: until then the line is stage 1's.
    expect(organiser.get_by_role("button", name="Start stage 2")).to_be_visible()
    sits_out = name in organiser.locator(".sitting-out").inner_text().removeprefix("Sitting out: ").split(", ")
    if not sits_out:
        expect(panel).to_contain_text("Stage 2 is drawn", timeout=8_000)
    organiser.get_by_role("button", name="Start stage 2").tap()
    if sits_out:
        expect(panel).to_have_text(re.compile(rf"Stage 2: {name}, you sit this stage out\."), timeout=8_000)
    else:
        expect(panel).to_contain_text(re.compile(rf"Stage 2: {name}, you are at table \d, seat \d\."), timeout=8_000)
        table_no = re.search(r"table (\d)", panel.inner_text())[1]
        phone.get_by_role("link", name=f"Open table {table_no}").tap()
        expect(phone.locator(".seat-buttons").get_by_role("button", name=name, exact=True)).to_be_visible()
        assert phone.url.split("/games/")[1] == re.search(
            r"/games/(\d+)", organiser.locator(f"#table-{table_no} .qr").get_attribute("data-link"))[1]
    assert errors == []
    close_phone(context)


def _games_of(organiser, tables=2):
    return [re.search(r"/games/(\d+)", organiser.locator(f"#table-{n} .qr").get_attribute("data-link"))[1]
            for n in range(1, tables + 1)]


def test_four_phones_follow_their_players_from_stage_1_to_stage_3_without_a_second_code(browser, served, page):
    """Issue 44's done-means: four players' phones, two at each table of stage 1 by its code, then
    stages 2 and 3 by the box on the night's board alone (one tap on Open table N, one on their
    name), whoever the draw seats or sits out."""
    app, base = served
    organiser = page
    organiser.goto(base + "/")
    organiser.fill("#name", "Club")
    organiser.get_by_role("button", name="Start the crew").tap()
    organiser.wait_for_url(re.compile(r"/c/[^/]+/$"))
    crew = organiser.url.removeprefix(base)
    organiser.goto(base + crew + "club-nights/new")
    organiser.fill("#names", "\n".join(NINE))
    organiser.fill("#stage_hands", "1")
    organiser.get_by_role("button", name="Start the night").tap()
    organiser.wait_for_url(re.compile(r"/club-nights/\d+$"))
    organiser.get_by_role("button", name="Draw stage 1").tap()
    organiser.get_by_role("button", name="Start stage 1").tap()
    expect(organiser.locator(".night-table .qr svg")).to_have_count(2)

    phones = []
    for n in range(4):  # two phones at each table, each by its table's code: the only code scanned
        context = new_phone(browser, viewport=SMALL_PHONE)
        phone, errors = watched_page(context)
        phone.goto(organiser.locator(f"#table-{1 + n // 2} .qr").get_attribute("data-link"))
        seat = phone.locator(".seat-buttons button").nth(n % 2)
        name = seat.inner_text().split(" · ")[0].strip()
        seat.tap()
        expect(phone.locator(".seat.mine")).to_have_text(f"{name} · this phone")
        phones.append((context, phone, errors, name))

    for stage in (1, 2, 3):
        if stage > 1:
            organiser.get_by_role("button", name=f"Draw stage {stage}").tap()
            expect(organiser.get_by_role("button", name=f"Start stage {stage}")).to_be_visible()
            organiser.get_by_role("button", name=f"Start stage {stage}").tap()
            expect(organiser.locator(".night-table .qr svg")).to_have_count(2)
            for _, phone, _, name in phones:
                box = phone.locator("#my-table")
                expect(box).to_have_text(re.compile(
                    rf"Stage {stage}: {name}, you (are at table \d, seat \d|sit this stage out)"), timeout=8_000)
                found = re.search(r"table (\d)", box.inner_text())
                if found:
                    phone.get_by_role("link", name=f"Open table {found[1]}").tap()
                    phone.locator(".seat-buttons").get_by_role("button", name=name, exact=True).tap()
                    expect(phone.locator(".seat.mine")).to_have_text(f"{name} · this phone")
        seated = [(phone, name) for _, phone, _, name in phones if phone.locator(".seat.mine").count()]
        for game_id in _games_of(organiser):
            play_round(app, crew, game_id, [0, 1, 2, 3])
        for phone, name in seated:  # each table's end sends its phones on, one tap back to the board
            back = phone.get_by_role("link", name=re.compile("Back to Club night"))
            expect(back).to_be_visible(timeout=8_000)
            back.tap()
            expect(phone.locator("#my-table")).to_have_text(
                re.compile(rf"{name}, your table of stage {stage} has finished\."))
    for context, _, errors, _ in phones:
        assert errors == []
        close_phone(context)
