"""A finished night's games are final (issue 44, item 7): after "Finish the night" no round of its
tables is undone, brought back or corrected, no seat swapped, no game abandoned or resumed, and the
final standings stay; the organiser may reopen the night (logged), and then they can change again."""
from support.club_nights import NINE, new_night, night_of, play_round
from support.html_text import element_text, texts

FINAL = "which is finished: its results are final"


def _finished_night(app, client, crew):
    night = new_night(client, crew, names=NINE[:8], stage_hands="2").headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    games = [game["game_id"] for game in stages[-1]["tables"].values()]
    for game_id in games:
        for order in ((0, 1, 2, 3), (3, 0, 1, 2)):
            play_round(app, crew, game_id, order)
    assert client.post(night + "/finish").status_code == 303
    return night, [f"{crew.rstrip('/')}/games/{game_id}" for game_id in games]


def test_a_finished_nights_games_take_no_change(app, client, crew):
    night, (game, other) = _finished_night(app, client, crew)
    standings = texts(client.get(night), "#leaderboard tbody tr")
    history = game.replace("/games/", "/history/games/")
    for url, data in ((game + "/rounds/2/delete", {}), (game + "/rounds/2/correct", {}),
                      (history + "/abandon", {}), (history + "/resume", {})):
        refused = client.post(url, data=data)
        assert refused.status_code == 409, (url, refused.status_code)
        assert FINAL in refused.get_data(as_text=True), url
    swap = client.post(game + "/seats/swap", data={"first": "0", "second": "1", "version": "0"})
    assert swap.status_code in (409, 422)
    assert texts(client.get(night), "#leaderboard tbody tr") == standings
    assert "which is finished: this game’s results are final" in element_text(client.get(history), "#final-night")
    assert not [b for b in texts(client.get(history), "button") if b.startswith(("Abandon", "Resume"))]


def test_the_organiser_reopens_the_night_and_its_games_change_again(app, client, crew):
    night, (game, other) = _finished_night(app, client, crew)
    standings = texts(client.get(night), "#leaderboard tbody tr")
    reopened = client.post(night + "/reopen", headers={"HX-Request": "true"})
    assert reopened.status_code == 200
    assert element_text(reopened, "#note-stage").startswith("The night is open again")
    page = client.get(night)
    assert element_text(page, "#leaderboard h2") == "Leaderboard"
    assert texts(page, "#night-log li")[-1].endswith("The night was reopened: its standings are open again")
    assert client.post(game + "/rounds/2/delete").status_code == 303
    assert texts(client.get(night), "#leaderboard tbody tr") != standings
    # Reopening an open night is refused; finishing it again makes it final again.
    assert client.post(night + "/reopen").status_code == 409
    play_round(app, crew, int(game.rsplit("/", 1)[1]), (3, 0, 1, 2))
    assert client.post(night + "/finish").status_code == 303
    assert client.post(game + "/rounds/2/delete").status_code == 409
