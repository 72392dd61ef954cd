"""A round's log holds facts and the page words them (issue 37): a save, a correction and its start
are logged without their words (the scores are the revisions' own, the revision a correction was
copied from is `rounds.copied_from`), and a database or an export file from before, which holds the
words, shows the same lines as it did."""
from store import connect
from support.apps import make_app
from support.exports import export_of, restore
from support.html_text import texts
from support.rounds import BIG_TARGETS

# Round 1: Ann's 4 target and one 4 won, a pair of 4s (−15), corrected to two won: three 4s with the
# target (40).
FIRST = [{"4": 1}, {}, {}, {}]
LINES = [
    "started · by the table's shared phone",
    "saved · −15 · 0 · 0 · 0 · by the table's shared phone",
    "correction started · from revision 1 · by the table's shared phone (revision 2)",
    "corrected · −15 · 0 · 0 · 0 → 40 · 0 · 0 · 0 · by the table's shared phone (revision 2)",
]
# What the app wrote into `round_changes.detail` before, for those lines.
OLD_WORDS = {"started": "", "saved": "−15 · 0 · 0 · 0", "correction started": "from revision 1",
             "corrected": "−15 · 0 · 0 · 0 → 40 · 0 · 0 · 0"}
# Round 2, saved as the first release wrote it (an ASCII minus, no "before" on a correction):
# words the page cannot work out again, kept and shown as they are.
FIRST_RELEASE = "-15 · 0 · 0 · 0"


def _corrected_round(table, client):
    table.start_game()
    url = table.save_quick_round(BIG_TARGETS, FIRST)
    client.post(url + "/correct")
    client.post(url + "/hands/0/counts/4", data={"count": 2})
    assert client.post(url + "/save", data={"version": table.version(url)}).status_code == 303
    second = table.save_quick_round(BIG_TARGETS, FIRST)
    return url, second


def _lines(client, url):
    """The round page's history lines, without their times."""
    return [line.split(" · ", 1)[1] for line in texts(client.get(url).get_data(as_text=True), "details.history li")]


def _logged(db):
    return db.execute("SELECT rounds.number, rounds.revision, action, detail FROM round_changes"
                      " JOIN rounds ON rounds.id = round_changes.round_id ORDER BY round_changes.id").fetchall()


def test_the_log_holds_facts_and_the_page_words_them(app, client, table):
    url, _ = _corrected_round(table, client)
    db = connect(app.config["DATABASE"])
    assert [detail for number, _, _, detail in _logged(db) if number == 1] == ["", "", "", ""]
    assert db.execute("SELECT revision, status, copied_from FROM rounds WHERE number = 1 ORDER BY revision"
                      ).fetchall() == [(1, "replaced", None), (2, "scored", 1)]
    assert _lines(client, url) == LINES


def _age(db):
    """Make the database one from before m0014: the lines' words stored, no `copied_from`."""
    for number, revision, action, _ in _logged(db):
        words = OLD_WORDS[action] if number == 1 else FIRST_RELEASE if action == "saved" else ""
        db.execute("UPDATE round_changes SET detail = ? WHERE action = ? AND round_id = (SELECT id FROM rounds"
                   " WHERE number = ? AND revision = ?)", [words, action, number, revision])
    if "copied_from" in db["rounds"].columns_dict:
        db.execute("ALTER TABLE rounds DROP COLUMN copied_from")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm0014_change_facts'")
    db.conn.commit()


def test_an_older_database_shows_the_same_lines_once_migrated(app, client, table):
    url, second = _corrected_round(table, client)
    db = connect(app.config["DATABASE"])
    _age(db)
    db.close()
    upgraded = make_app(app.config["DATABASE"]).test_client()  # migrates it
    db = connect(app.config["DATABASE"])
    assert [detail for number, _, _, detail in _logged(db)] == ["", "", "", "", "", FIRST_RELEASE]
    assert db.execute("SELECT copied_from FROM rounds WHERE number = 1 ORDER BY revision").fetchall() == [
        (None,), (1,)]
    assert _lines(upgraded, url) == LINES
    assert _lines(upgraded, second)[1] == f"saved · {FIRST_RELEASE} · by the table's shared phone"


def test_an_older_export_restores_with_the_same_lines(app, client, table):
    _corrected_round(table, client)
    data = export_of(client, table.crew_url)
    rounds = data["games"][0]["rounds"]
    assert [entry.get("copied_from") for entry in rounds] == [None, 1, None]
    for entry in rounds:  # as the app exported it before: words, and no copied_from
        entry.pop("copied_from", None)
        for change in entry["changes"]:
            change["detail"] = OLD_WORDS[change["action"]] if entry["number"] == 1 else (
                FIRST_RELEASE if change["action"] == "saved" else "")
    response = restore(client, data)
    assert response.status_code == 303
    crew_url = response.headers["Location"].removesuffix("history")
    restored = connect(app.config["DATABASE"])
    game_id = restored.execute("SELECT max(id) FROM games").fetchone()[0]
    base = f"{crew_url}games/{game_id}/rounds/"
    assert _lines(client, base + "1") == LINES
    assert _lines(client, base + "2")[1] == f"saved · {FIRST_RELEASE} · by the table's shared phone"
    again = export_of(client, crew_url)["games"][0]["rounds"]
    assert [entry.get("copied_from") for entry in again] == [None, 1, None]
    assert [change["detail"] for entry in again for change in entry["changes"]] == [
        "", "", "", "", "", FIRST_RELEASE]
