"""A phone follows its player through a club night (issue 44, item 1): a phone that took a seat at
one of the night's tables (by the table's QR code) finds on the night's board, where its finished
table sends it, where its player sits in the latest stage, and the table to open with one tap: no
code to scan again. What the panel says is what the stored stage says; a phone that never sat (the
big screen) sees no panel and no table link."""
from urllib.parse import urlsplit

from support.club_nights import NINE, new_night, night_of, play_round
from support.html_text import select


def _night(app, table):
    client = table.client
    crew = table.start_crew()
    night = new_night(client, crew, names=NINE).headers["Location"]
    assert client.post(night + "/stages").status_code in (200, 303)
    assert client.post(night + "/stages/1/start").status_code in (200, 303)
    page = client.get(night)
    codes = [urlsplit(q.get("data-link")).path for q in select(page, ".night-table .qr[data-link]")]
    [board] = [urlsplit(a.get("href")).path for a in select(page, "a.button") if "Big-screen view" in a.text_content()]
    return crew, night, codes, board


def _panel(client, board):
    """The panel's words and its link on the board, as a phone sees it: ("", None) without one."""
    page = client.get(board)
    found = select(page, "#my-table")
    if not found:
        return "", None
    links = [urlsplit(a.get("href")).path for a in found[0].cssselect("a")]
    return " ".join(found[0].text_content().split()), (links[0] if links else None)


def _where(app, night, stage_number, player_id):
    """(table, seat) of the player in a stage as stored: its tables' games once started, else the draw."""
    _, stages = night_of(app, night)
    stage = stages[stage_number - 1]
    for table_no, table in stage["tables"].items():
        if player_id in table["players"]:
            return table_no, table["players"].index(player_id) + 1, table["game_id"]
    for place in stage["places"]:
        if place["player_id"] == player_id and place["table_no"] is not None:  # not drawn to sit out
            return place["table_no"], place["seat"] + 1, None
    return None


def test_a_phone_that_sat_is_shown_its_players_next_table_on_the_board(app, table):
    crew, night, codes, board = _night(app, table)
    phone, big_screen = app.test_client(), app.test_client()
    game_path = codes[0]
    first = phone.get(game_path)
    assert first.status_code == 200
    assert phone.post(game_path + "/seats/0").status_code == 200  # "which one are you?": the first seat
    found, stages = night_of(app, night)
    ann_id = stages[0]["tables"][1]["players"][0]
    name = next(p["name"] for p in found["players"] if p["id"] == ann_id)

    words, link = _panel(phone, board)
    assert words == f"Stage 1: {name}, you are at table 1, seat 1. Open table 1"
    assert link == game_path  # the code on the table, opened with one tap
    assert _panel(big_screen, board) == ("", None)

    for table_no, stage_table in stages[0]["tables"].items():  # both tables play their two hands
        for _ in range(2):
            play_round(app, crew, stage_table["game_id"], [0, 1, 2, 3])
    words, link = _panel(phone, board)
    assert words == (f"{name}, your table of stage 1 has finished. "
                     "Your next table shows here once the next stage is drawn.") and link is None

    assert table.client.post(night + "/stages").status_code in (200, 303)
    where = _where(app, night, 2, ann_id)
    words, link = _panel(phone, board)
    if where is None:
        assert words == f"Stage 2: {name}, you sit this stage out. Your next table shows here once the next stage is drawn."
    else:
        assert words == (f"Stage 2 is drawn: {name}, you are at table {where[0]}, seat {where[1]}, unless the "
                         "organiser changes it. Your table opens here when the stage starts.")
    assert table.client.post(night + "/stages/2/start").status_code in (200, 303)
    where = _where(app, night, 2, ann_id)
    words, link = _panel(phone, board)
    if where is None:
        assert link is None and "you sit this stage out" in words
    else:
        codes = {urlsplit(q.get("data-link")).path for q in select(table.client.get(night), ".night-table .qr[data-link]")}
        assert words == f"Stage 2: {name}, you are at table {where[0]}, seat {where[1]}. Open table {where[0]}"
        assert link in codes and link.endswith(f"/games/{where[2]}")
        assert phone.get(link).status_code == 200  # the link opens the new table


def test_the_boards_poll_brings_the_phones_own_panel(app, table):
    crew, night, codes, board = _night(app, table)
    phone = app.test_client()
    assert phone.post(codes[1] + "/seats/2").status_code == 200
    page = phone.get(board)
    assert "you are at table 2, seat 3" in select(page, "#my-table")[0].text_content()
    live = select(page, "#big-board")[0].get("hx-get")
    poll = phone.get(live.replace("v=", "v=old"), headers={"HX-Request": "true"})
    assert poll.status_code == 200
    [slot] = select(poll, "#my-place")  # the box's slot: always there, so a box can come or go
    assert slot.get("hx-swap-oob") == "true" and "you are at table 2, seat 3" in select(slot, "#my-table")[0].text_content()
    other = app.test_client().get(live.replace("v=", "v=old"), headers={"HX-Request": "true"})
    assert other.status_code == 200 and not select(other, "#my-table")  # drawn once, each phone's own panel


def test_a_player_drawn_to_sit_out_the_next_stage_is_told_so(app, table):
    """Found by the club night machine: a stage drawn but not started keeps whoever sits out as a
    place without a table; the box said nothing true (the board answered 500)."""
    crew, night, codes, board = _night(app, table)
    _, stages = night_of(app, night)
    phones = {}
    for code, stage_table in zip(codes, (stages[0]["tables"][1], stages[0]["tables"][2])):
        for seat, player_id in enumerate(stage_table["players"]):
            phones[player_id] = app.test_client()
            assert phones[player_id].post(f"{code}/seats/{seat}").status_code == 200
    for stage_table in stages[0]["tables"].values():
        for _ in range(2):
            play_round(app, crew, stage_table["game_id"], [0, 1, 2, 3])
    assert table.client.post(night + "/stages").status_code in (200, 303)
    found, stages = night_of(app, night)
    [out] = [p["player_id"] for p in stages[1]["places"] if p["table_no"] is None]
    name = next(p["name"] for p in found["players"] if p["id"] == out)
    assert out in phones, "whoever played stage 1 sits out stage 2"
    assert _panel(phones[out], board) == (
        f"Stage 2: {name}, you sit this stage out. Your next table shows here once the next stage is drawn.", None)


def test_a_player_who_left_is_not_promised_a_next_table(app, table):
    crew, night, codes, board = _night(app, table)
    phone = app.test_client()
    assert phone.post(codes[0] + "/seats/0").status_code == 200
    found, stages = night_of(app, night)
    player_id = stages[0]["tables"][1]["players"][0]
    name = next(p["name"] for p in found["players"] if p["id"] == player_id)
    for _ in range(2):
        play_round(app, crew, stages[0]["tables"][1]["game_id"], [0, 1, 2, 3])
    assert table.client.post(f"{night}/players/{player_id}/here", data={"here": "0"}).status_code in (200, 303)
    assert _panel(phone, board) == (f"{name}, you are not on tonight's list of who is here, so no stage seats you: "
                                    "the organiser can bring you back.", None)
    assert table.client.post(f"{night}/players/{player_id}/here", data={"here": "1"}).status_code in (200, 303)
    assert _panel(phone, board)[0].startswith(f"{name}, your table of stage 1 has finished.")
