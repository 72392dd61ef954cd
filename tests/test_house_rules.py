"""House rules: a crew's defaults, a game's own copy, and the engine following them."""
import dataclasses
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import MAX_BID, MAX_GOAL, HouseRules
from scoring.game import MAX_HANDS, RULE_NAMES, TIE_RULES
from web.crews import RULES
from support.html_text import field_value, labelled, notice, text, texts
from support.profiles import examples
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


# --- The rules as one value (issue 45, item 4) ------------------------------------------------------

rules_values = st.builds(
    HouseRules, goal=st.integers(1, MAX_GOAL), tie_rule=st.sampled_from(TIE_RULES), min_bid=st.integers(1, MAX_BID),
    redeal_moves_deal=st.booleans(), hand_limit=st.none() | st.integers(1, MAX_HANDS))


@given(rules_values)
def test_the_rules_read_back_as_they_were_written(rules):
    assert HouseRules.from_json(json.loads(json.dumps(rules.as_json()))) == rules


def test_every_rule_of_the_engine_has_its_field_on_the_forms():
    """A new rule is a field of `HouseRules` and one of the form: the pages draw, fill and read
    every field the form lists; a stage's hand limit is the club night's, not the crew's."""
    assert {"goal", *RULES} == RULE_NAMES - {"hand_limit"}


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=rules_values.map(lambda rules: dataclasses.replace(rules, hand_limit=None)))
def test_rules_saved_on_the_crew_page_are_the_next_games_and_are_shown_again(client, table, rules):
    """What the crew page saves is what its form shows again and what a new game is played under."""
    if table.crew_url is None:
        table.start_crew()
    data = dict(goal="other", goal_other=str(rules.goal), tie_rule=rules.tie_rule, min_bid=str(rules.min_bid),
                redeal_moves_deal="yes" if rules.redeal_moves_deal else "no")
    assert client.post(table.crew_url + "house-rules", data=data).status_code == 303
    form = text(client.get(table.crew_url + "games/new"))
    shown = {name: field_value(form, name) for name in ("goal", "goal_other", *RULES)}
    expected = {"goal": str(rules.goal) if rules.goal in (250, 500) else "other",
                "goal_other": "" if rules.goal in (250, 500) else str(rules.goal), "tie_rule": rules.tie_rule,
                "min_bid": str(rules.min_bid), "redeal_moves_deal": "yes" if rules.redeal_moves_deal else "no"}
    assert shown == expected
