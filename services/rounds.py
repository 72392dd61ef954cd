"""The round service: what one phone sees of a round, and the round's life as a whole (bid,
redeal, "all in", save, undo, sign-off). Taps on one hand are in `services.taps`, corrections in
`services.corrections`.

A view parses the form, calls one function here, and renders the `RoundView` it gets back. Each
change locks the round in one write transaction, lets the rule engine judge the state it would
create, and writes only if the engine accepts it.
"""
from dataclasses import dataclass, field

from scoring import DECK, RANKS, ROUNDS_MAX, Bid, GameError, Problem, first_bidder_seat, legal_call_error, score_hand
from store import rounds as round_store
from store import games as game_store
from store import seats as seat_store
from store import write
from scoring.entries import engine_hand, hand_score, round_left_out, round_problems

from .games import dealer_for, game_standing, house_rules, refuse_if_final
from . import corrections, stage_clock
from .refusals import NotOpen, Refused
from .remaining import REST_WAITS, owners_of, remaining_cards, rest_refusal

# Problems that only say the round is not finished yet: a neutral to-do list until a save is tried.
STILL_TO_DO = {"missing-bid", "missing-target", "missing-cards", "wrong-total", "not-whole-tricks",
               "not-complete"}


@dataclass
class RoundView:
    """What one phone sees of a round: the round being entered (its own hand, the others as far as
    privacy allows, the check) or the round as saved."""

    game: dict
    entry: dict
    viewer: object
    seat: int = 0
    hidden: set = field(default_factory=set)
    secret: bool = False
    todo: list = field(default_factory=list)
    conflicts: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    owners: dict = field(default_factory=dict)
    remaining: list | None = None
    rest_waits: bool = False  # the rest would be offered here once the other hands are all in
    waiting: list = field(default_factory=list)
    left_out: dict = field(default_factory=dict)  # rank -> cards no entry holds: singles, if the table says so
    correction: object = None  # an open correction's agreement (services/corrections.py)
    agreed: set = field(default_factory=set)
    history: list = field(default_factory=list)  # logged changes as facts; web/round_changes.py words them
    is_last: bool = False
    can_bring_back: bool = False
    totals_after: tuple | None = None  # the game's totals once this saved round counts

    @property
    def names(self):
        return self.game["names"]

    @property
    def entering(self):
        return self.entry["status"] == round_store.OPEN

    @property
    def hand(self):
        """The hand on this phone's current tab, as far as this phone may see it."""
        hand = self.entry["hands"][self.seat]
        return _blank(hand) if self.seat in self.hidden else hand

    @property
    def problems(self):
        return self.conflicts + self.todo

    @property
    def left_out_count(self):
        return sum(self.left_out.values())

    @property
    def seat_problems(self):
        return [p for p in self.conflicts if self.seat in p.seats]

    @property
    def seat_mode(self):
        return bool(self.viewer.claims)

    @property
    def dealer(self):
        return self.entry["dealer"]

    @property
    def first_bidder(self):
        return first_bidder_seat(self.entry["dealer"])

    @property
    def bid(self):
        return bid_of(self.entry)

    @property
    def bid_key(self):
        """The bid as this phone shows it (with the redeals): the poll redraws the bid step when the
        stored one differs."""
        entry = self.entry
        return f"{entry['bid_seat']}-{entry['bid_number']}-{entry['bid_suit']}-{entry['redeals']}"

    @property
    def rules(self):
        return house_rules(self.game)

    @property
    def deck(self):
        return DECK

    @property
    def ranks(self):
        return RANKS


