"""Fixtures: a fresh app on a temporary SQLite file for every test, and helpers for common steps."""
import pytest

from app import create_app
from support.hostile import World
from support.table import Table


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "orchard.db"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def table(client):
    return Table(client)


@pytest.fixture
def crew(table):
    """A new crew's link, "/c/<token>/"."""
    return table.start_crew()


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Two crews in one database: a victim's, and an attacker's who knows every id."""
    return World(tmp_path_factory.mktemp("hostile") / "orchard.db")
