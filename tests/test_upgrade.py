"""A database from the first release opens in today's app with every game, round and score intact.

The old database is built with only m0001 (the first released schema) and filled the way that
release wrote rows: JSON rank counts for quick hands, space-separated cards for exact hands, a
cached score per hand, corrections as replaced revisions, undone rounds kept as 'deleted'.
"""
import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app import create_app
from store import connect
from store.migrations import migrations
from support.html_text import select, texts, save_fields
from support.rounds import BIG_COUNTS, BIG_TARGETS

STAMP = "2024-03-01T19:30:00+00:00"
# A real 52-card deal in exact entry (the rule book's first example): Ann 25, Ben 115, Cleo −25, Dan 115.
EXACT_DEAL = [
    ("10S", "3C 3D 4H 6S 9C 9D JC JD JH QS AH AD"),
    ("QH", "QD QC KD KH KC KS AC AS 10D 10H 10C JS"),
    ("2C", "2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S"),
    ("7D", "6D 6H 6C 7H 7C 7S 8D 8H 8C 8S 9H 9S"),
]

# What each hand scores, worked by hand from docs/RULES.md §2 (values: 2-5 -15, 6-9 5, 10-K 10,
# A 15; a pair is the value, three twice it, four four times it; three of the target's rank 40,
# four 80; the target joins its own pile). The first release cached these numbers per hand.
#   BIG_TARGETS/BIG_COUNTS: Ann 4 + three 4s = four of the target 80, four K 4*10 = 40, four Q 40
#   -> 160; Ben 2 + two 2s = three of the target 40, four J 40 -> 80; Cleo 3 + three 3s -> 80;
#   Dan 5 + three 5s -> 80.
BIG_SCORES = [160, 80, 80, 80]
#   EXACT_DEAL: Ann target 10: 3 3 -15, 9 9 +5, J J J 2*10 = 20, A A +15 (4, 6, Q, 10 single)
#   -> 25; Ben target Q: Q + QD QC = three of the target 40, four K 40, A A 15, 10 10 10 20
#   (J single) -> 115; Cleo target 2: 2 + three 2s = four of the target 80, 3 3 -15,
#   4 4 4 2*-15 = -30, four 5s 4*-15 = -60 -> -25; Dan target 7: 7 + three 7s = 80, 6 6 6 10,
#   four 8s 20, 9 9 5 -> 115.
EXACT_SCORES = [25, 115, -25, 115]
#   The same deal with Ann's and Dan's targets swapped: Ann's pile with a 7 target (no 7 in it)
#   is still 25; Dan's with a 10 target (no 10 in it): 6 6 6 10, 7 7 7 10, four 8s 20, 9 9 5 -> 45.
SWAPPED_SCORES = [25, 115, -25, 45]
#   Targets 4H 2H 3H 5H, Ben won three 2s and two Aces: Ben 2 + three 2s = 80, A A 15 -> 95;
#   the others hold only their target -> 0.
FOUR_TWOS_SCORES = [0, 95, 0, 0]
#   Targets KS QS JS 10S: Ann K + three Ks = 80; Ben Q alone, A A 15 -> 15; Cleo nothing -> 0;
#   Dan 10 alone, 5 5 -15 -> -15.
REMATCH_SCORES = [80, 15, 0, -15]
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
    """Writes rows as the first release did, with the hand-worked scores it cached."""

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

    def round(self, game_id, number, mode, hands, scores=(None,) * 4, status="scored", revision=1, redeals=0,
              bid=(1, 2, "S"), actions=("started", "saved")):
        dealer = number % 4
        round_id = self.db.execute(
            "INSERT INTO rounds (game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
            " bid_number, bid_suit, version, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [game_id, number, revision, status, mode, dealer, redeals, *bid, 7, STAMP, STAMP]).lastrowid
        for seat, (hand, score) in enumerate(zip(hands, scores)):
            self.db.execute(
                "INSERT INTO hands (round_id, seat, target, won, counts, score) VALUES (?, ?, ?, ?, ?, ?)",
                [round_id, seat, hand["target"], " ".join(hand["won"]) if mode == "exact" else None,
                 json.dumps(hand["counts"]) if mode == "quick" and hand["counts"] else None, score])
        for action in actions:
            self.db.execute("INSERT INTO round_changes (round_id, at, action, detail) VALUES (?, ?, ?, ?)",
                            [round_id, STAMP, action, ""])
        return round_id

    def finish(self, game_id, winners):
        """Cache the verdict on a game that is over, as the first release did after the last save."""
        self.db.execute("UPDATE games SET status = 'finished', winner_seats = ?, finished = ? WHERE id = ?",
                        [",".join(map(str, winners)), STAMP, game_id])


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
    old.round(first, 1, "quick", quick(BIG_TARGETS, BIG_COUNTS), BIG_SCORES, redeals=1)
    wrong = [dict(hand) for hand in exact(EXACT_DEAL)]
    wrong[0], wrong[3] = {**wrong[0], "target": "7D"}, {**wrong[3], "target": "10S"}
    old.round(first, 2, "exact", wrong, SWAPPED_SCORES, status="replaced", actions=("started", "saved"))
    old.round(first, 2, "exact", exact(EXACT_DEAL), EXACT_SCORES, revision=2,
              actions=("correction started", "corrected"))
    old.round(first, 3, "quick", quick(["4H", "2H", "3H", "5H"], [{}, {"2": 3, "A": 2}, {}, {}]), FOUR_TWOS_SCORES)
    # Totals 160+25+0 = 185, 80+115+95 = 290, 80-25+0 = 55, 80+115+0 = 195: only Ben has reached
    # 250 (after round 2 nobody had: 185, 195, 55, 195), and he is alone on top (rule book §3).
    old.finish(first, winners=[1])
    # Game 2, a rematch in play: one round counted, round 2 undone, then entered again (open).
    second = old.game(crew, [ben, cleo, dan, eve], goal=500, first_dealer=1, rematch_of=first)
    old.round(second, 1, "quick", quick(["KS", "QS", "JS", "10S"], [{"K": 3}, {"A": 2}, {}, {"5": 2}]),
              REMATCH_SCORES)
    old.round(second, 2, "quick", quick(BIG_TARGETS, BIG_COUNTS), BIG_SCORES, status="deleted",
              actions=("started", "saved", "undone"))
    old.round(second, 2, "quick", quick(["9C", None, None, None], [{"9": 1}, {}, {}, {}]), status="entering",
              revision=2, bid=(None, None, None), actions=("started",))
    # Another crew's game with a player name that is also in the first crew.
    third = old.game(other, others, goal=250, first_dealer=3)
    old.round(third, 1, "exact", exact(EXACT_DEAL), EXACT_SCORES, bid=(3, 4, "H"))
    # The rounds each scoreboard counts (the replaced, undone and open ones do not count).
    scores = {first: [BIG_SCORES, EXACT_SCORES, FOUR_TWOS_SCORES], second: [REMATCH_SCORES],
              third: [EXACT_SCORES]}
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
    return texts(board, "ol.totals .total")


def round_cells(board):
    """The scoreboard's rounds table: each row's four scores, as shown."""
    return [texts(row, "td > a") for row in select(board, "table.rounds tbody tr")]


def shown(points):
    """Points as the pages write them: a real minus sign."""
    return [str(p).replace("-", "\u2212") for p in points]


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
    """Rules added after the first release read as the rule book's; the goal each game had is kept
    (m0020 made each crew's and game's rules one value)."""
    app, client, old = upgraded
    db = connect(app.config["DATABASE"])
    crews = [json.loads(r["rules"]) for r in db.query("SELECT rules FROM crews")]
    games = list(db.query("SELECT id, rules, goal, hand_limit, version FROM games ORDER BY id"))
    db.close()
    book = {"goal": 250, "tie_rule": "play-on", "min_bid": 1, "redeal_moves_deal": False}
    assert crews and all(rules == book for rules in crews)
    assert [(json.loads(g["rules"]), g["goal"], g["hand_limit"], g["version"]) for g in games] == [
        (book, 250, None, 1), (book | {"goal": 500}, 500, None, 1), (book, 250, None, 1)]


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
    assert client.post(url + "/save", data=save_fields(client.get(url))).status_code == 303
    board = client.get(f"/c/{old['crew']}/games/{second}").get_data(as_text=True)
    first_round = old["scores"][second][0]
    # The open round kept what was entered before the upgrade: Ann's 9 beside her 9♣ target is
    # two of her target's rank, just a pair of 9s: 5; the others hold only their targets: 0.
    second_round = [5, 0, 0, 0]
    assert round_cells(board) == [shown(first_round), shown(second_round)]
    assert totals_on(board) == shown([a + b for a, b in zip(first_round, second_round)])


def test_each_migration_is_one_numbered_file_applied_in_its_order():
    """store/migrations/: a file a migration, named like its function, applied by number."""
    from store import migrations as package

    registered = [migration.name for migration in migrations._migrations]
    assert registered == package.FILES
    numbers = [int(name[1:5]) for name in registered]
    assert numbers == list(range(1, len(numbers) + 1))


def _schema(path):
    """Every table's and index's definition, as SQLite keeps it, with whitespace folded."""
    with closing(sqlite3.connect(path)) as conn:
        return sorted((kind, name, " ".join((sql or "").split())) for kind, name, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def _columns(path):
    with closing(sqlite3.connect(path)) as conn:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted((row[1], row[2].upper(), row[3], row[4]) for row in conn.execute(f"PRAGMA table_info({table})"))
                for table in tables if not table.startswith("sqlite_")}


def test_a_first_release_database_upgraded_has_the_schema_of_a_new_one(upgraded, tmp_path):
    """Issue 45, item 3: migrated from m0001 to the head, the file has every table, column and index a
    new database has (a column added by a migration may sit at the end of its table: compared by name)."""
    app, client, old = upgraded
    fresh = tmp_path / "fresh.db"
    create_app({"DATABASE": str(fresh), "SECRET_KEY": "fresh"})
    assert _columns(app.config["DATABASE"]) == _columns(fresh)
    assert {(kind, name) for kind, name, _ in _schema(app.config["DATABASE"])} == {
        (kind, name) for kind, name, _ in _schema(fresh)}


def test_each_migration_stands_alone():
    """Issue 45, item 3: a migration imports only the standard library, sqlite-utils and its own
    package, so a later change to the live code never changes what an old migration does."""
    import ast
    import store.migrations as package
    folder = Path(package.__file__).parent
    allowed = {"json", "re", "hashlib", "unicodedata", "sqlite_utils", "importlib", "pkgutil"}
    for path in sorted(folder.glob("m*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 1 and node.module in (None, "") or node.level == 0 and node.module in allowed, (
                    f"{path.name} imports {'.' * node.level}{node.module or ''}")
            elif isinstance(node, ast.Import):
                assert all(alias.name in allowed for alias in node.names), f"{path.name} imports {node.names[0].name}"
