"""One rule for "the same name" (`scoring/names.py`, issue 38 item 5): live entry, renaming, club
nights, restore and the migration that gave every stored player its key all follow it."""
import hashlib
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import create_app
from scoring import NAME_MAX
from scoring import names as name_rule
from store import connect
from store.migrations import migrations
from support.club_nights import new_night
from support.exports import export_of, restore
from support.html_text import text

STAMP = "2026-11-20T19:30:00+00:00"


def _players(app):
    return sorted(row[0] for row in connect(app.config["DATABASE"]).execute("SELECT name FROM players"))


# --- The rule ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [("Émile", "émile"), ("Zoë", "ZOË"), ("E\u0301mile", "émile"),
                                      ("  Straße ", "STRASSE"), ("Ann  Lee", "ann lee")])
def test_names_that_are_the_same_share_a_key(a, b):
    assert name_rule.key(a) == name_rule.key(b)


def test_a_name_is_shown_in_nfc_with_its_spaces_tidied():
    assert name_rule.checked("  E\u0301mile \t Zola ") == "Émile Zola"


@pytest.mark.parametrize(("raw", "sentence"), [
    ("   ", "Enter a name."), ("x" * (NAME_MAX + 1), f"A name is at most {NAME_MAX} characters."),
    ("Da\x07n", "A name cannot contain control characters."),
    ("Ann\u200b", "A name cannot contain control characters."), (None, "Enter a name.")])
def test_a_name_the_rule_refuses_has_its_sentence(raw, sentence):
    with pytest.raises(name_rule.NameRefused, match=sentence):
        name_rule.checked(raw)


@given(st.text(max_size=60))
def test_the_rule_is_a_fixed_point(raw):
    name = name_rule.clean(raw)
    assert name_rule.clean(name) == name and name == unicodedata.normalize("NFC", name)
    assert name_rule.key(name) == name_rule.key(raw) == name_rule.key(name_rule.key(name))


# --- Live entry, club nights, restore -----------------------------------------------------------

def test_the_same_names_typed_in_other_letters_at_two_games_are_two_players(app, table):
    """Before: "Émile"/"émile" and "Zoë"/"ZOË" at two games made six players (NOCASE folds A to Z)."""
    table.start_game(["Émile", "Zoë", "Ann", "Ben"])
    table.start_game(["émile", "ZOË", "ann", "BEN"])
    table.start_game(["E\u0301MILE", "zoë", "Ann", "Ben"])  # é typed as e + an accent
    assert _players(app) == ["Ann", "Ben", "Zoë", "Émile"]


def test_the_game_form_refuses_the_same_name_twice_in_any_letters(table):
    table.start_crew()
    response = table.client.post(table.crew_url + "games", data={
        "player_0": "Zoë", "player_1": "ZOË", "player_2": "Ann", "player_3": "Ben",
        "tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no", "first_dealer": "0", "goal": "250"})
    assert response.status_code == 422
    assert "ZOË is already in seat 1." in text(response)


def test_a_rename_to_another_players_name_in_other_letters_is_refused(app, table):
    table.start_game(["Émile", "Zoë", "Ann", "Ben"])
    ids = dict(connect(app.config["DATABASE"]).execute("SELECT name, id FROM players").fetchall())
    response = table.client.post(f"{table.crew_url}players/{ids['Ann']}/rename", data={"name": "ÉMILE"})
    assert response.status_code == 422
    assert "already called ÉMILE" in text(response).replace("&#39;", "'")


def test_a_crews_export_with_such_names_restores_and_exports_the_same(table):
    client = table.client
    table.start_game(["Émile", "Zoë", "Ann", "Ben"])
    table.save_quick_round(["4S", "2S", "3S", "5S"], [{}, {}, {}, {}])
    table.start_game(["émile", "ZOË", "Cleo", "Dan"])
    assert new_night(client, table.crew_url, names=["ÉMILE", "zoë", "ann", "Ben", "Cleo"]).status_code == 303
    data = export_of(client, table.crew_url)
    assert sorted(player["name"] for player in data["players"]) == ["Ann", "Ben", "Cleo", "Dan", "Zoë", "Émile"]
    response = restore(client, data)
    assert response.status_code == 303, text(response)
    again = export_of(client, response.headers["Location"].removesuffix("history"))
    for export in (data, again):
        export["crew"].pop("created")
    assert again == data


def test_a_restore_file_names_a_player_in_other_letters_and_forms_as_the_same(table):
    client = table.client
    table.start_game(["Émile", "Zoë", "Ann", "Ben"])
    data = export_of(client, table.crew_url)
    data["games"][0]["seats"] = ["ÉMILE", "zoe\u0308", "ANN", "ben"]  # ë as e + diaeresis
    response = restore(client, data)
    assert response.status_code == 303, text(response)
    assert export_of(client, response.headers["Location"].removesuffix("history"))["games"][0]["seats"] == ["Émile", "Zoë", "Ann", "Ben"]
    data["players"].append({"name": "zoe\u0308", "created": STAMP})
    response = restore(client, data)
    assert response.status_code == 422 and "The player zoë is in the file twice." in text(response)


