"""Names as people write them and names that only look alike (issue 46, item 4; the rule is
`scoring/names.py`): a zero-width joiner or non-joiner inside a name is a real name's (Persian,
Indic, a family emoji), a name with nothing that shows is refused, and a crew never gets a second
player whose name is drawn like one it has (Unicode's skeleton, UTS #39), whichever way the name
comes in: the game form, a club night's list, a late arrival, a rename, a restored file."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import names as name_rule
from store import connect
from support.club_nights import new_night
from support.exports import export_of, restore
from support.html_text import select, text

PERSIAN = "نازنین\u200cزهرا"  # Nazaninzahra: the non-joiner keeps the two halves apart
HINDI = "क\u094d\u200dष"  # a half form asked for with a joiner
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
CYRILLIC_ANNA = "\u0410nna"  # the first letter is Cyrillic А
FULLWIDTH_ANNA = "\uff21\uff4e\uff4e\uff41"
GAME = {"tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no", "first_dealer": "0", "goal": "250"}


def _players(app):
    return sorted(row[0] for row in connect(app.config["DATABASE"]).execute("SELECT name FROM players"))


def _new_game(table, names):
    return table.client.post(table.crew_url + "games", data={**GAME, **{f"player_{n}": name for n, name in enumerate(names)}})


def _error_beside(response, field):
    """The message shown next to the form control named `field`."""
    [control] = select(response, f"[name={field}]")
    described = control.get("aria-describedby") or ""
    return " ".join(e.text_content().strip() for e in select(response, ".error, .errors li")
                    if e.get("id") in described.split() or field in (e.get("id") or ""))


# --- The rule ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [PERSIAN, HINDI, FAMILY, "\U0001F3F3\ufe0f\u200d\U0001F308 Ann", "Ann-Marie"])
def test_names_written_with_joiners_are_names(name):
    assert name_rule.checked(name) == name


@pytest.mark.parametrize(("raw", "sentence"), [
    ("\u3164", "A name cannot contain characters that show as blank space."),
    ("\u2800", "A name cannot contain characters that show as blank space."),
    ("Ann\u3164", "A name cannot contain characters that show as blank space."),
    ("\u200dAnn", "A zero-width joiner can only sit between two characters of a name."),
    ("Ann \u200cLee", "A zero-width joiner can only sit between two characters of a name."),
    ("\u0301\u0302", "A name needs at least one letter, digit or sign that shows."),
    ("Ann\u200b", "A name cannot contain control characters.")])
def test_a_name_with_nothing_to_show_or_a_stray_joiner_is_refused(raw, sentence):
    with pytest.raises(name_rule.NameRefused, match=sentence):
        name_rule.checked(raw)


@pytest.mark.parametrize(("name", "other"), [
    (CYRILLIC_ANNA, "Anna"), (FULLWIDTH_ANNA, "Anna"), ("lvy", "Ivy"), ("D\u0430n", "Dan")])
def test_names_drawn_alike_look_alike(name, other):
    assert name_rule.look_alike(name, ["Ben", other]) == other


@pytest.mark.parametrize(("name", "other"), [("Anne", "Ann"), ("Zoe", "Zoë"), ("Lena", "Léna"), ("ANNA", "Anna"),
                                             ("B0b", "Bob")])
def test_other_names_and_the_same_name_are_not_look_alikes(name, other):
    assert name_rule.look_alike(name, [other]) is None


@given(st.text(min_size=1, max_size=12), st.text(min_size=1, max_size=12))
def test_looking_alike_goes_both_ways_and_never_holds_for_the_same_name(a, b):
    assert (name_rule.look_alike(a, [b]) is None) == (name_rule.look_alike(b, [a]) is None)
    assert name_rule.look_alike(a, [a]) is None
    if name_rule.key(a) != name_rule.key(b) and name_rule.look(a) == name_rule.look(b):
        assert name_rule.look_alike(a, [b]) == b


# --- Every way a name comes in ----------------------------------------------------------------------

def test_a_game_with_a_joined_name_is_played_and_shown_as_typed(app, table):
    table.start_crew()
    response = _new_game(table, [PERSIAN, HINDI, FAMILY, "Ann"])
    assert response.status_code == 303, text(response)
    assert _players(app) == sorted([PERSIAN, HINDI, FAMILY, "Ann"])
    page = text(table.client.get(response.headers["Location"]))
    assert all(name in page for name in (PERSIAN, HINDI, FAMILY))


def test_the_game_form_refuses_a_look_alike_of_a_crew_player_beside_its_seat(app, table):
    table.start_game(["Anna", "Ben", "Cleo", "Dan"])
    response = _new_game(table, ["Eve", CYRILLIC_ANNA, "Ben", "Fay"])
    assert response.status_code == 422
    assert (f"{CYRILLIC_ANNA} looks the same as Anna, a player of this crew, but is spelled with different "
            "characters") in _error_beside(response, "player_1")
    assert _players(app) == ["Anna", "Ben", "Cleo", "Dan"]  # Eve and Fay are not made either
    assert _new_game(table, ["Eve", "Anna", "Ben", "Fay"]).status_code == 303  # typed as written: Anna herself


def test_the_game_form_refuses_two_look_alikes_at_one_table(app, table):
    table.start_crew()
    response = _new_game(table, ["Ivy", "Ben", "lvy", "Dan"])
    assert response.status_code == 422
    assert "lvy looks the same as Ivy, in seat 1, but is spelled with different characters" in _error_beside(
        response, "player_2")
    assert _players(app) == []


def test_a_club_nights_list_and_a_late_arrival_refuse_look_alikes(app, table):
    table.start_game(["Anna", "Ben", "Cleo", "Dan"])
    client, crew = table.client, table.crew_url
    response = new_night(client, crew, names=["Ben", "Cleo", "Dan", FULLWIDTH_ANNA, "Eve"])
    assert response.status_code == 422
    assert f"{FULLWIDTH_ANNA} looks the same as Anna, a player of this crew" in text(response)
    response = new_night(client, crew, names=["Ivy", "Ben", "Cleo", "Dan", "lvy"])
    assert response.status_code == 422
    assert "lvy looks the same as Ivy, higher on the list" in text(response)
    assert _players(app) == ["Anna", "Ben", "Cleo", "Dan"]
    night = new_night(client, crew, names=["Anna", "Ben", "Cleo", "Dan"]).headers["Location"]
    response = client.post(night + "/players", data={"name": CYRILLIC_ANNA})
    assert response.status_code == 422
    assert f"{CYRILLIC_ANNA} looks the same as Anna, a player of this crew" in text(response)
    assert _players(app) == ["Anna", "Ben", "Cleo", "Dan"]


def test_a_rename_to_a_look_alike_is_refused_and_the_name_kept(app, table):
    table.start_game(["Anna", "Ben", "Cleo", "Dan"])
    ids = dict(connect(app.config["DATABASE"]).execute("SELECT name, id FROM players").fetchall())
    response = table.client.post(f"{table.crew_url}players/{ids['Ben']}/rename", data={"name": CYRILLIC_ANNA})
    assert response.status_code == 422
    assert f"{CYRILLIC_ANNA} looks the same as Anna, a player of this crew" in text(response)
    assert _players(app) == ["Anna", "Ben", "Cleo", "Dan"]


def test_a_restore_file_with_two_look_alike_players_is_refused_with_their_names(app, table):
    client = table.client
    table.start_game(["Anna", "Ben", "Cleo", "Dan"])
    data = export_of(client, table.crew_url)
    data["players"].append({"name": CYRILLIC_ANNA, "created": data["players"][0]["created"]})
    response = restore(client, data)
    assert response.status_code == 422
    assert f"{CYRILLIC_ANNA} looks the same as Anna, another player in the file" in text(response)
    data["players"][-1]["name"] = PERSIAN  # a real name written with a non-joiner restores
    response = restore(client, data)
    assert response.status_code == 303, text(response)
    assert PERSIAN in [p["name"] for p in export_of(client, response.headers["Location"].removesuffix("history"))["players"]]
