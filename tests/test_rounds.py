"""Entering a round step by step, its check, saving, conflicts, corrections, undo and bringing back."""
import pytest

from store import connect
from support.html_text import attribute, element_text, labelled, links, notice, select, text, text_of, texts
from support.rounds import BIG_COUNTS, BIG_TARGETS, add, exact, exact_round, stored_rounds


def test_round_page_shows_dealer_and_first_bidder(client, table):
    table.start_game(first_dealer=3)
    page = text(client.get(table.start_round()))
    assert labelled(page, "#deal", "Deals") == "Dan"
    assert labelled(page, "#deal", "Bids first") == "Ann"


def test_dealer_moves_clockwise_each_round(client, table):
    table.start_game(first_dealer=0)
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    page = text(client.get(table.game_url))
    assert "Round 2: Ben deals, Cleo bids first." in text_of(page)


def test_bid_shows_trump_and_who_leads(client, table):
    table.start_game()
    url = table.start_round()
    response = client.post(url + "/bid", data={"bidder": "2", "number": "3", "suit": "H"})
    assert response.status_code == 200
    assert "Cleo won with Three Hearts and leads." in text(response)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"bidder": "1", "number": "0", "suit": "S"}, "A bid is a number from 1 to 13."),
        ({"bidder": "1", "number": "14", "suit": "S"}, "A bid is a number from 1 to 13."),
        ({"bidder": "1", "number": "2", "suit": "X"}, "Not a valid choice."),
        ({"bidder": "4", "number": "2", "suit": "S"}, "Not a valid choice."),
    ],
)
def test_bad_bid_is_refused_next_to_the_field(client, table, data, message):
    table.start_game()
    url = table.start_round()
    response = client.post(url + "/bid", data=data)
    assert response.status_code == 422
    assert message in text(response)
    assert "Trump" not in text(client.get(url))


@pytest.mark.parametrize("data", [
    {"bidder": "1", "number": "", "suit": "S"}, {"bidder": "1", "number": "2", "suit": ""},
    {"bidder": "", "number": "2", "suit": "S"}, {"number": "2"},
])
def test_a_bid_with_a_choice_still_to_make_saves_nothing_yet(client, table, data):
    """The bid form is sent with every choice and saved by the third: until then, nothing."""
    table.start_game()
    url = table.start_round()
    assert client.post(url + "/bid", data=data).status_code == 204
    assert "Trump" not in text(client.get(url))


def test_everyone_passed_records_a_redeal_with_the_same_dealer(app, client, table):
    table.start_game(first_dealer=1)
    url = table.start_round()
    client.post(url + "/bid", data={"bidder": "1", "number": "2", "suit": "S"})
    response = client.post(url + "/redeal")
    assert "Everyone passed: same dealer" in text(response)
    page = text(response)
    assert "Redeals this round: 1" in page
    assert "Trump" not in page
    assert labelled(page, "#deal", "Deals") == "Ben"


@pytest.mark.parametrize(
    ("target", "message"),
    [("ZZ", "'ZZ' is not a card"), ("1S", "'1S' is not a card"), ("J", "'J' has no suit")],
)
def test_bad_target_card_is_refused_next_to_the_field(client, table, target, message):
    table.start_game()
    url = table.start_round()
    response = client.post(url + "/hands/0/target", data={"target": target})
    assert response.status_code == 422
    assert message in text(response).replace("&#39;", "'")


def test_quick_breakdown_updates_with_each_tap(client, table):
    table.start_game()
    url = table.start_round()
    client.post(url + "/hands/0/target", data={"rank": "10", "suit": "S"})
    for rank, n in {"3": 2, "4": 1, "6": 1, "9": 2, "J": 3, "Q": 1, "A": 2}.items():
        response = client.post(url + f"/hands/0/counts/{rank}", data={"count": n}, headers={"HX-Request": "true"})
    page = text(response)
    assert "<html" not in page  # a fragment, not a page
    assert 'id="rank-grid"' not in page  # the tiles the phone taps are never sent back
    for line in ["Pair of 3s: −15", "Pair of 9s: +5", "Three Jacks: 2 × 10 = +20", "Pair of Aces: +15"]:
        assert line in page
    assert texts(page, "strong.big") == ["25"]
    response = client.post(url + "/hands/0/counts/J", data={"count": 2}, headers={"HX-Request": "true"})
    assert "Pair of Jacks: +10" in text(response)
    assert texts(response, "strong.big") == ["15"]


