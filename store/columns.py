"""A round's, a hand's and a logged change's columns as entered and kept, written once. A
correction's copy (store/rounds.py), the export (store/export.py), the file's model
(store/export_format.py) and the restore's staging file and copy (store/restore.py) are built from
these, so a new column is added here and follows everywhere."""
import typing
from typing import Any, Optional

from typing_extensions import NotRequired

from .file_types import Card, Cards, Counts, Mode, Redeals, RoundCount, RoundStatus, Seat, Stamp, Text

# A round of a game as its file carries it, each column with the type the file holds. A column added
# after the file's first version is NotRequired: written only when it has a value, and None when a
# file leaves it out. (The bid, three columns, is one object in the file: `BID`.)
ROUND_FILE = {
    "number": RoundCount, "revision": RoundCount, "status": RoundStatus, "mode": Mode, "dealer": Seat,
    "redeals": Redeals, "created": Optional[Stamp], "updated": Optional[Stamp],
    "copied_from": NotRequired[RoundCount],  # a correction's source revision (m0014)
}
BID = ("bid_seat", "bid_number", "bid_suit")
# A round as kept: its game, its file's columns and its bid. `id` and `version` (how many times phones
# saw it change) are the database's own and not carried.
ROUND = ("game_id", *ROUND_FILE, *BID)
# A hand of a round as its file carries it: what a seat entered, its score and target bonus (caches the
# engine recomputes on restore) and who entered it. `mode` is NotRequired: files from before a hand
# had its own mode carry it on the round.
HAND_FILE = {
    "seat": Seat, "mode": NotRequired[Mode], "target": Optional[Card], "won": Cards, "counts": Counts,
    "score": NotRequired[Any], "target_bonus": NotRequired[Any], "entered_by": Optional[Text],
    "done": Optional[Stamp],
}
# A hand as kept: its round, and its file's columns.
HAND = ("round_id", *HAND_FILE)
# A round's logged change: when, what, its detail, who, and how many times in a row (m0015).
CHANGE = ("round_id", "at", "action", "detail", "by", "times")


def later(kind):
    """Whether a column of a file's declaration was added after its first version (NotRequired)."""
    return typing.get_origin(kind) is NotRequired
