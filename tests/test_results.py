"""`seat_results` kept by store/results.py (no triggers): the known history gives the rows the
triggers' SQL gave, and each write that changes a game's outcome leaves the rows right."""
import re

from store import connect, players
from store.results import refresh_results, seat_rows
from support.known_history import player_ids, summary_of

# The SQL the triggers of m0004 ran (with who won read from the seats), kept here as the oracle.
TRIGGER_SQL = """
SELECT sums.game_id, sums.seat, seats.player_id, games.created, games.status,
    games.status = 'finished' AND seats.won, total, rounds, best_round, worst_round,
    target_triples, target_fours, bids_won, bids_diamonds, bids_hearts, bids_clubs, bids_spades,
    rank() OVER (PARTITION BY sums.game_id ORDER BY total DESC)
FROM (
    SELECT rounds.game_id, hands.seat, coalesce(sum(hands.score), 0) AS total, count(*) AS rounds,
        max(hands.score) AS best_round, min(hands.score) AS worst_round,
        coalesce(sum(hands.target_bonus = 3), 0) AS target_triples,
        coalesce(sum(hands.target_bonus = 4), 0) AS target_fours,
        coalesce(sum(rounds.bid_seat = hands.seat), 0) AS bids_won,
        coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'D'), 0) AS bids_diamonds,
        coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'H'), 0) AS bids_hearts,
        coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'C'), 0) AS bids_clubs,
        coalesce(sum(rounds.bid_seat = hands.seat AND rounds.bid_suit = 'S'), 0) AS bids_spades
    FROM rounds JOIN hands ON hands.round_id = rounds.id
    WHERE rounds.status = 'scored' GROUP BY rounds.game_id, hands.seat
) AS sums
JOIN seats ON seats.game_id = sums.game_id AND seats.seat = sums.seat
JOIN games ON games.id = sums.game_id
ORDER BY 1, 2
"""


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


def test_the_known_history_gives_the_rows_the_triggers_gave(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    assert stored(db) == db.execute(TRIGGER_SQL).fetchall()
    # Hand-worked: game 1 ends Ann 135, Ben 95, Dan 65, Cleo 25; Ann won it.
    assert totals(db, 1) == {"Ann": (135, "finished", 1, 1), "Ben": (95, "finished", 0, 2),
                             "Cleo": (25, "finished", 0, 4), "Dan": (65, "finished", 0, 3)}
    assert totals(db, 6)["Ann"][1:] == ("abandoned", 0, 1)


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
    post(client, round_url(crew_url, 7, 1) + "/restore")
    assert totals(db, 7)["Ann"] == (80, "playing", 0, 1)


def test_a_correction_updates_the_results(known):
    app, client, crew_url = known
    db = connect(app.config["DATABASE"])
    url = round_url(crew_url, 7, 1)
    post(client, url + "/correct")
    post(client, url + "/hands/0/counts/4", {"count": 0}, expect=200)  # Ann's 80 becomes nothing
    version = re.search(r'name="version" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)
    post(client, url + "/save", {"version": version})
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
        assert players.merge(1, fay, eve) == 2
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