def test_the_same_tap_sent_twice_changes_nothing_the_second_time(app, client, table):
    table.start_game()
    url = table.start_round()
    client.post(url + "/hands/0/target", data={"target": "10S"})
    first = client.post(url + "/hands/0/counts/K", data={"count": 3})
    again = client.post(url + "/hands/0/counts/K", data={"count": 3})
    assert first.status_code == again.status_code == 200
    assert "Three Kings: 2 × 10 = +20" in text(again)
    db = connect(app.config["DATABASE"])
    assert [row["counts"] for row in db.query("SELECT counts FROM hands WHERE seat = 0")] == ['{"K": 3}']
    exact(client, url, [1])
    for _ in range(2):
        assert add(client, url, 1, "7C").status_code == 200
    assert [row["won"] for row in db.query("SELECT won FROM hands WHERE seat = 1")] == ["7C"]
    client.post(url + "/hands/1/cards/7C", data={})  # not held: out of the pile, twice
    client.post(url + "/hands/1/cards/7C", data={})
    assert [row["won"] for row in db.query("SELECT won FROM hands WHERE seat = 1")] == [""]


def test_a_tap_on_an_old_view_of_a_hand_changed_on_another_phone_is_refused(app, client, table):
    table.start_game()
    url = table.start_round()
    ann_phone, other_phone = client, app.test_client()
    ann_phone.post(url + "/hands/0/target", data={"target": "10S"})
    shown = int(attribute(other_phone.get(url), "#hand-version", "value"))
    ann_phone.post(url + "/hands/0/counts/K", data={"count": 2})
    response = other_phone.post(url + "/hands/0/counts/Q", data={"count": 2, "based_on": shown})
    assert response.status_code == 409
    assert notice(response) == "Ann’s hand was changed on another phone: this is what is stored now."
    assert "Pair of Kings" in text(response)  # the hand as stored, in place of the old view
    assert "Pair of Queens" not in text(client.get(url))


def test_quick_mode_refuses_a_fifth_card_of_a_rank_in_one_pile(client, table):
    table.start_game()
    url = table.start_round()
    client.post(url + "/hands/0/target", data={"target": "JS"})
    assert client.post(url + "/hands/0/counts/J", data={"count": 3}).status_code == 200
    response = client.post(url + "/hands/0/counts/J", data={"count": 4})
    assert response.status_code == 409
    assert "4 Jacks" in notice(response)
    # The refused row comes back as stored (3 checked), with the reason right below it.
    assert attribute(response, "#n-J-3", "checked") is not None
    assert element_text(response, "#msg-rank-J").startswith("Ann has 4 Jacks")
    assert "Four Jacks with your target: 80" in text(client.get(url))


def test_quick_mode_reports_more_than_four_of_a_rank_across_the_table(client, table):
    table.start_game()
    url = table.enter_quick_round(
        BIG_TARGETS, [{"4": 3}, {"K": 3}, {"K": 2}, {}], save=False
    )
    page = text(client.get(url))
    assert "There are 5 Kings across the table (piles and targets); the deck has 4." in page
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 422
    assert "cannot be saved yet" in notice(response)


def test_quick_round_saves_and_totals_follow(app, client, table):
    table.start_game()
    table.enter_quick_round(BIG_TARGETS, BIG_COUNTS)
    page = text(client.get(table.saved_to))
    assert texts(page, ".total") == ["160", "80", "80", "80"]
    assert "90 to go" in page and page.count("170 to go") == 3
    assert "Round 1 saved." in page
    assert stored_rounds(app) == [{"number": 1, "revision": 1, "status": "scored"}]


def test_exact_round_with_a_real_deal_scores_every_pile(app, client, table):
    table.start_game()
    url = table.start_round()
    response = exact_round(client, url)
    assert response.status_code == 200
    page = text(response)
    assert "Everything adds up. Scores: Ann 25 · Ben 115 · Cleo −25 · Dan 115" in page
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 303
    breakdown = text(client.get(url))
    assert "Three Jacks: 2 × 10 = +20" in breakdown
    assert "Singles score nothing: 4, 6, 10, Q" in breakdown
    # Won cards as a player sorts them, 2 … 10, J, Q, K, A, not as text ("10♣ … A♠ … J♠").
    assert texts(breakdown, "#hand-1 .won .card") == [
        "10♦", "10♥", "10♣", "J♠", "Q♦", "Q♣", "K♦", "K♥", "K♣", "K♠", "A♣", "A♠"]


