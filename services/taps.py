"""Taps on one hand of the round being entered: a card in or out of a pile, a rank's count, the
target card, quick or exact entry, "the rest of the cards".

Taps say the state they want ("7♣ in Ben's pile: yes", "Kings in Ann's pile: 3"), never a step, so
a tap sent twice changes nothing the second time. Each locks the round in one write transaction,
lets the rule engine judge the state it would create, and writes only if the engine accepts it.
"""
from scoring import RANKS, quick_from_exact
from store import rounds as round_store
from store import write
from scoring.entries import engine_hand, round_problems

from .remaining import remaining_cards, rest_refusal
from .refusals import Refused, Stale
from .rounds import next_hand, open_round

# Problems a tap may not create: the deck has each card once and four of each rank.
REFUSED_ON_TAP = {"duplicate", "target-in-pile", "too-many-of-rank", "bad-count"}


def set_card(game, viewer, number, seat, code, held, based_on=None):
    """Card `code` is in this hand's won pile (`held`) or not."""

    def change(hand):
        if hand["mode"] != "exact":
            raise Refused(f"{game['names'][seat]}'s hand is entered by rank: switch it to exact entry first.")
        if held and code not in hand["won"]:
            hand["won"].append(code)
        elif not held and code in hand["won"]:
            hand["won"].remove(code)

    return _edit_hand(game, viewer, number, seat, change, based_on)


def set_count(game, viewer, number, seat, rank, count, based_on=None):
    """This hand won `count` cards of `rank` (quick entry)."""

    def change(hand):
        if hand["mode"] != "quick":
            raise Refused(f"{game['names'][seat]}'s hand is entered card by card: switch it to quick entry first.")
        counts = {**hand["counts"], rank: count}
        hand["counts"] = {r: counts[r] for r in RANKS if counts.get(r)}  # kept in rank order

    return _edit_hand(game, viewer, number, seat, change, based_on)


def set_target(game, viewer, number, seat, code, based_on=None, with_next=False):
    """This hand's target card is `code` (None: not chosen). `with_next` adds the hand to open next:
    the hand's first target is the last step of entering it (see `next_hand`)."""
    first = []

    def change(hand):
        first.append(hand["target"] is None)
        hand["target"] = code

    entry, problems = _edit_hand(game, viewer, number, seat, change, based_on)
    if not with_next:
        return entry, problems
    return entry, problems, next_hand(entry, seat, viewer) if first[0] else None


def set_hand_mode(game, viewer, number, seat, mode):
    """Enter this one hand quick (rank counts) or exact (every card); nobody else's hand changes.
    Exact cards become their rank counts; counts cannot become cards, so they are cleared."""

    def change(hand):
        if hand["mode"] == mode:
            return
        if mode == "quick":
            hand["counts"] = dict(quick_from_exact(engine_hand(hand)).counts)
        else:
            hand["counts"] = {}
        hand["won"] = []
        hand["mode"] = mode

    return _edit_hand(game, viewer, number, seat, change)


def give_remaining(game, viewer, number, seat):
    """Give this pile every card that nobody holds yet: only the one hand still open, once every
    other hand on a phone is all in, every hand exact and every target known (`rest_refusal`)."""

    def change(hand, entry):
        refused = rest_refusal(entry, viewer, seat, game["names"])
        if refused:
            raise Refused(refused)
        hand["won"] = hand["won"] + remaining_cards(entry)

    return _edit_hand(game, viewer, number, seat, change, with_entry=True)


def _edit_hand(game, viewer, number, seat, change, based_on=None, with_entry=False):
    """Apply one change to a hand of the open round in one transaction, unless the engine refuses
    it, another phone enters that hand in private, or the phone's view of the hand is stale."""
    names = game["names"]
    with write(draft=True) as db:
        entry = open_round(db, game, number)
        hidden = viewer.hidden_seats(entry)
        if seat in hidden:
            raise Refused(f"{names[seat]} is entering this hand on their own phone.", 403)
        hand = entry["hands"][seat]
        if (based_on is not None and hand["version"] > based_on
                and hand["entered_by"] not in (None, viewer.device)):
            raise Stale(f"{names[seat]}’s hand was changed on another phone: this is what is stored now.")
        after = _copy(entry)
        if with_entry:
            change(after["hands"][seat], after)
        else:
            change(after["hands"][seat])
        after_problems = round_problems(after, names)
        refused = _refusal(entry, after_problems, seat, hidden, names)
        if refused:
            raise Refused(refused)
        new = after["hands"][seat]
        changed = {key: new[key] for key in ("mode", "target", "won", "counts") if hand[key] != new[key]}
        if changed:
            hand_version, after["version"], after["live_version"] = round_store.set_hand(
                db, entry["id"], seat, entered_by=viewer.device, correction=entry["is_correction"], **changed)
            # The hand as stored now, without reading it back: as set_hand wrote it.
            new.update(version=hand_version, done=None, entered_by=viewer.device,
                       counts={rank: n for rank, n in new["counts"].items() if n})
    return after, after_problems


def _copy(entry):
    """The round with copies of its hands (and of their piles), for a change to try out."""
    return {**entry, "hands": [{**hand, "won": list(hand["won"]), "counts": dict(hand["counts"])}
                               for hand in entry["hands"]]}


def _refusal(before, after_problems, seat, hidden, names):
    """The engine's reason to refuse a tap, or None.

    A card already in another pile or used as a target cannot be taken twice, and no pile holds
    five of a rank. Counts of a rank across the table are only reported, since a table fixing a
    mistake moves counts in any order. (The round as it was is checked only when the change
    would create such a problem, to tell a new one from one already there.)
    """
    if not any(problem.kind in REFUSED_ON_TAP for problem in after_problems):
        return None
    old = {problem.message for problem in round_problems(before, names)}
    for problem in after_problems:
        if problem.message in old or problem.kind not in REFUSED_ON_TAP:
            continue
        if not problem.cards and problem.seats != (seat,):
            continue
        if set(problem.seats) & hidden:
            # Whose it is, or whether it is a target, would tell what a private hand holds.
            return f"{problem.cards[0]} is taken." if problem.cards else "That is not possible."
        return _already_held(before, problem, names) or problem.message
    return None


def _already_held(before, problem, names):
    """Say where a refused card already is, which reads better than the state it would create."""
    for card in problem.cards:
        for hand in before["hands"]:
            owner = f"{names[hand['seat']]}'s"
            if hand["target"] == card.code:
                return f"{card} is already {owner} target card."
            if card.code in hand["won"]:
                return f"{card} is already in {owner} pile."
    return None
