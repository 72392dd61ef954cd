"""One table, four phones: live polling, seats, private entry of targets and piles, sign-off."""
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from support.html_text import attribute, element_text, notice, poll_url, select, text, text_of, texts, save_fields
from support.rounds import BIG_COUNTS, BIG_TARGETS

TARGETS = ["4S", "2S", "3S", "5S"]
PILES = [{"4": 3, "K": 4}, {"2": 2}, {"3": 3}, {"5": 1}]  # Ann 120, Ben 40, Cleo 80, Dan −15


@pytest.fixture
def phones(app, table):
    """Four phones (separate cookies) at one game, each holding its own seat."""
    table.start_game()
    clients = [app.test_client() for _ in range(4)]
    for seat, phone in enumerate(clients):
        assert phone.post(table.game_url + f"/seats/{seat}").status_code == 200
    return clients


def shown_version(page):
    return int(parse_qs(urlsplit(poll_url(page)).query)["v"][0])


def test_an_idle_poll_costs_a_204(client, table):
    table.start_game()
    version = shown_version(text(client.get(table.game_url)))
    response = client.get(table.game_url + f"/live?v={version}")
    assert response.status_code == 204
    assert response.data == b""


def test_a_poll_after_a_change_brings_the_new_scoreboard(app, client, table):

    table.start_game()
    other = app.test_client()
    version = shown_version(text(other.get(table.game_url)))
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    response = other.get(table.game_url + f"/live?v={version}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    fragment = text(response)
    assert "<html" not in fragment
    assert texts(fragment, ".total") == ["160", "80", "80", "80"]
    assert shown_version(fragment) > version


def test_the_scoreboard_poll_stays_204_while_a_round_is_tapped_in_and_changes_when_it_is_saved(app, client, table):
    """Phones watching the scoreboard are re-sent it only when something it shows changes: the
    taps of the round being entered (bid, targets, counts, "all in") change nothing on it."""
    table.start_game()
    watcher = app.test_client()
    poll = poll_url(text(watcher.get(table.game_url)))
    url = table.start_round()
    started = watcher.get(poll, headers={"HX-Request": "true"})
    assert started.status_code == 200 and "Continue round 1" in text(started)
    poll = poll_url(text(started))
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "S"})
    for seat, target in enumerate(BIG_TARGETS):
        client.post(url + f"/hands/{seat}/target", data={"target": target})
    client.post(url + "/hands/0/counts/K", data={"count": 2})
    assert watcher.get(poll).status_code == 204
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    saved = watcher.get(poll, headers={"HX-Request": "true"})
    assert saved.status_code == 200
    assert texts(text(saved), ".total") == ["160", "80", "80", "80"]


def test_a_round_page_poll_is_204_until_another_phone_taps(app, client, table):
    table.start_game()
    url = table.start_round()
    other = app.test_client()
    poll = poll_url(other.get(url))
    assert other.get(poll).status_code == 204
    client.post(url + "/hands/0/target", data={"target": "JS"})
    client.post(url + "/hands/0/counts/J", data={"count": 2})
    response = other.get(poll, headers={"HX-Request": "true"})
    assert response.status_code == 200
    fragment = text(response)
    # The display regions come out of band (Ann's tab shows her score); the controls this phone
    # may be using (its hand, its bid form) are never in a poll's answer.
    assert (element_text(fragment, "#tab-0 .tab-name"), element_text(fragment, "#tab-0 .tab-score")) == ("Ann", "40")
    assert attribute(fragment, "#tabs", "hx-swap-oob") == "true"
    assert select(fragment, "#target-picker") == [] and select(fragment, ".bid-form") == []


def test_a_phone_takes_a_seat_and_others_see_it(app, table, phones):
    ann, ben = phones[0], phones[1]
    assert "Ann · this phone" in text(ann.get(table.game_url))
    page = text(ben.get(table.game_url))
    assert "Ben · this phone" in page
    assert "Ann · on a phone" in page


def test_a_seat_in_use_needs_a_reassignment(app, table, phones):
    spare = app.test_client()
    response = spare.post(table.game_url + "/seats/2")
    assert response.status_code == 409
    assert notice(response) == "Cleo's seat is in use on another phone."
    assert "Reassign Cleo’s seat to this phone" in text(response)
    assert spare.post(table.game_url + "/seats/2", data={"force": "1"}).status_code == 200
    assert "Cleo · this phone" in text(spare.get(table.game_url))
    assert "Cleo · this phone" not in text(phones[2].get(table.game_url))


def test_leaving_a_seat_frees_it(app, table, phones):
    phones[3].post(table.game_url + "/seats/leave")
    assert "Dan · on a phone" not in text(phones[0].get(table.game_url))
    assert app.test_client().post(table.game_url + "/seats/3").status_code == 200


