"""Hostile input on every endpoint: never a 5xx, nothing of another crew changes or shows, and
what a stranger types comes back escaped.

Two crews share one database. The victim's crew is only ever used through the victim's own
browser; the attacker knows every id (they are small integers) but not the victim's link. Every
fuzzed request goes out from the attacker's browser, built from `app.url_map`, with URL parts
taken from both crews and from nowhere, as GET and POST, with and without `HX-Request`.
"""
import io
import json
import re
import sqlite3
import traceback
from contextlib import closing
from urllib.parse import quote

import pytest
from flask import got_request_exception
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import create_app
from test_rounds import BIG_COUNTS, BIG_TARGETS, exact_round
from views.static_files import HTMX_VERSION

VICTIM_CREW = "Vexhollow crew"
VICTIM_NAMES = ("Zorvath", "Quillon", "Brimsel", "Yandrix")  # nothing the fuzzer types
ATTACKER_NAMES = ("Ann", "Ben", "Cleo", "Dan")
GAME_DEFAULTS = {"tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no", "first_dealer": "0",
                 "goal": "250", "goal_other": ""}

# Markup that must never come back unescaped (the fuzzer plants it in every kind of field).
XSS_PAYLOADS = ["<script>xss(1)</script>", '"><img src=x onerror=xss(1)>', "<svg onload=xss(1)>",
                "'><script>xss(2)</script>"]
XSS_RAW = ("<script>xss", "<img src=x onerror=xss", "<svg onload=xss")
HUGE = "9" * 25  # beyond SQLite's 64-bit integers
PAYLOADS = XSS_PAYLOADS + [
    "' OR '1'='1", "1; DROP TABLE crews; --", "Robert'); DROP TABLE players;--", "%' UNION SELECT token FROM crews --",
    "\u202eevil\u202c", "a\u200bb\u200d", "\ufeff", "\u200f\u061c", "🍏" * 30, "👨‍👩‍👧‍👦", "\x00", "a\x00b",
    "Z\u0351\u0352\u0353" * 10, "ﷺ" * 10, "\ud7ff", "-1", "0", "1", "3", "4", "13", "14", "1e309", "NaN", "inf",
    "-0", "0x10", "2", "5", "6", "2024-02-30", "9999-12-31", HUGE, "-" + HUGE, "", " ", "\t\n\r", "A" * 41,
    "A" * 300, "A" * 100_000, "%s%n%x", "{{7*7}}",
    "${7*7}", "../../etc/passwd", "2S", "10S", "AS", "10♠", "J", "K", "K:2,Q:3", "K:-5", f"K:{HUGE}",
    "2S " * 60, "pass 1S 2H", "quick", "exact", "other", "play-on", "shared", "yes", "no", "move", "target",
    "pile", "true", "null", "[]", "{}",
]
FORM_KEYS = ("name", "passphrase", "goal", "goal_other", "tie_rule", "min_bid", "redeal_moves_deal",
             "player_0", "player_1", "player_2", "player_3", "first_dealer", "bidder", "number", "suit",
             "target", "add", "remove", "up", "down", "mode", "version", "next", "done", "force", "seat",
             "csrf_token", "rematch_of", "crew_id", "game_id", "id", "text", "other", "player_id")
QUERY_KEYS = ("v", "seat", "calls", "next", "cards", "counts", "pick", "mode", "target", "trump", "change",
              "card", "rank", "from", "to", "player", "since", "until", "ahead", "behind")
