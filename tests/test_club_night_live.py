"""A club night's live leaderboard over HTTP: a 204 while nothing it shows changed, the new board
when a round is saved, drawn once for all the phones following, the tables' QR codes left on the
phone, and the whole night back when the night itself changed."""
from support.html_text import select, texts
from support.club_nights import names_by_id, night, night_of, play_round  # noqa: F401 (night: a fixture)


def test_the_leaderboard_poll_is_a_204_until_a_round_is_saved(app, client, crew, night):
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    page = client.get(night)
    poll = select(page, "#live-night")[0].get("hx-get")
    assert client.get(poll).status_code == 204
    big = select(client.get(night + "/board"), "#big-board")[0].get("hx-get")
    assert client.get(big).status_code == 204
    found, stages = night_of(app, night)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    changed = client.get(poll)
    assert changed.status_code == 200
    assert select(changed, "#leaderboard tbody tr")[0].get("data-player") == \
        names_by_id(found)[stages[-1]["tables"][1]["players"][0]]
    assert client.get(big).status_code == 200
    assert client.get(night.replace("/club-nights/", "/club-nights/9") + "/live?v=1").status_code == 404


def test_a_changed_leaderboard_poll_does_not_redraw_the_tables_qr_codes(app, client, crew, night, monkeypatch):
    """bench/load_night.py found each changed poll redrawing every table's QR code (36 ms a code):
    a night's taps were 20 times slower than separate tables'. The codes are drawn once."""
    from web import share_links
    share_links.qr_svg.cache_clear()
    drawn = []
    make = share_links.segno.make
    monkeypatch.setattr(share_links.segno, "make", lambda *a, **k: drawn.append(a[0]) or make(*a, **k))
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    page = client.get(night)
    assert len(drawn) == 3 and len(select(page, ".night-table svg")) == 2, "two tables' codes and the door's"
    poll = select(page, "#live-night")[0].get("hx-get")
    found, stages = night_of(app, night)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    assert client.get(poll).status_code == 200
    assert client.get(night).status_code == 200
    assert len(drawn) == 3


def test_a_changed_leaderboard_poll_leaves_the_codes_on_the_phone(app, client, crew, night):
    """Each changed poll re-sent every table's QR code (39 KB for ten tables, to every phone every
    few seconds). The poll now sends an empty stand-in of the same id that htmx keeps the phone's
    code in place of (hx-preserve); the page and a night change still bring the codes."""
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    page = client.get(night)
    codes = {code.get("id"): code for code in select(page, ".night-table .qr-box")}
    assert len(codes) == 2 and all(code.find(".//svg") is not None and code.get("hx-preserve") is not None
                                   for code in codes.values())
    poll = select(page, "#live-night")[0].get("hx-get")
    found, stages = night_of(app, night)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200 and "1 hand saved" in changed.get_data(as_text=True)
    stand_ins = {code.get("id"): code for code in select(changed, ".night-table .qr-box")}
    assert stand_ins.keys() == codes.keys()
    assert all(code.find(".//svg") is None and code.get("hx-preserve") is not None for code in stand_ins.values())
    assert select(client.get(poll), ".night-table .qr svg"), "a plain request (no htmx) gets the codes"


def test_the_phones_following_a_night_share_one_drawing_of_each_new_board(app, client, crew, night, monkeypatch):
    """bench/load_night.py: after each save, the three phones a table that follow the night (and
    the big screen) each had the same board drawn for them, so a night's taps waited twice as long
    as separate tables'. A board is now drawn once per change; the next change draws it anew."""
    from web import club_nights as night_web
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    page = client.get(night)
    poll = select(page, "#live-night")[0].get("hx-get")
    big = select(client.get(night + "/board"), "#big-board")[0].get("hx-get")
    drawn = []
    leaderboard = night_web.night_service.leaderboard
    monkeypatch.setattr(night_web.night_service, "leaderboard", lambda *a: drawn.append(1) or leaderboard(*a))
    found, stages = night_of(app, night)
    game_id = stages[-1]["tables"][1]["game_id"]
    play_round(app, crew, game_id, (0, 1, 2, 3))
    answers = [client.get(url, headers={"HX-Request": "true"}) for url in (poll, poll, poll, big, big)]
    assert [answer.status_code for answer in answers] == [200] * 5
    assert answers[0].get_data() == answers[1].get_data() == answers[2].get_data()
    assert len(drawn) == 2, "one drawing of the phones' board and one of the big screen's"
    first_points = [cell.text_content() for cell in select(answers[0], "#leaderboard tbody td.points")]
    play_round(app, crew, game_id, (1, 0, 3, 2))
    again = client.get(poll, headers={"HX-Request": "true"})
    assert again.status_code == 200 and len(drawn) == 3
    assert [cell.text_content() for cell in select(again, "#leaderboard tbody td.points")] != first_points
    newer = select(again, "#live-night")[0].get("hx-get")
    assert newer != select(answers[0], "#live-night")[0].get("hx-get")
    assert client.get(newer, headers={"HX-Request": "true"}).status_code == 204


