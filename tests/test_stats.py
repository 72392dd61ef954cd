"""Players' numbers on a small known history, every expected number worked out by hand.

The history itself, and how each number follows from the rule book, is in tests/support/known_history.py.
"""
import pytest

from support.html_text import described, labelled, linked_text, text_of, texts
from support.known_history import player_ids, summary_of
from support.rounds import BIG_COUNTS, BIG_TARGETS


def test_ann_by_hand(known):
    app, client, crew_url = known
    s = summary_of(app, "Ann")
    # Finished games 1, 3, 4, 5: won 1, 3 and 5; 135 + 120 - 15 + 120 = 360 in 3 + 2 + 2 + 1 rounds.
    assert (s["played"], s["won"], s["win_rate"]) == (4, 3, 0.75)
    assert (s["rounds"], s["points"], s["average_round"]) == (8, 360, 45.0)
    assert (s["best_round"], s["worst_round"], s["average_total"]) == (120, -15, 90.0)
    # Bids: game 1 round 1 (♠), game 3 rounds 1 (♠) and 2 (♥).
    assert s["bids_won"] == 3 and s["bid_rate"] == 3 / 8
    assert s["bids_by_suit"] == [("S", 2), ("C", 0), ("H", 1), ("D", 0)]
    # Three of the target: game 1 round 3, game 3 round 2; four: game 1 r1, game 3 r1, game 5 r1.
    assert (s["target_triples"], s["target_fours"]) == (2, 3)
    assert s["longest_streak"] == 2  # games 1 and 3, then a loss in game 4, then game 5


def test_ben_by_hand(known):
    app, client, crew_url = known
    s = summary_of(app, "Ben")
    # Games 1-5: 95 (2nd), 40 (3rd), 15 (2nd), 120 (won), 0 (2nd, level with Cleo and Dan).
    assert (s["played"], s["won"], s["win_rate"]) == (5, 1, 0.2)
    assert (s["rounds"], s["points"]) == (11, 270)
    assert s["average_round"] == pytest.approx(24.545, abs=1e-3)
    assert (s["best_round"], s["worst_round"], s["average_total"]) == (80, 0, 54.0)
    assert s["bids_by_suit"] == [("S", 2), ("C", 1), ("H", 0), ("D", 0)]
    assert (s["target_triples"], s["target_fours"], s["longest_streak"]) == (2, 2, 1)


def test_cleo_and_eve_by_hand(known):
    app, client, crew_url = known
    cleo = summary_of(app, "Cleo")
    # 25 + 95 + 0 + 40 + 0 = 160 in 11 rounds; never won; bids game 1 r2 (♥), game 2 r2 (♦).
    assert (cleo["played"], cleo["won"], cleo["points"], cleo["rounds"]) == (5, 0, 160, 11)
    assert (cleo["best_round"], cleo["worst_round"], cleo["longest_streak"]) == (80, -15, 0)
    assert cleo["bids_by_suit"] == [("S", 0), ("C", 0), ("H", 1), ("D", 1)]
    assert (cleo["target_triples"], cleo["target_fours"]) == (2, 1)
    eve = summary_of(app, "Eve")
    # Game 7 is still being played: only game 2 counts.
    assert (eve["played"], eve["won"], eve["points"], eve["rounds"], eve["average_round"]) == (1, 1, 120, 3, 40.0)
    assert (eve["bids_won"], eve["target_triples"], eve["target_fours"], eve["longest_streak"]) == (1, 1, 1, 1)


def test_longest_streak_follows_start_dates_not_ids(known):
    """Ann won games 1, 3 and 5 and lost game 4: a streak of 2 in id order. With game 4 started
    first, her wins are three in a row by date, and the streak is 3."""
    app, client, crew_url = known
    from store import connect

    db = connect(app.config["DATABASE"])
    from store.results import refresh_game_results

    db.execute("UPDATE games SET created = '2020-01-01T00:00:00+00:00' WHERE id = 4")
    refresh_game_results(db, 4)  # no app path moves a game's start: the results follow by hand
    db.conn.commit()
    assert summary_of(app, "Ann")["longest_streak"] == 3
    # Game 4 started last: the three wins still come first, in a row.
    db.execute("UPDATE games SET created = '2099-01-01T00:00:00+00:00' WHERE id = 4")
    db.conn.commit()
    assert summary_of(app, "Ann")["longest_streak"] == 3