def test_a_secret_target_is_not_in_other_phones_html(table, phones):
    url = table.start_round()
    ann, ben = phones[0], phones[1]
    ann.post(url + "/hands/0/target", data={"target": "QH"})
    mine = text(ann.get(url))
    assert "Ann’s target Q♥" in text_of(mine) and "Q♥" in texts(mine, ".card.suit-H")
    token = table.crew_url.split("/c/")[1].strip("/")  # random: it may hold "QH" by chance
    for page in (text(ben.get(url)), text(ben.get(url + "/hands/0"))):
        page = re.sub(r'nonce="[^"]*"', "", page.replace(token, ""))  # random text: it may hold "QH" too
        page = re.sub(r"[A-Za-z0-9_.-]{40,}", "", page)  # so may CSRF tokens (a card code is never so long)
        # Ben's own target grid offers every card; Q♥ there is free to pick, like any other.
        assert select(page, "#t-QH[checked]") == [] and select(page, "#t-QH[disabled]") == []
        page = re.sub(r'<form id="target-picker".*?</form>', "", page, flags=re.S)
        assert "Q♥" not in page and "QH" not in page
    assert "Ann is entering this hand on their own phone." in text(ben.get(url + "/hands/0"))
    response = ben.post(url + "/hands/0/target", data={"target": "2C"})
    assert response.status_code == 403


def test_four_phones_enter_their_own_hands_and_the_round_scores_itself(table, phones):
    url = table.start_round()
    phones[0].post(url + "/bid", data={"bidder": "0", "number": "2", "suit": "S"})
    for seat, phone in enumerate(phones):
        phone.post(url + f"/hands/{seat}/target", data={"target": TARGETS[seat]})
        for rank, n in PILES[seat].items():
            assert phone.post(url + f"/hands/{seat}/counts/{rank}", data={"count": n}).status_code == 200
    for seat, phone in enumerate(phones[:3]):
        phone.post(url + f"/hands/{seat}/done")
    waiting = text(phones[0].get(url))
    assert "Waiting for Dan." in waiting
    assert "Save round 1" not in waiting
    response = phones[3].post(url + "/hands/3/done")
    assert response.status_code == 200
    for phone in phones:
        board = text(phone.get(table.game_url))
        assert texts(board, ".total") == ["120", "40", "80", "−15"]
    assert "Four 4s with your target: 80" in text(phones[1].get(url))


def test_a_card_another_phone_holds_in_private_is_only_taken(table, phones):
    url = table.start_round()
    phones[0].post(url + "/hands/0/mode", data={"mode": "exact"})
    phones[1].post(url + "/hands/1/mode", data={"mode": "exact"})
    assert phones[0].post(url + "/hands/0/cards/7H", data={"held": "1"}).status_code == 200
    response = phones[1].post(url + "/hands/1/cards/7H", data={"held": "1"})
    assert response.status_code == 409
    # Whose it is, or whether it is a target, would tell what a private hand holds.
    assert notice(response) == "7♥ is taken."


def test_changing_a_hand_after_it_is_in_opens_it_again(table, phones):
    url = table.start_round()
    phones[0].post(url + "/hands/0/target", data={"target": "4S"})
    phones[0].post(url + "/hands/0/done")
    assert "Ann’s hand is all in ✓" in text(phones[0].get(url))
    phones[0].post(url + "/hands/0/counts/K", data={"count": 1})
    assert "Ann’s hand is all in ✓" not in text(phones[0].get(url))


