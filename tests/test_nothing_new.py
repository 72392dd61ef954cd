"""A game's live poll that finds nothing new is answered before Flask (web/nothing_new.py), and
only ever as Flask would have answered it: the same status, headers and (empty) body. Everything
else goes on to Flask: a link not allowed, a game over, a changed version, damage, an address out
of guesses, a session whose expiry moves on today, a replaced link.

The state machine polls with every kind of link, phone and version in random order between the
table's own steps (bids, seats taken, a link replaced, a game abandoned, a database marked
damaged). After every poll: an answer the middleware gave is the answer Flask gives to the same
request, and a plain 204 from Flask (no cookie to set) is one the middleware would have given."""
import re
import tempfile
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

from flask import request_started
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from scoring import PLAYERS
from services import links as link_service
from store import close_thread_connections
from store.integrity import mark_damaged
from support.apps import make_app
from support.html_text import poll_url
from support.profiles import examples
from support.table import Table
from web.access import TABLE, WATCH
from web.nothing_new import NothingNew

SECRET = "test-secret"


class Flask:
    """Which requests reached Flask (its `request_started` signal)."""

    def __init__(self, app):
        self.started = 0
        request_started.connect(self._started, app, weak=False)

    def _started(self, sender, **extra):
        self.started += 1


@contextmanager
def flask_only(app):
    """The app with the middleware taken out: every request reaches Flask."""
    shortcut = app.wsgi_app
    assert isinstance(shortcut, NothingNew)
    app.wsgi_app = shortcut.wsgi_app
    try:
        yield
    finally:
        app.wsgi_app = shortcut


# A CSRF token signed in the page (its data, then the second it was signed and its signature): two
# answers a second apart differ there and nowhere else (a fresh clone's run once failed so).
SIGNED_TOKEN = re.compile(rb"\b(Ij[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")


def answer(response):
    """What a phone gets, the time a CSRF token was signed left out."""
    return (response.status_code, list(response.headers.items()),
            SIGNED_TOKEN.sub(rb"\1.<signed at>.<signature>", response.get_data()))


def test_two_answers_a_second_apart_are_one_answer_and_another_token_is_not():
    class Response:
        def __init__(self, body):
            self.status_code, self.headers, self.body = 200, {}, body

        def get_data(self):
            return self.body
    page = b'<body hx-headers=\'{"X-CSRFToken": "IjU1NWYwMWZmZWVmZGUi.axV7Zw.UdhOuu-mSHNTSBgPsGSYh3bc7Uk"}\'>'
    later = page.replace(b"axV7Zw.UdhOuu-mSHNTSBgPsGSYh3bc7Uk", b"axV7aA.TYpuWbisMfsqQSDsAPY-p3iYqGI")
    other = page.replace(b"IjU1NWYwMWZmZWVmZGUi", b"IjZmYmE0MGVkYTUxYTci")
    assert answer(Response(page)) == answer(Response(later))
    assert answer(Response(page)) != answer(Response(other))


def table_world(path, **config):
    """A crew with two games, each with round 1 open; the links a poll can come by."""
    app = make_app(path, **config)
    crew = app.test_client()
    table = Table(crew)
    table.start_crew()
    games = []
    for names in (("Ann", "Ben", "Cleo", "Dan"), ("Eve", "Fay", "Gus", "Hal")):
        game_url = table.start_game(names=names)
        games.append({"url": game_url, "id": int(game_url.rsplit("/", 1)[1]), "round": table.start_round()})
    token = table.crew_url.split("/")[2]
    with app.app_context():
        crew_id = link_service.resolve(token).crew["id"]
        tokens = {"crew": token, "wrong": "x" * 43}
        for game in games:
            tokens[f"table {game['id']}"] = link_service.token_for(SECRET, crew_id, TABLE, game_id=game["id"])
            tokens[f"watch {game['id']}"] = link_service.token_for(SECRET, crew_id, WATCH, game_id=game["id"])
    close_thread_connections()
    return app, crew, crew_id, games, tokens


def live_url(token, game, board, version, me=None):
    path = f"/c/{token}/games/{game['id']}" + ("" if board else "/rounds/1") + "/live"
    query = f"?v={version}" + ("" if board else "&r=1&seat=0") + ("" if me is None else f"&me={me}")
    return path + query


def current_version(client, url):
    """The version the page at `url` polls with."""
    return poll_url(client.get(url).get_data(as_text=True)).split("v=")[1].split("&")[0]


# --- Examples ---------------------------------------------------------------------------------

