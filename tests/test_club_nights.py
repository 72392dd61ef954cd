"""Club night over HTTP: a night of nine, stages drawn, swapped and started, every table an ordinary
game, and one leaderboard that follows every saved round (totals worked by hand)."""
import json

import pytest

from scoring import club_night
from services import club_nights as night_service
from store import crews as crew_store
from support.html_text import element_text, select, texts
from web.club_night_changes import night_change_words
from support.club_nights import (NINE, board, names_by_id, new_night, night, night_of, night_version,  # noqa: F401
                                 play_round)


def test_a_night_of_nine_over_three_stages_of_two_hands(app, client, crew, night):
    expected = dict.fromkeys(NINE, 0)
    hands = dict.fromkeys(NINE, 0)
    sat_out = []
    orders = [(0, 1, 2, 3), (3, 0, 1, 2)]  # the round's hands by seat, one order a hand
    for stage in (1, 2, 3):
        assert client.post(night + "/stages").status_code == 303
        found, stages = night_of(app, night)
        names = names_by_id(found)
        plan = night_service.seating(stages[-1])
        assert len(plan.tables) == 2 and len(plan.sitting_out) == 1
        sat_out.append(names[plan.sitting_out[0]])
        assert client.post(night + f"/stages/{stage}/start").status_code == 303
        found, stages = night_of(app, night)
        for table_no, game in sorted(stages[-1]["tables"].items()):
            seated = [names[p] for p in game["players"]]
            assert seated == [names[p] for p in plan.tables[table_no - 1]]  # the game seats the plan
            for order in orders:
                for name, score in zip(seated, play_round(app, crew, game["game_id"], order)):
                    expected[name] += score
                    hands[name] += 1
                shown = board(client, night)
                assert {name: shown[name][1] for name in NINE} == expected
            # The stage's two hands are the whole game: it is over, its leader won.
            assert client.get(f"{crew}games/{game['game_id']}").status_code == 200
        found, stages = night_of(app, night)
        assert all(game["status"] == "finished" for game in stages[-1]["tables"].values())
    # One sits out a stage; nobody twice.
    assert len(set(sat_out)) == 3
    shown = board(client, night)
    assert {name: shown[name][2] for name in NINE} == hands
    assert sorted(hands.values()) == [4, 4, 4, 6, 6, 6, 6, 6, 6]
    places = sorted(shown.values(), key=lambda line: line[0])
    assert [line[1] for line in places] == sorted(expected.values(), reverse=True)


