"""One rule for a name (a player's, a crew's, a club night's), used by every way a name comes in:
the forms, club nights, renaming and restore.

- As shown: Unicode NFC (an "é" typed as e + accent and one typed as é are the same letters),
  every run of whitespace one space, the ends trimmed.
- Allowed: 1 to NAME_MAX characters (counted after that), none of them a control or format
  character (Unicode category C: a bell, a zero-width space, a direction mark) except a zero-width
  joiner or non-joiner between two other characters (Persian and Indic names and family emoji are
  written with them), none of the letters drawn as nothing (the Hangul fillers, the blank Braille
  pattern), and at least one character that shows.
- The same name: equal keys, `key(name)`, the shown name case-folded the full Unicode way
  (`str.casefold`, so "Émile"/"émile" and "Zoë"/"ZOË" are one player, not only A to Z as
  SQLite's NOCASE) and normalised again. The store keeps each player's key in a column.
- Look-alikes: two names that are not the same name but are drawn alike (a Latin "Anna" and one
  with a Cyrillic "А", fullwidth letters, "Ivy" and "lvy") have the same `look`, Unicode's
  skeleton (UTS #39, the `disarm` library's). A crew never has two players who look alike.
"""
import unicodedata

from disarm import skeleton_key

from .limits import NAME_MAX

__all__ = ["NameRefused", "checked", "clean", "key", "look", "look_alike", "look_alike_sentence", "problem"]

JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner
# Letters and signs that are drawn as nothing at all (Default_Ignorable, or blank by design).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")


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
    for at, ch in enumerate(name):
        if ch in JOINERS:
            if not (_joined(name, at - 1) and _joined(name, at + 1)):
                return "A zero-width joiner can only sit between two characters of a name."
        elif ch in BLANKS:
            return "A name cannot contain characters that show as blank space."
        elif unicodedata.category(ch).startswith("C"):
            return "A name cannot contain control characters."
    if not any(_shows(ch) for ch in name):
        return "A name needs at least one letter, digit or sign that shows."
    return None


def _joined(name, at):
    """A character a joiner may stand beside: one that is there and is not a space, a joiner or
    a control character."""
    return 0 <= at < len(name) and not name[at].isspace() and not unicodedata.category(name[at]).startswith("C")


def _shows(ch):
    return not (ch.isspace() or ch in BLANKS or unicodedata.category(ch)[0] in "CMZ")


def look(name):
    """What names drawn alike share: Unicode's skeleton (UTS #39) of the cleaned name, case-folded."""
    return skeleton_key(clean(name))


def look_alike(name, others):
    """The first of `others` that is another name drawn like `name` (the same name is not a
    look-alike: it is the same player), or None."""
    mine, same = look(name), key(name)
    return next((other for other in others if look(other) == mine and key(other) != same), None)


def look_alike_sentence(name, other, where="a player of this crew"):
    """What is said when `name` looks like `other` though it is spelled with other characters."""
    return (f"{name} looks the same as {other}, {where}, but is spelled with different characters: "
            f"type the name as it is already written to mean that player, or a name that looks different.")


def checked(raw):
    """The name as shown, or NameRefused with the sentence."""
    name = clean(raw)
    sentence = problem(name)
    if sentence:
        raise NameRefused(sentence)
    return name
