"""A database from the first release opens in today's app with every game, round and score intact.

The old database is built with only m0001 (the first released schema) and filled the way that
release wrote rows: JSON rank counts for quick hands, space-separated cards for exact hands, a
cached score per hand, corrections as replaced revisions, undone rounds kept as 'deleted'.
"""
import hashlib
import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from scoring import entered_hand, score_hand
from app import create_app
from scoring import HouseRules, format_points, game_result
from store import connect
from store.migrations import migrations
from test_rounds import BIG_COUNTS, BIG_TARGETS

STAMP = "2024-03-01T19:30:00+00:00"
# A real 52-card deal in exact entry (the rule book's first example): Ann 25, Ben 115, Cleo −25, Dan 115.
EXACT_DEAL = [
    ("10S", "3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"),
    ("QH", "QD QC KD KH KC KS AC AS 10D 10H 10C JS"),
    ("2C", "2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S"),
    ("7D", "6D 6H 6C 7H 7C 7S 8D 8H 8C 8S 9H 9S"),
]
# m0001's columns: after the upgrade each of these must read back exactly as it was written
# (all but crews.token, which m0005 replaces with its hash).
FIRST_SCHEMA = {
    "crews": "id, name, created",
    "players": "id, crew_id, name, created",
    "games": "id, crew_id, created, finished, goal, first_dealer, status, rematch_of",
    "seats": "game_id, seat, player_id",
    "rounds": "id, game_id, number, revision, status, mode, dealer, redeals, bid_seat, bid_number,"
              " bid_suit, version, created, updated",
    "hands": "round_id, seat, target, won, counts, score",
    "round_changes": "id, round_id, at, action, detail",
}


def quick(targets, counts):
    return [{"target": t, "won": [], "counts": c} for t, c in zip(targets, counts)]


def exact(deal):
    return [{"target": t, "won": cards.split(), "counts": {}} for t, cards in deal]


