"""Seat mode keeps a hand secret until the round is scored, on every URL the app answers.

Ann's phone holds her seat and enters a target and a pile in private; Ben's phone, at the same
table, reads every GET route of the app (pages, fragments, polls, what-if, history, CSV, JSON,
SVG) and must never learn a card of Ann's hand: no card of hers appears in any answer more often
than it did before she entered it.
"""
import re

import pytest

from app import create_app
from scoring import parse_card
from support.html_text import attribute, csrf_token, poll_url, select, text_of, texts
from store import connect

SECRET_TARGET = "9H"
SECRET_PILE = ["7D", "8D", "10C", "2S"]
SECRETS = [SECRET_TARGET, *SECRET_PILE]


@pytest.fixture
def app(tmp_path):
    # The walk meets a few not-found answers (a player against themself): not guessing.
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "test",
                       "WTF_CSRF_ENABLED": False, "GUESS_LIMIT": "1000000 per minute"})


def text(response):
    return response.get_data(as_text=True)


@pytest.fixture
def table_of_phones(app, table):
    """A game with one saved round; round 2 open; Ann's and Ben's phones hold their seats."""
    table.start_game()
    table.save_quick_round(["4S", "2S", "3S", "5S"], [{"K": 2}, {}, {}, {"A": 2}])
    ann, ben = app.test_client(), app.test_client()
    assert ann.post(table.game_url + "/seats/0").status_code == 200
    assert ben.post(table.game_url + "/seats/1").status_code == 200
    url = table.start_round()
    return ann, ben, url


def enter_secret_hand(ann, url):
    assert ann.post(url + "/hands/0/mode", data={"mode": "exact"}).status_code == 200
    assert ann.post(url + "/hands/0/target", data={"target": SECRET_TARGET}).status_code == 200
    for code in SECRET_PILE:
        assert ann.post(url + f"/hands/0/cards/{code}", data={"held": "1"}).status_code == 200


def every_get(app, table, url):
    """Every GET route of the app, with the values of this crew, game and round (both rounds,
    every seat, every player), plainly and as htmx asks, polls included."""
    db = connect(app.config["DATABASE"])
    game_id = int(table.game_url.rsplit("/", 1)[1])
    token = table.crew_url.split("/c/")[1].strip("/")
    round_id = list(db.query("SELECT id FROM rounds WHERE status = 'entering'"))[0]["id"]
    players = [row["id"] for row in db.query("SELECT id FROM players ORDER BY id")]
    values = {"token": [token], "game_id": [game_id], "number": [1, 2], "seat": [0, 1, 2, 3],
              "player_id": players, "other_id": players[1:], "night_id": [1], "season_id": [1]}
    queries = ["", "?v=0", f"?v=0&r={round_id}&seat=0&based_on=0", "?seat=0", "?mode=exact&target=9H"]
    urls = set()
    for rule in app.url_map.iter_rules():
        # A card is a picture (PNG) of finished games only: no text to read a private card from.
        if "GET" not in rule.methods or rule.endpoint in ("static", "static_files.htmx_js", "static_files.favicon",
                                                          "seasons.season_card_show") or \
                "filename" in rule.arguments or "version" in rule.arguments:
            continue
        assert set(rule.arguments) <= set(values), f"no values for {rule.rule}"
        paths = [rule.rule]
        for name in rule.arguments:
            paths = [re.sub(rf"<(?:[^:<>]+:)?{name}>", str(value), path) for path in paths for value in values[name]]
        urls.update(path + query for path in paths for query in queries)
    return sorted(urls)


RANDOM_TEXT = re.compile(r"[A-Za-z0-9_-]{20,}")  # a token: 43 letters, digits, "-" and "_"


def leaks(body):
    """How often each of Ann's cards is written in an answer, as a code or as it is shown. CSRF
    tokens (the page's and its forms') and every other long random text (a link's token, made
    anew when a link is) are left out: they may hold "2S" or "7D" by chance."""
    tokens = [field.get("value") for field in select(body, 'input[name="csrf_token"]')]
    if attribute(body, "body", "hx-headers"):
        tokens.append(csrf_token(body))
    for token in tokens:
        body = body.replace(token, "")
    body = RANDOM_TEXT.sub("", body)
    return {code: body.count(code) + body.count(str(parse_card(code))) for code in SECRETS}


