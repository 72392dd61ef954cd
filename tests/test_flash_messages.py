"""Messages after an action: "done" ones look calm (success), ones that need attention look amber."""
from support.html_text import element_text

TARGETS = ("4S", "2S", "3S", "5S")
NOTHING_WON = [{}, {}, {}, {}]
TO_THE_GOAL = [{"4": 3}, {"2": 3}, {"3": 3}, {"5": 3}]  # each target makes four of a kind: 80 each


def test_a_saved_round_is_confirmed_in_the_success_style(client, table):
    table.start_game()
    table.enter_quick_round(TARGETS, NOTHING_WON)
    board = client.get(table.saved_to).get_data(as_text=True)
    assert element_text(board, ".flash.success") == "Round 1 saved."
    assert element_text(board, ".flash.warning") is None


def test_saved_house_rules_are_confirmed_in_the_success_style(client, table):
    table.start_crew()
    client.post(table.crew_url + "house-rules", data={"goal": "500", "goal_other": "", "tie_rule": "play-on",
                                                      "min_bid": "1", "redeal_moves_deal": "no"})
    page = client.get(table.crew_url).get_data(as_text=True)
    assert element_text(page, ".flash.success").startswith("House rules saved.")


def test_starting_a_round_after_the_end_is_a_warning(client, table):
    table.start_game(goal="other", goal_other="100")
    table.save_quick_round(TARGETS, TO_THE_GOAL)  # 80 each: nobody at 100 yet
    table.save_quick_round(TARGETS, [{"4": 3}, {}, {}, {}])  # Ann 160, the rest 80: Ann wins
    client.post(table.game_url + "/rounds")
    board = client.get(table.game_url).get_data(as_text=True)
    assert element_text(board, ".flash.warning") == "The game is over: start a rematch for another game."


def test_a_save_says_it_through_the_address_without_rewriting_the_session_cookie(client, table):
    table.start_game()
    url = table.enter_quick_round(TARGETS, NOTHING_WON, save=False)
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"{table.game_url}?saved=1")
    assert "Set-Cookie" not in response.headers  # no flash written: nothing for the next page to pop
    board = client.get(response.headers["Location"])
    assert element_text(board.get_data(as_text=True), ".flash.success") == "Round 1 saved."
    assert "Set-Cookie" not in board.headers


def test_the_plain_scoreboard_and_an_unsaved_or_odd_round_number_say_nothing(client, table):
    table.start_game()
    table.enter_quick_round(TARGETS, NOTHING_WON)
    for query in ("", "?saved=2", "?saved=0", "?saved=abc", "?saved=" + "9" * 40):
        response = client.get(table.game_url + query)
        assert response.status_code == 200, query
        assert element_text(response.get_data(as_text=True), ".flash") is None, query
