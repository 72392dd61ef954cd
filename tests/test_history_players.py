"""Renaming a player, and merging two players who are one person: their history joins, nothing
is lost, and two people who sat at the same game are never merged."""

import pytest

from store import connect
from support.html_text import attribute, element_text, parse
from support.known_history import player_ids, summary_of


def text(response):
    return response.get_data(as_text=True).replace("&#39;", "'")


def test_rename_a_player(known):
    app, client, crew_url = known
    ann = player_ids(app)["Ann"]
    response = client.post(f"{crew_url}players/{ann}/rename", data={"name": "  Annie   B "})
    assert response.status_code == 303
    body = text(client.get(response.headers["Location"]))
    assert element_text(body, "h1.player-name") == "Annie B"
    assert "Ann is now called Annie B." in body
    assert "Annie B" in text(client.get(crew_url + "history/games/1"))


def test_a_change_of_letter_case_is_a_rename(known):
    app, client, crew_url = known
    ann = player_ids(app)["Ann"]
    assert client.post(f"{crew_url}players/{ann}/rename", data={"name": "ANN"}).status_code == 303
    assert "ANN" in player_ids(app)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ben", "Another player of this crew is already called ben."),
        ("   ", "Enter a name."),
        ("x" * 41, "A name is at most 40 characters."),
        ("a\x07b", "A name cannot contain control characters."),
    ],
)
def test_a_bad_new_name_is_refused_next_to_the_field(known, name, message):
    app, client, crew_url = known
    ann = player_ids(app)["Ann"]
    response = client.post(f"{crew_url}players/{ann}/rename", data={"name": name}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    body = text(response)
    assert parse(body).get("id") == "rename-form"  # the form alone, in place
    assert attribute(body, "#name", "aria-invalid") == "true"
    assert element_text(body, "#error-name") == message
    assert "Ann" in player_ids(app)


def _second_crew_game(client, crew_url, names):
    data = {f"player_{seat}": name for seat, name in enumerate(names)}
    data.update(tie_rule="play-on", min_bid="1", redeal_moves_deal="no", first_dealer="0", goal="250", goal_other="")
    assert client.post(crew_url + "games", data=data).status_code == 303


def test_merge_joins_the_histories(known):
    app, client, crew_url = known
    _second_crew_game(client, crew_url, ["Annie", "Ben", "Cleo", "Eve"])  # game 8: Ann, typed differently
    db = connect(app.config["DATABASE"])
    db.execute("UPDATE seats SET player_id = (SELECT id FROM players WHERE name = 'Annie')"
               " WHERE game_id = 2 AND seat = 3")  # and game 2's Eve was really Annie too
    db.conn.commit()
    ids = player_ids(app)
    seats_before = sorted(db.execute("SELECT game_id, seat FROM seats").fetchall())
    response = client.post(f"{crew_url}players/{ids['Ann']}/merge", data={"other": str(ids["Annie"])})
    assert response.status_code == 303
    assert "Annie merged into Ann: 2 games moved, nothing lost." in text(client.get(response.headers["Location"]))
    assert "Annie" not in player_ids(app)
    assert sorted(db.execute("SELECT game_id, seat FROM seats").fetchall()) == seats_before
    s = summary_of(app, "Ann")
    # Ann's 4 finished games and game 2 (won, 120 in 3 rounds); game 8 is not finished.
    assert (s["played"], s["won"], s["points"], s["rounds"]) == (5, 4, 480, 11)
    assert s["longest_streak"] == 3  # games 1, 2 and 3 now


def test_two_people_at_the_same_game_are_not_merged(known):
    app, client, crew_url = known
    ids = player_ids(app)
    response = client.post(f"{crew_url}players/{ids['Ann']}/merge", data={"other": str(ids["Ben"])},
                           headers={"HX-Request": "true"})
    assert response.status_code == 409
    body = text(response)
    assert parse(body).get("id") == "merge-form"
    assert "Ann and Ben both played game 1, so they are two people: nothing was merged." in body
    assert {"Ann", "Ben"} <= set(player_ids(app))


@pytest.mark.parametrize(("other", "message"), [("", "Pick the player to merge in."), ("999", "Not a valid choice.")])
def test_merge_needs_another_player_of_the_crew(known, other, message):
    app, client, crew_url = known
    ann = player_ids(app)["Ann"]
    response = client.post(f"{crew_url}players/{ann}/merge", data={"other": other})
    assert response.status_code == 422
    assert message in text(response)


def test_a_player_cannot_be_merged_into_itself(known):
    app, client, crew_url = known
    ann = player_ids(app)["Ann"]
    response = client.post(f"{crew_url}players/{ann}/merge", data={"other": str(ann)})
    assert response.status_code == 422
    assert "Not a valid choice." in text(response)
