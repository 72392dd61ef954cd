"""A round's and a hand's columns are declared once (`store/columns.py`): the rounds table, the export, the
file's model and the restore all follow that one declaration, so a new column of a round is a
migration and a line there (issue 45.4)."""
from store import columns, connect
from store.export_format import Hand, Round
from support.exports import export_of, restore
from support.rounds import BIG_COUNTS, BIG_TARGETS

NESTED = {"bid", "hands", "changes", "signoffs"}  # a round's parts the file holds as objects
LATER = {key for key, kind in columns.ROUND_FILE.items() if columns.later(kind)}


def _kept(db, game_id):
    """Every declared column of a game's rounds as stored, but the game's id."""
    return list(db.query(f"SELECT {', '.join(columns.ROUND[1:])} FROM rounds WHERE game_id = ?"
                         " ORDER BY number, revision", [game_id]))


def _saved_and_corrected(client, table):
    """A game whose round 1 was saved and then corrected: two revisions, the second copied."""
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    client.post(url + "/correct")
    client.post(url + "/hands/0/counts/4", data={"count": 2})
    assert client.post(url + "/save", data=table.save_form(url)).status_code == 303


def test_the_declaration_is_the_rounds_table(app):
    """A migration that adds a column to rounds without declaring it fails here."""
    kept = {row[1] for row in connect(app.config["DATABASE"]).execute("PRAGMA table_info(rounds)")}
    assert kept - {"id", "version"} == set(columns.ROUND)


def test_the_declaration_is_the_hands_table(app):
    kept = {row[1] for row in connect(app.config["DATABASE"]).execute("PRAGMA table_info(hands)")}
    assert kept - {"id", "version"} == set(columns.HAND)


def test_the_files_model_of_a_round_and_a_hand_is_the_declaration():
    assert set(Round.__annotations__) == set(columns.ROUND_FILE) | NESTED
    assert Round.__optional_keys__ == LATER and "copied_from" in LATER
    assert set(Hand.__annotations__) == set(columns.HAND_FILE)


def test_each_declared_column_is_exported_and_restored_as_it_was(app, client, table):
    _saved_and_corrected(client, table)

    rounds = export_of(client, table.crew_url)["games"][0]["rounds"]
    db = connect(app.config["DATABASE"])
    before = _kept(db, db.execute("SELECT max(id) FROM games").fetchone()[0])
    # A column added later is left out while it has no value (the first revision has no source).
    assert [set(entry) for entry in rounds] == [
        {key for key in columns.ROUND_FILE if key not in LATER or row[key] is not None} | NESTED for row in before]
    assert [entry.get("copied_from") for entry in rounds] == [None, 1]
    assert all(set(hand) == set(columns.HAND_FILE) for entry in rounds for hand in entry["hands"])
    response = restore(client, export_of(client, table.crew_url))
    assert response.status_code == 303
    after = _kept(db, db.execute("SELECT max(id) FROM games").fetchone()[0])
    assert after == before and len(after) == 2


def test_a_file_without_a_later_column_restores_it_as_none(app, client, table):
    _saved_and_corrected(client, table)
    data = export_of(client, table.crew_url)
    for entry in data["games"][0]["rounds"]:
        entry.pop("copied_from", None)  # as a file from before m0014
    assert restore(client, data).status_code == 303
    db = connect(app.config["DATABASE"])
    restored = db.execute("SELECT max(id) FROM games").fetchone()[0]
    assert [row["copied_from"] for row in db.query(
        "SELECT copied_from FROM rounds WHERE game_id = ? ORDER BY revision", [restored])] == [None, None]