def round_view(game, entry, viewer, seat=None, problems=None):
    """What `viewer`'s phone sees of `entry`, on the tab of `seat` (default: its own seat)."""
    if entry["status"] != round_store.OPEN:
        return _saved_view(game, entry, viewer)
    names = game["names"]
    seat = _tab(seat, viewer)
    hidden = viewer.hidden_seats(entry)
    # Only the hands phones hold are marked "all in", each by its own phone (a correction waits for
    # agreements instead: services/corrections.py).
    waiting = [] if entry["is_correction"] else [
        names[s] for s in sorted(viewer.seated()) if not entry["hands"][s]["done"]]
    # While a phone is still entering in private, the round is not checked in front of others.
    secret = bool(hidden) and bool(waiting)
    if problems is None:
        problems = round_problems(entry, names)
    if hidden:
        problems = _visible_problems(problems, hidden, entry, names)
    visible = [_blank(hand) if hand["seat"] in hidden else hand for hand in entry["hands"]]
    remaining = None
    rest_refused = None if seat in hidden else rest_refusal(entry, viewer, seat, names)
    if seat not in hidden and rest_refused is None:
        remaining = remaining_cards(entry)
    return RoundView(
        game=game, entry=entry, viewer=viewer, seat=seat, hidden=hidden, secret=secret,
        todo=[p for p in problems if p.kind in STILL_TO_DO],
        conflicts=[p for p in problems if p.kind not in STILL_TO_DO],
        scores=[None if hand["seat"] in hidden else hand_score(hand) for hand in entry["hands"]],
        owners=owners_of(visible),
        remaining=remaining,
        rest_waits=rest_refused == REST_WAITS,
        waiting=waiting,
        left_out=round_left_out(entry),
        correction=corrections.agreement(game, entry, viewer),
    )


def _visible_problems(problems, hidden, entry, names):
    """The check as a phone that may not see the `hidden` hands reads it: a problem only those
    hands can explain is never named; one sentence says the piles are not complete yet."""
    shown = [p for p in problems
             if (p.seats and not set(p.seats) & hidden) or p.kind == "missing-bid"]
    if len(shown) < len(problems):
        empty = [names[hand["seat"]] for hand in entry["hands"] if not (hand["won"] or hand["counts"])]
        if empty:
            whose = _join(empty) + (" has" if len(empty) == 1 else " have")
            message = f"The piles are not complete yet ({whose} not entered a pile)."
        else:
            message = (f"The hands do not add up yet: {_join([names[s] for s in sorted(hidden)])} "
                       "can check theirs on their own phones.")
        shown.append(Problem("not-complete", message, ()))
        missing = [p for p in problems if p.kind == "missing-cards"]
        if missing:
            # How many, never which: which would tell what the hidden hands hold.
            count = len(missing[0].cards)
            cards = "1 card is" if count == 1 else f"{count} cards are"
            shown.append(Problem("not-complete", f"{cards} in no pile or target yet: each player can check "
                                 "their own hand (“Not done” opens it again).", ()))
    return shown


