"""`seat_results` kept by store/results.py (no triggers): the known history gives the rows the
triggers' SQL gave, and each write that changes a game's outcome leaves the rows right."""

from services import players as player_service
from services.refusals import Refused
from store import connect
from store.results import refresh_results, seat_rows
from support.html_text import save_fields
from support.known_history import player_ids, summary_of

# Each known game's results, worked out by hand (tests/support/known_history.py): player ->
# (total, status, won, place).
F, A, P = "finished", "abandoned", "playing"
KNOWN_RESULTS = {
    1: {"Ann": (135, F, 1, 1), "Ben": (95, F, 0, 2), "Dan": (65, F, 0, 3), "Cleo": (25, F, 0, 4)},
    2: {"Eve": (120, F, 1, 1), "Cleo": (95, F, 0, 2), "Ben": (40, F, 0, 3), "Dan": (15, F, 0, 4)},
    3: {"Ann": (120, F, 1, 1), "Ben": (15, F, 0, 2), "Cleo": (0, F, 0, 3), "Dan": (-15, F, 0, 4)},
    4: {"Ben": (120, F, 1, 1), "Cleo": (40, F, 0, 2), "Dan": (15, F, 0, 3), "Ann": (-15, F, 0, 4)},
    5: {"Ann": (120, F, 1, 1), "Ben": (0, F, 0, 2), "Cleo": (0, F, 0, 2), "Dan": (0, F, 0, 2)},
    6: {"Ann": (0, A, 0, 1), "Ben": (0, A, 0, 1), "Cleo": (0, A, 0, 1), "Dan": (0, A, 0, 1)},
    7: {"Ann": (80, P, 0, 1), "Ben": (0, P, 0, 2), "Cleo": (0, P, 0, 2), "Eve": (0, P, 0, 2)},
}


def stored(db):
    return db.execute("SELECT * FROM seat_results ORDER BY game_id, seat").fetchall()


def totals(db, game_id):
    return {row[0]: row[1:] for row in db.execute(
        "SELECT players.name, total, status, won, place FROM seat_results"
        " JOIN players ON players.id = seat_results.player_id WHERE game_id = ?", [game_id])}


def post(client, url, data=None, expect=303):
    response = client.post(url, data=data or {})
    assert response.status_code == expect, (url, response.get_data(as_text=True)[:300])
    return response


