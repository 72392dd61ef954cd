""""We sat wrong": two players swap seats after some rounds; what was entered at each seat counts
for whoever really sat there, and the totals, the winner, the history and the log follow."""
from store import connect
from support.html_text import element_text, field_value, select, texts


def dump(app):
    db = connect(app.config["DATABASE"])
    return {table: list(db.query(f"SELECT * FROM {table} ORDER BY rowid"))
            for table in ("seats", "rounds", "hands", "round_changes", "seat_results")}


def swap(client, game_url, a, b, version=None):
    if version is None:
        version = field_value(client.get(game_url + "/seats/swap"), "version")
    return client.post(game_url + "/seats/swap", data={"first": a, "second": b, "version": version})


def totals(client, game_url):
    return dict(zip([name.split()[0] for name in texts(client.get(game_url), ".totals .total-card .name")],
                    texts(client.get(game_url), ".totals .total-card .total")))


def test_a_swap_moves_what_each_seat_scored_to_the_other_player(app, client, table):
    game_url = table.start_game()
    # Worked by hand (rule book section 2): seat 0, target A and two Aces won, three of the
    # target's rank, 40; seat 1, target K and one King, a pair of Kings, 10; seats 2 and 3, 0.
    for _ in range(3):
        table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    assert totals(client, game_url) == {"Ann": "120", "Ben": "30", "Cleo": "0", "Dan": "0"}
    version_before = int(field_value(client.get(game_url + "/seats/swap"), "version"))
    response = swap(client, game_url, 0, 2)
    assert response.status_code == 303
    page = client.get(game_url)
    assert element_text(page, ".flash") == ("Ann and Cleo swapped seats: every saved round now counts for whoever "
                                           "sat there.")
    assert totals(client, game_url) == {"Cleo": "120", "Ben": "30", "Ann": "0", "Dan": "0"}
    stored = dump(app)
    assert [row["player_id"] for row in stored["seats"]] == [3, 2, 1, 4]
    # The history's one row per player per game follows the seats.
    assert {row["player_id"]: row["total"] for row in stored["seat_results"]} == {3: 120, 2: 30, 1: 0, 4: 0}
    swaps = [row for row in stored["round_changes"] if row["action"] == "seats swapped"]
    assert len(swaps) == 3 and swaps[0]["detail"].startswith("Ann and Cleo swapped seats")
    assert len(stored["rounds"]) == 3  # the rounds themselves are as they were played
    assert int(field_value(client.get(game_url + "/seats/swap"), "version")) > version_before


def test_a_swap_that_cannot_be_made_says_why_and_changes_nothing(app, client, table):
    game_url = table.start_game()
    table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    stale = field_value(client.get(game_url + "/seats/swap"), "version")
    table.start_round()
    before = dump(app)
    response = swap(client, game_url, 1, 1)
    assert response.status_code == 422
    assert element_text(response, "#swap-error") == "Pick two different players to swap."
    response = swap(client, game_url, 0, 7)
    assert response.status_code == 422
    assert element_text(response, "#swap-error") == "Pick two of the game's four seats."
    response = client.post(game_url + "/seats/swap", data={"first": 0, "second": 1})  # no version
    assert response.status_code == 422
    assert element_text(response, "#swap-error") == "This page is out of date: reload it and pick the swap again."
    response = swap(client, game_url, 0, 1, version=stale)
    assert response.status_code == 409
    assert "The game changed since this page was drawn" in element_text(response, "#swap-error")
    response = swap(client, game_url, 0, 1)
    assert response.status_code == 409
    assert element_text(response, "#swap-error") == "Round 2 is being entered: save it or discard it first, then swap seats."
    after = dump(app)
    assert after["seats"] == before["seats"] and after["hands"] == before["hands"]
    assert after["seat_results"] == before["seat_results"]


def test_the_scoreboard_offers_the_repair(client, table):
    game_url = table.start_game()
    links = [a.get("href") for a in select(client.get(game_url), "a.button")]
    assert game_url.split("localhost")[-1] + "/seats/swap" in links


def test_an_open_correction_is_named_as_one(app, client, table):
    game_url = table.start_game()
    table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    assert client.post(game_url + "/rounds/1/correct").status_code == 303
    before = dump(app)
    response = swap(client, game_url, 0, 1)
    assert response.status_code == 409
    assert element_text(response, "#swap-error") == (
        "A correction of round 1 is open: save it or drop it first, then swap seats.")
    assert dump(app)["seats"] == before["seats"]


def test_a_hundred_swaps_are_one_line_a_round_and_restore(app, client, table):
    """Each repair logged a line in every saved round: 100 repairs on 5 rounds were 500 rows. A run of
    swaps is now one line a round that counts them; the export (longest names) restores the same."""
    from support.exports import export_of, restore

    names = [letter * 40 for letter in "ABCD"]
    game_url = table.start_game(names)
    for _ in range(5):
        table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    before = len(dump(app)["round_changes"])
    for n in range(100):
        assert swap(client, game_url, n % 3, 3).status_code == 303
    changes = dump(app)["round_changes"]
    assert len(changes) == before + 5
    lines = texts(client.get(game_url + "/rounds/3"), "details.history li")
    assert "swapped seats: what was entered at each seat counts for the other · 100 swaps in a row" in lines[-1]
    data = export_of(client, table.crew_url)
    response = restore(client, data)
    assert response.status_code == 303, response.get_data(as_text=True)
    again = export_of(client, response.headers["Location"].removesuffix("history"))
    assert again["games"] == data["games"]