def test_exact_mode_refuses_a_card_already_in_another_pile(client, table):
    table.start_game()
    url = table.start_round()
    exact(client, url)
    add(client, url, 0, "7H")
    response = add(client, url, 1, "7h")
    assert response.status_code == 409
    assert notice(response) == "7♥ is already in Ann's pile."
    response = client.post(url + "/hands/2/target", data={"target": "7H"})
    assert response.status_code == 409
    assert notice(response) == "7♥ is already in Ann's pile."


def test_exact_mode_cannot_save_until_the_deck_is_accounted_for(app, client, table):
    table.start_game()
    url = table.start_round()
    exact(client, url)
    client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    for seat, target in enumerate(["10S", "QH", "2C", "7D"]):
        client.post(url + f"/hands/{seat}/target", data={"target": target})
    for card in ["3C", "3D", "4H", "6S", "9C"]:
        add(client, url, 0, card)
    page = text(client.get(url))
    # Unfinished is not wrong: a neutral to-do list, until a save is tried.
    todo = texts(page, ".todo li")
    assert "Ann's pile has 5 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards." in todo
    assert any(item.startswith("Not yet in any pile or target (43)") for item in todo)
    assert select(page, ".problems") == []
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 422
    assert any(item.startswith("Not yet in any pile or target (43)") for item in texts(response, ".problems li"))
    assert [row["status"] for row in stored_rounds(app)] == ["entering"]


def test_switching_exact_to_quick_keeps_the_ranks(client, table):
    table.start_game()
    url = table.start_round()
    exact(client, url, [0, 1])
    client.post(url + "/hands/0/target", data={"target": "JS"})
    for card in ["JH", "JD", "2C", "2D"]:
        add(client, url, 0, card)
    add(client, url, 1, "5S")
    page = text(client.post(url + "/hands/0/mode", data={"mode": "quick"}))
    assert "Three Jacks with your target: 40" in page
    assert "Pair of 2s: −15" in page
    assert attribute(page, "#n-J-2", "checked") is not None


def test_one_phone_switching_its_hand_leaves_the_other_hands_as_they_were(app, client, table):
    table.start_game()
    url = table.start_round()
    exact(client, url, [1])
    for card in ["5S", "5H", "9C"]:
        add(client, url, 1, card)
    client.post(url + "/hands/2/counts/K", data={"count": 2})
    client.post(url + "/hands/0/mode", data={"mode": "exact"})
    client.post(url + "/hands/0/mode", data={"mode": "quick"})
    db = connect(app.config["DATABASE"])
    hands = list(db.query("SELECT seat, mode, won, counts FROM hands ORDER BY seat"))
    assert [(h["mode"], h["won"], h["counts"]) for h in hands[1:3]] == [("exact", "5S 5H 9C", None), ("quick", None, '{"K": 2}')]


def test_a_stale_save_gets_a_message_and_changes_nothing(app, client, table):
    table.start_game()
    url = table.enter_quick_round(BIG_TARGETS, BIG_COUNTS, save=False)
    stale = table.version(url)
    client.post(url + "/hands/3/counts/A", data={"count": 1})  # another phone taps meanwhile
    response = client.post(url + "/save", data={"version": stale})
    assert response.status_code == 409
    assert "changed on another phone" in notice(response)
    assert [row["status"] for row in stored_rounds(app)] == ["entering"]


def test_a_double_save_records_one_round(app, client, table):
    table.start_game()
    url = table.enter_quick_round(BIG_TARGETS, BIG_COUNTS, save=False)
    fields = table.save_form(url)
    assert client.post(url + "/save", data=fields).status_code == 303
    second = client.post(url + "/save", data=fields)
    assert second.status_code == 409
    assert "nothing was overwritten" in notice(second)
    assert "Undo this round" in text(second)  # the current data: the saved round
    assert stored_rounds(app) == [{"number": 1, "revision": 1, "status": "scored"}]


def test_starting_a_round_twice_opens_one(app, client, table):
    table.start_game()
    assert table.start_round() == table.start_round()
    assert len(stored_rounds(app)) == 1