# A form each endpoint accepts, so that one bad field at a time reaches deeper than the first check.
VALID_FORMS = {
    "crews.crew_create": {"name": "Fuzz crew"},
    "crews.house_rules_update": {"goal": "250", "tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no"},
    "games.game_create": {**{f"player_{s}": n for s, n in enumerate(ATTACKER_NAMES)}, **GAME_DEFAULTS},
    "entry.bid_update": {"bidder": "1", "number": "2", "suit": "S"},
    "entry.mode_update": {"mode": "exact"},
    "entry.target_update": {"target": "7H"},
    "entry.cards_update": {"add": "8C"},
    "entry.counts_update": {"up": "K"},
    "entry.hand_done": {"done": "1"},
    "rounds.round_save": {"version": "1"},
    "games.seat_take": {"force": "1"},
    "history.game_note_update": {"text": "A fine night"},
    "history.night_note_update": {"text": "At Ann's"},
    "history.player_rename": {"name": "Annie"},
    "history.player_merge": {"other": "2"},  # players 1-4 are the victim's
}
# The same for the tools, whose questions travel in the query string.
VALID_QUERIES = {
    "tools.pile_show": {"mode": "quick", "target": "10", "counts": "3:2,J:3,A:2"},
    "tools.trick_show": {"trump": "S", "cards": "4H KH 2S AH"},
    "tools.bid_show": {"calls": "1S pass", "next": "2H"},
    "tools.what_if_show": {"change": "move", "rank": "K", "from": "0", "to": "1", "card": "QD"},
    "games.game_live": {"v": "1"},
    "rounds.round_live": {"v": "1", "seat": "2"},
    "history.history_list": {"player": "1", "since": "2020-01-01", "until": "2100-01-01", "ahead": "2", "behind": "3"},
}

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
hostile = st.one_of(st.sampled_from(PAYLOADS), text,
                    st.builds("".join, st.lists(st.sampled_from(PAYLOADS), max_size=3)))
# Header values travel as latin-1 without line breaks.
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"), max_size=80)


# --- The two crews -----------------------------------------------------------------------------

def _post_ok(client, url, data=None, expect=(200, 303)):
    response = client.post(url, data=data or {})
    assert response.status_code in expect, (url, response.status_code, response.get_data(as_text=True)[:300])
    return response


def _enter_round(client, game_url, targets, counts, save=True):
    url = _post_ok(client, game_url + "/rounds").headers["Location"]
    _post_ok(client, url + "/bid", {"bidder": "0", "number": "1", "suit": "D"})
    for seat, target in enumerate(targets):
        _post_ok(client, url + f"/hands/{seat}/target", {"target": target})
    for seat, pile in enumerate(counts):
        for rank, n in pile.items():
            for _ in range(n):
                _post_ok(client, url + f"/hands/{seat}/counts", {"up": rank})
    if save:
        version = re.search(r'name="version" value="(\d+)"', client.get(url).get_data(as_text=True)).group(1)
        _post_ok(client, url + "/save", {"version": version}, expect=(303,))
    return url


def _crew_with_game(client, crew_name, names):
    crew_url = _post_ok(client, "/crews", {"name": crew_name}).headers["Location"]
    data = {**{f"player_{s}": n for s, n in enumerate(names)}, **GAME_DEFAULTS}
    game_url = _post_ok(client, crew_url + "games", data).headers["Location"]
    _post_ok(client, game_url + "/seats/0")
    first = _enter_round(client, game_url, BIG_TARGETS, BIG_COUNTS)
    _post_ok(client, first + "/agree")
    second = _post_ok(client, game_url + "/rounds").headers["Location"]
    exact_round(client, None, second)
    version = re.search(r'name="version" value="(\d+)"', client.get(second).get_data(as_text=True)).group(1)
    _post_ok(client, second + "/save", {"version": version}, expect=(303,))
    # Round 3 stays open, part entered: rounds 1 (quick) and 2 (exact) are saved.
    _enter_round(client, game_url, ["7H", "8H", "9H", "JH"], [{"A": 2}, {}, {}, {}], save=False)
    token = crew_url.split("/")[2]
    return token, int(game_url.rsplit("/", 1)[1])


