"""Restore accepts exactly what live entry could have made (issue 38 item 7), as a property:
hypothesis mutates a valid export of a crew with games (finished, in play, a correction open, a
rematch) and club nights (one started with a round saved at a table, one only drawn): fields
removed, list items duplicated, values swapped or copied from elsewhere in the file (which breaks
its cross-references: seats, places, a table's game, a rematch), out of range, huge, or of the
wrong type. For every file:

* a refused file gets a 4xx and a sentence, and nothing is stored;
* an accepted file's crew answers 200 on every page reached from it (crew, games, rounds, nights,
  their polls, the big screen, history, players, ratings, records, exports), its nights take the
  organiser's next steps (start a drawn stage, draw the next, a late arrival) without a 5xx, and
  then its export restores to the same export;
* never a 5xx.

A few examples run in `make check`; a longer run is marked `fuzz` (`make test`)."""
import copy
import json
import re
import shutil
import tempfile
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st

from store import connect
from support.apps import make_app
from support.club_nights import new_night, play_round
from support.exports import export_of, restore
from support.html_text import element_text
from support.table import Table

# Values a mutation puts in place of one in the file: wrong types, edges and far out of range.
ODD = [None, True, False, 0, -1, 1, 2, 3, 4, 5, 13, 52, 2**31, 2**63, 2**70, -2**70, 1.5, "", "1", "x" * 5000,
       "Ann", "ann", "Zed", "Émile", "Da\x07n", "10S", "QH", "planned", "playing", "finished", "entering",
       "scored", "replaced", "deleted", "quick", "exact", "game", "hands", "total", [], {}, [None], {"a": 1},
       "2026-01-01T00:00:00+00:00", "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59+00:00"]
# Fields that place something (a seat, a table, a stage's state) or say how a night is played.
REFERENCES = ("table", "seat", "status", "started", "stage_hands", "format", "here", "dealer", "first_dealer",
              "revision", "number", "night", "first_day", "last_day", "best", "minimum")
PAGES_PER_KIND = 2  # of the pages reached alike (the same address but for its numbers), this many


def _crew_with_games_and_nights(folder):
    """The file every example mutates, exported from a crew built through the app."""
    app = make_app(Path(folder) / "source.db")
    client = app.test_client()
    table = Table(client)
    first = table.start_game(["Zed", "Yan", "Xia", "Émile"], goal="other", goal_other="100")
    for _ in range(2):  # Zed 80 + 80: the game is over
        table.save_quick_round(["4S", "2S", "3S", "5S"], [{"4": 3}, {}, {}, {}])
    assert client.post(first + "/rematch").status_code == 303
    table.game_url = table.start_game(["Zed", "Yan", "Ann", "Bob"])
    table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    table.save_quick_round(["AS", "KS", "2S", "3S"], [{"A": 2}, {"K": 1}, {}, {}])
    assert client.post(table.game_url + "/rounds/1/correct").status_code == 303
    night = new_night(client, table.crew_url).headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    games = [row[0] for row in connect(app.config["DATABASE"]).execute(
        "SELECT game_id FROM club_night_tables ORDER BY table_no")]
    play_round(app, table.crew_url, games[0], [0, 1, 2, 3])
    second = new_night(client, table.crew_url, names=["Ann", "Bob", "Cat", "Dan", "Zed"]).headers["Location"]
    assert client.post(second + "/stages").status_code == 303
    season = client.post(table.crew_url + "seasons", data={"name": "Saison", "first_day": "2000-01-01", "minimum": "2"})
    assert season.status_code == 303
    season = season.headers["Location"]
    assert client.post(season + f"/game/{first.rsplit('/', 1)[1]}/leave-out", data={"reason": "A friendly"}).status_code == 303
    assert client.post(season + "/rule", data={"best": "2", "minimum": "1"}).status_code == 303
    return export_of(client, table.crew_url)


@pytest.fixture(scope="module")
def setting():
    folder = tempfile.mkdtemp(prefix="orchard-restore-property-")
    source = _crew_with_games_and_nights(folder)
    app = make_app(Path(folder) / "orchard.db", CREW_LIMIT="1000000 per minute", GUESS_LIMIT="1000000 per minute")
    yield source, app
    shutil.rmtree(folder, ignore_errors=True)


# --- Mutations ----------------------------------------------------------------------------------

def _paths(node, prefix=()):
    """Every place in the file (the root excepted), as its keys and indexes from the root."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


def _shape(path):
    """A place with its indexes left out: ('games', 'N', 'seats', 'N')."""
    return tuple("N" if isinstance(key, int) else key for key in path)


def _at(data, path):
    for key in path:
        data = data[key]
    return data


def _field(path):
    """What a place holds, for swapping it with another of its kind: a player's name wherever the
    file names one, a game's number wherever it names one, else the same field anywhere."""
    shape = _shape(path)
    if shape[-2:] == ("seats", "N") or shape[-1] == "player" or shape[-3:] in (("players", "N", "name"),):
        return "name"
    if shape[-1] in ("game", "rematch_of") or shape[-3:] == ("games", "N", "number"):
        return "game"
    return shape[-2:]