def _join(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _saved_view(game, entry, viewer):
    saved = round_store.scored(game["id"])
    counted = entry["status"] == round_store.SCORED and entry["number"] <= len(saved)
    return RoundView(
        totals_after=game_standing(game, saved).running[entry["number"] - 1] if counted else None,
        game=game, entry=entry, viewer=viewer,
        scores=[hand_score(hand) for hand in entry["hands"]],
        agreed=seat_store.signoffs([entry["id"]]).get(entry["id"], set()),
        history=round_store.history(game["id"], entry["number"]),
        is_last=bool(saved) and saved[-1]["number"] == entry["number"],
        can_bring_back=entry["status"] == "deleted" and len(saved) == entry["number"] - 1
        and round_store.open_round(game["id"]) is None,
    )


def _tab(seat, viewer):
    if seat is None:
        seat = viewer.seat if viewer.seat is not None else 0
    return seat


def _blank(hand):
    """A hand as a phone that may not see it: no target, no cards."""
    return {**hand, "target": None, "won": [], "counts": {}}


def next_hand(entry, seat, viewer):
    """The hand a phone opens once `seat`'s pile and target are both in: the next one round the
    table that it enters and has no target yet, or None (a seated phone enters only its own)."""
    if viewer.seat is not None or not (entry["hands"][seat]["won"] or entry["hands"][seat]["counts"]):
        return None
    hidden = viewer.hidden_seats(entry)
    for step in range(1, len(entry["hands"])):
        hand = entry["hands"][(seat + step) % len(entry["hands"])]
        if hand["seat"] not in hidden and not hand["target"]:
            return hand["seat"]
    return None


def bid_of(entry):
    """The round's winning bid as the engine's value, or None before it is entered."""
    if entry["bid_number"] is None:
        return None
    return Bid(entry["bid_number"], entry["bid_suit"])


# --- Reading ------------------------------------------------------------------------------------

def shown_revision(game, number):
    """The revision a page shows for a round number, or None when the game has no such round."""
    return round_store.for_number(game["id"], number)


def saved_revision(game_id, number):
    """The saved revision of a round (also while a correction of it is open), or None."""
    entry = round_store.for_number(game_id, number)
    if entry is not None and entry["status"] != round_store.SCORED:
        saved = [row for row in round_store.scored(game_id) if row["number"] == number]
        entry = round_store.load(saved[0]["id"]) if saved else None
    return entry


# --- The round as a whole -----------------------------------------------------------------------

def set_bid(game, number, bidder, bid_number, suit):
    """Record the winning bid; the house rules may ask for a higher lowest bid."""
    refused = legal_call_error([], Bid(bid_number, suit), house_rules(game).min_bid)
    if refused:
        raise Refused(refused, 422)
    with write() as db:
        entry = open_round(db, game, number)
        round_store.set_bid(db, entry["id"], bidder, bid_number, suit, correction=entry["is_correction"])
        return round_store.load(entry["id"], db)


def redeal(game, viewer, number):
    """Everyone passed: count a redeal and say who deals the new deal. Returns (round, same_dealer)."""
    with write() as db:
        entry = open_round(db, game, number)
        if entry["redeals"] >= ROUNDS_MAX:
            raise Refused(f"A round may be dealt again {ROUNDS_MAX:,} times at most: enter this deal.")
        earlier = sum(row["redeals"] or 0 for row in round_store.scored(game["id"], db) if row["number"] < number)
        dealer = dealer_for(game, number, earlier + entry["redeals"] + 1)
        round_store.record_redeal(db, entry["id"], dealer, viewer.label(game["names"]))
        return round_store.load(entry["id"], db), dealer == entry["dealer"]


def mark_done(game, viewer, number, seat, done):
    """Mark a hand as all in (or open it again); when all four are in and the engine finds no
    problem, the round is saved for the whole table. Returns the round as it is now."""
    with write() as db:
        entry = open_round(db, game, number)
        if seat in viewer.hidden_seats(entry):
            raise Refused(f"{game['names'][seat]} is entering this hand on their own phone.", 403)
        round_store.mark_done(db, entry["id"], seat, done)
        entry = round_store.load(entry["id"], db)
        if done and all(entry["hands"][s]["done"] for s in viewer.seated()):
            # A quick pile's own phone said it is all in, under the line saying which singles may be
            # left out; a quick pile entered on a shared phone waits for Save's confirmation.
            quick_unseated = [h for h in entry["hands"] if h["mode"] == "quick" and h["seat"] not in viewer.seated()]
            _save_if_complete(db, game, entry, viewer.label(game["names"]), singles_confirmed=not quick_unseated)
        return round_store.load(entry["id"], db)


def open_round(db, game, number):
    """The open revision of round `number`, read again inside this write transaction; NotOpen when
    it was saved, corrected or changed on another phone since the phone showed it."""
    entry = round_store.lock_open_number(db, game["id"], number)
    if entry is None:
        raise NotOpen(number)
    return entry


def save(game, viewer, number, version, singles=None):
    """Save the open round if it is unchanged since the phone showed it and the engine finds no
    problem; returns the problems (empty when saved). Cards that no entry holds (quick entry leaves
    singles out) are saved only when the phone confirmed that many (`singles`). NotOpen if it
    changed, Refused while a hand held on another phone is not all in or when the scores would end
    the game before rounds already saved after it (field "save")."""
    with write() as db:
        entry = round_store.lock_open_number(db, game["id"], number)
        if entry is None or entry["version"] != version:
            raise NotOpen(number, f"Round {number} changed on another phone before this save: nothing was "
                          "overwritten. Check what is stored now, then save again if needed.")
        waiting = [game["names"][s] for s in sorted(viewer.hidden_seats(entry)) if not entry["hands"][s]["done"]]
        if waiting:
            raise Refused(f"Waiting for {_join(waiting)}: a hand entered on its own phone is saved once that "
                          "phone says it is all in.")
        corrections.refuse_unagreed(db, game, viewer, entry)
        problems = _save_if_complete(db, game, entry, viewer.label(game["names"]), singles=singles)
        if not problems:
            corrections.agree_by_saving(db, viewer, entry)
        return problems


def _save_if_complete(db, game, entry, by, singles=None, singles_confirmed=False):
    refuse_if_final(db, game)  # a correction opened before the night finished is not saved after
    hands = [engine_hand(hand) for hand in entry["hands"]]  # once, for the check and the scores
    problems = round_problems(entry, game["names"], hands)
    unsaid = sum(round_left_out(entry, hands).values())
    if not problems and unsaid and not singles_confirmed and singles != unsaid:
        cards = "1 card is" if unsaid == 1 else f"{unsaid} cards are"
        problems = [Problem("singles-unconfirmed", f"{cards} in no pile or target: tick that "
                            f"{'it is a single' if unsaid == 1 else 'they are singles'}, or enter "
                            f"{'it' if unsaid == 1 else 'them'}.", ())]
    if not problems:
        scores = [score_hand(hand) for hand in hands]
        round_store.mark_saved(db, entry, [s.total for s in scores], [s.target_bonus for s in scores], by)
        _update_result(db, game)
    return problems


def _update_result(db, game):
    """Recompute the game's verdict inside the same transaction as the change that moves it (a
    club night's stage whose clock has run out ends the game with the hands played)."""
    saved = round_store.scored(game["id"], db)
    game = stage_clock.close_if_time_is_up(db, game, len(saved)) or game
    try:
        result = game_standing(game, saved).result
    except GameError as error:  # a correction that ends the game before rounds saved after it
        raise Refused(f"{error}: undo the later rounds first, then save this correction.", field="save") from None
    game_store.set_result(db, game["id"], result.over, result.winners, saved)


def start_next(game, viewer):
    """Open the next round for entry (or find the one already open); returns its number, or None
    when the game is over."""
    with write() as db:
        standing = game_standing(game, round_store.scored(game["id"], db))
        if standing.result.over:
            return None
        if standing.next_number > ROUNDS_MAX:
            raise Refused(f"A game may have {ROUNDS_MAX:,} rounds at most: start a new game.")
        if round_store.open_number(db, game["id"], standing.next_number) is None:
            if stage_clock.close_if_time_is_up(db, game, standing.next_number - 1, round_open=False):
                _update_result(db, game)  # the stage's clock has run out: the game ends with these hands
                return None
            round_store.start(db, game["id"], standing.next_number, standing.next_dealer,
                              modes=round_store.last_modes(db, game["id"]), by=viewer.label(game["names"]))
    return standing.next_number


def undo(game, viewer, number):
    """Undo the last saved round; it is kept and can be brought back."""
    with write() as db:
        refuse_if_final(db, game)
        saved = round_store.scored(game["id"], db)
        if not saved or saved[-1]["number"] != number:
            raise Refused("Only the last round can be undone.")
        round_store.set_status(db, saved[-1]["id"], "deleted", "undone", viewer.label(game["names"]))
        _update_result(db, game)


def bring_back(game, viewer, number):
    """Count an undone round again, if nothing has taken its place."""
    with write() as db:
        refuse_if_final(db, game)
        entry = round_store.for_number(game["id"], number, db)
        saved = round_store.scored(game["id"], db)
        busy = round_store.open_from(db, game["id"], number)
        if entry is None or entry["status"] != "deleted" or len(saved) != number - 1 or busy:
            raise Refused("This round cannot be brought back: another round has taken its place.")
        round_store.set_status(db, entry["id"], "scored", "brought back", viewer.label(game["names"]))
        _update_result(db, game)


def agree(game, viewer, number):
    """A seated player agrees to their own score in a saved round (once; a repeat changes nothing)."""
    if viewer.seat is None:
        raise Refused("Take a seat to agree to your score.", 403)
    with write() as db:
        saved = [row for row in round_store.scored(game["id"], db) if row["number"] == number]
        if not saved:
            raise Refused(f"Round {number} is not saved: there is no score to agree to yet.")
        if seat_store.agree(db, saved[0]["id"], viewer.seat, viewer.device):
            round_store.log(db, saved[0]["id"], "agreed", by=viewer.label(game["names"]))
            round_store.touch(db, saved[0]["id"])