def test_the_known_history_gives_the_hand_worked_results(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    assert {game_id: totals(db, game_id) for game_id in KNOWN_RESULTS} == KNOWN_RESULTS
    # Game 1, Ann: rounds of 80, 15 and 40; a four and a three of her target; won the 2♠ bid.
    assert db.execute(
        "SELECT rounds, best_round, worst_round, target_triples, target_fours, bids_won, bids_spades, bids_hearts"
        " FROM seat_results WHERE game_id = 1 AND seat = 0").fetchone() == (3, 80, 15, 1, 1, 1, 1, 0)


def test_working_everything_out_again_changes_no_stat(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    before = stored(db)
    summaries = {name: summary_of(app, name) for name in player_ids(app)}
    db.execute("DELETE FROM seat_results")
    refresh_results(db, [row[0] for row in db.execute("SELECT id FROM games")])
    db.conn.commit()
    assert stored(db) == before
    assert {name: summary_of(app, name) for name in player_ids(app)} == summaries


def test_equal_totals_share_a_place_and_only_a_finished_winner_won():
    rounds = [(0, "S", {0: (40, 3), 1: (40, 0), 2: (-15, 0), 3: (80, 4)})]
    seats = {seat: (10 + seat, seat == 3) for seat in range(4)}
    finished = seat_rows(7, "2025-01-01", "finished", seats, rounds)
    assert [(row[1], row[5], row[6], row[-1]) for row in finished] == [(0, 0, 40, 2), (1, 0, 40, 2),
                                                                        (2, 0, -15, 4), (3, 1, 80, 1)]
    assert finished[0][8:17] == (40, 40, 1, 0, 1, 0, 0, 0, 1)  # best, worst, bonuses, bids (D H C S)
    assert [row[5] for row in seat_rows(7, "2025-01-01", "playing", seats, rounds)] == [0, 0, 0, 0]
    assert seat_rows(7, "2025-01-01", "playing", seats, []) == []


def round_url(crew_url, game_id, number):
    return f"{crew_url}games/{game_id}/rounds/{number}"


def test_undo_and_bring_back_update_the_results(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    assert totals(db, 7)["Ann"][0] == 80
    post(client, round_url(crew_url, 7, 1) + "/delete")
    assert totals(db, 7) == {}
    post(client, round_url(crew_url, 7, 1) + "/bring-back")
    assert totals(db, 7)["Ann"] == (80, "playing", 0, 1)


def test_a_correction_updates_the_results(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    url = round_url(crew_url, 7, 1)
    post(client, url + "/correct")
    post(client, url + "/hands/0/counts/4", {"count": 0}, expect=200)  # Ann's 80 becomes nothing
    post(client, url + "/save", save_fields(client.get(url).get_data(as_text=True)))
    assert totals(db, 7)["Ann"] == (0, "playing", 0, 1)


def test_abandon_and_resume_update_the_results(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    post(client, f"{crew_url}history/games/7/abandon")
    assert {row[1] for row in totals(db, 7).values()} == {"abandoned"}
    post(client, f"{crew_url}history/games/7/resume")
    assert {row[1] for row in totals(db, 7).values()} == {"playing"}


def test_a_merge_moves_the_results_and_the_ratings_follow(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    assert client.get(f"{crew_url}ladder").status_code == 200  # builds the ratings
    assert db.execute("SELECT count(*) FROM rating_state").fetchone()[0] == 1
    eve = player_ids(app)["Eve"]
    fay = db.execute("INSERT INTO players (crew_id, name, created) VALUES (1, 'Fay', '2025-01-01')").lastrowid
    db.conn.commit()
    with app.app_context():
        assert player_service.merge(1, fay, eve).games == 2
    assert totals(db, 2)["Fay"] == (120, "finished", 1, 1)
    assert "Eve" not in totals(db, 7) and totals(db, 7)["Fay"][0] == 0
    assert db.execute("SELECT count(*) FROM rating_state").fetchone()[0] == 0  # stale: rebuilt on read


def test_the_schema_refuses_a_status_or_mode_the_app_does_not_know(known):
    import sqlite3

    import pytest

    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    for sql in ("UPDATE games SET status = 'restoring' WHERE id = 1",
                "UPDATE rounds SET status = 'gone' WHERE id = 1",
                "UPDATE rounds SET mode = 'fast' WHERE id = 1",
                "UPDATE hands SET mode = 'fast' WHERE round_id = 1"):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            db.execute(sql)


def test_m0009_keeps_what_the_triggers_worked_out_and_moves_the_winners_to_the_seats(tmp_path):
    """A database as the triggers left it: after m0009 the triggers are gone, each game's results
    are what they were, and who won is a flag on each seat."""
    from store.migrations import migrations

    db = connect(tmp_path / "old.db")
    migrations.apply(db, stop_before="m0009_results_in_python")
    stamp = "2025-01-01T20:00:00+00:00"
    db["crews"].insert({"id": 1, "name": "Old", "token_hash": "h", "created": stamp})
    db["players"].insert_all({"id": n, "crew_id": 1, "name": name, "created": stamp}
                             for n, name in enumerate(["Ann", "Ben", "Cleo", "Dan"], start=1))
    db["games"].insert({"id": 1, "crew_id": 1, "created": stamp, "goal": 100, "first_dealer": 0, "status": "playing"})
    db["seats"].insert_all({"game_id": 1, "seat": n, "player_id": n + 1} for n in range(4))
    db["rounds"].insert({"id": 1, "game_id": 1, "number": 1, "revision": 1, "status": "entering", "mode": "quick",
                         "dealer": 0, "bid_seat": 1, "bid_number": 2, "bid_suit": "H"})
    db["hands"].insert_all({"round_id": 1, "seat": n, "target": "4S", "score": score, "target_bonus": bonus}
                           for n, (score, bonus) in enumerate([(120, 4), (40, 3), (15, 0), (0, 0)]))
    db.execute("UPDATE rounds SET status = 'scored' WHERE id = 1")  # the triggers work the game out
    db.execute("UPDATE games SET status = 'finished', winner_seats = '0,2' WHERE id = 1")
    db.conn.commit()
    before = stored(db)
    assert [row[5] for row in before] == [1, 0, 1, 0]
    migrations.apply(db)
    assert stored(db) == before
    assert db.execute("SELECT seat FROM seats WHERE won ORDER BY seat").fetchall() == [(0,), (2,)]
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'").fetchone() == (0,)
    assert "winner_seats" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}


def test_a_file_refused_at_its_last_game_leaves_nothing_of_the_games_copied_before(known, monkeypatch):
    """The server copies games in while the child process is still checking later ones: a file
    whose last game is wrong is refused whole, and the games already copied are removed."""
    import json

    import pytest

    from services import transfer
    from store import restore as crew_restore

    app, client, crew_url = known
    data = json.loads(client.get(crew_url + "history/export.json").get_data(as_text=True))
    data["games"][-1]["rounds"][0]["hands"][0]["counts"] = {"4": 4}  # the engine refuses it
    db = connect(app.config["DATABASE"])
    before = db.execute("SELECT (SELECT count(*) FROM crews), (SELECT count(*) FROM games),"
                        " (SELECT count(*) FROM seat_results)").fetchone()
    monkeypatch.setattr(crew_restore, "GAMES_PER_WRITE", 2)
    copied = []
    insert_games = crew_restore._insert_games
    monkeypatch.setattr(crew_restore, "_insert_games", lambda db, span: copied.append(insert_games(db, span)))
    with app.app_context(), pytest.raises(Refused, match="Game 7, round 1"):
        transfer.restore(data)
    assert len(copied) == 3  # games 1 to 6 were in before the child reached game 7
    assert db.execute("SELECT (SELECT count(*) FROM crews), (SELECT count(*) FROM games),"
                      " (SELECT count(*) FROM seat_results)").fetchone() == before
