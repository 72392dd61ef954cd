"""Export as CSV and JSON, and restore: a crew exported, restored and exported again is the same."""
import csv
import io
import json
import re
import shutil

import pytest

from store import connect
from support.apps import make_app
from support.exports import export_of, restore
from support.html_text import attribute, field_value, links, select, text, texts, save_fields
from support.rounds import exact_round

CSV_HEADER = [
    "game_id", "game_date", "game_started", "goal", "game_status", "round", "player", "seat",
    "dealer", "bid_winner", "bid", "trump", "target", "mode", "won_cards_or_counts",
    "target_bonus", "score", "running_total", "winner",
]


def csv_of(response):
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))


def test_the_crew_csv_has_a_row_per_player_per_round(known):
    app, client, crew_url = known
    response = client.get(crew_url + "history/export.csv")
    assert response.headers["Content-Disposition"] == 'attachment; filename="orchard-known-crew-history.csv"'
    rows = csv_of(response)
    assert rows[0] == CSV_HEADER
    # Saved rounds: 3 + 3 + 2 + 2 + 1 + 1 + 1, four players each.
    assert len(rows) - 1 == 13 * 4
    record = [dict(zip(CSV_HEADER, row)) for row in rows[1:]]
    first = record[0]
    assert {k: first[k] for k in CSV_HEADER if k not in ("game_date", "game_started")} == {
        "game_id": "1", "goal": "100", "game_status": "finished", "round": "1", "player": "Ann",
        "seat": "1", "dealer": "Ann", "bid_winner": "Ann", "bid": "2", "trump": "Spades", "target": "4S",
        "mode": "quick", "won_cards_or_counts": "4 4 4", "target_bonus": "4", "score": "80",
        "running_total": "80", "winner": "yes",
    }
    last_of_game_1 = [r for r in record if r["game_id"] == "1" and r["round"] == "3"]
    assert [(r["player"], r["dealer"], r["bid_winner"], r["trump"], r["score"], r["running_total"], r["winner"])
            for r in last_of_game_1] == [
        ("Ann", "Cleo", "Dan", "Clubs", "40", "135", "yes"),
        ("Ben", "Cleo", "Dan", "Clubs", "80", "95", "no"),
        ("Cleo", "Cleo", "Dan", "Clubs", "-15", "25", "no"),
        ("Dan", "Cleo", "Dan", "Clubs", "0", "65", "no"),
    ]
    assert {r["winner"] for r in record if r["game_id"] in ("6", "7")} == {"no"}


def test_one_game_as_csv(known):
    app, client, crew_url = known
    rows = csv_of(client.get(crew_url + "games/2/export.csv"))
    assert rows[0] == CSV_HEADER
    assert {row[0] for row in rows[1:]} == {"2"} and len(rows) == 1 + 3 * 4
    assert [row[6] for row in rows[1:5]] == ["Ben", "Cleo", "Dan", "Eve"]


def test_an_exact_round_lists_its_cards(client, table):

    table.start_game()
    url = table.start_round()
    exact_round(client, url)
    client.post(url + "/save", data=table.save_form(url))
    rows = csv_of(client.get(table.game_url + "/export.csv"))
    ann = dict(zip(CSV_HEADER, rows[1]))
    assert ann["mode"] == "exact" and ann["target"] == "10S" and ann["score"] == "25"
    assert ann["won_cards_or_counts"] == "3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"


# --- JSON and restore --------------------------------------------------------------------------

def history_with_everything(client, crew_url):
    """The known history plus a correction, an undone round, a discarded correction and notes."""
    game = crew_url + "games/7"
    round_1 = game + "/rounds/1"
    client.post(round_1 + "/correct")
    client.post(round_1 + "/hands/1/counts/A", data={"count": 1})
    client.post(round_1 + "/hands/1/target", data={"target": "AH"})
    assert client.post(round_1 + "/save", data=save_fields(client.get(round_1))).status_code == 303
    client.post(round_1 + "/correct")
    client.post(round_1 + "/discard")
    round_2 = client.post(game + "/rounds").headers["Location"]
    client.post(round_2 + "/bid", data={"bidder": "2", "number": "1", "suit": "C"})
    for seat, target in enumerate(["2H", "3H", "5H", "6H"]):
        client.post(round_2 + f"/hands/{seat}/target", data={"target": target})
    assert client.post(round_2 + "/save", data=save_fields(client.get(round_2))).status_code == 303
    client.post(round_2 + "/delete")
    client.post(crew_url + "history/games/7/note", data={"text": "Eve’s first time"})
    client.post(crew_url + "history/nights/1/note", data={"text": "at Dana’s"})
    client.post(crew_url + "games/5/rematch")