def _mutate(data, rnd):
    """One change at a place `rnd` picks (each kind of place as likely as another, so a
    club night's few fields are tried as often as a round's many); returns what it did."""
    paths = list(_paths(data))
    shapes = sorted({_shape(path) for path in paths})
    kinds = ["remove", "duplicate", "swap", "copy", "alike", "odd", "nudge"]
    focus = rnd.choice(["anywhere", "references", "a night's references", "a night's references"])
    if focus != "anywhere":  # a place that names or numbers another: where crafted files go wrong
        shapes = [shape for shape in shapes if (_field(shape) in ("name", "game") or shape[-1] in REFERENCES)
                  and (focus == "references" or shape[0] in ("club_nights", "seasons"))] or shapes
        kinds = ["alike", "alike", "alike", "nudge", "odd", "duplicate"]
    shape = rnd.choice(shapes)
    path = rnd.choice([path for path in paths if _shape(path) == shape])
    parent, key = _at(data, path[:-1]), path[-1]
    kind = rnd.choice(kinds)
    if kind == "alike":  # with a value of its kind from elsewhere: a seat's name, a table's game
        kind = rnd.choice(["swap", "copy"])
        paths = [other for other in paths if _field(other) == _field(path)] or paths
    if kind == "remove":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif kind in ("swap", "copy"):
        other = rnd.choice(paths)
        if other[:len(path)] == path or path[:len(other)] == other:
            return f"nothing ({kind} {path} with {other})"
        value = copy.deepcopy(_at(data, other))
        if kind == "swap":
            _at(data, other[:-1])[other[-1]] = copy.deepcopy(parent[key])
        parent[key] = value
        return f"{kind} {path} with {other}"
    elif kind == "nudge" and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += rnd.choice([-2, -1, 1, 2, 10, 1000])
    else:
        parent[key] = rnd.choice(ODD)
        kind = f"odd {parent[key]!r}"[:60]
    return f"{kind} {path}"


# --- What a crew's pages answer -----------------------------------------------------------------

def _reached(client, crew_url):
    """Every GET page reached from the crew page by its links and its polls (htmx's hx-get), a few
    of each kind; asserts each answers 200 (a poll 204)."""
    seen, kinds, queue = set(), {}, [crew_url]
    while queue:
        url = queue.pop(0)
        kind = re.sub(r"\d+", "N", url.split("?")[0])
        if url in seen or kinds.get(kind, 0) >= PAGES_PER_KIND:
            continue
        seen.add(url)
        kinds[kind] = kinds.get(kind, 0) + 1
        response = client.get(url)
        assert response.status_code in (200, 204), (url, response.status_code)
        if response.mimetype != "text/html" or not response.data:
            continue
        page = lxml.html.fromstring(response.data)
        for element in page.xpath("//a[@href] | //*[@hx-get]"):
            link = element.get("hx-get") or element.get("href")
            if link.startswith(crew_url) and "/delete" not in link:
                queue.append(link)
    return seen


def _check(client, app, data):
    db = connect(app.config["DATABASE"])
    crews = db.execute("SELECT count(*) FROM crews").fetchone()[0]
    response = restore(client, json.dumps(data, ensure_ascii=False).encode())
    assert response.status_code < 500, response.get_data(as_text=True)[-2000:]
    if response.status_code != 303:
        assert 400 <= response.status_code < 500
        sentence = element_text(response, "#error-file")
        assert sentence.startswith("Nothing was restored. ") and len(sentence) > 30, sentence
        assert db.execute("SELECT count(*) FROM crews").fetchone()[0] == crews
        return False
    crew_url = response.headers["Location"].removesuffix("history")
    pages = _reached(client, crew_url)
    nights = [page for page in pages if re.search(r"/club-nights/\d+$", page)]
    assert bool(nights) == bool(data.get("club_nights"))
    for night in nights:  # what the organiser does next: start a drawn stage, draw one, a late arrival
        for action, form in [*((f"/stages/{n}/start", {}) for n in (1, 2, 3)), ("/stages", {}),
                             ("/players", {"name": "Late Arrival"})]:
            answer = client.post(night + action, data=form)
            assert answer.status_code < 500, (night + action, answer.status_code)
        for page in ("", "/live", "/board", "/board/live"):
            assert client.get(night + page).status_code in (200, 204), night + page
    exported = export_of(client, crew_url)
    again = restore(client, json.dumps(exported, ensure_ascii=False).encode())
    assert again.status_code == 303, again.get_data(as_text=True)[-2000:]
    restored = export_of(client, again.headers["Location"].removesuffix("history"))
    for export in (exported, restored):
        export["crew"].pop("created")
    assert restored == exported
    return True


def _property(examples):
    @settings(max_examples=examples, deadline=None, derandomize=examples < 20, database=None,
              phases=[Phase.explicit, Phase.generate],  # a failure's mutations say enough unshrunk
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(st.randoms(use_true_random=True), st.integers(1, 3))
    def check(setting, rnd, changes):
        """Each kind of place in the file as likely as another, picked by a plain random number
        generator (hypothesis's own choices favour the first of a long list)."""
        source, app = setting
        mutated = copy.deepcopy(source)
        done = [_mutate(mutated, rnd) for _ in range(changes)]
        note(f"mutations: {done}")
        event("accepted" if _check(app.test_client(), app, mutated) else "refused")
    return check


def test_the_unmutated_file_restores_and_every_page_answers(setting):
    source, app = setting
    assert _check(app.test_client(), app, copy.deepcopy(source))


test_mutated_exports_are_refused_with_a_sentence_or_work_everywhere = _property(examples=8)
test_mutated_exports_long_run = pytest.mark.fuzz(_property(examples=100))  # about 60 s


def test_a_night_log_line_of_an_unknown_kind_restores_and_its_night_page_answers(setting):
    # Found by a fresh clone's long run: a night's "drawn" line renamed "Zed" (no player named)
    # was accepted, and the night page answered 500.
    source, app = setting
    mutated = copy.deepcopy(source)
    mutated["club_nights"][-1]["changes"][-1]["action"] = "Zed"
    assert _check(app.test_client(), app, mutated)