def test_a_nothing_new_poll_never_reaches_flask_and_is_answered_as_flask_would(tmp_path):
    app, crew, _, games, tokens = table_world(tmp_path / "orchard.db")
    flask = Flask(app)
    game = games[0]
    for link in ("crew", f"table {game['id']}", f"watch {game['id']}"):
        for board in (True, False):
            if link.startswith("watch") and not board:
                continue  # a watch link reads the scoreboard only
            page = game["url"].replace(tokens["crew"], tokens[link]) + ("" if board else "/rounds/1")
            url = live_url(tokens[link], game, board, current_version(crew, page))
            before = flask.started
            through_shortcut = crew.get(url, headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
            assert flask.started == before, f"{link}: the poll reached Flask"
            with flask_only(app):
                through_flask = crew.get(url, headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
            assert flask.started == before + 1
            assert through_shortcut.status_code == 204, (link, board)
            assert answer(through_shortcut) == answer(through_flask)


def test_what_the_shortcut_leaves_to_flask(tmp_path):
    """A changed version, another game's table link, a wrong link, a replaced one, a game over."""
    app, crew, crew_id, games, tokens = table_world(tmp_path / "orchard.db")
    flask = Flask(app)
    game, other = games
    version = current_version(crew, game["url"])

    def by_flask(url):
        started = flask.started
        status = crew.get(url).status_code
        assert flask.started == started + 1, f"{url} did not reach Flask"
        return status

    assert by_flask(live_url(tokens["crew"], game, True, int(version) - 1)) == 200
    assert by_flask(live_url(tokens[f"table {other['id']}"], game, True, version)) == 404
    assert by_flask(live_url(tokens["wrong"], game, True, version)) == 404
    with app.app_context():
        link_id = next(row["id"] for row in link_service.of_crew(SECRET, crew_id)
                       if row["kind"] == TABLE and row["game_id"] == game["id"])
        link_service.replace(SECRET, crew_id, link_id)
    close_thread_connections()
    assert by_flask(live_url(tokens[f"table {game['id']}"], game, True, version)) == 410
    version = current_version(crew, other["url"] + "/rounds/1")
    crew_url = game["url"].rsplit("/games", 1)[0]
    assert crew.post(f"{crew_url}/history/games/{other['id']}/abandon").status_code in (200, 303)
    # sent to how the game ended, through its watch link
    assert by_flask(live_url(tokens[f"table {other['id']}"], other, False, version)) == 303


def test_a_session_whose_expiry_moves_on_today_gets_its_cookie_from_flask(tmp_path):
    app, crew, _, games, tokens = table_world(tmp_path / "orchard.db")
    game = games[0]
    url = live_url(tokens["crew"], game, True, current_version(crew, game["url"]))
    flask = Flask(app)
    signer = app.session_interface.get_signing_serializer(app)
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    crew.set_cookie("session", signer.dumps({"device": "phone-1", "_permanent": True, "day": yesterday}))
    first = crew.get(url)
    assert (first.status_code, flask.started) == (204, 1)
    assert "session=" in first.headers["Set-Cookie"]  # the new day, from Flask
    second = crew.get(url)
    assert (second.status_code, flask.started) == (204, 1)  # the day moved on: the shortcut's again
    assert "Set-Cookie" not in second.headers


def test_damage_and_an_address_out_of_guesses_are_flasks_to_answer(tmp_path):
    app, crew, _, games, tokens = table_world(tmp_path / "orchard.db", GUESS_LIMIT="3 per minute")
    game = games[0]
    url = live_url(tokens["crew"], game, True, current_version(crew, game["url"]))
    assert crew.get(url).status_code == 204
    for _ in range(3):
        assert crew.get(live_url(tokens["wrong"], game, True, 1)).status_code == 404
    assert crew.get(url).status_code == 429
    other_address = crew.get(url, environ_overrides={"REMOTE_ADDR": "10.0.0.9"})
    assert other_address.status_code == 204
    mark_damaged(app.config["DATABASE"], "a test's damage")
    assert crew.get(url, environ_overrides={"REMOTE_ADDR": "10.0.0.9"}).status_code == 503


def test_behind_the_trusted_proxy_the_guesses_counted_are_the_visitors(tmp_path):
    app, crew, _, games, tokens = table_world(tmp_path / "orchard.db", GUESS_LIMIT="3 per minute",
                                              TRUSTED_PROXY="127.0.0.1")
    flask = Flask(app)
    game = games[0]
    url = live_url(tokens["crew"], game, True, current_version(crew, game["url"]))
    guesser, player = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "198.51.100.2"}
    for _ in range(3):
        assert crew.get(live_url(tokens["wrong"], game, True, 1), headers=guesser).status_code == 404
    assert crew.get(url, headers=guesser).status_code == 429
    started = flask.started
    assert crew.get(url, headers=player).status_code == 204
    assert flask.started == started  # the player's poll: the shortcut's


def test_crafted_addresses_are_answered_as_flask_answers_them(tmp_path):
    app, crew, _, games, tokens = table_world(tmp_path / "orchard.db")
    game = games[0]
    version = current_version(crew, game["url"])
    token, encoded = tokens["crew"], "".join(f"%{ord(c):02X}" for c in tokens["crew"])
    base = f"/c/{token}/games/{game['id']}"
    for url in (f"/c/{encoded}/games/{game['id']}/live?v={version}",  # the same path, percent-encoded
                f"{base}/live?v={version}&v=0", f"{base}/live?v=0&v={version}", f"{base}/live/?v={version}",
                f"/c/{token}//games/{game['id']}/live?v={version}", f"{base}/live?v={version}%00",
                f"/c/{token}é/games/{game['id']}/live?v={version}", f"/c/{token}/games/0{game['id']}/live?v={version}",
                f"{base}/rounds/99/live?v={version}", f"{base}/rounds/1/live?v={'9' * 400}",
                f"/c/{token}/games/{'9' * 30}/live?v={version}", f"{base}/live?v={version}#fragment"):
        for method in ("GET", "HEAD"):
            shortcut = crew.open(url, method=method)
            with flask_only(app):
                plain = crew.open(url, method=method)
            assert answer(shortcut) == answer(plain), (method, url)
    assert crew.get(f"/c/{encoded}/games/{game['id']}/live?v={version}").status_code == 204


# What Flask runs around a game's live poll, as the middleware was written against. A hook added
# (or taken out) may change a poll's answer: ask it in web/nothing_new.py too, then list it here.
HOOKS = {
    ("url_value_preprocessors", None): ["app.create_app.<locals>.refuse_a_damaged_file",
                                        "web.security.refuse_guessers", "web.access.check_link"],
    # The round poll's: it only keeps the game's id when the poll is the round's.
    ("url_value_preprocessors", "rounds"): ["web.rounds.page.load_round_context"],
    ("before_request_funcs", None): ["web.security.limit_request_body", "web.security.refuse_json_bodies",
                                     "flask_wtf.csrf.CSRFProtect.init_app.<locals>.csrf_protect",
                                     "app.create_app.<locals>.keep_session_alive"],
    ("after_request_funcs", None): ["web.security.add_security_headers", "web.security.count_guesses",
                                    "web.assets.init_app.<locals>.cache_and_compress",
                                    "app.create_app.<locals>.vary_on_htmx"],
}


def test_the_hooks_around_a_poll_are_the_ones_the_middleware_was_written_against(tmp_path):
    app = make_app(tmp_path / "orchard.db")
    for name in ("url_value_preprocessors", "before_request_funcs", "after_request_funcs", "teardown_request_funcs"):
        for blueprint in (None, "games", "rounds"):
            hooks = [f"{hook.__module__}.{hook.__qualname__}" for hook in getattr(app, name).get(blueprint, [])]
            assert hooks == HOOKS.get((name, blueprint), []), \
                f"{name} of {blueprint or 'the app'} changed: does web/nothing_new.py answer polls as Flask would?"
    assert type(app.session_interface).__module__ == "web.sessions"


# --- The machine --------------------------------------------------------------------------------

# The links a table's phones poll by come up more often than a wrong or a replaced one.
LINKS = st.one_of(st.sampled_from(["crew", "table 1", "watch 1", "table 2", "watch 2"]),
                  st.sampled_from(["wrong", "old table 1", "old watch 2"]))
# "shown": the version the game's page shows now, as a phone that is up to date polls with.
VERSIONS = st.one_of(st.just("shown"), st.integers(0, 8).map(str), st.sampled_from(["", "x", "01", " 1", "%31"]))


class NothingNewMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="orchard-nothing-new-")
        self.app, self.crew, self.crew_id, self.games, self.tokens = table_world(
            Path(self.folder) / "orchard.db", GUESS_LIMIT="30 per minute")
        assert [game["id"] for game in self.games] == [1, 2]
        self.phones = [self.crew] + [self.app.test_client() for _ in range(2)]
        self.flask = Flask(self.app)
        self.damaged = False

    def teardown(self):
        close_thread_connections()

    @rule(phone=st.integers(0, 2), link=LINKS, game=st.integers(0, 1), board=st.booleans(),
          version=VERSIONS, me=st.sampled_from([None, "0", "3"]), htmx=st.booleans(), body=st.booleans())
    def poll(self, phone, link, game, board, version, me, htmx, body):
        """Any link, any game, either poll, any version: what a stranger may send."""
        self._poll(phone, link, self.games[game], board, version, me, htmx, body)

    @rule(phone=st.integers(0, 2), link=st.sampled_from(["crew", "table", "watch"]), game=st.integers(0, 1),
          board=st.booleans(), version=st.sampled_from(["shown", "shown", "0"]), htmx=st.booleans())
    def poll_as_a_phone_does(self, phone, link, game, board, version, htmx):
        """A phone at the table: its own game, by its link, the scoreboard's poll with a watch link."""
        game = self.games[game]
        if link != "crew":
            link = f"{link} {game['id']}"
            board = board or link.startswith("watch")
        self._poll(phone, link, game, board, version, None, htmx, False)

    def _poll(self, phone, link, game, board, version, me, htmx, body):
        client = self.phones[phone]
        if version == "shown":
            version = self.shown(game, board)
        url = live_url(self.tokens.get(link, "y" * 43), game, board, version, me)
        headers = {"HX-Request": "true"} if htmx else {}
        extra = {"data": "x=1", "content_type": "application/x-www-form-urlencoded"} if body else {}
        started = self.flask.started
        full = client.get(url, headers=headers, **extra)
        answered_before_flask = self.flask.started == started
        if self.damaged:  # every answer is the damage page, from Flask
            assert (full.status_code, answered_before_flask) == (503, False)
            return
        assert full.status_code < 500, full.get_data(as_text=True)
        with flask_only(self.app):
            plain = client.get(url, headers=headers, **extra)
        event("answered before Flask" if answered_before_flask else "answered by Flask")
        if answered_before_flask:
            assert full.status_code == 204
            assert answer(full) == answer(plain), url
        elif plain.status_code == 204 and "Set-Cookie" not in plain.headers and "Set-Cookie" not in full.headers \
                and not body:
            raise AssertionError(f"Flask said nothing new, but the shortcut left it: {url}")

    def shown(self, game, board):
        with flask_only(self.app):  # not counted: `poll` counts what reaches Flask
            page = self.crew.get(game["url"] + ("" if board else "/rounds/1"))
        url = poll_url(page.get_data(as_text=True)) if page.status_code == 200 else None
        return url.split("v=")[1].split("&")[0] if url else "0"

    @rule(game=st.integers(0, 1), bidder=st.integers(0, PLAYERS - 1), number=st.integers(1, 6))
    def bid(self, game, bidder, number):
        self.crew.post(self.games[game]["round"] + "/bid", data={"bidder": bidder, "number": number, "suit": "H"})

    @rule(phone=st.integers(0, 2), game=st.integers(0, 1), seat=st.integers(0, PLAYERS - 1))
    def take_seat(self, phone, game, seat):
        game = self.games[game]
        token = self.tokens[f"table {game['id']}"]
        self.phones[phone].post(f"/c/{token}/games/{game['id']}/seats/{seat}", data={"force": "1"})

    @rule(link=st.sampled_from(["table 1", "watch 1", "table 2", "watch 2"]))
    def replace(self, link):
        kind, game_id = link.split()
        with self.app.app_context():
            for row in link_service.of_crew(SECRET, self.crew_id):
                if row["kind"] == kind and row["game_id"] == int(game_id) and row["token"] == self.tokens[link]:
                    link_service.replace(SECRET, self.crew_id, row["id"])
                    self.tokens[f"old {link}"] = self.tokens[link]
                    self.tokens[link] = link_service.token_for(SECRET, self.crew_id, kind, game_id=int(game_id))
        close_thread_connections()

    @rule(game=st.integers(0, 1))
    def abandon(self, game):
        crew_url = self.games[0]["url"].rsplit("/games", 1)[0]
        self.crew.post(f"{crew_url}/history/games/{self.games[game]['id']}/abandon")

    @rule()
    def damage(self):
        mark_damaged(self.app.config["DATABASE"], "a test's damage")
        self.damaged = True


TestNothingNewMachine = NothingNewMachine.TestCase
TestNothingNewMachine.settings = settings(max_examples=examples(60), stateful_step_count=25, deadline=None)