def test_export_restore_export_is_identical(known):
    app, client, crew_url = known
    history_with_everything(client, crew_url)
    first = export_of(client, crew_url)
    response = restore(client, first)
    assert response.status_code == 303
    new_url = response.headers["Location"].removesuffix("history")
    assert new_url != crew_url
    again = export_of(client, new_url)
    assert again == first
    # The restored crew is a crew like any other: its pages show the same numbers.
    db = connect(app.config["DATABASE"])
    ann = {row["crew_id"]: row["id"] for row in db.query("SELECT id, crew_id FROM players WHERE name = 'Ann'")}
    assert len(ann) == 2
    old, new = (client.get(f"{url}players/{ann[crew]}").get_data(as_text=True)
                for url, crew in ((crew_url, 1), (new_url, 2)))
    numbers = lambda page: texts(page, "dd")  # noqa: E731
    assert numbers(old) == numbers(new) and len(numbers(old)) == 8


def test_an_older_export_with_a_discarded_correction_still_restores_whole(known):
    """Before discarded corrections were deleted they were kept as a revision of their own."""
    app, client, crew_url = known
    history_with_everything(client, crew_url)
    data = export_of(client, crew_url)
    game_7 = next(game for game in data["games"] if game["number"] == 7)
    kept = json.loads(json.dumps(game_7["rounds"][1]))
    kept.update(revision=3, status="discarded", changes=[])
    game_7["rounds"].insert(2, kept)
    response = restore(client, data)
    assert response.status_code == 303
    again = export_of(client, response.headers["Location"].removesuffix("history"))
    assert again == data


def test_an_export_from_before_the_rules_were_one_value_restores_its_rules(known):
    """Files written before m0020 carry the crew's rules as keys beside its name; a rule a file
    leaves out (one added after it was written) is the rule book's."""
    app, client, crew_url = known
    history_with_everything(client, crew_url)
    data = export_of(client, crew_url)
    data["crew"].pop("rules")
    data["crew"].update(goal=300, tie_rule="shared", min_bid=2, redeal_moves_deal=True)
    del data["games"][0]["rules"]["redeal_moves_deal"]
    response = restore(client, data)
    assert response.status_code == 303
    again = export_of(client, response.headers["Location"].removesuffix("history"))
    assert again["crew"]["rules"] == {"goal": 300, "tie_rule": "shared", "min_bid": 2, "redeal_moves_deal": True}
    assert again["games"][0]["rules"]["redeal_moves_deal"] is False
    form = text(client.get(response.headers["Location"].removesuffix("history") + "games/new"))
    assert (field_value(form, "goal_other"), field_value(form, "min_bid"), field_value(form, "tie_rule")) == (
        "300", "2", "shared")


def test_the_export_holds_every_revision_and_no_link(known):
    app, client, crew_url = known
    history_with_everything(client, crew_url)
    data = export_of(client, crew_url)
    token = crew_url.strip("/").split("/")[-1]
    assert token not in json.dumps(data)
    game_7 = next(game for game in data["games"] if game["number"] == 7)
    # The discarded correction is gone whole (it never counted); the saved revision says it was.
    assert [(r["number"], r["revision"], r["status"]) for r in game_7["rounds"]] == [
        (1, 1, "replaced"), (1, 2, "scored"), (2, 1, "deleted")]
    assert game_7["note"] == "Eve’s first time"
    assert data["games"][0]["night_note"] == "at Dana’s"
    assert data["games"][-1]["rematch_of"] == 5
    assert [change["action"] for change in game_7["rounds"][1]["changes"]] == [
        "correction started", "corrected", "correction discarded"]
    assert game_7["rounds"][1]["hands"][1] == {
        "seat": 1, "mode": "quick", "target": "AH", "won": [], "counts": {"A": 1}, "score": 15, "target_bonus": 0,
        "entered_by": game_7["rounds"][1]["hands"][1]["entered_by"], "done": None}


