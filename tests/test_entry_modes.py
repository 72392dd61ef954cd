"""Each player's entry mode, quick or exact, kept until they change it (issue 43, item 6)."""
from store import connect
from support.html_text import attribute, text
from support.rounds import exact_round


def test_a_player_keeps_their_entry_mode_into_the_crews_next_game(app, client, table):
    """Issue 43, item 6: the four enter card by card; in the crew's next game, seated elsewhere,
    their hands start exact, and a newcomer's quick."""
    table.start_game()
    url = table.start_round()
    exact_round(client, url)
    response = client.post(url + "/save", data=table.save_form(url))
    assert response.status_code == 303, text(response)
    table.start_game(names=["Eve", "Cleo", "Ann", "Dan"])
    url = table.start_round()
    db = connect(app.config["DATABASE"])
    rows = list(db.query("SELECT seat, mode FROM hands WHERE round_id = (SELECT max(id) FROM rounds) ORDER BY seat"))
    assert [row["mode"] for row in rows] == ["quick", "exact", "exact", "exact"]
    assert attribute(client.get(url + "?seat=2").get_data(as_text=True), "#mode-exact", "aria-pressed") == "true"
