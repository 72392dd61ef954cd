"""Issue 36.8 and 36.10: a night ends. "Finish the night" once no table plays, after which the night
shows its final standings and takes no more stages; "Draw stage N+1" only when no stage is
playing; a night table's game-over screen leads back to the night, not to a rematch outside it;
and nobody is seated at two running tables (two nights of one crew both started with Wim)."""
from support.club_nights import NINE, names_by_id, new_night, night, night_of, play_round  # noqa: F401
from support.html_text import element_text, select, texts

HX = {"HX-Request": "true"}


def _play_stage_out(app, client, crew, night_url, number):
    """Draw and start stage `number` and play both hands at every table (a stage of two hands)."""
    assert client.post(night_url + "/stages").status_code == 303
    assert client.post(night_url + f"/stages/{number}/start").status_code == 303
    _, stages = night_of(app, night_url)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game["game_id"], order)


def test_draw_the_next_stage_shows_only_when_no_stage_is_playing(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    page = client.get(night)
    assert "Draw stage 2" not in texts(page, "#stage button")
    assert "Finish the night" not in texts(page, "#stage button")
    assert element_text(page, "#stage h2") == "The next stage"
    _, stages = night_of(app, night)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game["game_id"], order)
    page = client.get(night)
    assert "Draw stage 2" in texts(page, "#stage button")
    assert "Finish the night" in texts(page, "#stage button")


def test_a_finished_night_shows_final_standings_and_takes_no_more_stages(app, client, crew, night):
    _play_stage_out(app, client, crew, night, 1)
    before = texts(client.get(night), "#leaderboard tbody tr")
    response = client.post(night + "/finish", headers=HX)
    assert response.status_code == 200
    assert element_text(response, "#note-stage") == "The night is over: these are its final standings."
    page = client.get(night)
    assert element_text(page, "#leaderboard h2") == "Final standings"
    assert texts(page, "#leaderboard tbody tr") == before
    assert not [b for b in texts(page, "button") if b.startswith(("Draw stage", "Finish", "Start stage"))]
    # Its players are final: no "Leaves", "Is back" or "Add to tonight" is offered any more.
    assert element_text(page, "#players h2") == "Who came"
    assert not select(page, "#players form")
    assert len(select(page, "#players li")) == 9
    for url, field in ((night + "/stages", "#note-stage"), (night + "/finish", "#note-stage"),
                       (night + "/players", "#note-name")):
        refused = client.post(url, data={"name": "Late"})
        assert refused.status_code == 409, url
        assert "The night is over" in element_text(refused, field)
    first = select(page, "#players li")[0].get("id").removeprefix("player-")
    refused = client.post(night + f"/players/{first}/here", data={"here": "0"})
    assert refused.status_code == 409
    assert "The night is over" in element_text(refused, f"#note-here-{first}")
    _, stages = night_of(app, night)
    assert len(stages) == 1
    assert "The night is over" in element_text(client.get(night + "/board"), ".stage-note")


def test_a_night_cannot_finish_while_a_table_plays_and_a_drawn_stage_is_dropped(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    refused = client.post(night + "/finish")
    assert refused.status_code == 409
    assert element_text(refused, "#note-stage") == ("Stage 1 is still being played at tables 1 and 2: "
                                                    "finish the night when every table's game is over.")
    _, stages = night_of(app, night)
    for game in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game["game_id"], order)
    client.post(night + "/stages")
    assert client.post(night + "/finish").status_code == 303
    found, stages = night_of(app, night)
    assert [stage["number"] for stage in stages] == [1]
    refused = client.post(night + "/stages/2/start")
    assert refused.status_code in (404, 409)


def test_a_night_tables_game_over_leads_back_to_the_night_not_to_a_rematch(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    _, stages = night_of(app, night)
    game_id = stages[-1]["tables"][1]["game_id"]
    for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
        play_round(app, crew, game_id, order)
    page = client.get(f"{crew}games/{game_id}")
    assert select(page, ".winner")
    assert not [b for b in texts(page, ".winner button") if b.startswith("Rematch")]
    back = select(page, ".winner a.button.primary")
    assert back and back[0].get("href") == night.split("localhost")[-1]
    refused = client.post(f"{crew}games/{game_id}/rematch")
    assert refused.status_code == 409
    assert "Friday club" in element_text(refused, ".notice")
    with app.app_context():
        from store import get_db
        assert get_db().execute("SELECT count(*) FROM games WHERE rematch_of = ?", [game_id]).fetchone()[0] == 0


def test_nobody_is_seated_at_two_running_tables(app, client, crew):
    first = new_night(client, crew, ["Wim", "Ann", "Bob", "Cat"]).headers["Location"]
    second = new_night(client, crew, ["Wim", "Dan", "Eve", "Fay"]).headers["Location"]
    client.post(first + "/stages")
    assert client.post(first + "/stages/1/start").status_code == 303
    client.post(second + "/stages")
    refused = client.post(second + "/stages/1/start")
    assert refused.status_code == 409
    assert element_text(refused, "#note-stage") == (
        "Wim is playing at table 1 of Friday club (stage 1): start this stage once that game is over, "
        "or mark Wim as left and draw the stage again.")
    _, stages = night_of(app, second)
    assert stages[-1]["status"] == "planned" and stages[-1]["tables"] == {}
    # Once Wim's game is over, the second night's stage starts.
    _, stages = night_of(app, first)
    for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
        play_round(app, crew, stages[-1]["tables"][1]["game_id"], order)
    assert client.post(second + "/stages/1/start").status_code == 303


def test_an_ordinary_game_is_not_refused_for_a_player_at_a_night_table(app, client, crew, table, night):
    """Decided: only a night's running tables count (an ordinary game may be left unfinished for
    weeks and never reaches a leaderboard), so starting one is never refused; docs/usage.md."""
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    table.start_game(names=["Ann", "Bob", "Cat", "Dan"])  # asserts the 303
