"""Whole games through HTTP: to the winner, a tie at the top that plays on, and the end of a game."""
from support.html_text import notice, select, text, texts
from support.rounds import BIG_COUNTS, BIG_TARGETS

ALL_EIGHTY = [{"4": 3}, {"2": 3}, {"3": 3}, {"5": 3}]  # each target made four of a kind
NOTHING = [{}, {}, {}, {}]


def totals(client, table):
    return texts(client.get(table.game_url), ".total")


def test_a_game_to_250_ends_with_a_winner(app, client, table):
    table.start_game()
    table.enter_quick_round(BIG_TARGETS, BIG_COUNTS)
    board = text(client.get(table.game_url))
    assert "wins!" not in board
    table.enter_quick_round(BIG_TARGETS, BIG_COUNTS)
    board = text(client.get(table.game_url))
    assert "Ann wins!" in board
    standings = [(texts(row, ".name")[0], texts(row, ".total")[0]) for row in select(board, "ol.standings li")]
    assert standings == [
        ("Ann", "320"), ("Ben", "160"), ("Cleo", "160"), ("Dan", "160"),
    ]
    assert "Start round 3" not in board
    assert "Rematch" in board
    response = client.post(table.game_url + "/rounds")
    assert response.status_code == 303
    assert "The game is over" in text(client.get(table.game_url))
    assert client.get(table.game_url + "/rounds/3").status_code == 404


def test_undoing_the_winning_round_reopens_the_game(client, table):
    table.start_game()
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    last = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    client.post(last + "/delete")
    board = text(client.get(table.game_url))
    assert "wins!" not in board
    assert "Start round 2" in board


def test_a_tie_at_the_top_plays_on_until_one_player_leads(client, table):
    table.start_game(goal="other", goal_other="100")
    table.save_quick_round(BIG_TARGETS, ALL_EIGHTY)
    table.save_quick_round(BIG_TARGETS, ALL_EIGHTY)
    board = text(client.get(table.game_url))
    assert "Tie at the top: play on" in board
    assert "Start round 3" in board
    table.save_quick_round(BIG_TARGETS, [{}, {}, {}, {"A": 2}])
    board = text(client.get(table.game_url))
    assert "Dan wins!" in board
    assert totals(client, table)[:4] == ["175", "160", "160", "160"]


def test_a_correction_that_would_end_the_game_early_is_refused(client, table):
    table.start_game(goal="other", goal_other="200")
    first = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    table.save_quick_round(BIG_TARGETS, NOTHING)
    client.post(first + "/correct")
    client.post(first + "/hands/0/counts/A", data={"count": 4})
    response = client.post(first + "/save", data=table.save_form(first))
    assert response.status_code == 409
    assert "undo the later rounds first" in notice(response)
    assert totals(client, table)[:4] == ["160", "80", "80", "80"]
