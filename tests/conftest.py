"""Fixtures: a fresh app on a temporary SQLite file for every test, and helpers for common steps."""
import pytest

from app import create_app
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
