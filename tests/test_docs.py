"""The README and the docs link only to files that ship with the repository."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and [text]: target, outside code blocks; images too.
INLINE_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def relative_links(path):
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for target in INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        yield target.split("#", 1)[0]


def test_the_readme_links_to_the_rule_book():
    assert "docs/RULES.md" in set(relative_links(ROOT / "README.md"))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_in_the_repository(doc):
    broken = []
    for target in relative_links(doc):
        resolved = (doc.parent / target).resolve()
        if ROOT not in resolved.parents or not resolved.exists():
            broken.append(target)
    assert broken == [], f"{doc.name} links to files outside the repository or missing: {broken}"


def test_the_link_check_catches_a_link_outside_the_repository(tmp_path):
    doc = tmp_path / "README.md"
    doc.write_text("See [the rules](../shared/RULES.md) and [home](https://example.org/).\n")
    assert list(relative_links(doc)) == ["../shared/RULES.md"]


# --- The README is short and every doc is reachable, with honest anchors and paths -------------

README_LIMIT = 10_000  # bytes: read in two minutes
BACKTICKED_PATH = re.compile(
    r"`((?:app|settings)\.py|(?:cli|scoring|store|services|web|templates|static|orchard|tests|bench|docs)/[\w./-]*)`")


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(heading) for heading in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def links_with_anchors(path):
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for target in INLINE_LINK.findall(text):
        if "#" in target and not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            file, anchor = target.split("#", 1)
            yield (path.parent / file).resolve() if file else path, anchor


def test_the_readme_is_read_in_two_minutes():
    assert len((ROOT / "README.md").read_bytes()) <= README_LIMIT


def test_the_readme_links_to_every_doc():
    linked = {(ROOT / target).resolve() for target in relative_links(ROOT / "README.md")}
    missing = [doc.name for doc in (ROOT / "docs").glob("*.md") if doc.resolve() not in linked]
    assert missing == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_anchor_a_doc_links_to_is_a_heading_there(doc):
    broken = [f"{target.name}#{anchor}" for target, anchor in links_with_anchors(doc)
              if target.suffix == ".md" and anchor not in anchors(target)]
    assert broken == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_exists(doc):
    text = doc.read_text(encoding="utf-8")
    missing = sorted({path for path in BACKTICKED_PATH.findall(text) if not (ROOT / path).exists()})
    assert missing == []


def test_the_anchor_check_catches_a_heading_that_is_not_there(tmp_path):
    doc = tmp_path / "guide.md"
    doc.write_text("# Guide\n\n## 5. Club night: more players\n\nSee [it](#5-club-night-more-players) "
                   "and [gone](#backups).\n")
    assert anchors(doc) == {"guide", "5-club-night-more-players"}
    assert [anchor for _, anchor in links_with_anchors(doc) if anchor not in anchors(doc)] == ["backups"]


def test_the_path_check_catches_a_file_that_is_not_there():
    assert BACKTICKED_PATH.findall("see `services/taps.py`, `app.py` and `orchard/nowhere.py`") == [
        "services/taps.py", "app.py", "orchard/nowhere.py"]
    assert not (ROOT / "orchard/nowhere.py").exists()


# --- Code names only files that exist: a moved file leaves no stale name behind ---------------

CODE_FILES = sorted(path for pattern in ("*.py", "*.html", "*.txt") for path in ROOT.glob(f"**/{pattern}")
                    if not {".venv", ".git", "node_modules", "test-artifacts", ".pytest_cache", "build"} & set(
                        path.relative_to(ROOT).parts) and not path.parent.name.endswith(".egg-info"))
# A file path in a comment or a docstring: folders then a file name, not part of a URL or a longer path.
NAMED_FILE = re.compile(r"(?<![\w./<{'\"-])((?:[a-z_]+/)+[\w-]+\.(?:py|html|md|txt|css|js|service))\b")
# Names of how Orchard was run or laid out before, which must not come back.
OLD_NAMES = re.compile(r"python app\.py|\borchard/(?:scoring|store|services|web|cli|templates|static|testing)\b|"
                       r"\bviews/")


def named_files(path, text):
    """The file paths `text` (from `path`) names that exist nowhere it could mean: the repository's
    root, the file's own folder, templates/, static/ or tests/."""
    places = (ROOT, path.parent, ROOT / "templates", ROOT / "static", ROOT / "tests")
    return sorted({name for name in NAMED_FILE.findall(text) if not any((place / name).exists() for place in places)})


@pytest.mark.parametrize("path", CODE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_code_comment_names_exists(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.name == "test_docs.py":
        return  # this file names missing files on purpose, to test the check
    assert named_files(path, text) == []
    assert OLD_NAMES.findall(text) == []


def test_the_code_path_check_catches_a_moved_file(tmp_path):
    moved = tmp_path / "module.py"
    text = '"""See views/rounds.py and web/rounds/page.py; GET /c/x/history/export.json."""'
    assert named_files(moved, text) == ["views/rounds.py"]
    assert OLD_NAMES.findall("run `python app.py`") == ["python app.py"]
