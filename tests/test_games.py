"""New games, the scoreboard, rematch, and games kept apart between crews."""
import pytest

from support.html_text import links, select, text_of, texts
from support.rounds import BIG_COUNTS, BIG_TARGETS
from support.table import GAME_DEFAULTS


def test_new_game_form_offers_known_players(client, table):
    table.start_game()
    page = client.get(table.crew_url + "games/new").get_data(as_text=True)
    offered = [option.get("value") for option in select(page, "datalist option")]
    for name in table.names:
        assert name in offered


def test_a_new_game_shows_its_scoreboard(client, table):
    url = table.start_game(first_dealer=2)
    page = client.get(url).get_data(as_text=True)
    for name in table.names:
        assert name in page
    assert page.count("250 to go") == 4
    assert "Round 1: Cleo deals, Dan bids first." in text_of(page)
    assert "Start round 1" in page


def test_known_players_are_reused_whatever_their_case(app, client, table):
    table.start_game()
    table.start_game(names=["ann", "BEN", "Cleo", "Eve"])
    from store import connect

    db = connect(app.config["DATABASE"])
    assert [row["name"] for row in db.query("SELECT name FROM players ORDER BY id")] == [
        "Ann", "Ben", "Cleo", "Dan", "Eve",
    ]


def _post_game(client, table, **changes):
    table.start_crew()
    data = {"player_0": "Ann", "player_1": "Ben", "player_2": "Cleo", "player_3": "Dan",
            "first_dealer": "0", "goal": "250", "goal_other": "", **GAME_DEFAULTS}
    data.update(changes)
    return client.post(table.crew_url + "games", data=data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player_1": ""}, "Enter a name."),
        ({"player_2": "x" * 41}, "A name is at most 40 characters."),
        ({"player_3": "ann"}, "ann is already in seat 1."),
        ({"goal": "other"}, "Enter the number of points to play to."),
        ({"goal": "other", "goal_other": "0"}, "Pick a goal from 1 to 100000."),
        ({"goal": "other", "goal_other": "lots"}, "Not a valid integer value."),
        ({"goal": "1000"}, "Not a valid choice."),
        ({"first_dealer": "4"}, "Not a valid choice."),
    ],
)
def test_bad_new_game_input_is_refused_next_to_the_field(client, table, changes, message):
    response = _post_game(client, table, **changes)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_a_fifth_player_is_not_seated(client, table):
    response = _post_game(client, table, player_4="Eve")
    assert response.status_code == 303
    assert "Eve" not in client.get(response.headers["Location"]).get_data(as_text=True)


def test_other_goal(client, table):
    url = table.start_game(goal="other", goal_other="120")
    page = client.get(url).get_data(as_text=True)
    assert "Playing to 120" in page
    assert page.count("120 to go") == 4


def test_a_game_of_another_crew_is_not_found(client, table):
    url = table.start_game()
    game_id = url.rsplit("/", 1)[1]
    other = table.start_crew("Other crew")
    assert client.get(f"{other}games/{game_id}").status_code == 404
    assert client.post(f"{other}games/{game_id}/rounds").status_code == 404
    assert client.get(table.crew_url + "games/999").status_code == 404


def test_rematch_keeps_seats_and_moves_the_deal_on(client, table):
    table.start_game(first_dealer=3)
    response = client.post(table.game_url + "/rematch")
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Round 1: Ann deals, Ben bids first." in text_of(page)
    assert response.headers["Location"] != table.game_url


def test_crew_page_lists_its_games(client, table):
    table.start_game()
    page = client.get(table.crew_url).get_data(as_text=True)
    assert "Ann · Ben · Cleo · Dan" in page
    assert "to 250 · playing" in page


def test_crew_page_lists_games_by_start_date_with_names_in_seat_order(app, client, table):
    """Ids and start dates disagree (the first game started last): the list follows the dates,
    and each game's names follow its seats, whatever order SQLite keeps its rows in."""
    from store import connect

    seatings = [("Dan", "Cleo", "Ben", "Ann"), ("Ben", "Dan", "Ann", "Cleo"), ("Cleo", "Ann", "Dan", "Ben")]
    for names in seatings:
        table.start_game(names=names)
    db = connect(app.config["DATABASE"])
    for game_id, created in [(1, "2026-03-14T20:00:00+00:00"), (2, "2026-03-12T20:00:00+00:00"),
                             (3, "2026-03-13T20:00:00+00:00")]:
        db.execute("UPDATE games SET created = ? WHERE id = ?", [created, game_id])
    db.conn.commit()
    page = client.get(table.crew_url).get_data(as_text=True)
    listed = texts(page, ".game-players")
    assert listed == ["Dan · Cleo · Ben · Ann", "Cleo · Ann · Dan · Ben", "Ben · Dan · Ann · Cleo"]


def test_crew_page_opens_finished_games_as_their_record(client, table):

    table.start_game()
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    game_id = table.game_url.rsplit("/", 1)[1]
    page = client.get(table.crew_url).get_data(as_text=True)
    assert f"{table.crew_url}history/games/{game_id}" in links(page)
    assert "to 250 · finished" in page


def test_home_page_offers_restore(client):
    assert 'href="/restore"' in client.get("/").get_data(as_text=True)
