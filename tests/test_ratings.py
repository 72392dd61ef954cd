"""Skill ratings on the known history (tests/support/known_history.py), against the numbers the
documented Plackett-Luce model gives by hand (tests/support/plackett_luce.py writes it out)."""
import io
import math

import pytest

from scoring import ratings
from services import ratings as rating_service
from store import connect
from store import ratings as rating_store
from support import plackett_luce
from support.html_text import element_text, text_of, save_fields
from support.known_history import player_ids

# Game 1 by hand: four new players (mu 25, sigma 25/3), so every exp(mu/c) is the same number e.
# sigma'^2 = (25/3)^2 + (25/300)^2 = 69.4514; c = sqrt(4 (69.4514 + (25/6)^2)) = 18.6346.
# Places 1, 2, 3, 4 (Ann 135, Ben 95, Dan 65, Cleo 25): C = 4e, 3e, 2e, e, so
#   Omega(1st) = sigma'^2/c (1 - 1/4)              = 3.7270 x  3/4  = +2.795
#   Omega(2nd) = sigma'^2/c (-1/4 + 1 - 1/3)        = 3.7270 x  5/12 = +1.553
#   Omega(3rd) = sigma'^2/c (-1/4 - 1/3 + 1 - 1/2)  = 3.7270 x -1/12 = -0.311
#   Omega(4th) = sigma'^2/c (-1/4 - 1/3 - 1/2 + 0)  = 3.7270 x -13/12 = -4.038
STEP = (25**2 / 9 + (25 / 300) ** 2) / math.sqrt(4 * (25**2 / 9 + (25 / 300) ** 2 + (25 / 6) ** 2))


def results_of(app, crew_id=1):
    with app.app_context():
        return rating_store.finished_results(crew_id)


def stored_ladder(crew_id):
    """The crew's ladder as the store keeps it, once the service has made the cache fresh."""
    rating_service.refresh(crew_id)
    return rating_store.ladder(crew_id)


def stored_history(crew_id, player_id):
    """The player's ratings as the store keeps them, once the service has made the cache fresh."""
    rating_service.refresh(crew_id)
    return rating_store.player_history(crew_id, player_id)


def test_the_first_game_moves_each_place_by_the_hand_worked_amount(known):
    app, client, crew_url = known
    ids = player_ids(app)
    first = [c for c in ratings.rate(results_of(app)) if c.game_id == 1]
    moved = {c.player_id: round(c.delta, 3) for c in first}
    assert STEP == pytest.approx(3.7270, abs=1e-4)
    assert moved == {ids["Ann"]: 2.795, ids["Ben"]: 1.553, ids["Dan"]: -0.311, ids["Cleo"]: -4.038}
    assert [round(c.delta / STEP * 12) for c in first] == [9, 5, -13, -1]  # seat order


def test_the_whole_known_history_follows_the_documented_model(known):
    app, client, crew_url = known
    results = results_of(app)
    # Finished games only, in the order they started: 6 is abandoned and 7 still played.
    assert [r.game_id for r in results] == [1, 2, 3, 4, 5]
    expected, now = [], {}
    for result in results:
        players = [p for p, _ in result.places]
        after = plackett_luce.rate([now.get(p, (25.0, 25 / 3)) for p in players],
                                   [place for _, place in result.places])
        now.update(zip(players, after))
        expected += [(result.game_id, p, *rating) for p, rating in zip(players, after)]
    got = [(c.game_id, c.player_id, c.mu, c.sigma) for c in ratings.rate(results)]
    assert [g[:2] for g in got] == [e[:2] for e in expected]
    assert [x for g in got for x in g[2:]] == pytest.approx([x for e in expected for x in e[2:]], abs=1e-9)


def test_equal_totals_share_a_place_and_a_change():
    # Four new players, places 1, 2, 2, 4: the two level players share C = 3e and A = 2:
    #   Omega(level) = STEP (-1/4 + (1 - 1/3)/2 - (1/3)/2) = -STEP/12 each
    #   Omega(4th)   = STEP (-1/4 - 1/6 - 1/6)             = -7 STEP/12
    changes = ratings.rate([ratings.Result(1, ((1, 1), (2, 2), (3, 2), (4, 4)))])
    assert [c.delta / STEP * 12 for c in changes] == pytest.approx([9, -1, -1, -7])


def test_game_5s_level_players_lose_by_how_strong_they_came_in(known):
    """Ann 120, Ben, Cleo and Dan 0: a level finish with weaker players costs the stronger more,
    so of the three, Ben (best rated before the game) loses most and Dan least."""
    app, client, crew_url = known
    fifth = {c.player_id: c for c in ratings.rate(results_of(app)) if c.game_id == 5}
    ids = player_ids(app)
    level = sorted((fifth[ids[name]] for name in ("Ben", "Cleo", "Dan")), key=lambda c: -c.mu_before)
    assert [c.player_id for c in level] == [ids["Ben"], ids["Cleo"], ids["Dan"]]
    assert level[0].delta < level[1].delta < level[2].delta < 0 < fifth[ids["Ann"]].delta


