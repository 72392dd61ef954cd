"""Every phone at the table follows the game (issue 43, item 4): four phones in seat mode, three of
them by the table link, reach round 2 when one phone starts it and the winner when the last "all
in" ends the game, none reloaded; and a finished table's phones polling on never lock the crew out
with 429 (a link the app gave out is never counted as a guessed one)."""
import re

import pytest
from playwright.sync_api import expect

from support.browser import NAMES, PHONE, SMALL_PHONE, Orchard, POLL_SECONDS, new_phone, watched_page, close_phone

TARGETS = ["4S", "2S", "3S", "5S"]
PILES = [{"4": 2}, {"2": 1}, {}, {}]  # Ann 40 (three 4s with her target), Ben −15, Cleo 0, Dan 0


def enter_and_all_in(phone, seat, last=False):
    """A player enters their hand, taps "all in" and sees it taken: the hand is all in, or (the
    last one) the round saved."""
    phone.counts(seat, TARGETS[seat], PILES[seat])
    phone.page.get_by_role("button", name=f"{NAMES[seat]}’s hand is all in").tap()
    if not last:
        expect(phone.page.locator("#hand-result .ok")).to_have_text(f"{NAMES[seat]}’s hand is all in ✓", timeout=8_000)


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_four_phones_follow_the_next_round_and_the_end_and_the_crew_is_never_locked_out(browser, server, size):
    contexts = [new_phone(browser, viewport=size) for _ in range(4)]
    watched = [watched_page(context) for context in contexts]
    phones = [Orchard(page, server) for page, _ in watched]
    ann = phones[0]
    crew_url = ann.start_crew()
    game_url = ann.start_game(goal="other", goal_other=60)
    ann.page.get_by_text("Bring another phone to this table").tap()
    table_link = ann.page.locator(".table-link .qr").get_attribute("data-link")
    for seat, phone in enumerate(phones):
        phone.page.goto(game_url if seat == 0 else table_link)
        phone.page.locator(".seat-buttons").get_by_role("button", name=NAMES[seat], exact=True).tap()
        expect(phone.page.locator(".seat.mine")).to_have_text(f"{NAMES[seat]} · this phone")

    for number in (1, 2):
        if number == 1:
            ann.start_round(1)
            for phone in phones[1:]:  # round 1: each phone opens it from the scoreboard
                expect(phone.page.get_by_role("button", name="Continue round 1")).to_be_visible(timeout=8_000)
                phone.page.get_by_role("button", name="Continue round 1").tap()
                expect(phone.page.locator("#round-main h1")).to_have_text("Round 1")
        else:
            ann.page.goto(game_url)
            ann.start_round(2)
            # The other three, left on round 1's saved page, arrive in round 2 by themselves.
            for phone in phones[1:]:
                expect(phone.page.locator("#round-main h1")).to_have_text("Round 2", timeout=8_000)
                expect(phone.page).to_have_url(re.compile(r"/rounds/2$"))
        ann.bid(0, 1, "S")
        for seat, phone in enumerate(phones):
            expect(phone.page.locator(".tabs .tab.current .tab-name")).to_have_text(NAMES[seat])
            enter_and_all_in(phone, seat, last=seat == 3)
        if number == 1:
            for phone in phones:
                expect(phone.page.locator("#hand-0 h2 strong")).to_have_text("40", timeout=8_000)

    # Dan's "all in" ended the game: every phone shows the winner, his own and the three others.
    for phone in phones:
        expect(phone.page.locator(".winner h1")).to_have_text("Ann wins!", timeout=8_000)

    # The table's phones stay on the result, polling, for as many polls as a minute at 3 s makes,
    # three of them by the table link of a game that is over: the crew link is never refused.
    # (Once is enough: the smaller screen changes nothing here.)
    if size == PHONE:
        ann.page.wait_for_timeout(60 / 3 * POLL_SECONDS * 1000 + 1000)
    for phone in phones[1:]:
        expect(phone.page.locator(".winner h1")).to_have_text("Ann wins!")
    answer = ann.page.goto(crew_url)
    assert answer.status == 200, answer.status
    assert ann.page.goto(table_link).status == 200  # the table link still says how it ended
    expect(ann.page.locator(".winner h1")).to_have_text("Ann wins!")
    for context, (_, errors) in zip(contexts, watched):
        assert errors == []
        close_phone(context)
