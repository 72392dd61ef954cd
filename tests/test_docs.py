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