def test_the_order_of_the_games_matters():
    """The same two results in the other order: the later game counts for more."""
    one = ratings.Result(1, ((1, 1), (2, 2), (3, 3), (4, 4)))
    two = ratings.Result(2, ((1, 4), (2, 3), (3, 2), (4, 1)))
    forwards = {c.player_id: c.mu for c in ratings.rate([one, two]) if c.game_id == 2}
    backwards = {c.player_id: c.mu for c in ratings.rate([two, one]) if c.game_id == 1}
    assert forwards[4] > forwards[1] and backwards[1] > backwards[4]
    assert forwards[4] == pytest.approx(backwards[1]) and forwards[1] != pytest.approx(backwards[1])


def test_a_rating_in_words():
    assert ratings.in_words(27.4, 7.6, 4) == "about 27, still settling after 4 games"
    assert ratings.in_words(31.6, 5.0, 30) == "about 32, nearly settled after 30 games"
    assert ratings.in_words(22.0, 3.9, 60) == "about 22, settled after 60 games"
    assert [ratings.signed(d) for d in (1.84, -0.31, 0.01)] == ["+1.8", "−0.3", "±0"]


# --- On the pages ------------------------------------------------------------------------------

def ladder(client, crew_url):
    response = client.get(crew_url + "ladder")
    assert response.status_code == 200
    return text_of(response.get_data(as_text=True))


def test_the_ladder_orders_by_the_ladder_score_and_waits_for_three_games(known):
    app, client, crew_url = known
    page = ladder(client, crew_url)
    # Eve has one finished game: not rated yet, with how many games are left.
    assert "Eve 2 more finished games to go" in page
    now = {c.player_id: c for c in ratings.rate(results_of(app))}
    ids = player_ids(app)
    order = sorted(("Ann", "Ben", "Cleo", "Dan"), key=lambda n: -now[ids[n]].ordinal)
    positions = [page.index(f"{name} about") for name in order]
    assert positions == sorted(positions)
    ann = now[ids["Ann"]]
    assert f"Ann about {round(ann.mu)}, still settling after 4 games" in page
    # Said in a player's words first; the model's name only in the footnote at the end.
    assert "Finishing above players rated higher than you lifts it most" in page
    assert "ladder score" in page and page.index("openskill") > page.index("Not rated yet")
    assert f'href="{crew_url}ladder"' in client.get(crew_url + "history").get_data(as_text=True)


def test_the_game_record_shows_the_change_it_made(known):
    app, client, crew_url = known
    fifth = {c.player_id: c for c in ratings.rate(results_of(app)) if c.game_id == 5}
    ids = player_ids(app)
    page = text_of(client.get(crew_url + "history/games/5").get_data(as_text=True))
    assert f"Ann {ratings.signed(fifth[ids['Ann']].delta)}" in page
    assert ratings.signed(fifth[ids["Ann"]].delta).startswith("+")
    # Game 1 was everyone's first: no rating is shown yet, so no change either.
    assert "Rating changes" not in text_of(client.get(crew_url + "history/games/1").get_data(as_text=True))


def test_the_player_page_shows_the_rating_and_its_chart(known):
    app, client, crew_url = known
    ids = player_ids(app)
    body = client.get(f"{crew_url}players/{ids['Ann']}").get_data(as_text=True)
    assert "Ann’s rating: about" in text_of(body) and 'id="rating-chart-title"' in body
    eve = text_of(client.get(f"{crew_url}players/{ids['Eve']}").get_data(as_text=True))
    assert "Eve’s rating shows after 3 finished games: 2 more to go." in eve


def correct_game_3_round_2(client, crew_url):
    """Cleo's four Jacks (her target and three more): Cleo 80 in round 2, 2nd instead of 3rd."""
    url = crew_url + "games/3/rounds/2"
    assert client.post(url + "/correct").status_code in (200, 303)
    assert client.post(url + "/hands/2/counts/J", data={"count": 3}).status_code == 200
    assert client.post(url + "/save", data=save_fields(client.get(url))).status_code == 303


