"""Guessing crew links is slowed per address; real crews keep working for everyone else."""
import pytest

from app import create_app


@pytest.fixture
def guarded(tmp_path):
    app = create_app(
        {"DATABASE": str(tmp_path / "g.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False,
         "GUESS_LIMIT": "5 per minute"}
    )
    return app


def test_wrong_links_from_one_address_are_slowed(guarded):
    client = guarded.test_client()
    for attempt in range(5):
        assert client.get(f"/c/guess-{attempt}/").status_code == 404
    response = client.get("/c/guess-6/")
    assert response.status_code == 429
    assert "Too many links that lead nowhere" in response.get_data(as_text=True)


def test_a_busy_real_crew_is_not_slowed(guarded):
    client = guarded.test_client()
    crew = client.post("/crews", data={"name": "Busy"}).headers["Location"]
    for _ in range(20):
        assert client.get(crew).status_code == 200


def test_the_limit_is_per_address(guarded):
    client = guarded.test_client()
    for attempt in range(6):
        client.get(f"/c/guess-{attempt}/", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    crew = client.post("/crews", data={"name": "Other table"}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert client.get(crew.headers["Location"], environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code == 200