class FirstRelease:
    """Writes rows as the first release did, scoring hands with the engine as it did."""

    def __init__(self, db):
        self.db = db

    def crew(self, name, token, players):
        crew_id = self.db.execute("INSERT INTO crews (name, token, created) VALUES (?, ?, ?)",
                                  [name, token, STAMP]).lastrowid
        ids = [self.db.execute("INSERT INTO players (crew_id, name, created) VALUES (?, ?, ?)",
                               [crew_id, player, STAMP]).lastrowid for player in players]
        return crew_id, ids

    def game(self, crew_id, player_ids, goal, first_dealer, rematch_of=None):
        game_id = self.db.execute(
            "INSERT INTO games (crew_id, created, goal, first_dealer, status, rematch_of)"
            " VALUES (?, ?, ?, ?, 'playing', ?)", [crew_id, STAMP, goal, first_dealer, rematch_of]).lastrowid
        for seat, player_id in enumerate(player_ids):
            self.db.execute("INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                            [game_id, seat, player_id])
        return game_id

    def round(self, game_id, number, mode, hands, status="scored", revision=1, redeals=0, bid=(1, 2, "S"),
              actions=("started", "saved")):
        dealer = number % 4
        round_id = self.db.execute(
            "INSERT INTO rounds (game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
            " bid_number, bid_suit, version, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [game_id, number, revision, status, mode, dealer, redeals, *bid, 7, STAMP, STAMP]).lastrowid
        for seat, hand in enumerate(hands):
            complete = hand["target"] and status != "entering"
            score = score_hand(entered_hand(mode, hand["target"], hand["won"], hand["counts"])).total if complete else None
            self.db.execute(
                "INSERT INTO hands (round_id, seat, target, won, counts, score) VALUES (?, ?, ?, ?, ?, ?)",
                [round_id, seat, hand["target"], " ".join(hand["won"]) if mode == "exact" else None,
                 json.dumps(hand["counts"]) if mode == "quick" and hand["counts"] else None, score])
        for action in actions:
            self.db.execute("INSERT INTO round_changes (round_id, at, action, detail) VALUES (?, ?, ?, ?)",
                            [round_id, STAMP, action, ""])
        return round_id

    def verdict(self, game_id):
        """Cache the engine's verdict on the game, as the first release did after each save."""
        game = next(self.db.query("SELECT goal FROM games WHERE id = ?", [game_id]))
        scores = [[s for (s,) in self.db.execute("SELECT score FROM hands WHERE round_id = ? ORDER BY seat", [rid])]
                  for (rid,) in self.db.execute(
                      "SELECT id FROM rounds WHERE game_id = ? AND status = 'scored' ORDER BY number", [game_id])]
        result = game_result(scores, HouseRules(goal=game["goal"]))
        if result.over:
            self.db.execute("UPDATE games SET status = 'finished', winner_seats = ?, finished = ? WHERE id = ?",
                            [",".join(map(str, result.winners)), STAMP, game_id])
        return scores


@pytest.fixture
def old_database(tmp_path):
    """A first-release database: two crews, a finished game, a rematch in play, and more."""
    path = tmp_path / "orchard.db"
    db = connect(path)
    migrations.apply(db, stop_before="m0002_house_rules")
    assert [m.name for m in migrations.applied(db)] == ["m0001_create_tables"]
    old = FirstRelease(db)
    crew, (ann, ben, cleo, dan, eve) = old.crew("Thursday crew", "t" * 43, ["Ann", "Ben", "Cleo", "Dan", "Eve"])
    other, others = old.crew("Other crew", "o" * 43, ["Ann", "Zed", "Yan", "Xia"])

    # Game 1, finished: quick, exact (corrected once), quick again; Ben's four 2s end it.
    first = old.game(crew, [ann, ben, cleo, dan], goal=250, first_dealer=0)
    old.round(first, 1, "quick", quick(BIG_TARGETS, BIG_COUNTS), redeals=1)
    wrong = [dict(hand) for hand in exact(EXACT_DEAL)]
    wrong[0], wrong[3] = {**wrong[0], "target": "7D"}, {**wrong[3], "target": "10S"}
    old.round(first, 2, "exact", wrong, status="replaced", actions=("started", "saved"))
    old.round(first, 2, "exact", exact(EXACT_DEAL), revision=2, actions=("correction started", "corrected"))
    old.round(first, 3, "quick", quick(["4H", "2H", "3H", "5H"], [{}, {"2": 3, "A": 2}, {}, {}]))
    # Game 2, a rematch in play: one round counted, round 2 undone, then entered again (open).
    second = old.game(crew, [ben, cleo, dan, eve], goal=500, first_dealer=1, rematch_of=first)
    old.round(second, 1, "quick", quick(["KS", "QS", "JS", "10S"], [{"K": 3}, {"A": 2}, {}, {"5": 2}]))
    old.round(second, 2, "quick", quick(BIG_TARGETS, BIG_COUNTS), status="deleted",
              actions=("started", "saved", "undone"))
    old.round(second, 2, "quick", quick(["9C", None, None, None], [{"9": 1}, {}, {}, {}]), status="entering",
              revision=2, bid=(None, None, None), actions=("started",))
    # Another crew's game with a player name that is also in the first crew.
    third = old.game(other, others, goal=250, first_dealer=3)
    old.round(third, 1, "exact", exact(EXACT_DEAL), bid=(3, 4, "H"))
    scores = {game: old.verdict(game) for game in (first, second, third)}
    db.conn.commit()
    rows = _first_schema_rows(path)
    db.close()
    return path, {"crew": "t" * 43, "other": "o" * 43, "games": (first, second, third), "scores": scores,
                  "rows": rows}


def _first_schema_rows(path):
    with closing(sqlite3.connect(path)) as conn:
        return {table: conn.execute(f"SELECT {columns} FROM {table} ORDER BY 1, 2").fetchall()
                for table, columns in FIRST_SCHEMA.items()}


@pytest.fixture
def upgraded(old_database):
    path, old = old_database
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "upgrade", "WTF_CSRF_ENABLED": False})
    return app, app.test_client(), old


def totals_on(board):
    cards = re.search(r'<ol class="totals">(.*?)</ol>', board, re.S).group(1)
    return re.findall(r'<span class="total">([^<]+)</span>', cards)


def round_cells(board):
    """The scoreboard's rounds table: each row's four scores, as shown."""
    rows = re.findall(r"<tr>(.*?)</tr>", re.search(r'<table class="rounds">(.*?)</table>', board, re.S).group(1), re.S)
    return [re.findall(r'#hand-\d">([^<]+)</a>', row) for row in rows if "#hand-" in row]


def shown(points):
    return [format_points(p) for p in points]


def test_every_migration_applies_to_a_first_release_database(upgraded):
    app, client, old = upgraded
    db = connect(app.config["DATABASE"])
    applied = [m.name for m in migrations.applied(db)]
    assert applied[0] == "m0001_create_tables" and len(applied) >= 3
    assert migrations.pending(db) == []
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


