"""House rules: a crew's defaults, a game's own copy, and the engine following them."""
from support.html_text import field_value, labelled, notice, text, texts
from support.rounds import BIG_TARGETS

ALL_EIGHTY = [{"4": 3}, {"2": 3}, {"3": 3}, {"5": 3}]
SHARED_500 = {"goal": "500", "goal_other": "", "tie_rule": "shared", "min_bid": "2", "redeal_moves_deal": "yes"}


def test_crew_house_rules_prefill_the_next_new_game(client, table):
    table.start_crew()
    response = client.post(table.crew_url + "house-rules", data=SHARED_500)
    assert response.status_code == 303
    form = text(client.get(table.crew_url + "games/new"))
    assert field_value(form, "goal") == "500"
    assert field_value(form, "min_bid") == "2"


def test_bad_house_rules_are_refused_next_to_the_field(client, table):
    table.start_crew()
    response = client.post(table.crew_url + "house-rules", data={**SHARED_500, "min_bid": "14"})
    assert response.status_code == 422
    assert "A bid is a number from 1 to 13." in text(response)


def test_a_game_keeps_its_rules_when_the_crew_changes_them(client, table):
    table.start_game()
    client.post(table.crew_url + "house-rules", data=SHARED_500)
    board = text(client.get(table.game_url))
    assert "Playing to 250" in board
    assert {"A tie at the top plays on", "Bids from 1"} <= set(texts(board, "li"))
    data = {f"player_{seat}": name for seat, name in enumerate(table.names)}
    response = client.post(table.crew_url + "games", data={**data, "first_dealer": "0", **SHARED_500})
    board = text(client.get(response.headers["Location"]))
    assert "Playing to 500" in board
    assert "A tie at the top is a shared win" in texts(board, "li")


def test_a_bid_below_the_house_minimum_is_refused(client, table):
    data = {f"player_{seat}": name for seat, name in enumerate(table.names)}
    table.start_crew()
    response = client.post(table.crew_url + "games", data={**data, "first_dealer": "0", **SHARED_500})
    table.game_url = response.headers["Location"]
    url = table.start_round()
    response = client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "S"})
    assert response.status_code == 422
    assert "1♠ is below the house minimum: bids start at 2" in text(response)
    assert client.post(url + "/bid", data={"bidder": "0", "number": "2", "suit": "D"}).status_code == 200


def test_a_redeal_moves_the_deal_on_when_the_house_says_so(client, table):
    data = {f"player_{seat}": name for seat, name in enumerate(table.names)}
    table.start_crew()
    response = client.post(table.crew_url + "games", data={**data, "first_dealer": "0", **SHARED_500})
    table.game_url = response.headers["Location"]
    url = table.start_round()
    response = client.post(url + "/redeal")
    assert notice(response) == "Everyone passed: the deal moves on, deal again and bid."
    assert labelled(response, "#deal", "Deals") == "Ben"


def test_a_shared_win_ends_a_tie_at_the_goal(client, table):
    table.start_crew()
    data = {f"player_{seat}": name for seat, name in enumerate(table.names)}
    response = client.post(
        table.crew_url + "games",
        data={**data, "first_dealer": "0", **SHARED_500, "goal": "other", "goal_other": "150", "min_bid": "1"},
    )
    table.game_url = response.headers["Location"]
    table.save_quick_round(BIG_TARGETS, ALL_EIGHTY)
    table.save_quick_round(BIG_TARGETS, ALL_EIGHTY)
    board = text(client.get(table.game_url))
    assert "Ann, Ben, Cleo and Dan win!" in board


def test_the_rule_book_defaults_for_a_new_crew(client, table):
    table.start_crew()
    form = text(client.get(table.crew_url + "games/new"))
    assert field_value(form, "min_bid") == "1"
    assert field_value(form, "tie_rule") == "play-on"
