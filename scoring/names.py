"""One rule for a name (a player's, a crew's, a club night's), used by every way a name comes in:
the forms, club nights, renaming and restore.

- As shown: Unicode NFC (an "é" typed as e + accent and one typed as é are the same letters),
  every run of whitespace one space, the ends trimmed.
- Allowed: 1 to NAME_MAX characters (counted after that), none of them a control or format
  character (Unicode category C: a bell, a zero-width space, a direction mark).
- The same name: equal keys, `key(name)`, the shown name case-folded the full Unicode way
  (`str.casefold`, so "Émile"/"émile" and "Zoë"/"ZOË" are one player, not only A to Z as
  SQLite's NOCASE) and normalised again. The store keeps each player's key in a column.
"""
import unicodedata

from .limits import NAME_MAX

__all__ = ["NameRefused", "checked", "clean", "key", "problem"]


class NameRefused(ValueError):
    """A name the rule does not allow; the message is the sentence to show."""


def clean(raw):
    """A name as shown (see above); anything that is not text (a file posted in its place) is no
    name, ""."""
    if not isinstance(raw, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def key(name):
    """What two names that are the same name share."""
    return unicodedata.normalize("NFC", clean(name).casefold())


def problem(name):
    """The sentence saying why a cleaned name is not allowed, or None."""
    if not name:
        return "Enter a name."
    if len(name) > NAME_MAX:
        return f"A name is at most {NAME_MAX} characters."
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        return "A name cannot contain control characters."
    return None


def checked(raw):
    """The name as shown, or NameRefused with the sentence."""
    name = clean(raw)
    sentence = problem(name)
    if sentence:
        raise NameRefused(sentence)
    return name
