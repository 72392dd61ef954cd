"""docs/orchard.service, the systemd unit sample, is one `systemd-analyze verify` accepts without a word.

verify needs the programs the unit starts to exist, so it checks a copy whose /srv/orchard is this
repository (its .venv's python and app.py): every other line is the sample's own. It runs offline,
without systemd as PID 1. `make test` apt-installs systemd-analyze (Debian's `systemd`) if missing.
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "docs" / "orchard.service"
INSTALLED_AT = "/srv/orchard"  # where the sample expects the repository
# The unit's own environment for Python (output unbuffered for the journal, no .pyc in read-only code).
PYTHON_SETTINGS = {"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
# Exposure that `systemd-analyze security` may give the sample, out of 10 (1.4 when written).
MOST_EXPOSURE = 2.0


def systemd_analyze():
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.fail("systemd-analyze is missing: `make test` installs it (Debian package `systemd`),"
                    " or run `apt-get install systemd`")
    return tool


def here_copy(tmp_path, text=None):
    """The sample with /srv/orchard replaced by a folder in tmp_path laid out as the sample expects:
    this repository's files, and a .venv/bin whose python and orchard are the ones running the
    tests (wherever their virtualenv is)."""
    text = UNIT.read_text(encoding="utf-8") if text is None else text
    installed = tmp_path / "orchard"
    (installed / ".venv" / "bin").mkdir(parents=True)
    for name in ("README.md", "app.py"):
        (installed / name).symlink_to(ROOT / name)
    running = Path(sys.executable).parent
    for program in ("python", "orchard"):
        assert (running / program).exists(), f"{running / program} is missing: `make test` installs it"
        (installed / ".venv" / "bin" / program).symlink_to(running / program)
    copy = tmp_path / "orchard.service"
    copy.write_text(text.replace(INSTALLED_AT, str(installed)), encoding="utf-8")
    return copy


def complaints(unit):
    """Everything `systemd-analyze verify` says about the unit: an unknown key or a value it cannot
    parse only prints a line (exit status 0), so any output at all counts as a complaint."""
    result = subprocess.run([systemd_analyze(), "verify", "--man=no", str(unit)], capture_output=True, text=True,
                            timeout=60)
    said = (result.stdout + result.stderr).strip()
    if result.returncode != 0 and not said:
        said = f"exit status {result.returncode}"
    return said


def directives(text, section="Service"):
    """(key, value) of every line in a section, lines commented out as examples included."""
    found, current = [], None
    for line in text.splitlines():
        line = line.strip()
        if re.fullmatch(r"\[\w+\]", line):
            current = line[1:-1]
        elif current == section and re.match(r"^#?[A-Z]\w*=", line):
            key, value = line.lstrip("#").split("=", 1)
            found.append((key, value))
    return found


def readme_settings():
    """The settings the README's table lists: its rows that start with a `NAME`."""
    return set(re.findall(r"^\| `([A-Z][A-Z_]*)` \|", (ROOT / "README.md").read_text(encoding="utf-8"), re.M))


def test_systemd_analyze_verify_accepts_the_unit_sample_without_a_complaint(tmp_path):
    assert complaints(here_copy(tmp_path)) == ""


def test_the_check_hears_a_complaint_that_verify_only_prints(tmp_path):
    broken = UNIT.read_text(encoding="utf-8").replace("Restart=on-failure", "Restrat=on-failure")
    assert "Unknown key 'Restrat'" in complaints(here_copy(tmp_path, broken))


def test_the_unit_runs_what_make_run_runs_and_keeps_its_data_in_its_state_directory():
    text = UNIT.read_text(encoding="utf-8")
    service = dict(directives(text))
    assert service["ExecStart"] == f"{INSTALLED_AT}/.venv/bin/orchard serve"
    assert service["WorkingDirectory"] == INSTALLED_AT
    assert service["StateDirectory"] == "orchard" and service["ReadWritePaths"] == "/var/lib/orchard"
    environment = dict(pair.split("=", 1) for key, value in directives(text) if key == "Environment"
                       for pair in value.split())
    assert environment["ORCHARD_DATABASE"] == "/var/lib/orchard/orchard.db"
    assert service["Restart"] == "on-failure"
    assert ("WantedBy", "multi-user.target") in directives(text, "Install")


def test_every_setting_the_unit_names_is_one_the_readme_lists():
    names = {pair.split("=", 1)[0] for key, value in directives(UNIT.read_text(encoding="utf-8"))
             if key == "Environment" for pair in value.split()}
    assert "ORCHARD_DATABASE" in names
    assert names - PYTHON_SETTINGS - readme_settings() == set()


def test_the_unit_is_sandboxed(tmp_path):
    service = dict(directives(UNIT.read_text(encoding="utf-8")))
    assert {key: service.get(key) for key in ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp")} == {
        "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes"}
    assert service.get("DynamicUser") == "yes" or service.get("User")
    result = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", f"--threshold={round(MOST_EXPOSURE * 10)}", "--no-pager",
         str(here_copy(tmp_path))], capture_output=True, text=True, timeout=60)
    level = re.search(r"Overall exposure level for orchard\.service: ([\d.]+)", result.stdout)
    assert result.returncode == 0 and level, result.stdout[-2000:] + result.stderr
    assert float(level[1]) <= MOST_EXPOSURE
