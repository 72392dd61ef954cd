"""The rule book page works its end-of-game example under the crew's own house rules: whatever
goal and tie rule a crew keeps, the page answers and the example says what the engine says."""
import pytest

from support.html_text import text, texts

HOUSE = {"goal": "other", "goal_other": "", "tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "yes"}


@pytest.mark.parametrize("goal, tie_rule, said", [
    # A short game: the example's other players stay below the tied leaders.
    ("60", "play-on", "After a round: Ann 65, Ben 65, Cleo 30, Dan 10 → not over: a tie at the top, play on."),
    ("1", "play-on", "After a round: Ann 6, Ben 6, Cleo 0, Dan 0 → not over: a tie at the top, play on."),
    # A tie at the top is a shared win: the example ends there, with no next round to work.
    ("250", "shared", "After a round: Ann 255, Ben 255, Cleo 100, Dan 40 → over: Ann and Ben share the win."),
    ("250", "play-on", "After a round: Ann 255, Ben 255, Cleo 100, Dan 40 → not over: a tie at the top, play on."),
])
def test_the_end_of_game_example_follows_the_crews_goal_and_tie_rule(client, table, goal, tie_rule, said):
    table.start_crew()
    house = {**HOUSE, "goal": goal if goal in ("250", "500") else "other",
             "goal_other": "" if goal in ("250", "500") else goal, "tie_rule": tie_rule}
    assert client.post(table.crew_url + "house-rules", data=house).status_code == 303
    page = client.get(table.crew_url + "tools/rules")
    assert page.status_code == 200
    lines = texts(text(page), "li")
    assert said in lines, [line for line in lines if line.startswith(("After a round", "Next round"))]
