"""What a restore file must hold (`store/export_format.py`, `store/restore_checks.py`): each fault
is refused with a sentence naming the game, round and field, and nothing is stored."""
import pytest

from store import connect
from support.exports import export_of, restore
from support.html_text import element_text


def _two_open_revisions(data):
    """Round 1 of game 1 being corrected twice at once: two revisions open for entry."""
    rounds = data["games"][0]["rounds"]
    latest = max(entry["revision"] for entry in rounds if entry["number"] == 1)
    rounds.extend(dict(rounds[0], revision=latest + step, status="entering") for step in (1, 2))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(format="something else"), "This is not an Orchard crew export"),
        (_two_open_revisions, "Game 1, round 1 has two revisions open for entry at once; live entry opens one at a time."),
        (lambda d: d.update(version=99), "this server reads version 1"),
        (lambda d: d["crew"].pop("name"), "The crew has no proper name (1 to 40 characters)."),
        (lambda d: d["crew"].update(created=None), "The crew has no proper created (a date and time with its UTC offset, in the years 1970 to 9998)."),
        (lambda d: d["players"][0].update(name="x" * 41), "A player has no proper name"),
        (lambda d: d["games"][0]["rounds"][0].update(created={"at": 1}), "Game 1, round 1 has no proper created (a date and time"),
        (lambda d: d["games"][0]["rounds"][0].update(revision=2**64), "Game 1, round 1 has no proper revision."),
        (lambda d: d["games"][0]["rounds"][0]["changes"].append(None), "Game 1, round 1: a change is missing"),
        (lambda d: d["games"][0]["rounds"][0].pop("changes"), "Game 1, round 1 has no proper changes."),
        (lambda d: d["games"][0]["rounds"][1].update(number=1), "Game 1: its saved rounds are not numbered"),
        (lambda d: d["games"][0].update(seats=["Ann", "Ann", "Cleo", "Dan"]), "Game 1 needs four different players."),
        (lambda d: d["games"][0].update(seats=["Ann", "Zed", "Cleo", "Dan"]), "Game 1 seats a player the file does not list."),
        (lambda d: d["games"][0]["rules"].update(goal=0), "Game 1's rules: The goal must be"),
        (lambda d: d["crew"]["rules"].update(goal=2**64), "The goal must be a whole number of points from 1 to 100000"),
        (lambda d: d["crew"]["rules"].update(fast_play=True), "The crew's house rules: There is no house rule called 'fast_play'"),
        (lambda d: d["crew"].pop("rules") and d["crew"].update(goal="250"), "The goal must be a whole number"),
        (lambda d: d["games"][0]["rounds"][0]["hands"][0].update(target="1X"), "Game 1, round 1:"),
        (lambda d: d["games"][0]["rounds"][0]["hands"][0].update(counts={"4": 4}),
         "Game 1, round 1 cannot be saved as it is: Ann has 4 4s in the pile"),
        (lambda d: d["games"][0]["rounds"].pop(0), "its saved rounds are not numbered"),
        (lambda d: d["games"][2]["rounds"].append(dict(d["games"][2]["rounds"][1], number=3)),
         "Game 3: The game ended after round 2, so there is no round 3."),
        (lambda d: d["games"][0].update(note="x" * 201), "Game 1 has no proper note (text of at most 200 characters, no control characters)."),
        (lambda d: d["games"][0]["rounds"][0]["hands"].__setitem__(1, "Ben"), "Game 1, round 1: a hand is missing or damaged."),
        (lambda d: d["games"][0]["rounds"][0]["bid"].update(seat=True), "Game 1, round 1: the bid has no proper seat."),
        (lambda d: d["games"][0]["rounds"][0]["signoffs"].append({"seat": 1}), "Game 1, round 1: a sign-off has no proper"),
        (lambda d: d["games"].append([]), "Each game needs a number of its own."),
        (lambda d: d["games"][1]["rounds"][0].update(number="2"), "Game 2 has a round without a proper number."),
        # What live entry never stores, which pages could not show afterwards (issue 12, item 8):
        (lambda d: d["games"][0]["rounds"][0]["hands"][0].update(target="10 D"),
         "Game 1, round 1: a hand has no proper target (a card such as 10S or QH)."),
        (lambda d: d["games"][0]["rounds"][0]["hands"][0].update(counts={"T": 1}),
         "Game 1, round 1: a hand has no proper counts (ranks 2 to 10, J, Q, K, A, each with a count)."),
        (lambda d: d["games"][0].update(created="0001-01-01T00:00:00+00:00"),
         "Game 1 has no proper created (a date and time with its UTC offset, in the years 1970 to 9998)."),
        (lambda d: d["games"][0].update(created="2026-03-12T19:00:00"), "Game 1 has no proper created"),
        # Listed first but started last: its export would number the games anew, and a rematch of it
        # would then name a game after it (found by the restore property's long run).
        (lambda d: d["games"][0].update(created="2099-01-01T00:00:00+00:00"),
         "Game 2 was started before the game listed above it: an export lists its games in the order they were started."),
        (lambda d: d["games"][0]["rounds"][0]["changes"][0].update(at="0001-01-01T00:00:00+00:00"),
         "Game 1, round 1: a change has no proper at"),
        (lambda d: d["games"][0]["rounds"].append(dict(d["games"][0]["rounds"][2], number=9, status="discarded")),
         "Game 1: its rounds are not numbered 1, 2, 3 … (round 4 is missing)."),
        (lambda d: d["games"][0]["rounds"].append(dict(d["games"][0]["rounds"][2], revision=3, status="replaced")),
         "Game 1, round 3: its revisions are not numbered 1, 2, 3 …"),
        (lambda d: d["games"][0]["rounds"][0].update(status="replaced", number=4),
         "Game 1: its saved rounds are not numbered"),
        (lambda d: d["games"][0]["rounds"][2]["hands"][0].update(counts={"4": 4}) or
         d["games"][0]["rounds"][2].update(status="deleted"),
         "Game 1, round 3 cannot be saved as it is: Ann has 4 4s in the pile"),
    ],
)
def test_a_damaged_export_is_refused_and_nothing_is_stored(known, damage, message):
    app, client, crew_url = known
    data = export_of(client, crew_url)
    damage(data)
    db = connect(app.config["DATABASE"])
    before = next(db.query("SELECT count(*) AS n FROM crews"))["n"]
    response = restore(client, data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    assert next(db.query("SELECT count(*) AS n FROM crews"))["n"] == before


NOT_JSON = "This file is not JSON: pick the .json export of a crew."
NOT_AN_EXPORT = "Nothing was restored. This is not an Orchard crew export (a .json file from a crew's History page)."


@pytest.mark.parametrize(("body", "message"), [
    (b"not json at all", NOT_JSON), (b"\xff\xfe\x00", NOT_JSON), (b"[1, 2, 3]", NOT_AN_EXPORT), (b"{}", NOT_AN_EXPORT)])
def test_a_file_that_is_not_an_export_is_refused(client, body, message):
    response = restore(client, body)
    assert response.status_code == 422
    assert element_text(response, "#error-file") == message


def test_a_fault_no_check_names_is_a_sentence_not_sqlites_words(known, monkeypatch):
    import sqlite3

    import store.restore


    import store
    def clash(db, span):
        raise sqlite3.IntegrityError("UNIQUE constraint failed: rounds.game_id, rounds.number")

    app, client, crew_url = known
    data = export_of(client, crew_url)
    monkeypatch.setattr(store.restore, "_insert_games", clash)
    response = restore(client, data)
    assert response.status_code == 422
    assert element_text(response, "#error-file") == (
        "Nothing was restored. The export holds rows that cannot be stored together: it is damaged or was "
        "changed by hand. Restore the file as the app exported it.")
    assert next(connect(app.config["DATABASE"]).query("SELECT count(*) AS n FROM crews"))["n"] == 1


# --- Club nights restore only as live entry could have left them (issue 38 item 7) ---------------

@pytest.fixture
def night_export(client, table):
    """A crew with a game of its own and a club night of nine: stage 1 started at two tables."""
    from support.club_nights import new_night
    table.start_game(["Zed", "Yan", "Xia", "Wu"])
    night = new_night(client, table.crew_url).headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    data = export_of(client, table.crew_url)
    assert [table["game"] for table in data["club_nights"][0]["stages"][0]["tables"]] == [2, 3]
    return data


def _stage(data):
    return data["club_nights"][0]["stages"][0]


def _only_drawn(data):
    _stage(data).update(status="planned", started=None, tables=[])


def _table_of_three(data):
    _only_drawn(data)
    seated = next(place for place in _stage(data)["places"] if place["table"] == 2)
    seated.update(table=None, seat=None)


def _at_two_tables(data):
    """Table 2's game seats a player of table 1 in place of one of its own."""
    first = next(place["player"] for place in _stage(data)["places"] if place["table"] == 1)
    data["games"][2]["seats"][0] = first


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: _stage(d)["tables"][0].update(game=1),
     "The club night Friday club, stage 1: table 1's game seats other players than the stage placed there."),
    (lambda d: _stage(d).update(status="planned", started=None),
     "The club night Friday club, stage 1 is only drawn, yet names a table's game."),
    (_table_of_three, "The club night Friday club, stage 1 is not seated as a draw seats: full tables of four"),
    (lambda d: d["club_nights"][0].update(format="game", stage_hands=2**70),
     "A club night has no proper stage hands."),
    (lambda d: d["club_nights"][0].update(format="game", stage_hands=2),
     "The club night Friday club is one game a table, so it has no number of hands a stage."),
    (_at_two_tables,
     "The club night Friday club, stage 1: table 2's game seats other players than the stage placed there."),
    (lambda d: _stage(d)["tables"].pop(),
     "The club night Friday club, stage 1: its tables' games are not one for each table it seats."),
    (lambda d: d["club_nights"][0]["stages"].append(dict(_stage(d), number=2, tables=[])),
     "The club night Friday club, stage 2 was drawn while table 1 of the stage before still played"),
])
def test_a_club_night_live_entry_could_not_have_made_is_refused(app, client, night_export, damage, message):
    damage(night_export)
    db = connect(app.config["DATABASE"])
    before = db.execute("SELECT count(*) FROM crews").fetchone()[0]
    response = restore(client, night_export)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    assert db.execute("SELECT count(*) FROM crews").fetchone()[0] == before


def test_a_club_night_only_drawn_restores_and_starts(app, client, night_export):
    _only_drawn(night_export)
    response = restore(client, night_export)
    assert response.status_code == 303, response.get_data(as_text=True)
    crew_url = response.headers["Location"].removesuffix("history")
    night = crew_url + f"club-nights/{connect(app.config['DATABASE']).execute('SELECT max(id) FROM club_nights').fetchone()[0]}"
    assert client.post(night + "/stages/1/start").status_code == 303
    for page in ("", "/live", "/board"):
        assert client.get(night + page).status_code == 200
