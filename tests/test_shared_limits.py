"""The guessing, passphrase and crew limits hold across worker processes: two apps on one
database file (as two waitress processes would be) count against one allowance per address."""
import pytest

from app import create_app


def make(path, **config):
    return create_app({"DATABASE": str(path), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False, **config})


@pytest.fixture
def workers(tmp_path):
    return [make(tmp_path / "orchard.db", GUESS_LIMIT="5 per minute", PASSPHRASE="cider",
                 PASSPHRASE_LIMIT="3 per 10 minutes", CREW_LIMIT="4 per hour") for _ in range(2)]


def test_two_workers_share_the_count_of_wrong_links(workers):
    first, second = (app.test_client() for app in workers)
    for attempt in range(3):
        assert first.get(f"/c/guess-{attempt}/").status_code == 404
    for attempt in range(3, 5):
        assert second.get(f"/c/guess-{attempt}/").status_code == 404
    assert first.get("/c/guess-5/").status_code == 429
    assert second.get("/c/guess-6/").status_code == 429
    other = {"REMOTE_ADDR": "10.0.0.7"}
    assert second.get("/c/guess-7/", environ_base=other).status_code == 404


def test_two_workers_share_the_count_of_wrong_passphrases(workers):
    first, second = (app.test_client() for app in workers)
    for client, guess in ((first, "beer"), (second, "wine"), (first, "mead")):
        response = client.post("/crews", data={"name": "Sneaky", "passphrase": guess})
        assert response.status_code == 403
    response = second.post("/crews", data={"name": "Sneaky", "passphrase": "cider"})
    assert response.status_code == 429


def test_two_workers_share_the_count_of_new_crews(workers):
    first, second = (app.test_client() for app in workers)
    for client in (first, second, first, second):
        assert client.post("/crews", data={"name": "Night", "passphrase": "cider"}).status_code == 303
    assert first.post("/crews", data={"name": "One more", "passphrase": "cider"}).status_code == 429


def test_the_counters_live_beside_the_database_readable_by_the_owner_only(workers, tmp_path):
    counters = tmp_path / "orchard-limits.db"
    assert counters.exists()
    assert counters.stat().st_mode & 0o777 == 0o600


def test_a_blocked_address_cannot_tell_a_real_round_link_from_a_wrong_one(tmp_path):
    """Once over the limit, every answer is 429, even on round pages, whose blueprint looks the
    link up before any view runs (a wrong round link used to answer 404, a real one 429)."""
    app = make(tmp_path / "orchard.db", GUESS_LIMIT="3 per minute")
    client = app.test_client()
    crew = client.post("/crews", data={"name": "Real"}).headers["Location"]
    game = client.post(crew + "games", data={
        "player_0": "Ann", "player_1": "Ben", "player_2": "Cleo", "player_3": "Dan", "tie_rule": "play-on",
        "min_bid": "1", "redeal_moves_deal": "no", "first_dealer": "0", "goal": "250"}).headers["Location"]
    assert client.post(game + "/rounds").status_code == 303
    guesser = {"REMOTE_ADDR": "10.0.0.9"}
    for attempt in range(3):
        assert client.get(f"/c/guess-{attempt}/", environ_base=guesser).status_code == 404
    wrong = game.replace(crew, "/c/not-a-crew/") + "/rounds/1"
    assert client.get(wrong, environ_base=guesser).status_code == 429
    assert client.get(wrong + "/live?v=0", environ_base=guesser).status_code == 429
    assert client.get(game + "/rounds/1", environ_base=guesser).status_code == 429
