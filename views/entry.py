"""Entering a round step by step: the bid, a redeal, the entry mode, targets, cards and rank counts.
Each step is saved as it is made, and the engine may refuse a tap that breaks the deck."""
import copy
from collections import Counter

from flask import Blueprint, abort, request

import tally
from forms import ActionForm, BidForm, CardForm, CountForm, ModeForm, TargetForm
from scoring import Bid, GameError, legal_call_error
from store import rounds as round_store
from store import write
from store.rounds import RoundConflict

from .lookup import load_game
from .round_page import remaining_of, round_page, seat_arg
from .viewer import viewer_for

bp = Blueprint("entry", __name__, url_prefix="/c/<token>/games/<int:game_id>/rounds/<int:number>")


def not_open(token, game_id, number):
    return round_page(
        token, game_id, number, status=409,
        notice=f"Round {number} is no longer open for entry: it was saved or changed on another "
        "phone. This is what is stored now.",
    )


def _edit(token, game_id, number, seat, change):
    """Apply one entry step to a hand of the open round, unless the engine refuses it or another
    phone is entering that hand in private."""
    crew, game = load_game(token, game_id)
    viewer = viewer_for(game)
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            hidden = viewer.hidden_seats(entry)
            if seat in hidden:
                return round_page(
                    token, game_id, number, status=403, seat=seat,
                    notice=f"{game['names'][seat]} is entering this hand on their own phone.",
                )
            after = copy.deepcopy(entry)
            change(after)
            refused = tally.refused_change(entry, after, game["names"], seat, hidden)
            if refused is None:
                _persist(db, entry, after, viewer.device)
    except RoundConflict:
        return not_open(token, game_id, number)
    if refused:
        return round_page(token, game_id, number, status=409, notice=refused, seat=seat)
    return round_page(token, game_id, number, seat=seat)


def _persist(db, before, after, device):
    for old, new in zip(before["hands"], after["hands"]):
        changed = {key: new[key] for key in ("target", "won", "counts") if old[key] != new[key]}
        if changed:
            round_store.set_hand(db, after["id"], new["seat"], entered_by=device, **changed)


@bp.post("/hands/<int:seat>/done")
def hand_done(token, game_id, number, seat):
    """Mark a hand as all in (or open it again); when all four are in and the engine finds no
    problem, the round is saved for the whole table."""
    from .rounds import save_if_complete

    seat = seat_arg(seat)
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    viewer = viewer_for(game)
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            if seat in viewer.hidden_seats(entry):
                return round_page(
                    token, game_id, number, status=403, seat=seat,
                    notice=f"{game['names'][seat]} is entering this hand on their own phone.",
                )
            done = request.form.get("done", "1") == "1"
            round_store.mark_done(db, entry["id"], seat, done)
            entry = round_store.lock_open(db, entry["id"])
            if done and all(hand["done"] for hand in entry["hands"]):
                save_if_complete(db, game, entry, viewer.label(game["names"]))
    except GameError as error:
        return round_page(token, game_id, number, status=409, seat=seat, notice=str(error))
    except RoundConflict:
        return not_open(token, game_id, number)
    return round_page(token, game_id, number, seat=seat)


@bp.post("/bid")
def bid_update(token, game_id, number):
    crew, game = load_game(token, game_id)
    form = BidForm()
    valid = form.validate_on_submit()
    if valid:
        # The house rules may set a higher lowest bid; the engine says whether this one is legal.
        refused = legal_call_error([], Bid(form.number.data, form.suit.data), tally.house_rules(game).min_bid)
        if refused:
            form.number.errors.append(refused)
            valid = False
    if not valid:
        return round_page(token, game_id, number, status=422, forms={"bid": form})
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            round_store.set_bid(db, entry["id"], int(form.bidder.data), form.number.data, form.suit.data)
    except RoundConflict:
        return not_open(token, game_id, number)
    return round_page(token, game_id, number)


@bp.post("/redeal")
def redeal_create(token, game_id, number):
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            earlier = sum(row["redeals"] or 0 for row in round_store.scored(game_id, db) if row["number"] < number)
            dealer = tally.dealer_for(game, number, earlier + entry["redeals"] + 1)
            round_store.record_redeal(db, entry["id"], dealer, viewer_for(game).label(game["names"]))
    except RoundConflict:
        return not_open(token, game_id, number)
    again = "same dealer" if dealer == entry["dealer"] else "the deal moves on"
    return round_page(token, game_id, number, notice=f"Everyone passed: {again}, deal again and bid.")


@bp.post("/mode")
def mode_update(token, game_id, number):
    load_game(token, game_id)
    form = ModeForm()
    if not form.validate_on_submit():
        return round_page(token, game_id, number, status=422, notice="Pick quick or exact entry.")
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            if entry["mode"] != form.mode.data:
                round_store.set_mode(db, entry["id"], form.mode.data, _converted(entry, form.mode.data))
    except RoundConflict:
        return not_open(token, game_id, number)
    return round_page(token, game_id, number)


def _converted(entry, mode):
    """Hands for the other mode: exact cards become rank counts; counts cannot become cards."""
    hands = []
    for hand in entry["hands"]:
        if mode == "quick":
            counts = Counter(card.rank for card in tally.engine_hand("exact", hand).won)
            hands.append({"seat": hand["seat"], "won": [], "counts": dict(counts)})
        else:
            hands.append({"seat": hand["seat"], "won": [], "counts": {}})
    return hands


def _hand_step(token, game_id, number, seat, form, change, form_key=None):
    """One tap on a hand: check the form's shape, then let the engine judge the change."""
    seat = seat_arg(seat)
    load_game(token, game_id)
    if not form.validate_on_submit():
        shown = {"forms": {form_key: form}} if form_key else {"notice": _first_error(form)}
        return round_page(token, game_id, number, status=422, seat=seat, **shown)
    return _edit(token, game_id, number, seat, lambda entry: change(entry["hands"][seat], form))


@bp.post("/hands/<int:seat>/target")
def target_update(token, game_id, number, seat):
    def change(hand, form):
        hand["target"] = form.target.data or None

    return _hand_step(token, game_id, number, seat, TargetForm(), change, form_key="target")


@bp.post("/hands/<int:seat>/cards")
def cards_update(token, game_id, number, seat):
    def change(hand, form):
        if form.add.data and form.add.data not in hand["won"]:
            hand["won"].append(form.add.data)
        if form.remove.data in hand["won"]:
            hand["won"].remove(form.remove.data)

    return _hand_step(token, game_id, number, seat, CardForm(), change)


@bp.post("/hands/<int:seat>/counts")
def counts_update(token, game_id, number, seat):
    def change(hand, form):
        rank = form.up.data or form.down.data
        hand["counts"][rank] = max(hand["counts"].get(rank, 0) + (1 if form.up.data else -1), 0)

    return _hand_step(token, game_id, number, seat, CountForm(), change)


@bp.post("/hands/<int:seat>/remaining")
def remaining_create(token, game_id, number, seat):
    """Give this pile every card that nobody holds yet (exact entry)."""
    seat = seat_arg(seat)
    load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)

    def change(entry):
        entry["hands"][seat]["won"] = entry["hands"][seat]["won"] + remaining_of(entry)

    return _edit(token, game_id, number, seat, change)



def _first_error(form):
    for errors in form.errors.values():
        if errors:
            return errors[0]
    return "That did not work: reload the page and try again."