@pytest.mark.parametrize("names", [["Ann", "Bob", "Cat", "Da\x07n"], ["Ann", "Bob", "Cat", "Dan\u200b", "Eve"]])
def test_a_control_character_in_a_club_nights_list_is_refused_with_a_sentence(app, crew, client, names):
    response = new_night(client, crew, names=names)
    assert response.status_code == 422
    assert "A name cannot contain control characters: type again the name that has one" in text(response)
    assert connect(app.config["DATABASE"]).execute("SELECT count(*) FROM club_nights").fetchone()[0] == 0
    assert _players(app) == []


def test_a_late_arrival_with_a_control_character_is_refused(client, crew):
    night = new_night(client, crew).headers["Location"]
    response = client.post(night + "/players", data={"name": "Jo\x07"})
    assert response.status_code == 422
    assert "A name cannot contain control characters." in text(response)


# --- The migration ------------------------------------------------------------------------------

@pytest.fixture
def old_database(tmp_path):
    """A database from before m0013 with the names NOCASE let apart: Émile/émile and Zoë/ZOË never
    met (one player each after the upgrade), Ölaf/ölaf sat at one game and Åsa/åsa came to one
    club night (two people: the later renamed), and a name a club night let in with a bell."""
    path = tmp_path / "orchard.db"
    db = connect(path)
    migrations.apply(db, stop_before="m0013_player_name_keys")
    token = "n" * 43
    crew = db.execute("INSERT INTO crews (name, created, token_hash) VALUES ('Names', ?, ?)",
                      [STAMP, hashlib.sha256(token.encode()).hexdigest()]).lastrowid
    ids = {name: db.execute("INSERT INTO players (crew_id, name, created) VALUES (?, ?, ?)",
                            [crew, name, STAMP]).lastrowid
           for name in ["Émile", "Zoë", "Ölaf", "ölaf", "Ann", "émile", "ZOË", "Gus\x07", "Åsa", "åsa", "ölaf (2)"]}
    for seated in (["Émile", "Zoë", "Ölaf", "ölaf"], ["émile", "ZOË", "Ann", "Gus\x07"], ["ölaf (2)", "Ann", "Åsa", "Zoë"]):
        game = db.execute("INSERT INTO games (crew_id, created, goal, first_dealer, status)"
                          " VALUES (?, ?, 250, 0, 'playing')", [crew, STAMP]).lastrowid
        for seat, name in enumerate(seated):
            db.execute("INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)", [game, seat, ids[name]])
    night = db.execute("INSERT INTO club_nights (crew_id, name, created, format, ranking, seed)"
                       " VALUES (?, 'Friday', ?, 'game', 'total', 1)", [crew, STAMP]).lastrowid
    for name in ("Åsa", "åsa", "Ann", "émile"):
        db.execute("INSERT INTO club_night_players (night_id, player_id, here, joined) VALUES (?, ?, 1, ?)",
                   [night, ids[name], STAMP])
    db.conn.commit()
    db.close()
    return path, token, ids


def test_the_migration_merges_names_that_never_met_and_renames_the_rest(old_database):
    path, token, ids = old_database
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "names", "WTF_CSRF_ENABLED": False})
    db = connect(path)
    players = dict(db.execute("SELECT id, name FROM players").fetchall())
    assert players == {ids["Émile"]: "Émile", ids["Zoë"]: "Zoë", ids["Ölaf"]: "Ölaf", ids["ölaf"]: "ölaf (3)",
                       ids["Ann"]: "Ann", ids["Gus\x07"]: "Gus", ids["Åsa"]: "Åsa", ids["åsa"]: "åsa (2)",
                       ids["ölaf (2)"]: "ölaf (2)"}
    assert all(key == name_rule.key(name) for name, key in db.execute("SELECT name, name_key FROM players"))
    seated = db.execute("SELECT player_id FROM seats WHERE game_id = 2 ORDER BY seat").fetchall()
    assert seated == [(ids["Émile"],), (ids["Zoë"],), (ids["Ann"],), (ids["Gus\x07"],)]
    assert db.execute("SELECT player_id FROM club_night_players WHERE player_id = ?", [ids["Émile"]]).fetchall()
    client = app.test_client()
    crew_url = f"/c/{token}/"
    for page in ("", "players", "history", "club-nights/1"):
        assert client.get(crew_url + page).status_code == 200
    data = export_of(client, crew_url)
    response = restore(client, data)  # before: "The player émile is in the file twice."
    assert response.status_code == 303, text(response)
    assert export_of(client, response.headers["Location"].removesuffix("history"))["players"] == data["players"]
