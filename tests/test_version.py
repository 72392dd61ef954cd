"""The version in the code is CHANGELOG.md's newest entry (Keep a Changelog: `## [1.0.0] - 2026-12-02`)."""
import re
from datetime import date
from pathlib import Path

import app

ROOT = Path(__file__).resolve().parents[1]
# A released entry's heading; `## [Unreleased]` above them holds what is not released yet.
ENTRY = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\S+)\s*$", re.MULTILINE)
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


def entries(text):
    """(version, date) of every released entry, in the order the file lists them (newest first)."""
    return [(match["version"], match["date"]) for match in ENTRY.finditer(text)]


def newest_entry(text):
    found = entries(text)
    assert found, "CHANGELOG.md has no released entry such as `## [1.0.0] - 2026-12-02`"
    return found[0]


def test_the_newest_changelog_entry_is_the_version_in_the_code():
    newest, _ = newest_entry((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    assert app.__version__ == newest, (
        f"app.py says {app.__version__}, CHANGELOG.md's newest entry is {newest}: a release"
        " moves both together")


def test_every_entry_is_a_semantic_version_with_a_real_date_newest_first():
    found = entries((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    for number, day in found:
        assert SEMVER.match(number), f"{number} is not a version like 1.0.0"
        date.fromisoformat(day)  # a real date written YYYY-MM-DD, or ValueError
    numbers = [tuple(map(int, number.split("."))) for number, _ in found]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    days = [day for _, day in found]
    assert days == sorted(days, reverse=True)


def test_the_changelog_keeps_an_unreleased_section_above_the_entries():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.index("## [Unreleased]") < ENTRY.search(text).start()


def test_the_newest_entry_is_read_past_the_unreleased_section():
    text = "# Changelog\n\n## [Unreleased]\n\n- soon\n\n## [1.1.0] - 2027-01-05\n\n## [1.0.0] - 2026-12-02\n"
    assert newest_entry(text) == ("1.1.0", "2027-01-05")
