"""Settings an operator gives through the environment, as the README's table lists them."""
import pytest

from app import GuessLimitError, create_app


def app_from_environment(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})


def test_orchard_guess_limit_sets_how_many_wrong_links_an_address_may_try(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCHARD_GUESS_LIMIT", "2")
    client = app_from_environment(tmp_path).test_client()
    assert [client.get(f"/c/guess-{n}/").status_code for n in range(3)] == [404, 404, 429]


@pytest.mark.parametrize("value", ["lots", "0", "-3", "2.5"])
def test_a_guess_limit_that_is_not_a_whole_number_stops_the_start_with_a_clear_message(tmp_path, monkeypatch, value):
    monkeypatch.setenv("ORCHARD_GUESS_LIMIT", value)
    with pytest.raises(GuessLimitError, match="ORCHARD_GUESS_LIMIT must be a whole number of tries a minute"):
        app_from_environment(tmp_path)


def test_orchard_public_url_from_the_environment_sets_the_crew_link(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCHARD_PUBLIC_URL", "https://orchard.example.org/")
    client = app_from_environment(tmp_path).test_client()
    crew = client.post("/crews", data={"name": "Public"}).headers["Location"]
    page = client.get(crew, base_url="http://127.0.0.1:5000/").get_data(as_text=True)
    assert "https://orchard.example.org/c/" in page
    assert "only works on this device" not in page


def test_with_orchard_database_set_the_secret_key_and_backups_land_beside_that_file(tmp_path, monkeypatch):
    from store.backup import rolling_backup

    database = tmp_path / "elsewhere" / "crews.db"
    monkeypatch.setenv("ORCHARD_DATABASE", str(database))
    app = create_app({"WTF_CSRF_ENABLED": False})
    app.test_client().post("/crews", data={"name": "Beside"})
    rolling_backup(app.config["DATABASE"])
    assert (database.parent / "secret_key").exists()
    assert [p.parent.name for p in (database.parent / "backups").glob("*.db")] == ["backups"]