class World:
    """One database, a victim crew and an attacker crew, and the app serving both."""

    def __init__(self, path):
        self.path = str(path)
        self.app = create_app({
            "DATABASE": self.path, "SECRET_KEY": "hostile-input", "WTF_CSRF_ENABLED": False,
            # The guessing limit is tested elsewhere; here it would only turn answers into 429s.
            "GUESS_LIMIT": "1000000 per minute",
        })
        self.victim = self.app.test_client()
        self.attacker = self.app.test_client()
        self.victim_token, self.victim_game = _crew_with_game(self.victim, VICTIM_CREW, VICTIM_NAMES)
        attacker_token, self.attacker_game = _crew_with_game(self.attacker, "Fuzz crew", ATTACKER_NAMES)
        self.attacker_crew = self.query("SELECT id FROM crews WHERE token = ?", [attacker_token])[0][0]
        self.victim_crew = self.query("SELECT id FROM crews WHERE token = ?", [self.victim_token])[0][0]
        self.rules = sorted(
            (rule for rule in self.app.url_map.iter_rules()), key=lambda rule: (rule.rule, rule.endpoint)
        )
        self.errors = []
        got_request_exception.connect(self._record_error, self.app, weak=False)
        export = self.attacker.get(f"/c/{attacker_token}/history/export.json")
        assert export.status_code == 200
        self.export = export.get_data(as_text=True)

    def _record_error(self, sender, exception, **extra):
        self.errors.append("".join(traceback.format_exception(exception))[-1500:])

    def query(self, sql, params=()):
        with closing(sqlite3.connect(self.path)) as conn:
            return conn.execute(sql, params).fetchall()

    @property
    def attacker_token(self):
        """The attacker's link as it is now (the fuzzer may have rotated it)."""
        return self.query("SELECT token FROM crews WHERE id = ?", [self.attacker_crew])[0][0]

    def ids(self, name):
        """The attacker's and the victim's ids for a URL part named like a table's key."""
        table = {"game_id": "games", "player_id": "players", "other_id": "players"}.get(name)
        if table is None:
            return [1, 2, 3], []
        rows = self.query(f"SELECT id, crew_id FROM {table} ORDER BY id")
        return ([i for i, crew in rows if crew == self.attacker_crew],
                [i for i, crew in rows if crew == self.victim_crew])

    @property
    def attacker_games(self):
        return [row[0] for row in self.query("SELECT id FROM games WHERE crew_id = ?", [self.attacker_crew])]

    def victim_rows(self):
        """Every row of every table that belongs to the victim's crew or points into it (by its
        crew, one of its games, rounds or players), so tables added later are covered too."""
        owned = {
            "crew_id": "SELECT :crew",
            "game_id": "SELECT id FROM games WHERE crew_id = :crew",
            "rematch_of": "SELECT id FROM games WHERE crew_id = :crew",
            "round_id": "SELECT id FROM rounds WHERE game_id IN (SELECT id FROM games WHERE crew_id = :crew)",
            "player_id": "SELECT id FROM players WHERE crew_id = :crew",
        }
        with closing(sqlite3.connect(self.path)) as conn:
            tables = [name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            rows = {"crews": conn.execute("SELECT * FROM crews WHERE id = ?", [self.victim_crew]).fetchall()}
            for table in tables:
                columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                links = [f"{column} IN ({sql})" for column, sql in owned.items() if column in columns]
                if table == "players":
                    links.append("id IN (SELECT id FROM players WHERE crew_id = :crew)")
                if table == "games":
                    links.append("crew_id = :crew")
                if links:
                    rows[table] = sorted(conn.execute(
                        f"SELECT * FROM {table} WHERE {' OR '.join(links)}", {"crew": self.victim_crew}
                    ).fetchall(), key=repr)
        return rows

    def forged_tokens(self):
        token = self.victim_token
        return [token[:-1], token + "A", token.swapcase(), token[::-1], token[:22], token[1:] + token[0],
                f"{token[:-1]}{'B' if token[-1] != 'B' else 'C'}", "' OR 1=1 --", "%", "..", "null", "0", "x" * 300]

    def secrets(self):
        return [self.victim_token, VICTIM_CREW, *VICTIM_NAMES]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("hostile") / "orchard.db")


# --- One request and its checks ----------------------------------------------------------------

def fill(rule, values):
    """The rule's path with each URL part replaced by the given (escaped) text ("1" for a part
    the caller has no value for: a route added since this test was written)."""
    path = rule.rule
    for name in rule.arguments:
        path = re.sub(rf"<(?:[^:<>]+:)?{name}>", quote(str(values.get(name, "1")), safe=""), path)
    return path


def attack(world, method, path, **kwargs):
    """Send one request from the attacker's browser and check what no request may ever do."""
    before = world.victim_rows()
    world.errors.clear()
    response = world.attacker.open(path, method=method, **kwargs)
    body = response.get_data(as_text=True)
    response.close()  # a static file's answer holds the file open until closed
    where = f"{method} {path} {({k: (repr(v)[:200]) for k, v in kwargs.items()})}"
    assert response.status_code < 500, f"{response.status_code} from {where}\n{''.join(world.errors)}"
    assert world.victim_rows() == before, f"the victim's crew changed after {where}"
    everything = body + "".join(f"{k}: {v}\n" for k, v in response.headers.items())
    for secret in world.secrets():
        assert secret not in everything, f"{secret!r} leaked from the victim's crew by {where}"
    for raw in XSS_RAW:
        assert raw not in body, f"unescaped {raw!r} in the answer to {where}"
    return response