def test_form_and_recent_games_by_hand(known):
    app, client, crew_url = known
    from store import stats

    with app.app_context():
        recent = stats.recent_games(player_ids(app)["Ann"])
    assert [(g["total"], g["place"], g["won"]) for g in recent] == [
        (135, 1, 1), (120, 1, 1), (-15, 4, 0), (120, 1, 1)]


def test_head_to_head_by_hand(known):
    app, client, crew_url = known
    from store import stats

    ids = player_ids(app)
    with app.app_context():
        duel = stats.head_to_head(ids["Ann"], ids["Ben"])
        back = stats.head_to_head(ids["Ben"], ids["Ann"])
    # Finished games with both: 1 (135-95), 3 (120-15), 4 (-15 vs 120), 5 (120-0).
    assert (duel["together"], duel["first_ahead"], duel["second_ahead"], duel["level"]) == (4, 3, 1, 0)
    assert (duel["first_won"], duel["second_won"]) == (3, 1)
    assert (duel["first_average"], duel["second_average"]) == (90.0, 57.5)
    assert (back["first_ahead"], back["second_ahead"]) == (1, 3)
    assert [g["game_id"] for g in duel["games"]] == [5, 4, 3, 1]


def test_head_to_head_counts_level_games(known):
    app, client, crew_url = known
    from store import stats

    ids = player_ids(app)
    with app.app_context():
        duel = stats.head_to_head(ids["Cleo"], ids["Dan"])
    # Games 1 (25 vs 65), 2 (95 vs 15), 3 (0 vs -15), 4 (40 vs 15), 5 (0 vs 0).
    assert (duel["together"], duel["first_ahead"], duel["second_ahead"], duel["level"]) == (5, 3, 1, 1)


def test_overview_counts_finished_games_only(known):
    app, client, crew_url = known
    from store import stats

    with app.app_context():
        rows = stats.overview(1)
    assert [(r["name"], r["played"], r["won"]) for r in rows] == [
        ("Ben", 5, 1), ("Cleo", 5, 0), ("Dan", 5, 0), ("Ann", 4, 3), ("Eve", 1, 1)]


# --- The same numbers on the pages ---------------------------------------------------------------

def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def stat(body, label):
    """The figure a <dt> label stands beside, as its words (None when the label is not shown)."""
    found = described(body, label)
    return found.split() if found is not None else None


def links_to(body, text, path_end):
    """Whether a link reads `text` and goes to a URL ending in `path_end`."""
    return any(shown == text and href.endswith(path_end) for shown, href in linked_text(body))


def test_player_page_shows_the_numbers(known):
    app, client, crew_url = known
    body = page(client, f"{crew_url}players/{player_ids(app)['Ann']}")
    assert stat(body, "Games played") == ["4"]
    assert stat(body, "Games won") == ["3", "75%"]
    assert stat(body, "Average round") == ["45"]  # 360 / 8: no needless ".0"
    assert stat(body, "Average finish") == ["90"]
    assert stat(body, "Best round") == ["120"]
    assert stat(body, "Worst round") == ["−15"]
    assert stat(body, "Longest winning streak") == ["2"]
    shown = text_of(body)
    assert "3 of 8 rounds (38%)" in shown
    assert "Spades 2" in shown and "Hearts 1" in shown
    assert "Three of the target (40): 2" in shown
    assert "Four of the target (80): 3" in shown
    # Form, newest first: game 5 won, game 4 fourth, games 3 and 1 won.
    assert texts(body, ".form-row a") == ["W", "4", "W", "W"]
    assert "Won 3 of the last 4." in shown
    # The best round links to game 5, round 1; the worst to game 4, round 1.
    assert links_to(body, "120", "/history/games/5#round-1") and links_to(body, "−15", "/history/games/4#round-1")


