"""Messages after an action: "done" ones look calm (success), ones that need attention look amber."""
from support.html_text import element_text

TARGETS = ("4S", "2S", "3S", "5S")
NOTHING_WON = [{}, {}, {}, {}]
TO_THE_GOAL = [{"4": 3}, {"2": 3}, {"3": 3}, {"5": 3}]  # each target makes four of a kind: 80 each


def test_a_saved_round_is_confirmed_in_the_success_style(client, table):
    table.start_game()
    table.enter_quick_round(TARGETS, NOTHING_WON)
    board = client.get(table.game_url).get_data(as_text=True)
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
