"""A club night's players are the crew's people: renamed, every phone following the night or a
table's scoreboard shows the new name; merged, the nights they came to move with them; two people
who came to one night are never merged. (Before: a merge of someone who had come to a night was a
500, and a rename stayed unseen on the phones already following.)"""
from support.html_text import select, text
from support.club_nights import night, night_of, new_night, play_round  # noqa: F401 (night: a fixture)
from support.known_history import player_ids


def leaderboard(client, night_url):
    return {row.get("data-player"): row.cssselect(".points")[0].text_content()
            for row in select(client.get(night_url), "#leaderboard tbody tr")}


def test_a_rename_reaches_the_phones_following_the_night_and_its_tables(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    game = f"{crew}games/{stages[-1]['tables'][1]['game_id']}"
    night_poll = select(client.get(night), "#live-night")[0].get("hx-get")
    board_poll = select(client.get(game), "#scoreboard")[0].get("hx-get")
    assert client.get(night_poll).status_code == 204 and client.get(board_poll).status_code == 204
    seated = {p["id"]: p["name"] for p in found["players"]}[stages[-1]["tables"][1]["players"][0]]
    response = client.post(f"{crew}players/{player_ids(app)[seated]}/rename", data={"name": "Zed"})
    assert response.status_code == 303
    changed = client.get(night_poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert "Zed" in [row.get("data-player") for row in select(changed, "#leaderboard tbody tr")]
    scoreboard = client.get(board_poll, headers={"HX-Request": "true"})
    assert scoreboard.status_code == 200 and "Zed" in text(scoreboard) and seated not in text(scoreboard)


def test_a_player_merged_in_brings_the_night_they_came_to(app, client, crew):
    first = new_night(client, crew, names=["Ann", "Bob", "Cat", "Dan"])
    second = new_night(client, crew, names=["Annie", "Fay", "Gus", "Hal"])
    first, second = first.headers["Location"], second.headers["Location"]
    client.post(second + "/stages")
    client.post(second + "/stages/1/start")
    _, stages = night_of(app, second)
    scores = play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    before = leaderboard(client, second)
    ids = player_ids(app)
    assert before["Annie"] == str(scores[stages[-1]["tables"][1]["players"].index(ids["Annie"])])
    response = client.post(f"{crew}players/{ids['Ann']}/merge", data={"other": str(ids["Annie"])})
    assert response.status_code == 303
    assert "Annie merged into Ann: 1 game moved, nothing lost." in text(client.get(response.headers["Location"]))
    before["Ann"] = before.pop("Annie")
    assert leaderboard(client, second) == before  # Annie's points, now Ann's
    assert set(leaderboard(client, first)) == {"Ann", "Bob", "Cat", "Dan"}


def test_two_people_at_one_night_are_never_merged(app, client, crew, night):
    ids = player_ids(app)
    before = leaderboard(client, night)
    response = client.post(f"{crew}players/{ids['Ann']}/merge", data={"other": str(ids["Bob"])},
                           headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert select(response, "#merge-form")
    assert "Ann and Bob both came to the club night Friday club, so they are two people: nothing was merged." \
        in text(response).replace("&#39;", "'")
    assert {"Ann", "Bob"} <= set(player_ids(app)) and leaderboard(client, night) == before


def _log(client, night_url):
    return [line.split(" · ", 1)[1] for line in select(client.get(night_url), "#night-log li")
            for line in [line.text_content().strip()]]


def test_a_merge_renames_the_nights_log_lines_that_name_the_player(app, client, crew):
    """Issue 44, item 8: after a merge the log said "? joined" (it named a player no longer there)."""
    night_url = new_night(client, crew, names=["Ann", "Bob", "Cat", "Dan"]).headers["Location"]
    assert client.post(night_url + "/players", data={"name": "Annie"}).status_code == 303
    assert _log(client, night_url)[-1] == "Annie joined"
    other = new_night(client, crew, names=["Eve", "Fay", "Gus", "Hal"]).headers["Location"]
    assert client.post(other + "/players", data={"name": "Zoe"}).status_code == 303
    ids = player_ids(app)
    response = client.post(f"{crew}players/{ids['Zoe']}/merge", data={"other": str(ids["Annie"])})
    assert response.status_code == 303, text(response)
    assert _log(client, night_url)[-1] == "Zoe joined"
    assert "?" not in " ".join(_log(client, night_url))


def test_two_players_at_running_tables_of_two_nights_are_not_merged(app, client, crew):
    """Issue 44, item 8: merged, Annie at one night's running table and Ann at another's were one
    player at two running tables."""
    nights = [new_night(client, crew, names=names).headers["Location"]
              for names in (["Ann", "Bob", "Cat", "Dan"], ["Annie", "Fay", "Gus", "Hal"])]
    for night_url in nights:
        assert client.post(night_url + "/stages").status_code == 303
        assert client.post(night_url + "/stages/1/start").status_code == 303
    ids = player_ids(app)
    response = client.post(f"{crew}players/{ids['Ann']}/merge", data={"other": str(ids["Annie"])},
                           headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert ("Ann and Annie both sit at a club night table still being played: merge them once one of those "
            "games is over.") in text(response).replace("&#39;", "'")
    assert {"Ann", "Annie"} <= set(player_ids(app))