def url_values(draw, world, rule, huge_ids):
    """URL parts: the attacker's own ids, the victim's, forged links, and (if asked) ids out of range.

    Choices are drawn by role ("own", "victim", ...) and only then turned into values, so that the
    shape of the drawing never depends on what earlier examples did to the database."""
    odd_ids = ["0", "999", HUGE, "18446744073709551616", "9223372036854775807"] if huge_ids else ["0", "999"]
    forged = world.forged_tokens()
    choices = {
        # Mostly the attacker's own link, so that requests get past the crew lookup.
        "token": st.sampled_from(["own"] * 6 + ["forged", "typed"]),
        "game_id": st.sampled_from(["own", "newest", "victim", "victim"] + odd_ids),
        "player_id": st.sampled_from(["own", "newest", "victim", "victim"] + odd_ids),
        "other_id": st.sampled_from(["own", "newest", "victim", "victim"] + odd_ids),
        "number": st.sampled_from(["1", "2", "3", "4"] + odd_ids),
        "seat": st.sampled_from(["0", "1", "2", "3", "4"] + odd_ids),
        "version": st.sampled_from([HTMX_VERSION, "0", "2.0", "../" + HTMX_VERSION]) | text,
        "filename": st.sampled_from(["app.css", "app.js", "icon.svg", "../app.py", "..%2fapp.py", "nope.css"]) | text,
    }
    values = {name: draw(choices.get(name, text), label=name) for name in rule.arguments}
    if values.get("token") == "own":
        values["token"] = world.attacker_token
    elif values.get("token") == "forged":
        values["token"] = forged[draw(st.integers(0, len(forged) - 1), label="forged")]
    elif values.get("token") == "typed":
        values["token"] = draw(text, label="typed token")
    for name in ("game_id", "player_id", "other_id"):
        if name in values:
            own, victim = world.ids(name)
            own = own if name != "game_id" else [world.attacker_game, *own]
            values[name] = str({"own": own[0], "newest": own[-1], "victim": victim[0]}.get(values[name], values[name]))
    return values


def htmx_headers(draw):
    return draw(st.fixed_dictionaries({}, optional={
        "HX-Request": st.just("true"), "HX-Boosted": st.sampled_from(["true", "false"]),
        "HX-Target": header_text, "HX-Trigger": header_text, "HX-Current-URL": header_text,
        "HX-History-Restore-Request": st.just("true"), "Referer": header_text,
    }))


def method_for(draw, rule, others):
    """Mostly a method the rule answers, sometimes another one."""
    native = sorted(rule.methods & {"GET", "POST"})
    return draw(st.sampled_from(native * 3 + others), label="method")


def form_for(draw, rule, valid=VALID_FORMS, keys=FORM_KEYS):
    """The endpoint's own valid form (sometimes), with hostile fields over it; a field may repeat."""
    base = dict(valid.get(rule.endpoint, {})) if draw(st.booleans()) else {}
    value = hostile | st.lists(hostile, min_size=2, max_size=3)
    base.update(draw(st.dictionaries(st.sampled_from(keys), value, max_size=5)))
    for key in draw(st.lists(st.sampled_from(sorted(base) or ["name"]), max_size=2)):
        base.pop(key, None)  # missing fields
    return base


FUZZ = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- Fuzzing -----------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_hostile_forms_on_every_endpoint(world, data):
    """Garbage in every form field (and the endpoint's own good form with one field gone bad)."""
    rule = data.draw(st.sampled_from(world.rules), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=False))
    method = method_for(data.draw, rule, ["GET", "POST"])
    form = form_for(data.draw, rule)
    headers = htmx_headers(data.draw)
    if method == "GET":
        attack(world, "GET", path, query_string=form, headers=headers)
    else:
        attack(world, "POST", path, data=form, headers=headers)


@FUZZ
@given(data=st.data())
def test_hostile_urls_and_queries_on_every_endpoint(world, data):
    """Forged links, ids of the other crew and ids beyond any integer, odd query strings."""
    rule = data.draw(st.sampled_from(world.rules), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=True))
    method = method_for(data.draw, rule, ["GET", "POST", "HEAD", "PUT", "DELETE"])
    query = form_for(data.draw, rule, VALID_QUERIES, QUERY_KEYS)
    attack(world, method, path, query_string=query, headers=htmx_headers(data.draw))