def test_a_correction_is_saved_only_with_the_agreement_of_every_seated_phone(table, phones):
    """Issue 43.3: round 1 saved and agreed; Ann corrects her own hand and saves alone: refused,
    the totals stay. Ben agrees, Ann changes it again: Ben's agreement is cleared, and his phone
    says so at its next poll. Once Ben, Cleo and Dan agree to it as it stands, Ann's save goes
    through, their agreements carry to the saved round, and its log says which hand changed."""
    for phone in phones:  # everybody leaves, so one phone enters the whole round
        phone.post(table.game_url + "/seats/leave")
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    url = table.game_url + "/rounds/1"
    for seat, phone in enumerate(phones):
        phone.post(table.game_url + f"/seats/{seat}")
    ann, ben, cleo, dan = phones
    ann.post(url + "/agree")
    assert "Ann agreed ✓" in text(ben.get(url))
    assert "I agree with my score" in text(ben.get(url))
    assert "a correction that changes scores needs your agreement again" in text_of(ben.get(url))
    for phone in phones[1:]:
        phone.post(url + "/agree")
    assert select(ann.get(table.game_url), '[title="everybody agreed"]')

    ann.post(url + "/correct")
    ann.post(url + "/hands/0/counts/K", data={"count": 3})
    refused = ann.post(url + "/save", data=save_fields(ann.get(url)), headers={"HX-Request": "true"})
    assert refused.status_code == 409
    assert ("Waiting for Ben, Cleo and Dan to agree to this correction: each taps “I agree to this "
            "correction” on their own phone.") in text_of(refused)
    assert select(ann.get(table.game_url), '[title="everybody agreed"]')  # the saved round stands
    seen = text_of(ben.get(url))
    assert "This correction changes Ann’s score 160 → 140." in seen
    assert "Ann (this phone)" not in seen and "Ben (this phone)" in seen and "Cleo: waiting" in seen
    assert ben.post(url + "/agree-correction", data=save_fields(ben.get(url))).status_code == 200
    assert "Ben agreed ✓" in text_of(cleo.get(url))

    # Ann changes the correction again: Ben's agreement no longer holds, and his phone is told.
    ann.post(url + "/hands/0/counts/K", data={"count": 2})
    page = ben.get(url)
    assert "Ben agreed ✓" not in text_of(page) and "I agree to this correction" in text_of(page)
    asked = re.sub(r"v=\d+", "v=0", poll_url(text(page))) + "&agreed=1"  # as his page before showed it
    poll = ben.get(asked, headers={"HX-Request": "true"})
    assert "Your agreement was cleared: the correction changed after you agreed." in text_of(poll)
    # An agreement sent for the correction as it was before the change is refused.
    stale = ben.post(url + "/agree-correction", data={"version": "1"}, headers={"HX-Request": "true"})
    assert stale.status_code == 409

    for phone in (ben, cleo, dan):
        assert phone.post(url + "/agree-correction", data=save_fields(phone.get(url))).status_code == 200
    assert ann.post(url + "/save", data=save_fields(ann.get(url))).status_code == 303
    assert select(ann.get(table.game_url), '[title="everybody agreed"]')  # all four, to the new scores
    history = text_of(ben.get(url))
    assert "corrected · Ann 160 → 130 (2 Kings fewer) · by Ann's phone" in history
    assert "agreed · by Ben's phone" in history


def test_with_no_seat_held_the_shared_phone_saves_a_correction_and_says_so(client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    client.post(url + "/correct")
    client.post(url + "/hands/0/counts/K", data={"count": 3})
    page = text_of(client.get(url))
    assert "This correction changes Ann’s score 160 → 140." in page
    assert "No phone holds a seat at this table: this phone saves the correction for everybody." in page
    assert client.post(url + "/save", data=save_fields(client.get(url))).status_code == 303


def test_agreeing_needs_a_seat(client, table):

    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    response = client.post(url + "/agree")
    assert response.status_code == 403
    assert notice(response) == "Take a seat to agree to your score."


def test_agreeing_to_a_round_still_being_entered_is_refused_with_a_sentence(table, phones):
    url = table.start_round()  # a crafted POST: the page offers "I agree" only on a saved round
    response = phones[0].post(url + "/agree")
    assert response.status_code == 409
    assert notice(response) == "Round 1 is not saved: there is no score to agree to yet."


def test_agreeing_twice_records_one_sign_off(app, table, phones):
    from store import connect

    for phone in phones:
        phone.post(table.game_url + "/seats/leave")
    url = table.save_quick_round(["4S", "2S", "3S", "5S"], [{}, {}, {}, {}])
    phones[0].post(table.game_url + "/seats/0")
    assert phones[0].post(url + "/agree").status_code == 200
    assert phones[0].post(url + "/agree").status_code == 200
    db = connect(app.config["DATABASE"])
    assert [row["action"] for row in db.query("SELECT action FROM round_changes WHERE action = 'agreed'")] == ["agreed"]


def test_the_rest_of_the_cards_waits_until_every_other_phone_is_all_in(phones, table):
    """Seat mode: Dan's phone may give his exact pile the rest once Ann, Ben and Cleo are all in;
    before that the rest would tell, by what it leaves out, what their piles hold so far."""
    url = table.game_url + "/rounds/1"
    phones[0].post(table.game_url + "/rounds")
    piles = [["2C", "3C", "4C", "5C"], ["2D", "3D", "4D", "5D"], ["2H", "3H", "4H", "5H"]]
    for seat, (phone, target) in enumerate(zip(phones, ["AS", "KS", "QS", "JS"])):
        phone.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})
        phone.post(url + f"/hands/{seat}/target", data={"target": target})
        for code in piles[seat] if seat < 3 else []:
            phone.post(url + f"/hands/{seat}/cards/{code}", data={"held": "1"})
    dan = phones[3]
    early = dan.post(url + "/hands/3/remaining")
    assert early.status_code == 409
    assert "once every hand on another phone is all in" in text(early)
    assert "All the remaining cards" not in text(dan.get(url))
    for seat in range(3):
        assert phones[seat].post(url + f"/hands/{seat}/done", data={"done": "1"}).status_code == 200
    assert "All the remaining cards to Dan (36)" in text(dan.get(url))
    answer = dan.post(url + "/hands/3/remaining")
    assert answer.status_code == 200
    assert "36 cards" in text(answer)