def test_every_first_release_row_reads_back_unchanged(upgraded):
    app, client, old = upgraded
    assert _first_schema_rows(app.config["DATABASE"]) == old["rows"]


def test_old_crew_links_still_open_and_the_file_keeps_only_their_hashes(upgraded):
    app, client, old = upgraded
    assert client.get(f"/c/{old['crew']}/").status_code == 200
    assert client.get(f"/c/{old['other']}/").status_code == 200
    with closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(crews)")]
        hashes = {row[0] for row in conn.execute("SELECT token_hash FROM crews")}
    assert "token" not in columns
    assert hashes == {hashlib.sha256(token.encode()).hexdigest() for token in (old["crew"], old["other"])}
    files = [Path(app.config["DATABASE"] + suffix) for suffix in ("", "-wal")]
    assert not [f for f in files if f.exists() and old["crew"].encode() in f.read_bytes()]


def test_later_columns_take_the_rule_book_defaults(upgraded):
    app, client, old = upgraded
    db = connect(app.config["DATABASE"])
    assert {tuple(r.values()) for r in db.query("SELECT goal, tie_rule, min_bid, redeal_moves_deal FROM crews")} \
        == {(250, "play-on", 1, 0)}
    games = list(db.query("SELECT id, goal, tie_rule, min_bid, redeal_moves_deal, version FROM games ORDER BY id"))
    db.close()
    assert [(g["goal"], g["tie_rule"], g["min_bid"], g["redeal_moves_deal"], g["version"]) for g in games] == [
        (250, "play-on", 1, 0, 1), (500, "play-on", 1, 0, 1), (250, "play-on", 1, 0, 1)]


def test_scoreboards_show_every_round_and_the_right_totals(upgraded):
    app, client, old = upgraded
    for game, crew in zip(old["games"], (old["crew"], old["crew"], old["other"])):
        scores = old["scores"][game]
        response = client.get(f"/c/{crew}/games/{game}")
        assert response.status_code == 200
        board = response.get_data(as_text=True)
        assert round_cells(board) == [shown(row) for row in scores]
        assert totals_on(board) == shown([sum(row[seat] for row in scores) for seat in range(4)])


def test_the_finished_game_still_has_its_winner(upgraded):
    app, client, old = upgraded
    first = old["games"][0]
    assert old["scores"][first][2] == [0, 95, 0, 0]  # Ben: four 2s with his target, a pair of Aces
    board = client.get(f"/c/{old['crew']}/games/{first}").get_data(as_text=True)
    assert "Ben wins!" in board
    crew_page = client.get(f"/c/{old['crew']}/").get_data(as_text=True)
    assert crew_page.count("Ann · Ben · Cleo · Dan") == 1 and "Ben · Cleo · Dan · Eve" in crew_page


def test_saved_rounds_keep_their_breakdowns_and_history(upgraded):
    app, client, old = upgraded
    first = old["games"][0]
    page = client.get(f"/c/{old['crew']}/games/{first}/rounds/2").get_data(as_text=True)
    assert "Singles score nothing: 4, 6, 10, Q" in page  # Ann's exact pile, recomputed from its cards
    assert "correction started" in page and "corrected" in page
    quick_page = client.get(f"/c/{old['crew']}/games/{first}/rounds/1").get_data(as_text=True)
    assert "Four 4s with your target: 80" in quick_page
    assert "Redeals: 1." in quick_page


def test_the_undone_round_and_the_open_round_carry_on(upgraded):
    """Game 2 goes on after the upgrade: its open round is finished and saved with new code."""
    app, client, old = upgraded
    second = old["games"][1]
    url = f"/c/{old['crew']}/games/{second}/rounds/2"
    page = client.get(url).get_data(as_text=True)
    assert "Save round 2" in page
    client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    targets = ["9C", "2S", "3S", "5S"]
    for seat, target in enumerate(targets):
        assert client.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    version = re.search(r'name="version" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)
    assert client.post(url + "/save", data={"version": version}).status_code == 303
    board = client.get(f"/c/{old['crew']}/games/{second}").get_data(as_text=True)
    first_round = old["scores"][second][0]
    # The open round kept what was entered before the upgrade: Ann's 9 beside her 9♣ target.
    second_round = [score_hand(entered_hand("quick", hand["target"], hand["won"], hand["counts"])).total for hand in quick(targets, [{"9": 1}, {}, {}, {}])]
    assert second_round == [5, 0, 0, 0]
    assert round_cells(board) == [shown(first_round), shown(second_round)]
    assert totals_on(board) == shown([a + b for a, b in zip(first_round, second_round)])