def _body(draw, rule):
    """A request body of the wrong kind: files, JSON, bytes that are not UTF-8, broken multipart."""
    form = dict(VALID_FORMS.get(rule.endpoint, {}))
    kind = draw(st.sampled_from(["file", "json", "bytes", "multipart", "huge"]), label="body")
    if kind == "file":
        field = draw(st.sampled_from(sorted(form) or list(FORM_KEYS)), label="file field")
        content = draw(st.binary(max_size=200))
        form[field] = (io.BytesIO(content), draw(st.sampled_from(["x.txt", "<script>xss(1)</script>.png", ""])))
        return {"data": form, "content_type": "multipart/form-data"}
    if kind == "json":
        return {"json": draw(st.one_of(st.just(form), st.lists(st.integers()), st.none(), hostile))}
    if kind == "bytes":
        raw = draw(st.sampled_from([b"name=%FF%FE%00&number=%C0%AF", b"\xff\xfe\x00\x01", b"=&=&&==", b"a" * 5000]))
        return {"data": raw, "content_type": draw(st.sampled_from(
            ["application/x-www-form-urlencoded", "text/plain", "application/octet-stream"]))}
    if kind == "multipart":
        return {"data": b"--b\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx",
                "content_type": draw(st.sampled_from(["multipart/form-data", "multipart/form-data; boundary=b"]))}
    field = draw(st.sampled_from(sorted(form) or ["name"]), label="huge field")
    form[field] = "A" * 600_000  # beyond Flask's form memory limit
    return {"data": form}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_body_types_on_every_post_endpoint(world, data):
    """Bodies of the wrong type: a file where a name goes, JSON, non-UTF-8 bytes, broken multipart."""
    posts = [rule for rule in world.rules if "POST" in rule.methods]
    rule = data.draw(st.sampled_from(posts), label="rule")
    path = fill(rule, url_values(data.draw, world, rule, huge_ids=False))
    attack(world, "POST", path, headers=htmx_headers(data.draw), **_body(data.draw, rule))


JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(2**63, 2**70), st.integers(-(2**70), -(2**63)),
    st.floats(), st.sampled_from(PAYLOADS), st.lists(st.integers(-2, 5), max_size=5),
    st.dictionaries(st.sampled_from(["name", "number", "seat", "seats", "rounds", "hands"]), st.integers(-1, 3),
                    max_size=2),
)


def _json_paths(node, path=()):
    yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from _json_paths(child, (*path, key))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_restore_files(world, data):
    """A crew export with one to three values swapped for anything JSON can hold, restored: a
    new crew or a message, never a 5xx, never a row of another crew touched."""
    document = json.loads(world.export)
    paths = sorted(_json_paths(document), key=repr)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        path = data.draw(st.sampled_from(paths), label="path")
        if not path:
            continue
        parent = document
        try:
            for key in path[:-1]:
                parent = parent[key]
            if data.draw(st.booleans(), label="drop"):
                del parent[path[-1]]
            else:
                parent[path[-1]] = data.draw(JSON_VALUES, label="value")
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed or replaced this part
    crews = world.query("SELECT count(*) FROM crews")[0][0]
    body = json.dumps(document).encode()
    response = attack(world, "POST", "/restore", data={"file": (io.BytesIO(body), "export.json")},
                      content_type="multipart/form-data", headers=htmx_headers(data.draw))
    restored = response.status_code == 303 or "HX-Redirect" in response.headers
    # A restore stores a whole new crew or nothing at all.
    assert world.query("SELECT count(*) FROM crews")[0][0] == crews + restored


def _damaged_export(world, change):
    document = json.loads(world.export)
    change(document)
    return json.dumps(document).encode()


def _drop_crew_created(document):
    del document["crew"]["created"]


def _huge_round_created(document):
    document["games"][0]["rounds"][0]["created"] = 2**64


def _dict_as_round_updated(document):
    document["games"][0]["rounds"][0]["updated"] = {"at": 1}


def _drop_round_changes(document):
    del document["games"][0]["rounds"][0]["changes"]


def _object_as_bid_suit(document):
    document["games"][0]["rounds"][0]["bid"]["suit"] = {"S": 1}


def _object_as_rematch_of(document):
    document["games"][0]["rematch_of"] = {"number": 1}


@pytest.mark.parametrize("change", [_drop_crew_created, _huge_round_created, _dict_as_round_updated,
                                    _drop_round_changes, _object_as_bid_suit, _object_as_rematch_of])