def test_head_to_head_page(known):
    app, client, crew_url = known
    ids = player_ids(app)
    body = page(client, f"{crew_url}players/{ids['Ann']}/vs/{ids['Ben']}")
    assert "4 finished games together." in body
    assert stat(body, "Ann finished higher") == ["3"]
    assert stat(body, "Ben finished higher") == ["1"]
    assert stat(body, "Level") == ["0"]
    assert stat(body, "Average finish") == ["90", "vs", "57.5"]
    ann = page(client, f"{crew_url}players/{ids['Ann']}")
    assert links_to(ann, "vs Ben", f'/players/{ids["Ann"]}/vs/{ids["Ben"]}')
    assert links_to(ann, "vs Eve", f'/players/{ids["Ann"]}/vs/{ids["Eve"]}')
    assert client.get(f"{crew_url}players/{ids['Ann']}/vs/{ids['Ann']}").status_code == 404


def test_players_page_lists_records(known):
    app, client, crew_url = known
    body = page(client, f"{crew_url}players")
    assert labelled(body, "li a", "Ann") == "3 won of 4 · 75%"
    assert labelled(body, "li a", "Eve") == "1 won of 1 · 100%"


def test_a_player_without_finished_games(client, table):
    table.start_game()
    body = page(client, table.crew_url + "players/1")
    assert "Ann has no finished game yet" in body


def test_a_correction_and_an_undo_move_the_stats(client, table):
    """The per-game results are kept in step with every change to the saved rounds."""

    table.start_game()
    first = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    last = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    body = page(client, table.crew_url + "players/1")
    assert stat(body, "Average finish") == ["320"]
    client.post(last + "/delete")  # undone: the game is playing again, out of the stats
    assert "Ann has no finished game yet" in page(client, table.crew_url + "players/1")
    assert client.post(last + "/bring-back").status_code == 303
    client.post(first + "/correct")
    client.post(first + "/hands/0/counts/K", data={"count": 3})  # three Kings: 20, not 40
    response = client.post(first + "/save", data=table.save_form(first))
    assert response.status_code == 303
    body = page(client, table.crew_url + "players/1")
    assert stat(body, "Average finish") == ["300"]
    assert stat(body, "Worst round") == ["140"]



def test_the_migration_works_out_history_for_rounds_saved_before_it(tmp_path):
    """A database from before the history: target bonuses and per-seat results are filled in."""
    from store import connect
    from store.migrations import migrations

    db = connect(tmp_path / "old.db")
    migrations.apply(db, stop_before="m0004_history")
    db.execute("INSERT INTO crews (id, name, token, created) VALUES (1, 'Old', 't', '2025-01-01T20:00:00+00:00')")
    for pid, name in enumerate(["Ann", "Ben", "Cleo", "Dan"], start=1):
        db.execute("INSERT INTO players (id, crew_id, name, created) VALUES (?, 1, ?, '2025-01-01')", [pid, name])
    db.execute("INSERT INTO games (id, crew_id, created, goal, first_dealer, status, winner_seats)"
               " VALUES (1, 1, '2025-01-01T20:00:00+00:00', 100, 0, 'finished', '0')")
    for seat in range(4):
        db.execute("INSERT INTO seats (game_id, seat, player_id) VALUES (1, ?, ?)", [seat, seat + 1])
    db.execute("INSERT INTO rounds (id, game_id, number, revision, status, mode, dealer, bid_seat, bid_number,"
               " bid_suit) VALUES (1, 1, 1, 1, 'scored', 'quick', 0, 1, 2, 'H')")
    for seat, (target, counts, score) in enumerate(
            [("4S", '{"4": 3, "K": 4}', 120), ("2S", '{"2": 2}', 40), ("AS", '{"A": 1}', 15), ("KS", "{}", 0)]):
        db.execute("INSERT INTO hands (round_id, seat, target, counts, score) VALUES (1, ?, ?, ?, ?)",
                   [seat, target, counts, score])
    db.conn.commit()
    migrations.apply(db)
    assert [row["target_bonus"] for row in db.query("SELECT target_bonus FROM hands ORDER BY seat")] == [4, 3, 0, 0]
    assert [(r["player_id"], r["won"], r["total"], r["place"], r["bids_won"], r["bids_hearts"], r["target_fours"])
            for r in db.query("SELECT * FROM seat_results ORDER BY seat")] == [
        (1, 1, 120, 1, 0, 0, 1), (2, 0, 40, 2, 1, 1, 0), (3, 0, 15, 3, 0, 0, 0), (4, 0, 0, 4, 0, 0, 0)]

