"""A correction's agreement: what it changes, and who must agree before it is saved.

A correction that changes a score is the table's decision, not one phone's: while phones hold
seats, each of them (but the phone saving it, whose save is its agreement) agrees to the
correction as it stands before it can be saved. A change to the correction after someone agreed
clears their agreement (store/rounds.py clears them with every change to a correction), and their
phone says so at its next poll. With no seat held by a phone, the one phone entering for the
table saves it, and the page says so.
"""
from dataclasses import dataclass

from scoring import ROUNDS_MAX
from scoring.entries import hand_score
from store import rounds as round_store
from store import seats as seat_store
from store import write

from .games import refuse_if_final
from .refusals import NotOpen, Refused


def start_correction(game, viewer, number):
    """Open a pre-filled copy of a saved round; the saved one stays until the copy is saved.
    False when the round has no saved revision."""
    with write() as db:
        statuses = round_store.revisions_by_status(db, game["id"], number)
        if "scored" not in statuses:
            return False
        refuse_if_final(db, game)
        if "entering" not in statuses:
            saved = round_store.load(statuses["scored"], db)
            if saved["revision"] >= ROUNDS_MAX:
                raise Refused(f"A round may be saved {ROUNDS_MAX:,} times at most: it cannot be corrected again.")
            round_store.start_correction(db, saved, viewer.label(game["names"]))
    return True


def discard_correction(game, viewer, number):
    """Drop a correction in progress; the saved round is untouched."""
    with write() as db:
        statuses = round_store.revisions_by_status(db, game["id"], number)
        if "scored" in statuses and "entering" in statuses:
            round_store.drop_correction(db, statuses["entering"], statuses["scored"], viewer.label(game["names"]))


@dataclass(frozen=True)
class CorrectionAgreement:
    """What a correction changes ((seat, saved score, corrected score) of each hand whose score
    moves), the seats phones hold, and those that agreed to it as it stands."""

    changes: tuple
    seated: frozenset
    agreed: frozenset

    def waiting(self, saver_seat=None):
        """The seats whose agreement the save still needs (the saving phone's own seat agrees by
        saving): none when no score changes."""
        if not self.changes:
            return []
        return sorted(seat for seat in self.seated - self.agreed if seat != saver_seat)


def agreement(game, entry, viewer, db=None):
    """The agreement state of an open correction `entry` (None for a round entered the first time)."""
    if entry["status"] != round_store.OPEN or not entry["is_correction"]:
        return None
    saved = [row for row in round_store.scored(game["id"], db) if row["number"] == entry["number"]]
    before = round_store.load(saved[0]["id"], db) if saved else None
    changes = []
    for seat, hand in enumerate(entry["hands"]):
        after = hand_score(hand)
        was = before["hands"][seat]["score"] if before else None
        if after is None or after.total != was:
            changes.append((seat, was, None if after is None else after.total))
    agreed = seat_store.signoffs([entry["id"]], db).get(entry["id"], set())
    return CorrectionAgreement(tuple(changes), frozenset(viewer.seated()), frozenset(agreed))


def refuse_unagreed(db, game, viewer, entry):
    """Refused while a correction that changes scores lacks the agreement of a seat a phone holds."""
    state = agreement(game, entry, viewer, db)
    if state is None:
        return
    waiting = state.waiting(viewer.seat)
    if waiting:
        names = [game["names"][seat] for seat in waiting]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        raise Refused(f"Waiting for {who} to agree to this correction: each taps “I agree to this "
                      "correction” on their own phone.", 409)


def agree_by_saving(db, viewer, entry):
    """The phone that saved a correction agreed to it: its seat's agreement goes with the others'."""
    if entry["is_correction"] and viewer.seat is not None:
        seat_store.agree(db, entry["id"], viewer.seat, viewer.device)


def agree(game, viewer, number, version):
    """A seated player agrees to the open correction of round `number`, as their phone showed it
    (`version`); NotOpen once it changed or was saved since."""
    if viewer.seat is None:
        raise Refused("Take a seat to agree to a correction.", 403)
    with write() as db:
        entry = round_store.lock_open_number(db, game["id"], number)
        if entry is None or not entry["is_correction"] or entry["version"] != version:
            raise NotOpen(number, "The correction changed before your agreement arrived: check what it "
                          "changes now, then agree again.")
        if seat_store.agree(db, entry["id"], viewer.seat, viewer.device):
            round_store.log(db, entry["id"], "agreed", by=viewer.label(game["names"]))
            round_store.touch(db, entry["id"], board=False)
