"""Settings an operator gives through the environment, as the README's table lists them."""
import re
import sqlite3
from pathlib import Path

import pytest

import settings
from app import create_app
from settings import SettingError


def app_from_environment(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "k", "WTF_CSRF_ENABLED": False})


def test_orchard_guess_limit_sets_how_many_wrong_links_an_address_may_try(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCHARD_GUESS_LIMIT", "2")
    client = app_from_environment(tmp_path).test_client()
    assert [client.get(f"/c/guess-{n}/").status_code for n in range(3)] == [404, 404, 429]


@pytest.mark.parametrize("value", ["lots", "0", "-3", "2.5"])
def test_a_guess_limit_that_is_not_a_whole_number_stops_the_start_with_a_clear_message(tmp_path, monkeypatch, value):
    monkeypatch.setenv("ORCHARD_GUESS_LIMIT", value)
    with pytest.raises(SettingError, match="ORCHARD_GUESS_LIMIT must be a whole number of tries a minute"):
        app_from_environment(tmp_path)


def test_orchard_public_url_from_the_environment_sets_the_crew_link(tmp_path, monkeypatch):
    monkeypatch.setenv("ORCHARD_PUBLIC_URL", "https://orchard.example.org/")
    client = app_from_environment(tmp_path).test_client()
    crew = client.post("/crews", data={"name": "Public"}).headers["Location"]
    page = client.get(crew, base_url="http://127.0.0.1:5000/").get_data(as_text=True)
    assert "https://orchard.example.org/c/" in page
    assert "only works on this device" not in page


def test_with_orchard_database_set_the_backups_land_beside_that_file_and_the_key_is_inside_it(tmp_path, monkeypatch):
    from store.backup import rolling_backup

    database = tmp_path / "elsewhere" / "crews.db"
    monkeypatch.setenv("ORCHARD_DATABASE", str(database))
    app = create_app({"WTF_CSRF_ENABLED": False})
    app.test_client().post("/crews", data={"name": "Beside"})
    rolling_backup(app.config["DATABASE"])
    assert not (database.parent / "secret_key").exists()  # the key is kept in the database (store/server_key.py)
    assert sqlite3.connect(database).execute("SELECT length(key) FROM server_key").fetchall() == [(64,)]
    assert [p.parent.name for p in (database.parent / "backups").glob("*.db")] == ["backups"]


README = Path(__file__).resolve().parents[1] / "README.md"
ROW = re.compile(r"^\| `(?P<name>[A-Z][A-Z_]*)` \| (?P<default>[^|]+) \| (?P<meaning>.+) \|$", re.M)


def readme_rows():
    return {row["name"]: (row["default"].strip(), row["meaning"].strip()) for row in ROW.finditer(README.read_text())}


def shown(setting):
    if setting.shown_default:
        return setting.shown_default
    return "unset" if setting.default is None else f"`{setting.default}`"


def test_the_readme_settings_table_is_the_declaration_row_for_row():
    """Every setting in /settings.py has its row in the README, with its default and its
    meaning word for word, and the table names nothing else."""
    assert readme_rows() == {s.name: (shown(s), s.meaning) for s in settings.SETTINGS}


def test_the_code_reads_the_environment_only_through_the_declaration():
    """No module but settings.py reads an ORCHARD_ setting, PORT or HOST from the environment."""
    root = Path(settings.__file__).parent
    reads = re.compile(r"environ(?:\.get\(|\[)\s*[\"'](ORCHARD_(?!SERVER_PID|LAN_URL)\w+|PORT|HOST)[\"']|getenv\(")
    code = [root / "app.py"] + [path for package in ("cli", "web", "services", "store", "scoring")
                                for path in (root / package).rglob("*.py")]
    found = [f"{path.relative_to(root)}: {match[0]}" for path in code
             for match in reads.finditer(path.read_text())]
    assert found == []


@pytest.mark.parametrize("name, text, said", [
    ("PORT", "http", "PORT must be a whole number above 0, not 'http'."),
    ("ORCHARD_CREW_LIMIT", "lots", "ORCHARD_CREW_LIMIT must be a rate such as 30 per hour, not 'lots'."),
])
def test_a_setting_that_cannot_be_read_is_one_sentence_naming_it(name, text, said):
    with pytest.raises(SettingError) as refused:
        settings.read(name, {name: text})
    assert str(refused.value) == said


def test_an_unset_setting_is_its_declared_default():
    declared = {setting.name: settings.read(setting.name, {}) for setting in settings.SETTINGS}
    assert declared | {"ORCHARD_WORKERS": None} == {
        "PORT": 5000, "HOST": "0.0.0.0", "ORCHARD_DATABASE": "instance/orchard.db", "ORCHARD_PUBLIC_URL": None,
        "ORCHARD_PASSPHRASE": None, "ORCHARD_GUESS_LIMIT": "30 per minute", "ORCHARD_CREW_LIMIT": "30 per hour",
        "ORCHARD_SECURE_COOKIES": False, "ORCHARD_TRUSTED_PROXY": None, "ORCHARD_WORKERS": None,
        "ORCHARD_THREADS": 2, "ORCHARD_CONNECTION_LIMIT": 2000, "ORCHARD_CHANNEL_TIMEOUT": 20,
        "ORCHARD_BODIES_PER_ADDRESS": 4}
    assert settings.read("ORCHARD_WORKERS", {}) == settings.cores()
