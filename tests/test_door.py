"""Check-in at a club night's door (issue 44, item 3): a player scans the door code, taps their name
in the crew's list or types a new one, and is on tonight's list for the next draw; that phone then
follows its player on the night's board. The organiser sees each arrival and can undo it until a
stage is drawn with them. The door link can check one player in at its night, and nothing else."""
import re
from urllib.parse import urlsplit

import pytest

from scoring import club_night
from support.club_nights import NINE, names_by_id, new_night, night_of
from support.exports import export_of, restore
from support.html_text import select, texts

LONG = "Émilie-Éléonore de la Tour-Saint-Jacques"  # 40 characters, accents


def _door(client, night):
    """The door code's link (path), as the organiser's page shows it."""
    [code] = select(client.get(night), ".door-code .qr[data-link]")
    return urlsplit(code.get("data-link")).path


def _box(phone, board):
    found = select(phone.get(board), "#my-table")
    return " ".join(found[0].text_content().split()) if found else ""


def _alert(response):
    return " ".join(t.strip() for t in (texts(response, "#name-error") or texts(response, "[role=alert]")) if t.strip())


@pytest.fixture
def night(client, crew):
    return new_night(client, crew, names=NINE[:8]).headers["Location"]


def test_a_new_player_checks_in_at_the_door_is_drawn_and_their_phone_shows_their_table(app, client, night):
    door = _door(client, night)
    phone = app.test_client()
    page = phone.get(door)
    assert page.status_code == 200 and "Checking in: who are you?" in page.get_data(as_text=True)
    checked = phone.post(door, data={"name": f"  {LONG}  "})
    assert checked.status_code == 303
    board = checked.headers["Location"]
    assert "/board" in board and door.split("/")[2] not in board  # the night's board, by its watch link
    assert _box(phone, board) == f"{LONG}, you are on tonight's list. Your table shows here as soon as a stage is drawn with you in it."
    found, _ = night_of(app, night)
    assert [p["name"] for p in found["players"]] == [*NINE[:8], LONG]
    organiser = client.get(night)
    assert f"{LONG} checked in at the door" in " ".join(texts(organiser, "#night-log li"))
    assert texts(organiser, ".door-chip")  # the arrival is marked on the organiser's list
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    found, stages = night_of(app, night)
    me = next(p["id"] for p in found["players"] if p["name"] == LONG)
    assert me in [place["player_id"] for place in stages[0]["places"]]
    table_no = next((no for no, table in stages[0]["tables"].items() if me in table["players"]), None)
    box = _box(phone, board)
    if table_no is None:
        assert box == f"Stage 1: {LONG}, you sit this stage out. Your next table shows here once the next stage is drawn."
    else:
        assert box.startswith(f"Stage 1: {LONG}, you are at table {table_no}, seat ")
        [link] = select(phone.get(board), "#my-table a")
        assert phone.get(urlsplit(link.get("href")).path).status_code == 200


def test_tapping_a_name_of_the_crew_checks_that_player_in(app, client, crew, night):
    other = new_night(client, crew, names=["Zed", *NINE[:4]]).headers["Location"]  # Zed: of the crew, not tonight
    door = _door(client, night)
    phone = app.test_client()
    page = phone.get(door)
    assert "Zed" in texts(page, ".door-names button")
    assert phone.post(door, data={"pick": "Zed"}).status_code == 303
    found, _ = night_of(app, night)
    assert found["players"][-1]["name"] == "Zed" and found["players"][-1]["here"]
    assert other  # the other night keeps Zed: a check-in is for this night only
    assert "This phone is checked in as Zed." in " ".join(texts(phone.get(door), "#checked-in"))


def test_a_player_on_the_list_already_only_makes_the_phone_theirs(app, client, night):
    door, phone = _door(client, night), app.test_client()
    before, _ = night_of(app, night)
    assert phone.post(door, data={"pick": "Ann"}).status_code == 303
    after, _ = night_of(app, night)
    assert after["players"] == before["players"]
    assert "door" not in " ".join(texts(client.get(night), "#night-log li"))  # nothing happened to the list


