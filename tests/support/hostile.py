"""Two crews in one database, an attacker who knows every id but not the victim's link, and
the request builders the hostile-input tests draw from (`app.url_map`, GET and POST, with and
without `HX-Request`)."""
import re
import secrets
import sqlite3
import traceback
from contextlib import closing
from urllib.parse import quote

from flask import got_request_exception
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from app import create_app
from store.crews import token_hash
from support.db_watch import Watched
from support.html_text import field_value
from support.rounds import BIG_COUNTS, BIG_TARGETS, exact_round, save_quick_round
from web.static_files import HTMX_VERSION

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
             "target", "held", "count", "based_on", "rank", "mode", "version", "next", "done", "force", "seat",
             "csrf_token", "rematch_of", "crew_id", "game_id", "id", "text", "other", "player_id")
QUERY_KEYS = ("v", "seat", "calls", "next", "cards", "counts", "pick", "mode", "target", "trump", "change",
              "card", "rank", "from", "to", "player", "since", "until", "ahead", "behind")
# A form each endpoint accepts, so that one bad field at a time reaches deeper than the first check.
VALID_FORMS = {
    "crews.crew_create": {"name": "Fuzz crew"},
    "crews.house_rules_update": {"goal": "250", "tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no"},
    "games.game_create": {**{f"player_{s}": n for s, n in enumerate(ATTACKER_NAMES)}, **GAME_DEFAULTS},
    "rounds.bid_update": {"bidder": "1", "number": "2", "suit": "S"},
    "rounds.mode_update": {"mode": "exact"},
    "rounds.target_update": {"rank": "7", "suit": "H"},
    "rounds.card_update": {"held": "1"},
    "rounds.count_update": {"count": "3"},
    "rounds.hand_done": {"done": "1"},
    "rounds.round_save": {"version": "1"},
    "games.seat_take": {"force": "1"},
    "history.game_note_update": {"text": "A fine night"},
    "history.night_note_update": {"text": "At Ann's"},
    "history.player_rename": {"name": "Annie"},
    "history.player_merge": {"other": "2"},  # players 1-4 are the victim's
    "door.door_check_in": {"name": "Door Dora"},
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


def _open_round(client, game_url, targets, counts):
    """A round started and part entered by rank, left open."""
    url = _post_ok(client, game_url + "/rounds").headers["Location"]
    _post_ok(client, url + "/bid", {"bidder": "0", "number": "1", "suit": "D"})
    for seat, target in enumerate(targets):
        # A seat starts in the mode it used last round: these rounds are entered by rank.
        _post_ok(client, url + f"/hands/{seat}/mode", {"mode": "quick"})
        _post_ok(client, url + f"/hands/{seat}/target", {"target": target})
    for seat, pile in enumerate(counts):
        for rank, n in pile.items():
            _post_ok(client, url + f"/hands/{seat}/counts/{rank}", {"count": n})
    return url


def _crew_with_game(client, crew_name, names):
    crew_url = _post_ok(client, "/crews", {"name": crew_name}).headers["Location"]
    data = {**{f"player_{s}": n for s, n in enumerate(names)}, **GAME_DEFAULTS}
    game_url = _post_ok(client, crew_url + "games", data).headers["Location"]
    _post_ok(client, game_url + "/seats/0")
    first = save_quick_round(client.application, game_url, BIG_TARGETS, BIG_COUNTS)
    _post_ok(client, first + "/agree")
    second = _post_ok(client, game_url + "/rounds").headers["Location"]
    exact_round(client, second)
    version = field_value(client.get(second), "version")
    _post_ok(client, second + "/save", {"version": version}, expect=(303,))
    # Round 3 stays open, part entered: rounds 1 (quick) and 2 (exact) are saved.
    _open_round(client, game_url, ["7H", "8H", "9H", "JH"], [{"A": 2}, {}, {}, {}])
    _post_ok(client, crew_url + "seasons", {"name": f"{crew_name} season", "first_day": "2000-01-01", "minimum": "1"},
             expect=(303,))
    token = crew_url.split("/")[2]
    return token, int(game_url.rsplit("/", 1)[1])


class World:
    """One database, a victim crew and an attacker crew, and the app serving both."""

    def __init__(self, path):
        self.path = str(path)
        self.app = create_app({
            "DATABASE": self.path, "SECRET_KEY": "hostile-input", "WTF_CSRF_ENABLED": False,
            # The guessing and crew limits are tested elsewhere; here they would only turn
            # answers into 429s.
            "GUESS_LIMIT": "1000000 per minute", "CREW_LIMIT": "1000000 per minute",
        })
        self.victim = self.app.test_client()
        self.attacker = self.app.test_client()
        self.victim_token, self.victim_game = _crew_with_game(self.victim, VICTIM_CREW, VICTIM_NAMES)
        attacker_token, self.attacker_game = _crew_with_game(self.attacker, "Fuzz crew", ATTACKER_NAMES)
        self._attacker_token = attacker_token
        self.attacker_crew = self._crew_id(attacker_token)
        self.victim_crew = self._crew_id(self.victim_token)
        self.rules = sorted(
            (rule for rule in self.app.url_map.iter_rules()), key=lambda rule: (rule.rule, rule.endpoint)
        )
        self.errors = []
        self._victim_rows = None
        got_request_exception.connect(self._record_error, self.app, weak=False)
        export = self.attacker.get(f"/c/{attacker_token}/history/export.json")
        assert export.status_code == 200
        self.export = export.get_data(as_text=True)

    def _record_error(self, sender, exception, **extra):
        self.errors.append("".join(traceback.format_exception(exception))[-1500:])

    def query(self, sql, params=()):
        with closing(sqlite3.connect(self.path)) as conn:
            return conn.execute(sql, params).fetchall()

    def _crew_id(self, token):
        return self.query("SELECT id FROM crews WHERE token_hash = ?", [token_hash(token)])[0][0]

    @property
    def attacker_token(self):
        """The attacker's link as it is now. The fuzzer may have rotated it, and the store keeps
        only its hash, so a rotated link is set back to one the attacker knows."""
        stored = self.query("SELECT token_hash FROM crews WHERE id = ?", [self.attacker_crew])[0][0]
        if stored != token_hash(self._attacker_token):
            self._attacker_token = secrets.token_urlsafe(32)
            with closing(sqlite3.connect(self.path)) as conn, conn:
                conn.execute("UPDATE crews SET token_hash = ? WHERE id = ?",
                             [token_hash(self._attacker_token), self.attacker_crew])
        return self._attacker_token

    def ids(self, name):
        """The attacker's and the victim's ids for a URL part named like a table's key."""
        table = {"game_id": "games", "player_id": "players", "other_id": "players", "season_id": "seasons"}.get(name)
        if table is None:
            return [1, 2, 3], []
        rows = self.query(f"SELECT id, crew_id FROM {table} ORDER BY id")
        return ([i for i, crew in rows if crew == self.attacker_crew],
                [i for i, crew in rows if crew == self.victim_crew])

    @property
    def attacker_games(self):
        return [row[0] for row in self.query("SELECT id FROM games WHERE crew_id = ?", [self.attacker_crew])]

    def victim_rows(self):
        """The victim's rows (`read_victim_rows`), read again only after a commit to the file."""
        if self._victim_rows is None:
            self._victim_rows = Watched(self.path, self.read_victim_rows)
        return self._victim_rows()

    def read_victim_rows(self):
        """Every row of every table that belongs to the victim's crew or points into it (by its
        crew, one of its games, rounds or players), so tables added later are covered too."""
        owned = {
            "crew_id": "SELECT :crew",
            "game_id": "SELECT id FROM games WHERE crew_id = :crew",
            "rematch_of": "SELECT id FROM games WHERE crew_id = :crew",
            "round_id": "SELECT id FROM rounds WHERE game_id IN (SELECT id FROM games WHERE crew_id = :crew)",
            "player_id": "SELECT id FROM players WHERE crew_id = :crew",
            "season_id": "SELECT id FROM seasons WHERE crew_id = :crew",
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


# --- One request and its checks ----------------------------------------------------------------

def fill(rule, values):
    """The rule's path with each URL part replaced by the given (escaped) text ("1" for a part
    the caller has no value for: a route added since this test was written)."""
    path = rule.rule
    for name in rule.arguments:
        default = "game" if name == "kind" else "1"  # a season's event: a game or a night
        path = re.sub(rf"<(?:[^:<>]+:)?{name}>", quote(str(values.get(name, default)), safe=""), path)
    return path


def attack(world, method, path, **kwargs):
    """Send one request from the attacker's browser and check what no request may ever do."""
    before = world.victim_rows()
    world.errors.clear()
    response = world.attacker.open(path, method=method, **kwargs)
    body = response.get_data().decode("utf-8", "replace")  # the favicon is a PNG
    response.close()  # a static file's answer holds the file open until closed
    where = f"{method} {path} {({k: (repr(v)[:200]) for k, v in kwargs.items()})}"
    assert response.status_code < 500, f"{response.status_code} from {where}\n{''.join(world.errors)}"
    assert world.victim_rows() == before, f"the victim's crew changed after {where}"
    everything = body + "".join(f"{k}: {v}\n" for k, v in response.headers.items())
    for secret in world.secrets():
        assert secret not in everything, f"{secret!r} leaked from the victim's crew by {where}"
    # A page is HTML; a file (a CSV or JSON export, an image) holds names as they were typed, and
    # must then be one no browser draws as a page: its own type, never sniffed.
    content_type = response.headers.get("Content-Type", "")
    if content_type and not content_type.startswith("text/html"):
        assert response.headers.get("X-Content-Type-Options") == "nosniff", f"{content_type} may be sniffed: {where}"
        return response
    for raw in XSS_RAW:
        assert raw not in body, f"unescaped {raw!r} in the answer to {where}: {body[max(0, body.find(raw) - 300):body.find(raw) + 60]!r}"
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
        "code": st.sampled_from(["7C", "10S", "AH", "ZZ", "10"]) | text,
        "rank": st.sampled_from(["K", "10", "A", "1", "KS"]) | text,
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
