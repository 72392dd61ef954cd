"""A note on a game or a club night ("At Ann's"): the one rule, for the note form and a restored
file alike. Spaces run together into one, as the form has always kept them; no control characters."""
import unicodedata

from .limits import NOTE_MAX


def clean(text):
    """The note as it is kept: its words with one space between them."""
    return " ".join((text or "").split())


def problem(text):
    """The sentence saying why a cleaned note is not allowed, or None."""
    if len(text) > NOTE_MAX:
        return f"A note is at most {NOTE_MAX} characters."
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        return "A note cannot contain control characters."
    return None