def test_a_phone_following_the_night_gets_new_controls_when_the_night_changes(app, client, crew, night):
    """A fifth phone left on the night page kept "Draw stage 1" after the organiser's phone had
    drawn and started it: the controls sit outside the polled leaderboard. A poll that finds the
    night itself changed brings the whole night back; a round saved at a table only the board."""
    poll = select(client.get(night), "#live-night")[0].get("hx-get")
    organiser = app.test_client()
    organiser.get(night)
    with client.session_transaction() as mine, organiser.session_transaction() as theirs:
        theirs.update(mine)
    assert organiser.post(night + "/stages").status_code == 303
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    assert changed.headers.get("HX-Retarget") == "#night"
    assert "Start stage 1" in texts(changed, "#night button")  # under the seating it starts
    assert organiser.post(night + "/stages/1/start").status_code == 303
    poll = select(client.get(night), "#live-night")[0].get("hx-get")
    found, stages = night_of(app, night)
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    board_only = client.get(poll, headers={"HX-Request": "true"})
    assert board_only.status_code == 200 and "HX-Retarget" not in board_only.headers
    assert select(board_only, "#live-night") and not select(board_only, "#stage")


def test_a_phone_following_the_night_gets_the_next_stage_when_the_last_table_finishes(app, client, crew, night):
    """The layout sweep found "Draw stage 2" and "Finish the night" reaching the organiser's page
    only on a reload: a table's last save moved only the board. The poll now brings the night."""
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    tables = [table["game_id"] for table in stages[-1]["tables"].values()]
    for game_id in tables[:-1]:
        for _ in range(2):  # two hands a stage
            play_round(app, crew, game_id, (0, 1, 2, 3))
    play_round(app, crew, tables[-1], (0, 1, 2, 3))
    poll = select(client.get(night), "#live-night")[0].get("hx-get")
    assert "Draw stage 2" not in texts(client.get(night), "#night button"), "a table still plays"
    play_round(app, crew, tables[-1], (0, 1, 2, 3))
    changed = client.get(poll, headers={"HX-Request": "true"})
    assert changed.headers.get("HX-Retarget") == "#night"
    buttons = texts(changed, "#night button")
    assert "Draw stage 2" in buttons and "Finish the night" in buttons


def test_a_round_started_at_a_table_leaves_the_leaderboard_poll_a_204(app, client, crew, night):
    """The leaderboard shows saved rounds only: a table starting its next round changed every
    phone's leaderboard poll to a 200 (bench/load_night.py: most polls of a 10-table night)."""
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    poll = select(client.get(night), "#live-night")[0].get("hx-get")
    big = select(client.get(night + "/board"), "#big-board")[0].get("hx-get")
    found, stages = night_of(app, night)
    game = f"{crew.rstrip('/')}/games/{stages[-1]['tables'][1]['game_id']}"
    assert client.post(game + "/rounds").status_code in (200, 303)
    assert client.get(poll).status_code == 204
    assert client.get(big).status_code == 204
    play_round(app, crew, stages[-1]["tables"][1]["game_id"], (0, 1, 2, 3))
    assert client.get(poll).status_code == 200
    assert client.get(big).status_code == 200


def test_the_leaderboard_poll_carries_no_form_of_one_phone(app, client, crew, night):
    """The poll's board is drawn once and sent to every phone following the night: a form in it
    would carry the first phone's CSRF token to the others, and their tap would be refused. So
    "Start stage 2", under the seating, sits outside the polled part."""
    client.post(night + "/stages")
    client.post(night + "/stages/1/start")
    found, stages = night_of(app, night)
    for table in stages[-1]["tables"].values():
        for order in ((0, 1, 2, 3), (2, 3, 0, 1)):
            play_round(app, crew, table["game_id"], order)
    assert client.post(night + "/stages").status_code == 303
    poll = select(client.get(night), "#live-night")[0].get("hx-get")
    board = client.get(poll.rsplit(".", 1)[0] + ".0", headers={"HX-Request": "true"})  # the board moved on
    assert board.status_code == 200 and not board.headers.get("HX-Retarget")
    assert select(board, "#live-night") and not select(board, "form, input[name=csrf_token]")
    assert "Start stage 2" in texts(client.get(night), "#night button")
