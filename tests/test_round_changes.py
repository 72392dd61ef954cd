"""A round's log holds facts and the page words them (issue 37): a save, a correction and its start
are logged without their words (the scores are the revisions' own, the revision a correction was
copied from is `rounds.copied_from`), and a database or an export file from before, which holds the
words, shows the same lines as it did."""
from store import connect
from support.apps import make_app
from support.exports import export_of, restore
from support.html_text import field_value, texts
from support.rounds import BIG_TARGETS

# Round 1: Ann's 4 target and one 4 won, a pair of 4s (−15), corrected to two won: three 4s with the
# target (40).
FIRST = [{"4": 1}, {}, {}, {}]
LINES = [
    "started · by the table's shared phone",
    "saved · −15 · 0 · 0 · 0 · by the table's shared phone",
    "correction started · from revision 1 · by the table's shared phone (revision 2)",
    "corrected · Ann −15 → 40 (a 4 more) · by the table's shared phone (revision 2)",  # the hand it changed, and how
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
    assert client.post(url + "/save", data=table.save_form(url)).status_code == 303
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


def _aged_and_migrated(app, age):
    """The app's database made older by `age`, then opened by a new app (which migrates it):
    (a client of the new app, the database)."""
    db = connect(app.config["DATABASE"])
    age(db)
    db.close()
    upgraded = make_app(app.config["DATABASE"]).test_client()
    return upgraded, connect(app.config["DATABASE"])


def test_an_older_database_shows_the_same_lines_once_migrated(app, client, table):
    url, second = _corrected_round(table, client)
    upgraded, db = _aged_and_migrated(app, _age)
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
    # Each line reads as it was written: the same as the page's own words but for a correction,
    # which the old words give seat by seat.
    assert _lines(client, base + "1") == [*LINES[:3], "corrected · −15 · 0 · 0 · 0 → 40 · 0 · 0 · 0"
                                          " · by the table's shared phone (revision 2)"]
    assert _lines(client, base + "2")[1] == f"saved · {FIRST_RELEASE} · by the table's shared phone"
    # The words are kept as they are, not read back as facts: the next export carries them again.
    again = export_of(client, crew_url)["games"][0]["rounds"]
    assert [entry.get("copied_from") for entry in again] == [None, None, None]
    assert [change["detail"] for entry in again for change in entry["changes"]] == [
        change["detail"] for entry in rounds for change in entry["changes"]]


# --- A run of the same step counts itself (`round_changes.times`, m0015), the page words it ----------

SHARED = " · by the table's shared phone"
SWAPPED = "Ann and Ben swapped seats: what was entered at each seat counts for the other"
# Round 1's counted lines as the page shows them, and what the app wrote into `detail` before m0015.
RUNS = {"redeal": ("everyone passed", 3, "redeal · everyone passed · 3 times" + SHARED,
                   "everyone passed · 3 times"),
        "correction discarded": ("", 3, "correction discarded · 3 times" + SHARED, "3 times"),
        "seats swapped": (SWAPPED, 3, f"seats swapped · {SWAPPED} · 3 swaps in a row" + SHARED,
                          f"{SWAPPED} · 3 swaps in a row")}
# Round 2's one redeal, its count in words the page would not write the same: kept, shown as it is.
ODD_COUNT = "everyone passed · 03 times"


def _round_with_redeals(table, client, redeals):
    url = table.start_round()
    for _ in range(redeals):
        assert client.post(url + "/redeal").status_code == 200
    client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    for seat, target in enumerate(BIG_TARGETS):
        assert client.post(url + f"/hands/{seat}/target", data={"target": target}).status_code == 200
    assert client.post(url + "/hands/0/counts/4", data={"count": 1}).status_code == 200
    assert client.post(url + "/save", data=table.save_form(url)).status_code == 303
    return url


def _runs(table, client):
    """Round 1: three redeals, then three corrections dropped, then Ann and Ben swapping seats three
    times; round 2: one redeal. Returns the two rounds' URLs."""
    game_url = table.start_game()
    url = _round_with_redeals(table, client, 3)
    for _ in range(3):
        assert client.post(url + "/correct").status_code == 303
        assert client.post(url + "/discard").status_code == 303
    for _ in range(3):
        version = field_value(client.get(game_url + "/seats/swap"), "version")
        assert client.post(game_url + "/seats/swap", data={"first": 0, "second": 1, "version": version}
                           ).status_code == 303
    return url, _round_with_redeals(table, client, 1)


def _counted(db):
    return {action: (detail, times) for action, detail, times in db.execute(
        "SELECT action, detail, times FROM round_changes JOIN rounds ON rounds.id = round_changes.round_id"
        " WHERE rounds.number = 1 AND action IN ('redeal', 'correction discarded', 'seats swapped')")}


def _run_lines(client, url):
    return [line for line in _lines(client, url) if line.startswith(tuple(RUNS))]


def test_a_run_of_one_step_is_counted_as_a_number_and_worded_by_the_page(app, client, table):
    url, second = _runs(table, client)
    db = connect(app.config["DATABASE"])
    assert _counted(db) == {action: (detail, times) for action, (detail, times, _, _) in RUNS.items()}
    assert db.execute("SELECT count(*) FROM round_changes WHERE detail LIKE '%times%' OR detail LIKE '%in a row%'"
                      ).fetchone()[0] == 0
    assert _run_lines(client, url) == [line for _, _, line, _ in RUNS.values()]
    assert _run_lines(client, second) == ["redeal · everyone passed" + SHARED]


def _age_counts(db):
    """Make the database one from before m0015: each run's count in its words, no `times`."""
    for action, (_, _, _, words) in RUNS.items():
        db.execute("UPDATE round_changes SET detail = ? WHERE action = ? AND round_id = (SELECT id FROM rounds"
                   " WHERE number = 1 AND status = 'scored')", [words, action])
    db.execute("UPDATE round_changes SET detail = ? WHERE action = 'redeal' AND round_id = (SELECT id FROM rounds"
               " WHERE number = 2)", [ODD_COUNT])
    db.execute("ALTER TABLE round_changes DROP COLUMN times")
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm0015_change_times'")
    db.conn.commit()


def test_an_older_database_counts_its_runs_once_migrated(app, client, table):
    url, second = _runs(table, client)
    upgraded, db = _aged_and_migrated(app, _age_counts)
    assert _counted(db) == {action: (detail, times) for action, (detail, times, _, _) in RUNS.items()}
    assert db.execute("SELECT detail, times FROM round_changes WHERE action = 'redeal' AND round_id = (SELECT id"
                      " FROM rounds WHERE number = 2)").fetchall() == [(ODD_COUNT, 1)]
    assert _run_lines(upgraded, url) == [line for _, _, line, _ in RUNS.values()]
    assert _run_lines(upgraded, second) == [f"redeal · {ODD_COUNT}" + SHARED]


def test_an_older_export_restores_its_runs_counted(app, client, table):
    url, second = _runs(table, client)
    data = export_of(client, table.crew_url)
    rounds = {entry["number"]: entry for entry in data["games"][0]["rounds"] if entry["status"] == "scored"}
    assert {change["action"]: change["times"] for change in rounds[1]["changes"] if "times" in change} == {
        action: times for action, (_, times, _, _) in RUNS.items()}
    for change in rounds[1]["changes"]:  # as the app exported it before: words, and no times
        if change.pop("times", None):
            change["detail"] = RUNS[change["action"]][3]
    next(change for change in rounds[2]["changes"] if change["action"] == "redeal")["detail"] = ODD_COUNT
    response = restore(client, data)
    assert response.status_code == 303, response.get_data(as_text=True)
    crew_url = response.headers["Location"].removesuffix("history")
    game_id = connect(app.config["DATABASE"]).execute("SELECT max(id) FROM games").fetchone()[0]
    base = f"{crew_url}games/{game_id}/rounds/"
    assert _run_lines(client, base + "1") == _run_lines(client, url)
    assert _run_lines(client, base + "2") == [f"redeal · {ODD_COUNT}" + SHARED]
    again = {entry["number"]: entry for entry in export_of(client, crew_url)["games"][0]["rounds"]
             if entry["status"] == "scored"}
    assert [(change["action"], change["detail"], change.get("times", 1)) for change in again[1]["changes"]
            if change["action"] in RUNS] == [(action, words, 1) for action, (_, _, _, words) in RUNS.items()]


def test_a_corrections_line_says_how_each_hand_it_changed_changed():
    """Issue 43, item 3: the log says which hand changed how: its score, its target and its won
    cards by rank, whichever way each revision entered them; a hand whose pile changed with its
    score staying is named too."""
    from web.round_changes import change_words

    names = ["Ann", "Ben", "Cleo", "Dan"]
    change = {"action": "corrected", "scores": [20, 5, 0, 10], "copied_scores": [5, 5, 0, 0],
              "copied_piles": [("4S", {"A": 2}), ("2S", {"9": 1}), ("3S", {}), ("5S", {"K": 1})],
              "piles": [("4S", {"A": 4, "10": 2}), ("2S", {"9": 1}), ("3S", {"Q": 1}), ("KS", {})]}
    assert change_words(change, names) == (
        "corrected · Ann 5 → 20 (2 10s more, 2 Aces more), Cleo 0 → 0 (a Queen more), "
        "Dan 0 → 10 (target 5♠ → K♠, a King fewer)")