def test_one_game_as_json_restores_as_a_crew_of_one_game(known):
    app, client, crew_url = known
    data = export_of(client, crew_url, 2)
    assert [game["number"] for game in data["games"]] == [2]
    assert [player["name"] for player in data["players"]] == ["Ben", "Cleo", "Dan", "Eve"]
    response = restore(client, data)
    assert response.status_code == 303
    data["games"][0]["number"] = 1  # the first game of its new crew
    assert export_of(client, response.headers["Location"].removesuffix("history")) == data


def test_restore_into_another_server(known, tmp_path):
    app, client, crew_url = known
    data = export_of(client, crew_url)
    other = make_app(tmp_path / "other.db").test_client()
    response = restore(other, data)
    assert response.status_code == 303
    assert export_of(other, response.headers["Location"].removesuffix("history")) == data


def test_restore_recomputes_the_caches(known):
    """Scores, target bonuses and winners in the file are caches: the engine's word counts."""
    app, client, crew_url = known
    data = export_of(client, crew_url)
    data["games"][0]["rounds"][0]["hands"][0]["score"] = 999
    data["games"][0]["rounds"][0]["hands"][0]["target_bonus"] = 0
    data["games"][0]["winner_seats"] = [3]
    response = restore(client, data)
    assert response.status_code == 303
    assert export_of(client, response.headers["Location"].removesuffix("history")) == export_of(client, crew_url)


def test_restore_without_a_file_says_so(client):
    response = client.post("/restore", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Pick the .json file to restore." in response.get_data(as_text=True)


def test_restore_asks_for_the_servers_passphrase(known_template, tmp_path):
    template, crew_url = known_template
    shutil.copy(template, tmp_path / "orchard.db")
    app = make_app(tmp_path / "orchard.db", PASSPHRASE="apples")
    client = app.test_client()
    data = export_of(client, crew_url)
    assert restore(client, data, passphrase="pears").status_code == 403
    assert restore(client, data, passphrase="apples").status_code == 303


def test_the_restore_page_has_the_upload_form(client):
    body = client.get("/restore").get_data(as_text=True)
    assert attribute(body, "#restore-form", "enctype") == "multipart/form-data"
    assert select(body, '#restore-form input[type="file"][name="file"]')


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "-inf", "@SUM(A1)"])
def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text(known, name):
    app, client, crew_url = known
    player_url = next(href for href in links(client.get(crew_url + "players")) if re.search(r"/players/\d+$", href))
    assert client.post(player_url + "/rename", data={"name": name}).status_code in (200, 303)
    rows = csv_of(client.get(crew_url + "games/1/export.csv"))
    cells = [cell for row in rows for cell in row]
    formula_starts = ("=", "+", "-", "@", "\t", "\r")
    assert not [c for c in cells if c.startswith(formula_starts) and not re.fullmatch(r"-\d+", c)]
    assert "'" + name in cells


def test_negative_scores_stay_numbers_in_the_csv(known):
    app, client, crew_url = known
    rows = csv_of(client.get(crew_url + "games/1/export.csv"))
    assert "-15" in [dict(zip(CSV_HEADER, row))["score"] for row in rows[1:]]


def test_a_card_in_two_piles_is_refused(client, table):
    """A saved exact round whose file puts the same card in two piles fails the round check that
    live entry runs before a save, with the engine's sentence."""

    table.start_game()
    url = table.start_round()
    exact_round(client, url)
    assert client.post(url + "/save", data=table.save_form(url)).status_code == 303
    data = json.loads(client.get(table.game_url + "/export.json").get_data(as_text=True))
    hands = data["games"][0]["rounds"][0]["hands"]
    hands[0]["won"][hands[0]["won"].index("3C")] = hands[1]["won"][0]  # QD, also in Ben's pile
    response = restore(client, data)
    assert response.status_code == 422
    assert "Game 1, round 1 cannot be saved as it is: Q♦ is in Ann&#39;s and Ben&#39;s piles." in \
        response.get_data(as_text=True)