def test_tapping_a_saved_round_is_refused(client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    response = client.post(url + "/hands/0/counts/A", data={"count": 1})
    assert response.status_code == 409
    assert "no longer open for entry" in notice(response)


def test_a_correction_is_prefilled_and_later_totals_follow(app, client, table):
    table.start_game()
    first = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    table.save_quick_round(BIG_TARGETS, [{}, {}, {}, {"A": 2}])
    assert client.post(first + "/correct").status_code == 303
    page = text(client.get(first))
    assert "Save correction" in page
    assert "Four 4s with your target: 80" in page  # pre-filled from the saved round
    client.post(first + "/hands/0/counts/K", data={"count": 3})
    response = client.post(first + "/save", data=table.save_form(first))
    assert response.status_code == 303
    board = text(client.get(table.game_url))
    assert texts(board, ".total") == ["140", "80", "80", "95"]
    history = text(client.get(first))
    assert "correction started" in history and "corrected" in history
    assert [row["status"] for row in stored_rounds(app)] == ["replaced", "scored", "scored"]


def test_a_discarded_correction_leaves_the_round_as_it_was(client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    client.post(url + "/correct")
    client.post(url + "/hands/0/counts/K", data={"count": 3})
    client.post(url + "/discard")
    board = text(client.get(table.game_url))
    assert texts(board, ".total") == ["160", "80", "80", "80"]


def test_undo_the_last_round_and_bring_it_back(app, client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    response = client.post(url + "/delete")
    assert response.status_code == 303
    board = text(client.get(table.game_url))
    assert texts(board, ".total") == ["0", "0", "0", "0"]
    assert "Round 1 was undone." in board and "Round 1 undone" not in board  # one notice, not two
    assert element_text(board, "p.notice") == "Round 1 was undone. Open it to bring it back."
    assert attribute(board, "p.notice a", "href") == url
    page = text(client.get(url))
    assert "This round was undone" in page and "Bring back round 1" in page
    assert client.post(url + "/bring-back").status_code == 303
    board = text(client.get(table.game_url))
    assert texts(board, ".total") == ["160", "80", "80", "80"]
    history = text(client.get(url))
    assert "undone" in history and "brought back" in history


def test_only_the_last_round_can_be_undone(client, table):
    table.start_game()
    first = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    table.save_quick_round(BIG_TARGETS, [{}, {}, {}, {}])
    response = client.post(first + "/delete")
    assert response.status_code == 409
    assert notice(response) == "Only the last round can be undone."


def test_a_round_that_does_not_exist_is_404(client, table):
    table.start_game()
    assert client.get(table.game_url + "/rounds/7").status_code == 404
    assert client.get(table.game_url + "/rounds/1/hands/9").status_code == 404


def test_a_correction_logs_scores_with_a_real_minus_sign(client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, [{"4": 1}, {}, {}, {}])
    client.post(url + "/correct")
    client.post(url + "/hands/0/counts/4", data={"count": 2})
    client.post(url + "/save", data=table.save_form(url))
    assert "corrected · Ann −15 → 40" in text(client.get(url))


def test_a_breakdown_links_its_lines_to_the_rules_and_offers_what_if(client, table):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    page = text(client.get(url))
    rules = table.crew_url + "tools/rules"
    line = next(item for item in select(page, "li") if item.text_content().startswith("Four 4s with your target"))
    assert " ".join(line.text_content().split()) == "Four 4s with your target: 80 (whatever the rank's value) target rule"
    assert attribute(line, "a.rule-link", "href") == f"{rules}#target-bonus"
    assert f"{url}/what-if" in links(page)
    assert links(page).count(f"{rules}#scoring") == 1
    assert "House rules of this game: Play to 250 · A tie at the top plays on" in page


def test_quick_mode_refuses_a_target_card_another_player_chose(client, table):
    table.start_game()
    url = table.start_round()
    assert client.post(url + "/hands/0/target", data={"target": "10S"}).status_code == 200
    response = client.post(url + "/hands/1/target", data={"rank": "10", "suit": "S"})
    assert response.status_code == 409
    assert notice(response) == "10♠ is already Ann's target card."
    assert client.post(url + "/hands/1/target", data={"rank": "10", "suit": "H"}).status_code == 200


def test_a_page_left_on_the_last_saved_round_follows_the_table_and_an_older_one_stays(client, table):
    """The live poll of a saved round's page sends it on to the round started after it, and to the
    scoreboard once that round ended the game; a page someone opened on an older round stays."""
    table.start_game(goal="other", goal_other="200")
    first = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)  # Ann 120, Ben 40, Cleo 80, Dan −15

    def poll(url):
        return client.get(url + "/live?v=0&r=0", headers={"HX-Request": "true"})

    assert poll(first).headers.get("HX-Redirect") is None  # nobody has moved on yet
    second = table.start_round()
    assert poll(first).headers["HX-Redirect"] == second
    entered = table.enter_quick_round(BIG_TARGETS, BIG_COUNTS)  # the open round 2, saved: Ann 240, game over
    assert entered == second
    assert "Ann wins!" in text_of(client.get(table.game_url))
    assert poll(second).headers["HX-Redirect"] == table.game_url
    assert poll(first).headers.get("HX-Redirect") is None  # round 1 is not the last: it stays