def test_a_damaged_restore_file_is_refused_with_a_message(world, change):
    """Every value the restore stores is checked first: a missing key, an integer beyond 64 bits
    or an object where text or a number goes is a RestoreError message (each of these was a 500
    while the restore was being written; kept as regression cases)."""
    body = _damaged_export(world, change)
    crews = world.query("SELECT count(*) FROM crews")
    world.errors.clear()
    response = world.attacker.post("/restore", data={"file": (io.BytesIO(body), "export.json")},
                                   content_type="multipart/form-data")
    assert response.status_code == 422, "".join(world.errors)[-800:]
    assert world.query("SELECT count(*) FROM crews") == crews


def test_every_endpoint_with_every_kind_of_id(world):
    """Each rule of the url map, with the attacker's ids, the victim's ids behind the attacker's
    link, and forged links: GET and POST, with and without htmx, garbage in every field."""
    garbage = {key: XSS_PAYLOADS[0] for key in FORM_KEYS}
    query = {key: "' OR '1'='1" for key in QUERY_KEYS}
    for rule in world.rules:
        (own_player, *_), (victim_player, *_) = world.ids("player_id")
        own = {"token": world.attacker_token, "game_id": world.attacker_game, "number": 3, "seat": 1,
               "version": HTMX_VERSION, "filename": "app.css", "player_id": own_player, "other_id": own_player + 1}
        theirs = {"game_id": world.victim_game, "player_id": victim_player, "other_id": victim_player + 1}
        for values in (own, {**own, **theirs}, {**own, "token": world.forged_tokens()[0]},
                       {**own, **theirs, "token": world.forged_tokens()[6]}):
            path = fill(rule, values)
            for headers in ({}, {"HX-Request": "true"}):
                attack(world, "GET", path, query_string=query, headers=headers)
                attack(world, "POST", path, data=garbage, headers=headers)


# --- What comes back ---------------------------------------------------------------------------

SCRIPT_NAME = "<script>alert(1)</script>"
IMG_NAME = '"><img src=x onerror=alert(1)>'