# --- A restore in steps -------------------------------------------------------------------------

def crews_and_games(app):
    db = connect(app.config["DATABASE"])
    return [next(db.query(f"SELECT count(*) AS n FROM {table}"))["n"] for table in ("crews", "games", "rounds")]


def test_a_restore_cut_off_half_way_leaves_nothing(known, monkeypatch):
    """A restore writes a few games per transaction; when it fails after some of them are in,
    the games written so far are removed and no crew appears."""
    from services import transfer
    from store import restore as crew_restore

    app, client, crew_url = known
    data = export_of(client, crew_url)
    before = crews_and_games(app)
    monkeypatch.setattr(crew_restore, "GAMES_PER_WRITE", 2)
    written = []
    insert_games = crew_restore._insert_games

    def fail_on_the_third_step(*args):
        if len(written) == 2:
            raise OSError("disk full")
        written.append(insert_games(*args))

    monkeypatch.setattr(crew_restore, "_insert_games", fail_on_the_third_step)
    with app.app_context(), pytest.raises(OSError):
        transfer.restore(data)
    assert len(written) == 2
    assert crews_and_games(app) == before


def test_what_a_dead_restore_left_is_invisible_and_removed_by_a_later_restore(known, monkeypatch):
    """A process that dies in the middle of a restore cannot clean up: the half crew has no link,
    so no page shows it, and the next restore, an hour later or more, deletes it."""
    from services import transfer
    from store import restore as crew_restore

    app, client, crew_url = known
    data = export_of(client, crew_url)
    before = crews_and_games(app)
    monkeypatch.setattr(crew_restore, "GAMES_PER_WRITE", 2)
    monkeypatch.setattr(transfer, "_remove_marked", lambda db, marker: None)  # as if killed
    insert_games = crew_restore._insert_games
    steps = []

    def die_on_the_third_step(*args):
        steps.append(1)
        if len(steps) == 3:
            raise SystemExit("killed")
        insert_games(*args)

    monkeypatch.setattr(crew_restore, "_insert_games", die_on_the_third_step)
    with app.app_context(), pytest.raises(SystemExit):
        transfer.restore(data)
    db = connect(app.config["DATABASE"])
    left = next(db.query("SELECT id, token_hash FROM crews ORDER BY id DESC LIMIT 1"))
    assert crews_and_games(app)[1] == before[1] + 4  # two steps of two games are in
    # Nothing finds it: a crew is found by its link's hash, and this crew has no link yet.
    assert len(left["token_hash"]) != 64
    monkeypatch.undo()
    with app.app_context():
        transfer.restore(export_of(client, crew_url))  # too soon: the other restore may be running
    assert crews_and_games(app)[0] == before[0] + 2
    db.execute("UPDATE crews SET token_hash = 'restoring 2020-01-01T00:00:00+00:00 x' WHERE id = ?", [left["id"]])
    db.conn.commit()
    response = restore(client, data)
    assert response.status_code == 303
    assert crews_and_games(app)[0] == before[0] + 2  # the leftover gone, the new crew in
    assert not list(db.query("SELECT 1 FROM games WHERE crew_id = ?", [left["id"]]))
    assert not list(db.query("SELECT 1 FROM players WHERE crew_id = ?", [left["id"]]))
    assert export_of(client, response.headers["Location"].removesuffix("history")) == data


def test_restored_games_have_the_same_results_as_the_originals(known):
    """Each restored game's per-player results (what the stats pages read) are worked out once
    when the game is in, and match the original crew's."""
    app, client, crew_url = known
    history_with_everything(client, crew_url)
    assert restore(client, export_of(client, crew_url)).status_code == 303
    db = connect(app.config["DATABASE"])
    results = [
        list(db.query(
            "SELECT games.created, seat_results.seat, total, rounds, best_round, worst_round, target_triples,"
            " target_fours, bids_won, won, place, seat_results.status FROM seat_results"
            " JOIN games ON games.id = seat_results.game_id WHERE games.crew_id = ?"
            " ORDER BY games.created, games.id, seat_results.seat", [crew_id]))
        for crew_id in (1, 2)
    ]
    assert results[0] == results[1] and len(results[0]) > 20