def test_one_who_left_is_back_and_the_undo_puts_them_out_again(app, client, night):
    found, _ = night_of(app, night)
    ann = next(p["id"] for p in found["players"] if p["name"] == "Ann")
    assert client.post(night + f"/players/{ann}/here", data={"here": "0"}).status_code == 303
    door, phone = _door(client, night), app.test_client()
    assert phone.post(door, data={"name": "ann"}).status_code == 303  # the name as the crew has it
    found, _ = night_of(app, night)
    assert next(p for p in found["players"] if p["id"] == ann)["here"]
    assert client.post(night + f"/players/{ann}/door-undo").status_code == 303
    found, _ = night_of(app, night)
    assert not next(p for p in found["players"] if p["id"] == ann)["here"]


def test_one_phone_is_one_players(app, client, night):
    door, phone = _door(client, night), app.test_client()
    assert phone.post(door, data={"name": "Jo"}).status_code == 303
    assert phone.post(door, data={"name": "Jo"}).status_code == 303  # the same again changes nothing
    again = phone.post(door, data={"name": "Kim"})
    assert again.status_code == 409
    assert _alert(again) == ("This phone checked in as Jo tonight. Someone else checks in on their own phone, "
                             "or the organiser adds them.")
    found, _ = night_of(app, night)
    assert [p["name"] for p in found["players"]].count("Jo") == 1 and "Kim" not in names_by_id(found).values()


@pytest.mark.parametrize("name, words", [
    ("", "Enter your name, or tap it in the list."),
    ("\u3164", "A name cannot contain characters that show as blank space."),
    ("Аnn", "Аnn looks the same as Ann, a player of this crew"),  # a Cyrillic А
    ("x" * 41, "A name is at most 40 characters"),
])
def test_a_name_the_rule_refuses_is_said_next_to_the_field(app, client, night, name, words):
    door, phone = _door(client, night), app.test_client()
    before, _ = night_of(app, night)
    answer = phone.post(door, data={"name": name})
    assert answer.status_code == 422 and words in _alert(answer)
    assert select(answer, "#field-name.has-error #name-error")
    after, _ = night_of(app, night)
    assert after["players"] == before["players"]


def test_a_full_night_and_a_finished_one_check_nobody_in(app, client, crew):
    full = new_night(client, crew, names=[f"P{n}" for n in range(club_night.MAX_PLAYERS)]).headers["Location"]
    answer = app.test_client().post(_door(client, full), data={"name": "Late"})
    assert answer.status_code == 409 and "at most 200 players" in _alert(answer)
    night = new_night(client, crew, names=NINE[:4]).headers["Location"]
    door = _door(client, night)
    assert client.post(night + "/finish").status_code == 303
    phone = app.test_client()
    assert "The night is over" in phone.get(door).get_data(as_text=True)
    answer = phone.post(door, data={"name": "Late"})
    assert answer.status_code == 409
    assert not select(client.get(night), ".door-code")  # a finished night shows no door code


def test_the_organiser_undoes_an_arrival_until_a_stage_is_drawn_with_it(app, client, night):
    door, phone = _door(client, night), app.test_client()
    assert phone.post(door, data={"name": "Prankster"}).status_code == 303
    board = phone.post(door, data={"name": "Prankster"}).headers["Location"]
    found, _ = night_of(app, night)
    prank = next(p["id"] for p in found["players"] if p["name"] == "Prankster")
    assert texts(client.get(night), f"#player-{prank} button") == ["Leaves", "Undo check-in"]
    live = select(phone.get(board), "#big-board")[0].get("hx-get")
    assert client.post(night + f"/players/{prank}/door-undo").status_code == 303
    found, _ = night_of(app, night)
    assert "Prankster" not in names_by_id(found).values()
    poll = phone.get(live.replace("v=", "v=old"), headers={"HX-Request": "true"})
    assert select(poll, "#my-place") and not select(poll, "#my-table")  # the phone's box goes away
    assert "Prankster's check-in at the door undone" in " ".join(texts(client.get(night), "#night-log li"))
    assert phone.post(door, data={"name": "Jo"}).status_code == 303  # the phone may check in again
    assert client.post(night + "/stages").status_code == 303
    found, _ = night_of(app, night)
    jo = next(p["id"] for p in found["players"] if p["name"] == "Jo")
    assert texts(client.get(night), f"#player-{jo} button") == ["Leaves"]
    refused = client.post(night + f"/players/{jo}/door-undo", headers={"HX-Request": "true"})
    assert refused.status_code == 409
    assert "A stage was drawn since Jo checked in: if they are not here, tap Leaves." in refused.get_data(as_text=True)


