"""Seat mode and "the rest of the cards" (issue 36): the remaining cards belong only to the one hand
still open once every other hand held on a phone is all in, never to a finished hand; a pile left
empty can be true, so a table that is all in with cards missing is told how many (never which),
can reopen its hands, and cannot save until the deck adds up."""
import pytest

from scoring import score_pile
from support.html_text import field_value, notice, poll_url, select, text, text_of, texts
from support.round_secrets import cards_named

NAMES = ("Ann", "Ben", "Cleo", "Dev")
TARGETS = ["AD", "2D", "6D", "5C"]
PILES = [
    "4C 5H 6C 6S 7C 7H 9C 9D 9S 10D JC AS".split(),
    "3D 3S 4H 8C 8D 10H QD KH".split(),  # Ben forgets to enter these
    "2H 2S 3C 4D 4S 10S JS QS KC KD KS AC".split(),
    "2C 3H 5D 5S 6H 7D 7S 8H 8S 9H 10C JD JH QC QH AH".split(),
]
TRUTH = [35, -10, -10, 70]


@pytest.fixture
def seated(app, table):
    """Four phones, each holding its own seat, on round 1 with the bid entered; every hand exact."""
    table.start_game(names=NAMES)
    phones = [app.test_client() for _ in range(4)]
    for seat, phone in enumerate(phones):
        assert phone.post(table.game_url + f"/seats/{seat}").status_code == 200
    assert phones[0].post(table.game_url + "/rounds").status_code == 303
    url = table.game_url + "/rounds/1"
    phones[0].post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "C"})
    for seat, phone in enumerate(phones):
        assert phone.post(url + f"/hands/{seat}/mode", data={"mode": "exact"}).status_code == 200
    return phones, url


def enter(phone, url, seat, cards=None):
    assert phone.post(url + f"/hands/{seat}/target", data={"target": TARGETS[seat]}).status_code == 200
    for code in PILES[seat] if cards is None else cards:
        assert phone.post(url + f"/hands/{seat}/cards/{code}", data={"held": "1"}).status_code == 200


def all_in(phone, url, seat, done=True):
    return phone.post(url + f"/hands/{seat}/done", data={"done": "1" if done else "0"})


def rest_buttons(page):
    return texts(page, "#remaining")


def test_the_deal_scores_as_the_issue_says():
    assert [score_pile(pile, target).total for pile, target in zip(PILES, TARGETS)] == TRUTH
    assert score_pile(PILES[0] + PILES[1], TARGETS[0]).total == 20  # what the wrong save gave Ann


def test_a_finished_hand_is_never_given_the_rest(seated, table):
    """The issue's table: Ben is all in with an empty pile. No finished phone is offered the rest
    (a crafted POST is refused), every phone is told 8 cards are missing and none of them, and
    once Ben reopens his hand the rest is his and the round saves as it was played."""
    phones, url = seated
    for seat in (0, 2, 3):
        enter(phones[seat], url, seat)
        assert all_in(phones[seat], url, seat).status_code == 200
    enter(phones[1], url, 1, cards=[])
    assert all_in(phones[1], url, 1).status_code == 200

    for seat, phone in enumerate(phones):
        page = text(phone.get(url))
        assert rest_buttons(page) == [], NAMES[seat]
        check = text_of(page.split('id="step-check"', 1)[1].split("</section>", 1)[0])
        assert "8 cards are in no pile or target yet" in check, NAMES[seat]
        assert not cards_named(check) & set(PILES[1]), NAMES[seat]

    # The round cannot be saved until the deck adds up; the refusal names no card either.
    page = phones[0].get(url)
    refused = phones[0].post(url + "/save", data={"version": field_value(page, "version")})
    assert refused.status_code == 422
    assert "8 cards are in no pile or target yet" in text_of(refused)
    assert not cards_named(text_of(refused)) & set(PILES[1])
    assert _totals(phones[0], table) == [0, 0, 0, 0]

    crafted = phones[0].post(url + "/hands/0/remaining")
    assert crafted.status_code == 409
    assert notice(crafted) == "Ann’s hand is all in: tap “Not done” to change it first."
    assert "8 cards are in no pile or target yet" in text_of(phones[0].get(url))

    # Ben reopens his hand: it is the one hand still open, so the rest is his, and his "all in"
    # saves the round as it was played.
    assert all_in(phones[1], url, 1, done=False).status_code == 200
    assert rest_buttons(phones[1].get(url)) == ["All the remaining cards to Ben (8)"]
    assert rest_buttons(phones[0].get(url)) == []
    assert phones[1].post(url + "/hands/1/remaining").status_code == 200
    assert all_in(phones[1], url, 1).status_code == 200
    assert _totals(phones[2], table) == TRUTH


def _totals(phone, table):
    return [int(t.replace("−", "-")) for t in texts(phone.get(table.game_url), ".total")]


def test_the_rest_waits_for_every_other_hand_and_never_goes_to_a_second_open_hand(seated):
    """Two hands open: neither may take the rest, on the page or by a crafted POST."""
    phones, url = seated
    for seat in range(4):
        enter(phones[seat], url, seat, cards=PILES[seat] if seat in (0, 2) else [])
    for seat in (0, 2):
        assert all_in(phones[seat], url, seat).status_code == 200
    for seat in (1, 3):
        assert rest_buttons(phones[seat].get(url)) == []
        refused = phones[seat].post(url + f"/hands/{seat}/remaining")
        assert refused.status_code == 409
        assert notice(refused) == "The rest of the cards can be given once every hand on another phone is all in."


def test_the_offer_follows_the_poll_both_ways(seated):
    """Dev's phone, the last open hand, is offered the rest by its poll once the others are all in,
    and the offer goes again when Ben opens his hand once more."""
    phones, url = seated
    for seat in range(4):
        enter(phones[seat], url, seat, cards=PILES[seat] if seat < 3 else [])
    dev = phones[3]
    poll = poll_url(dev.get(url))
    for seat in range(3):
        assert all_in(phones[seat], url, seat).status_code == 200
    offered = dev.get(poll, headers={"HX-Request": "true"})
    assert rest_buttons(offered) == ["All the remaining cards to Dev (16)"]
    assert all_in(phones[1], url, 1, done=False).status_code == 200
    withdrawn = dev.get(poll_url(offered), headers={"HX-Request": "true"})
    assert select(withdrawn, "#hand-result") and rest_buttons(withdrawn) == []
