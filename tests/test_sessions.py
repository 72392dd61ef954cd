"""The session cookie is checked once per distinct cookie (sessions.py): a forged, changed or
expired cookie still gets a new, empty session, and no two requests share a session."""
import pytest
from flask import session

from web import sessions
from app import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})

    @app.get("/_session")
    def show():
        return dict(session)

    @app.post("/_session/<name>")
    def remember(name):
        session.permanent = True
        session["crews"] = [["link", name]]
        return "", 204

    return app


def cookie_of(client):
    return client.get_cookie("session").value


def visitor(app, cookie=None):
    client = app.test_client()
    if cookie:
        client.set_cookie("session", cookie)
    return client


def test_a_cookie_read_again_gives_the_same_session_and_a_fresh_copy(app):
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    first = phone.get("/_session").get_json()
    assert first["crews"] == [["link", "Thursday crew"]]
    # Two requests with the one cookie: changing one session object leaves the next one as stored.
    with app.test_request_context(headers={"Cookie": f"session={cookie_of(phone)}"}) as ctx:
        opened = app.session_interface.open_session(app, ctx.request)
        opened["crews"].append(["other", "Changed in memory"])
    assert phone.get("/_session").get_json() == first


def test_a_changed_or_forged_cookie_gets_an_empty_session_even_after_the_real_one_was_read(app):
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    real = cookie_of(phone)
    assert phone.get("/_session").get_json()["crews"]  # the real one is now kept as checked
    payload, timestamp, signature = real.rsplit(".", 2)
    forged = f"{payload}.{timestamp}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"
    assert visitor(app, forged).get("/_session").get_json() == {}
    assert visitor(app, real[:-1]).get("/_session").get_json() == {}
    other_app = create_app({"DATABASE": app.config["DATABASE"], "SECRET_KEY": "another key"})
    other_app.add_url_rule("/_session", "show", lambda: dict(session))
    assert visitor(other_app, real).get("/_session").get_json() == {}


def test_a_kept_cookie_past_the_session_lifetime_is_refused(app, monkeypatch):
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    assert phone.get("/_session").get_json()["crews"]
    lifetime = app.permanent_session_lifetime.total_seconds()
    now = sessions.time.time()
    monkeypatch.setattr(sessions.time, "time", lambda: now + lifetime + 60)
    assert phone.get("/_session").get_json() == {}


def test_the_cookie_is_checked_once_and_the_kept_ones_are_bounded(app, monkeypatch):
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    phone.get("/_session")  # the first visit of the day writes the day into the cookie
    interface = app.session_interface
    checks = []
    serializer = type(interface.get_signing_serializer(app))
    real_loads = serializer.loads

    def counted(self, *args, **kwargs):
        checks.append(1)
        return real_loads(self, *args, **kwargs)

    monkeypatch.setattr(serializer, "loads", counted)
    for _ in range(5):
        assert phone.get("/_session").get_json()["crews"] == [["link", "Thursday crew"]]
    assert len(checks) == 1

    interface.kept = 3
    for name in "ABCDE":
        other = visitor(app)
        other.post(f"/_session/{name}")
        other.get("/_session")
    assert len(interface._checked) == 3


def test_the_signer_follows_a_changed_key(app):
    """The signing serializer is kept per set of keys: a new key refuses the old cookies unless the
    old key is kept as a fallback, and a cookie signed with the new key is read."""
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    old_cookie = cookie_of(phone)
    assert visitor(app, old_cookie).get("/_session").get_json()["crews"] == [["link", "Thursday crew"]]
    app.secret_key = "rotated"  # the old cookie, checked and kept under the old key, is refused
    assert visitor(app, old_cookie).get("/_session").get_json() == {}
    app.config["SECRET_KEY_FALLBACKS"] = ["test"]
    assert visitor(app, old_cookie).get("/_session").get_json()["crews"] == [["link", "Thursday crew"]]
    fresh = visitor(app)
    fresh.post("/_session/Friday crew")
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert visitor(app, cookie_of(fresh)).get("/_session").get_json()["crews"] == [["link", "Friday crew"]]


def test_an_unchanged_session_writes_no_cookie_and_says_the_answer_varies_with_it(app):
    phone = visitor(app)
    phone.post("/_session/Thursday crew")
    phone.get("/_session")  # the day the session was last used is noted once a day
    response = phone.get("/_session")
    assert "Set-Cookie" not in response.headers
    vary = [part.strip() for part in response.headers["Vary"].split(",")]
    assert sorted(vary) == ["Accept-Encoding", "Cookie", "HX-Request"]
    changed = phone.post("/_session/Friday crew")
    assert "session=" in changed.headers["Set-Cookie"] and "Cookie" in changed.headers["Vary"]
