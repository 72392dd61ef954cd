"""A club night's table, in the words of a stage of set hands (issue 44, item 4): "Hand 1 of 2", the
table's leader, never the winner of a game to 250 that was not played to 250; and the new-night
form ranks per hand played by default, saying why (whoever sits out plays fewer hands)."""
from support.club_nights import NINE, new_night, night_of, play_round
from support.html_text import element_text, select, text, texts


def page_names(page):
    return [element.get("title") for element in select(page, ".total-card .name")]


def _table(app, client, crew):
    night = new_night(client, crew, names=NINE[:8], stage_hands="2").headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    game_id = stages[-1]["tables"][1]["game_id"]
    return f"{crew.rstrip('/')}/games/{game_id}", game_id


def test_a_stage_of_two_hands_counts_its_hands_and_names_a_leader(app, client, crew):
    board, game_id = _table(app, client, crew)
    page = client.get(board)
    assert element_text(page, ".goal-line") == "Hand 1 of 2 · first to 250 ends it sooner"
    assert "to go" not in text(page) and not select(page, ".total-card .to-goal")  # all at 0: nobody leads yet
    scores = play_round(app, crew, game_id, (0, 1, 2, 3))
    page = client.get(board)
    assert element_text(page, ".goal-line") == "Hand 2 of 2 · first to 250 ends it sooner"
    top = max(scores)
    assert [name.split()[0] for name in texts(page, ".total-card:has(.to-goal) .name")] == [
        name for name, score in zip(page_names(page), scores) if score == top]
    second = play_round(app, crew, game_id, (1, 2, 3, 0))
    totals = [a + b for a, b in zip(scores, second)]
    assert max(totals) < 250
    page = client.get(board)
    heading = element_text(page, ".winner h1")
    assert heading.endswith("after 2 hands") and "win" not in heading, heading
    assert element_text(page, ".goal-line") == "2 of 2 hands played"
    assert "wins!" not in text(page)


def test_a_game_to_the_goal_still_has_its_winner(client, table):
    table.start_game(goal="other", goal_other="20")
    table.save_quick_round(["10S", "4H", "KD", "2S"], [{"J": 2}, {"4": 2}, {}, {"5": 2}])
    page = client.get(table.game_url)
    assert element_text(page, ".winner h1") == "Ben wins!"
    assert element_text(page, ".goal-line") == "Playing to 20"


def test_the_new_night_form_ranks_per_hand_played_and_says_why(client, crew):
    page = client.get(crew + "club-nights/new")
    assert [box.get("value") for box in select(page, '#field-ranking input[checked]')] == ["per-hand"]
    assert "a total would put them behind" in element_text(page, "#ranking-why")
    counted = client.post(crew + "club-nights/new/count", data={"names": "\n".join(NINE)},
                          headers={"HX-Request": "true"})
    assert element_text(counted, "#here-count") == "9 players here · 1 sits out each stage"
    eight = client.post(crew + "club-nights/new/count", data={"names": "\n".join(NINE[:8])},
                        headers={"HX-Request": "true"})
    assert element_text(eight, "#here-count") == "8 players here"