def test_a_correction_that_changes_the_finishing_order_changes_the_ratings(known):
    app, client, crew_url = known
    ids = player_ids(app)
    before = ladder(client, crew_url)
    with app.app_context():
        old = {c.player_id: c for c in stored_ladder(1) for c in [c["rating"]]}
    correct_game_3_round_2(client, crew_url)
    places = dict(next(r for r in results_of(app) if r.game_id == 3).places)
    assert (places[ids["Ann"]], places[ids["Cleo"]], places[ids["Ben"]]) == (1, 2, 3)
    with app.app_context():
        new = {c.player_id: c for c in stored_ladder(1) for c in [c["rating"]]}
    assert new[ids["Cleo"]].mu > old[ids["Cleo"]].mu and new[ids["Ben"]].mu < old[ids["Ben"]].mu
    # What is stored is what the games give, worked out afresh.
    fresh = {c.player_id: c for c in ratings.rate(results_of(app))}
    assert {p: c.mu for p, c in new.items()} == pytest.approx({p: fresh[p].mu for p in new})
    assert ladder(client, crew_url) != before


def test_an_undo_and_an_abandon_leave_the_ratings_as_the_games_give(known):
    app, client, crew_url = known
    ids = player_ids(app)
    client.post(crew_url + "games/5/rounds/1/delete")  # game 5 is being played again
    assert "Ann about" in ladder(client, crew_url)
    with app.app_context():
        ann = [c for c in stored_history(1, ids["Ann"])]
    assert [c.game_id for c in ann] == [1, 3, 4]
    client.post(crew_url + "history/games/5/abandon")
    with app.app_context():
        assert [c.game_id for c in stored_history(1, ids["Ann"])] == [1, 3, 4]
    assert client.post(crew_url + "games/5/rounds/1/bring-back").status_code == 303  # playing again, then finished again
    with app.app_context():
        assert [c.game_id for c in stored_history(1, ids["Ann"])] == [1, 3, 4, 5]


def test_export_and_restore_give_identical_ratings(known):
    app, client, crew_url = known
    export = client.get(crew_url + "history/export.json").get_data()
    response = client.post("/restore", data={"file": (io.BytesIO(export), "export.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 303
    new_url = response.headers["Location"].removesuffix("history")
    shown = [element_text(client.get(url + "ladder").get_data(as_text=True), ".ladder") for url in (new_url, crew_url)]
    assert shown[0] == shown[1] and "Ann about" in shown[0]
    with app.app_context():
        old = {(e["name"], e["rating"].mu, e["rating"].sigma) for e in stored_ladder(1)}
        new = {(e["name"], e["rating"].mu, e["rating"].sigma) for e in stored_ladder(2)}
    assert old == new and len(old) == 5


def test_a_crew_can_switch_ratings_off_and_on(known):
    app, client, crew_url = known
    ids = player_ids(app)
    response = client.post(crew_url + "ladder/setting", data={"ratings": "off"})
    assert response.status_code == 303
    assert "Ratings are off for this crew" in ladder(client, crew_url)
    assert "Rating changes" not in text_of(client.get(crew_url + "history/games/5").get_data(as_text=True))
    assert "rating" not in text_of(client.get(f"{crew_url}players/{ids['Ann']}").get_data(as_text=True)).lower()
    client.post(crew_url + "ladder/setting", data={"ratings": "on"})
    assert "Ann about" in ladder(client, crew_url)


@pytest.mark.parametrize("value", ["", "maybe", "ON"])
def test_a_setting_that_is_neither_on_nor_off_is_refused(known, value):
    app, client, crew_url = known
    response = client.post(crew_url + "ladder/setting", data={"ratings": value})
    assert response.status_code == 422
    assert "Ratings are either on or off." in text_of(response.get_data(as_text=True))
    assert connect(app.config["DATABASE"]).execute("SELECT ratings FROM crews").fetchone() == (1,)


def test_a_merge_rebuilds_the_ratings(client, table):
    """Dana was Dan entered under another name: once merged, Dan has both games' ratings."""
    for fourth in ("Dan", "Dana"):
        table.start_game(names=("Ann", "Ben", "Cleo", fourth), goal="other", goal_other="100")
        # Ann's four 4s with four Kings and four Queens passes 100 in one round.
        table.save_quick_round(["4S", "2S", "3S", "5S"], [{"4": 3, "K": 4, "Q": 4}, {}, {}, {}])
    ids = {row["name"]: row["id"] for row in connect(client.application.config["DATABASE"]).query(
        "SELECT id, name FROM players")}
    with client.application.app_context():
        assert [c.games for c in stored_history(1, ids["Dan"])] == [1]
    response = client.post(f"{table.crew_url}players/{ids['Dan']}/merge", data={"other": ids["Dana"]})
    assert response.status_code == 303
    with client.application.app_context():
        assert [(c.game_id, c.games) for c in stored_history(1, ids["Dan"])] == [(1, 1), (2, 2)]
        assert {e["name"] for e in stored_ladder(1)} == {"Ann", "Ben", "Cleo", "Dan"}