def test_script_names_are_escaped_on_every_page(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "o.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    token, game_id = _crew_with_game(client, SCRIPT_NAME, (SCRIPT_NAME, IMG_NAME, "<b>Cleo</b>", "Dan&amp;"))
    game = f"/c/{token}/games/{game_id}"
    pages = ["/", f"/c/{token}/", f"/c/{token}/games/new", game, game + "/live?v=0", game + "/rounds/1",
             game + "/rounds/2", game + "/rounds/2/hands/1", game + "/rounds/2/live?v=0",
             game + "/rounds/1/what-if?rank=K&from=0&to=1", f"/c/{token}/tools/", f"/c/{token}/tools/rules",
             f"/c/{token}/tools/pile", f"/c/{token}/tools/bid", f"/c/{token}/tools/trick"]
    for page in pages:
        for headers in ({}, {"HX-Request": "true"}):
            body = client.get(page, headers=headers).get_data(as_text=True)
            assert "<script>alert" not in body and "<img src=x" not in body and "<b>Cleo" not in body, page
    board = client.get(game).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in board
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in board
    assert "Dan&amp;amp;" in board


# --- CSRF on -----------------------------------------------------------------------------------

def test_with_csrf_on_a_forged_post_is_refused_and_changes_nothing(world):
    """The victim's own browser (its session cookie) tricked into posting to each endpoint by
    another site: no token, a made-up one, or the token of another session."""
    app = create_app({"DATABASE": world.path, "SECRET_KEY": "hostile-input", "GUESS_LIMIT": "1000000 per minute"})
    assert app.config.get("WTF_CSRF_ENABLED", True)
    browser, stranger = app.test_client(), app.test_client()
    crew_page = browser.get(f"/c/{world.victim_token}/").get_data(as_text=True)
    real = re.search(r'"X-CSRFToken": "([^"]+)"', crew_page).group(1)
    other = re.search(r'"X-CSRFToken": "([^"]+)"', stranger.get("/").get_data(as_text=True)).group(1)
    before = world.victim_rows()
    victim_player = world.ids("player_id")[1][0]
    values = {"token": world.victim_token, "game_id": world.victim_game, "number": 3, "seat": 1,
              "player_id": victim_player, "other_id": victim_player + 1}
    posts = [rule for rule in world.rules if "POST" in rule.methods]
    assert len(posts) >= 20
    for rule in posts:
        path = fill(rule, values)
        form = VALID_FORMS.get(rule.endpoint, {})
        for headers, extra in (({}, {}), ({"X-CSRFToken": "forged"}, {}), ({"X-CSRFToken": other}, {}),
                               ({"HX-Request": "true"}, {"csrf_token": other})):
            response = browser.post(path, data={**form, **extra}, headers=headers)
            assert response.status_code == 400, (path, headers, response.status_code)
            assert "Reload to continue" in response.get_data(as_text=True)
    assert world.victim_rows() == before
    # The same browser with its real token gets through: the refusals above were the CSRF check.
    response = browser.post(f"/c/{world.victim_token}/games/{world.victim_game}/seats/2",
                            headers={"X-CSRFToken": real, "HX-Request": "true"})
    assert response.status_code == 200
    assert world.victim_rows() != before


# --- Regressions: each of these was a 500 or a leak until fixed --------------------------------

@pytest.mark.parametrize("suffix", [
    "/games/{huge}", "/games/{huge}/live", "/games/{game}/rounds/{huge}", "/games/{game}/rounds/{huge}/live",
    "/games/{game}/rounds/{huge}/what-if", "/games/{game}/rounds/{huge}/hands/0",
])
def test_an_id_beyond_64_bits_in_the_url_is_a_404_not_a_500(world, suffix):
    """Flask's int converter takes any length of digits; SQLite raises OverflowError beyond 2**63."""
    path = f"/c/{world.attacker_token}" + suffix.format(huge=HUGE, game=world.attacker_game)
    world.errors.clear()
    response = world.attacker.get(path)
    assert response.status_code == 404, "".join(world.errors)


@pytest.mark.parametrize(("path", "field"), [("/crews", "name"), ("{crew}games", "player_0")])
def test_a_file_posted_as_a_name_is_refused_not_a_500(world, path, field):
    """`clean_name` calls .split() on whatever the field holds: a FileStorage for a multipart file."""
    crew = f"/c/{world.attacker_token}/"
    form = {**VALID_FORMS["games.game_create"], "name": "x", field: (io.BytesIO(b"Ann"), "name.txt")}
    games_before = world.attacker_games
    world.errors.clear()
    response = world.attacker.post(path.format(crew=crew), data=form, content_type="multipart/form-data")
    assert response.status_code in (400, 422), "".join(world.errors)
    assert world.attacker_games == games_before


@pytest.mark.parametrize("body", ['"a name"', "[1, 2]", "5", '{"name": 5}', '{"name": {"first": "Ann"}}'])
def test_a_json_body_that_is_not_an_object_of_strings_is_refused_not_a_500(world, body):
    """Flask-WTF reads a JSON request body as the form: a bare string, a list, a number, or a
    non-string value reaches the form machinery as-is and raises (ValueError, TypeError,
    AttributeError). Any phone can send one with its own CSRF token in the header."""
    crews_before = world.query("SELECT count(*) FROM crews")
    world.errors.clear()
    response = world.attacker.post("/crews", data=body, content_type="application/json")
    assert response.status_code in (400, 415, 422), "".join(world.errors)
    assert world.query("SELECT count(*) FROM crews") == crews_before


# --- Found along the way (caching, not hostile input); bench/page_weight.py shows the effect ---

def _static_answer(world):
    """A phone that opened a crew (so its session is permanent) fetching the versioned CSS."""
    phone = world.app.test_client()
    page = phone.get(f"/c/{world.attacker_token}/").get_data(as_text=True)
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]{12})"', page).group(1)
    response = phone.get(css, headers={"Accept-Encoding": "gzip"})
    response.close()
    return response


def test_versioned_static_files_are_not_sent_with_no_cache(world):
    """send_file marks the answer `no-cache` and assets.py only adds max-age/immutable on top:
    `no-cache, public, max-age=31536000, immutable` makes the browser revalidate every file on
    every page view (304s in bench/page_weight.py's repeat visit)."""
    assert "no-cache" not in _static_answer(world).headers["Cache-Control"]


def test_static_files_do_not_set_the_session_cookie(world):
    """With a permanent session, every answer (static files too) re-sends `Set-Cookie: session=`
    (a new signature every second) with `Vary: Cookie`: chromium then revalidates a cached file
    whenever the cookie changed, and each answer carries ~360 bytes of headers it does not need."""
    response = _static_answer(world)
    assert "Set-Cookie" not in response.headers
    assert "Cookie" not in response.headers.get("Vary", "")