def test_a_night_with_an_undone_check_in_exports_and_restores_its_log(app, client, crew, night):
    door, phone = _door(client, night), app.test_client()
    assert phone.post(door, data={"name": "Gone"}).status_code == 303
    found, _ = night_of(app, night)
    gone = next(p["id"] for p in found["players"] if p["name"] == "Gone")
    assert client.post(night + f"/players/{gone}/door-undo").status_code == 303
    data = export_of(client, crew)
    response = restore(client, data)
    assert response.status_code == 303, response.get_data(as_text=True)
    crew_url = response.headers["Location"].removesuffix("history")
    again = export_of(client, crew_url)
    assert again["club_nights"] == data["club_nights"]


def test_the_door_link_opens_its_door_and_nothing_else(app, client, crew, night):
    door = _door(client, night)
    token = door.split("/")[2]
    stranger = app.test_client()
    night_id = night.rsplit("/", 1)[1]
    for path in (f"/c/{token}/", f"/c/{token}/club-nights/{night_id}", f"/c/{token}/club-nights/{night_id}/board",
                 f"/c/{token}/history/export.json", f"/c/{token}/club-nights/{int(night_id) + 1}/door"):
        assert stranger.get(path).status_code == 404, path
    assert re.fullmatch(r"/c/[\w-]+/club-nights/\d+/door", door)


def test_every_link_on_the_door_page_opens_for_the_phone_that_scanned_it(app, client, night):
    """The door page showed a Tools link, which a door link cannot open: its 404 counted as a guess
    against the venue's address. Every link on it now opens for the phone that has only the code."""
    door, phone = _door(client, night), app.test_client()
    for stage in ("before", "after"):
        page = phone.get(door)
        links = {urlsplit(a.get("href")).path for a in select(page, "a[href]") if a.get("href").startswith("/")}
        assert links, stage
        for link in links:
            assert phone.get(link).status_code == 200, (stage, link)
        assert phone.post(door, data={"name": "Jo"}).status_code == 303


def test_the_crew_page_lists_the_door_code_by_its_night(app, client, crew, night):
    _door(client, night)
    listed = texts(client.get(crew), ".link-what")
    assert sorted(listed) == ["Door code of Friday club", "Watch link of Friday club"]  # the big screen's


def test_the_door_adds_a_bounded_number_of_new_names_and_its_log_stays_bounded(app, client, night, monkeypatch):
    """A code passed round could add names and have them undone without end: each new name is a
    line of the log and a player of the crew. The door adds at most MAX_DOOR_ARRIVALS; a phone
    freed or a player brought back and out again adds no line."""
    monkeypatch.setattr(club_night, "MAX_DOOR_ARRIVALS", 3)
    door = _door(client, night)
    for n in range(3):
        phone = app.test_client()
        assert phone.post(door, data={"name": f"Stranger {n}"}).status_code == 303
        found, _ = night_of(app, night)
        assert client.post(night + f"/players/{found['players'][-1]['id']}/door-undo").status_code == 303
    refused = app.test_client().post(door, data={"name": "Stranger 3"})
    assert refused.status_code == 409 and "ask the organiser to add you" in _alert(refused)
    lines = len(texts(client.get(night), "#night-log li"))
    for _ in range(3):  # Ann, on the list already, checks in and is undone: no line
        phone = app.test_client()
        assert phone.post(door, data={"pick": "Ann"}).status_code == 303
        found, _ = night_of(app, night)
        ann = next(p["id"] for p in found["players"] if p["name"] == "Ann")
        assert client.post(night + f"/players/{ann}/door-undo").status_code == 303
    assert len(texts(client.get(night), "#night-log li")) == lines
    assert app.test_client().post(door, data={"pick": "Bob"}).status_code == 303  # a name of the crew still checks in


def test_the_undo_is_said_where_the_arrival_was(app, client, night):
    door, phone = _door(client, night), app.test_client()
    assert phone.post(door, data={"name": "Late Lou"}).status_code == 303
    found, _ = night_of(app, night)
    lou = found["players"][-1]["id"]
    answer = client.post(night + f"/players/{lou}/door-undo", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    [said] = select(answer, ".night-players + .done, .night-players + p")
    assert said.text_content().strip() == "Late Lou's check-in is undone: tonight's list is as it was before it."