def test_a_stage_cannot_be_drawn_while_a_table_still_plays_the_last(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    response = client.post(night + "/stages")
    assert response.status_code == 409
    assert "Stage 1 is still being played at tables 1 and 2" in element_text(response, "#note-stage")
    found, stages = night_of(app, night)
    assert len(stages) == 1


def test_swap_before_the_start_is_recorded_and_refused_after(app, client, crew, night):
    client.post(night + "/stages")
    found, stages = night_of(app, night)
    names = names_by_id(found)
    before = night_service.seating(stages[-1])
    a, b = before.tables[0][0], before.tables[1][3]
    response = client.post(night + "/stages/1/swap", data={"first": a, "second": b,
                                                           "version": night_version(client, night)},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert element_text(response, "#note-swap") == f"Stage 1: {names[a]} and {names[b]} swapped places."
    found, stages = night_of(app, night)
    after = night_service.seating(stages[-1])
    assert after.tables[0][0] == b and after.tables[1][3] == a
    with app.app_context():
        assert [night_change_words(c) for c in night_service.changes(found)][-1] == f"Stage 1: {names[a]} and {names[b]} swapped places"
    response = client.post(night + "/stages/1/swap", data={"first": a, "second": a,
                                                           "version": night_version(client, night)})
    assert response.status_code == 422
    assert element_text(response, "#note-swap") == "Pick two different players to swap."
    version = night_version(client, night)
    client.post(night + "/stages/1/start")
    response = client.post(night + "/stages/1/swap", data={"first": a, "second": b, "version": version})
    assert response.status_code == 409
    assert "Stage 1 has started" in element_text(response, "#note-stage")
    found, stages = night_of(app, night)
    assert night_service.seating(stages[-1]) == after


def test_a_player_at_a_table_still_playing_cannot_leave(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    seated = stages[-1]["tables"][1]["players"][0]
    out = night_service.seating(stages[-1]).sitting_out[0]
    response = client.post(night + f"/players/{seated}/here", data={"here": "0"})
    assert response.status_code == 409
    assert "is playing at table 1 of stage 1" in element_text(response, f"#note-here-{seated}")
    # The one sitting out may go; the next stage is drawn without them.
    assert client.post(night + f"/players/{out}/here", data={"here": "0"}).status_code == 303
    found, _ = night_of(app, night)
    assert [p["here"] for p in found["players"] if p["id"] == seated] == [1]
    assert [p["here"] for p in found["players"] if p["id"] == out] == [0]


def test_a_late_arrival_joins_the_next_stage(app, client, crew, night):
    response = client.post(night + "/players", data={"name": "Jo"}, headers={"HX-Request": "true"})
    assert element_text(response, "#note-name") == "Jo joined: they are seated from the next stage drawn."
    response = client.post(night + "/players", data={"name": "jo"})
    assert response.status_code == 422
    assert element_text(response, "#note-name") == "jo is already on tonight's list."
    client.post(night + "/stages")
    found, stages = night_of(app, night)
    plan = night_service.seating(stages[-1])
    assert len(plan.tables) == 2 and len(plan.sitting_out) == 2  # ten here: two sit out


@pytest.mark.parametrize("names, field, sentence", [
    (NINE[:3], "#note-names", "A stage needs at least 4 players here, not 3."),
    (NINE[:4] + ["ann"], "#note-names", "ann is on the list twice: give each player their own name."),
    ([f"P{n}" for n in range(club_night.MAX_PLAYERS + 1)], "#note-names",
     f"A night seats at most {club_night.MAX_PLAYERS} players, not {club_night.MAX_PLAYERS + 1}."),
])
def test_a_night_that_cannot_be_seated_is_refused_next_to_the_names(app, client, crew, names, field, sentence):
    response = new_night(client, crew, names)
    assert response.status_code == 422
    assert element_text(response, field) == sentence
    with app.app_context():
        assert night_service.nights(crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]) == []


def test_the_crews_players_are_picked_by_a_tap_and_new_ones_typed(app, client, crew, night):
    """A crew's second night: its nine players are toggles on the form, tapped ones join the night
    as themselves (no new player of the same name), a typed name joins as a new player, and a
    name both tapped and typed is refused next to the names with nothing created."""
    form = client.get(crew + "club-nights/new")
    assert sorted(box.get("value") for box in select(form, "#field-known input[type=checkbox]")) == NINE
    assert element_text(form, "#field-names label") == "Anyone new: one name a line"
    picked = {"name": "Second night", "known": ["Ann", "Cat", "Eve", "Gus"], "names": "Zoe\n",
              "format": "hands", "stage_hands": "2", "ranking": "total"}
    twice = client.post(crew + "club-nights", data={**picked, "names": "Zoe\ncat"})
    assert twice.status_code == 422
    assert element_text(twice, "#note-names") == "cat is on the list twice: give each player their own name."
    assert [box.get("value") for box in select(twice, "#field-known input:checked")] == ["Ann", "Cat", "Eve", "Gus"]
    answer = client.post(crew + "club-nights", data=picked)
    assert answer.status_code == 303
    second, _ = night_of(app, answer.headers["Location"])
    first, _ = night_of(app, night)
    assert [p["name"] for p in second["players"]] == ["Ann", "Cat", "Eve", "Gus", "Zoe"]
    assert {p["id"] for p in second["players"][:4]} <= {p["id"] for p in first["players"]}
    with app.app_context():
        crew_id = crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]
        assert len(night_service.nights(crew_id)) == 2
        assert len(crew_store.players(crew_id)) == 10


def test_a_stage_length_out_of_bounds_is_refused(client, crew):
    response = new_night(client, crew, stage_hands=str(club_night.MAX_STAGE_HANDS + 1))
    assert response.status_code == 422
    assert f"A stage is 1 to {club_night.MAX_STAGE_HANDS} hands." in texts(response, ".error")


def test_two_hundred_players_are_seated_in_fifty_tables(app, client, crew):
    names = [f"Player {n}" for n in range(club_night.MAX_PLAYERS)]
    night = new_night(client, crew, names).headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    found, stages = night_of(app, night)
    plan = night_service.seating(stages[-1])
    assert len(plan.tables) == 50 and plan.sitting_out == ()

def test_a_night_ranked_per_hand_puts_fewer_hands_with_more_points_first(app, client, crew):
    night = new_night(client, crew, NINE[:5], stage_hands="1", ranking="per-hand").headers["Location"]
    for stage in (1, 2):
        client.post(night + "/stages")
        client.post(night + f"/stages/{stage}/start")
        found, stages = night_of(app, night)
        play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    shown = board(client, night)
    # Two stages of one hand, one table of four: the seat-0 player scored 40 a hand.
    assert sum(line[2] for line in shown.values()) == 8
    assert sorted(line[0] for line in shown.values())[0] == 1


def test_the_crew_page_links_to_club_nights_and_the_list_shows_the_night(client, crew, night):
    page = client.get(crew)
    assert "Club night: more than four players" in texts(page, "a.button")
    listing = client.get(crew + "club-nights")
    assert "Friday club" in texts(listing, ".game-players")


def test_a_club_night_goes_out_in_the_export_and_comes_back_identical(app, client, crew, night):
    from services import transfer
    client.post(night + "/stages")
    found, stages = night_of(app, night)
    plan = night_service.seating(stages[-1])
    assert client.post(night + "/stages/1/swap", data={"first": plan.tables[0][1], "second": plan.sitting_out[0],
                                                       "version": night_version(client, night)}).status_code == 303
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    client.post(night + f"/players/{plan.sitting_out[0]}/here", data={"here": "0"})  # now seated: refused
    client.post(night + "/players", data={"name": "Jo"})
    with app.app_context():
        crew_id = crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]
        exported = json.loads(transfer.json_text(crew_id))
        assert [n["name"] for n in exported["club_nights"]] == ["Friday club"]
        assert exported["club_nights"][0]["stages"][0]["tables"] == [{"table": 1, "game": 1}, {"table": 2, "game": 2}]
        assert exported["games"][0]["rules"]["hand_limit"] == 2
        restored = transfer.restore(exported)
        again = json.loads(transfer.json_text(restored["id"]))
    assert again == exported
    restored_night = f"/c/{restored['token']}/club-nights/{found['id'] + 1}"
    assert board(client, restored_night) == board(client, night)


def test_a_club_night_naming_a_game_the_file_lacks_is_refused(app, client, crew, night):
    from services import transfer
    from services.refusals import Refused
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    with app.app_context():
        crew_id = crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]
        exported = json.loads(transfer.json_text(crew_id))
        exported["club_nights"][0]["stages"][0]["tables"][1]["game"] = 7
        with pytest.raises(Refused, match="a table names a game that is not in the file"):
            transfer.restore(exported)
        assert len(night_service.nights(crew_id)) == 1


def test_a_tables_scoreboard_links_back_to_the_nights_leaderboard(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    page = client.get(f"{crew}games/{stages[-1]['tables'][2]['game_id']}")
    link = select(page, ".club-table a")[0]
    assert link.get("href") == night.split("localhost")[-1]
    assert link.text_content() == "Friday club: table 2, stage 1 · the night's leaderboard"