@pytest.mark.slow
def test_no_answer_to_another_phone_shows_a_card_of_a_private_hand(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    opened = table.client.post(table.crew_url + "seasons", data={"name": "Saison", "first_day": "2000-01-01", "minimum": "1"})
    assert opened.status_code == 303 and opened.headers["Location"].endswith("/seasons/1")
    urls = every_get(app, table, url)
    assert len(urls) > 100  # every route, each with real ids and several queries
    before = {}
    for address in urls:
        for headers in ({}, {"HX-Request": "true"}):
            before[address, str(headers)] = leaks(text(ben.get(address, headers=headers)))
    enter_secret_hand(ann, url)
    assert "Ann’s target 9♥" in text_of(ann.get(url))  # Ann sees it
    for address in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = ben.get(address, headers=headers)
            assert response.status_code < 500, address
            after = leaks(text(response))
            assert after == before[address, str(headers)], f"{address} {headers} shows Ann's private cards"


def test_the_json_export_leaves_a_round_in_progress_out(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    enter_secret_hand(ann, url)
    export = ben.get(table.crew_url + "history/export.json").get_json()
    rounds = [(r["number"], r["status"]) for game in export["games"] for r in game["rounds"]]
    assert rounds == [(1, "scored")]


def test_an_early_all_in_names_no_missing_card(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    for seat, phone, target in ((0, ann, "QH"), (1, ben, "2C"), (2, table.client, "JC"), (3, table.client, "KC")):
        phone.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})  # every card known: a full check
        phone.post(url + f"/hands/{seat}/target", data={"target": target})
    for seat, phone, card in ((0, ann, "KS"), (2, table.client, "3D"), (3, table.client, "4D")):
        phone.post(url + f"/hands/{seat}/cards/{card}", data={"held": "1"})
    ann.post(url + "/hands/0/done")
    ben.post(url + "/hands/1/done")  # Ben is in before entering any pile
    page = text(ann.get(url))
    assert "Not yet in any pile" not in page
    assert "The piles are not complete yet (Ben has not entered a pile)." in page
    assert "Ben has no target card yet" not in page


def test_a_hand_entered_for_a_player_without_a_phone_needs_no_all_in(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    ann.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    for seat, phone, target in ((0, ann, "4S"), (1, ben, "2S"), (2, table.client, "3S"), (3, table.client, "5S")):
        assert phone.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    table.client.post(url + "/hands/3/counts/5", data={"count": 1})
    page = text(table.client.get(url + "?seat=3"))
    assert "Dan’s hand is all in" not in page  # nobody marks a hand that no phone holds
    assert "Waiting for Ann, Ben." in page
    ann.post(url + "/hands/0/done")
    response = ben.post(url + "/hands/1/done")
    # Every hand a phone holds is all in, but Cleo's and Dan's piles, entered by rank on the shared
    # phone, left cards out: the table says they are singles (how many, never which: Ann's and
    # Ben's hands are still private on the shared phone), then saves.
    assert "Undo this round" not in text(response)
    page = text(table.client.get(url))
    assert "47 cards in no pile or target." in page and "They are all singles" in page
    assert table.client.post(url + "/save", data=table.save_form(url)).status_code == 303
    response = ben.get(url)
    assert "Undo this round" in text(response) and "I agree with my score" in text(response)
    rows = list(connect(app.config["DATABASE"]).query("SELECT number, status FROM rounds ORDER BY id"))
    assert [(row["number"], row["status"]) for row in rows] == [(1, "scored"), (2, "scored")]


def test_another_phone_cannot_open_or_edit_a_seated_hand_before_it_is_touched(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    page = text(ben.get(url + "/hands/0", headers={"HX-Request": "true"}))
    assert "Ann is entering this hand on their own phone." in page
    assert select(page, "#target-picker") == []
    response = table.client.post(url + "/hands/0/target", data={"target": "QS"})
    assert response.status_code == 403
    assert connect(app.config["DATABASE"]).execute(
        "SELECT target FROM hands JOIN rounds ON rounds.id = hands.round_id"
        " WHERE rounds.status = 'entering' AND seat = 0").fetchone()[0] is None


def test_a_seat_moved_mid_round_stays_private_and_the_old_phone_is_told(app, table, table_of_phones):
    ann, ben, url = table_of_phones
    enter_secret_hand(ann, url)
    poll = poll_url(ann.get(url))
    assert "me=0" in poll
    new_phone = app.test_client()
    assert new_phone.post(table.game_url + "/seats/0", data={"force": "1"}).status_code == 200
    told = ann.get(poll, headers={"HX-Request": "true"})
    assert "Your seat was moved to another phone." in text(told)
    assert "9♥" not in text(told) and "Ann is entering this hand on their own phone." in text(told)
    mine = text(new_phone.get(url))
    assert "Ann’s target 9♥" in text_of(mine) and "9♥" in texts(mine, ".card.suit-H")  # private to the new phone
    for other in (ann, ben):
        assert "9♥" not in text(other.get(url + "/hands/0"))


def test_the_crew_page_follows_new_games(app, table):
    crew_url = table.start_crew()
    page = text(table.client.get(crew_url))
    poll = poll_url(page)
    assert table.client.get(poll).status_code == 204
    table.start_game()
    response = table.client.get(poll, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Ann · Ben · Cleo · Dan" in text(response)
