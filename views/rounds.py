"""A round's page: entry step by step (bid, targets, piles, check and save), then its breakdown,
correction, undo and restore."""
import copy
from collections import Counter

from flask import Blueprint, abort, flash, request, url_for

import tally
from forms import (
    CARD_CHOICES, ActionForm, BidForm, CardForm, CountForm, ModeForm, SaveForm, TargetForm,
)
from scoring import DECK, RANKS, SUIT_SYMBOLS, Bid, GameError, legal_call_error
from store import games as game_store
from store import rounds as round_store
from store import write
from store.rounds import RoundConflict

from .games import load_game
from .render import render, see_other

bp = Blueprint("rounds", __name__, url_prefix="/c/<token>/games/<int:game_id>/rounds/<int:number>")


def _page(token, game_id, number, *, status=200, notice=None, seat=None, forms=None):
    """The round page, or just its main block for htmx."""
    crew, game = load_game(token, game_id)
    entry = round_store.for_number(game_id, number)
    if entry is None:
        abort(404)
    names = game["names"]
    context = {
        "crew": crew, "game": game, "entry": entry, "names": names, "notice": notice,
        "action_form": ActionForm(), "suit_symbols": SUIT_SYMBOLS,
    }
    if entry["status"] == round_store.OPEN:
        seat = _seat_arg(seat)
        problems = tally.problems(entry, names)
        context.update(
            seat=seat,
            problems=problems,
            seat_problems=[p for p in problems if seat in p.seats],
            table_problems=[p for p in problems if not p.seats],
            scores=[tally.pile_score(entry["mode"], hand) for hand in entry["hands"]],
            dealer=entry["dealer"],
            first_bidder=tally.dealer_and_first_bidder(entry)[1],
            bid=tally.bid_of(entry),
            owners=_owners(entry, names),
            # Offered once every target is known, for the last pile of the round.
            remaining=_remaining(entry) if all(h["target"] for h in entry["hands"]) else None,
            card_choices=CARD_CHOICES,
            deck=DECK,
            ranks=RANKS,
            is_correction=entry["revision"] > 1 and _has_saved(game_id, number),
            bid_form=(forms or {}).get("bid") or _bid_form(entry),
            target_form=(forms or {}).get("target") or TargetForm(target=entry["hands"][seat]["target"]),
            save_form=SaveForm(version=entry["version"]),
        )
    else:
        saved = round_store.scored(game_id)
        context.update(
            breakdowns=[tally.pile_score(entry["mode"], hand) for hand in entry["hands"]],
            bid=tally.bid_of(entry),
            first_bidder=tally.dealer_and_first_bidder(entry)[1],
            history=round_store.history(game_id, number),
            is_last=bool(saved) and saved[-1]["number"] == number,
            can_restore=entry["status"] == "deleted" and len(saved) == number - 1
            and round_store.open_round(game_id) is None,
        )
    return render("rounds/show.html", "round_main", status=status, **context)


def _seat_arg(seat):
    if seat is None:
        seat = request.args.get("seat", request.form.get("seat", "0"))
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        abort(404)
    if seat not in range(4):
        abort(404)
    return seat


def _bid_form(entry):
    form = BidForm(formdata=None)
    if entry["bid_number"] is not None:
        form.bidder.data = str(entry["bid_seat"])
        form.number.data = entry["bid_number"]
        form.suit.data = entry["bid_suit"]
    return form


def _has_saved(game_id, number):
    return any(row["number"] == number for row in round_store.scored(game_id))


def _owners(entry, names):
    """Who holds each card in exact entry, for the grid: code -> (seat, 'pile' or 'target')."""
    owners = {}
    for hand in entry["hands"]:
        if hand["target"]:
            owners[hand["target"]] = (hand["seat"], "target")
        for code in hand["won"]:
            owners.setdefault(code, (hand["seat"], "pile"))
    return owners


def _remaining(entry):
    """Cards (exact) or rank counts (quick) that no pile or target holds yet."""
    if entry["mode"] == "exact":
        taken = set(_owners(entry, None))
        return [card.code for card in DECK if card.code not in taken]
    used = Counter()
    for hand in entry["hands"]:
        used.update(hand["counts"])
        if hand["target"]:
            used[tally.engine_hand("exact", hand).target.rank] += 1
    return {rank: 4 - used[rank] for rank in RANKS if used[rank] < 4}


def _not_open(token, game_id, number):
    return _page(
        token, game_id, number, status=409,
        notice=f"Round {number} is no longer open for entry: it was saved or changed on another "
        "phone. This is what is stored now.",
    )


def _edit(token, game_id, number, seat, change):
    """Apply one entry step to the open round, unless the engine refuses it."""
    crew, game = load_game(token, game_id)
    try:
        with write() as db:
            entry = _open_revision(db, game_id, number)
            after = copy.deepcopy(entry)
            change(after)
            refused = tally.refused_change(entry, after, game["names"], seat)
            if refused is None:
                _persist(db, entry, after)
    except RoundConflict:
        return _not_open(token, game_id, number)
    if refused:
        return _page(token, game_id, number, status=409, notice=refused, seat=seat)
    return _page(token, game_id, number, seat=seat)


def _open_revision(db, game_id, number):
    rows = list(
        db.query(
            "SELECT id FROM rounds WHERE game_id = ? AND number = ? AND status = 'entering'",
            [game_id, number],
        )
    )
    if not rows:
        raise RoundConflict()
    return round_store.lock_open(db, rows[0]["id"])


def _persist(db, before, after):
    for old, new in zip(before["hands"], after["hands"]):
        changed = {key: new[key] for key in ("target", "won", "counts") if old[key] != new[key]}
        if changed:
            round_store.set_hand(db, after["id"], new["seat"], **changed)


@bp.get("")
def round_show(token, game_id, number):
    return _page(token, game_id, number)


@bp.get("/hands/<int:seat>")
def hand_show(token, game_id, number, seat):
    return _page(token, game_id, number, seat=seat)


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
        return _page(token, game_id, number, status=422, forms={"bid": form})
    try:
        with write() as db:
            entry = _open_revision(db, game_id, number)
            round_store.set_bid(db, entry["id"], int(form.bidder.data), form.number.data, form.suit.data)
    except RoundConflict:
        return _not_open(token, game_id, number)
    return _page(token, game_id, number)


@bp.post("/redeal")
def redeal_create(token, game_id, number):
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    try:
        with write() as db:
            entry = _open_revision(db, game_id, number)
            earlier = sum(row["redeals"] or 0 for row in round_store.scored(game_id, db) if row["number"] < number)
            dealer = tally.dealer_for(game, number, earlier + entry["redeals"] + 1)
            round_store.record_redeal(db, entry["id"], dealer)
    except RoundConflict:
        return _not_open(token, game_id, number)
    again = "same dealer" if dealer == entry["dealer"] else "the deal moves on"
    return _page(token, game_id, number, notice=f"Everyone passed: {again}, deal again and bid.")


@bp.post("/mode")
def mode_update(token, game_id, number):
    load_game(token, game_id)
    form = ModeForm()
    if not form.validate_on_submit():
        return _page(token, game_id, number, status=422, notice="Pick quick or exact entry.")
    try:
        with write() as db:
            entry = _open_revision(db, game_id, number)
            if entry["mode"] != form.mode.data:
                round_store.set_mode(db, entry["id"], form.mode.data, _converted(entry, form.mode.data))
    except RoundConflict:
        return _not_open(token, game_id, number)
    return _page(token, game_id, number)


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


@bp.post("/hands/<int:seat>/target")
def target_update(token, game_id, number, seat):
    seat = _seat_arg(seat)
    load_game(token, game_id)
    form = TargetForm()
    if not form.validate_on_submit():
        return _page(token, game_id, number, status=422, seat=seat, forms={"target": form})

    def change(entry):
        entry["hands"][seat]["target"] = form.target.data or None

    return _edit(token, game_id, number, seat, change)


@bp.post("/hands/<int:seat>/cards")
def cards_update(token, game_id, number, seat):
    seat = _seat_arg(seat)
    load_game(token, game_id)
    form = CardForm()
    if not form.validate_on_submit():
        return _page(token, game_id, number, status=422, seat=seat, notice=_first_error(form))

    def change(entry):
        won = entry["hands"][seat]["won"]
        if form.add.data and form.add.data not in won:
            won.append(form.add.data)
        if form.remove.data in won:
            won.remove(form.remove.data)

    return _edit(token, game_id, number, seat, change)


@bp.post("/hands/<int:seat>/counts")
def counts_update(token, game_id, number, seat):
    seat = _seat_arg(seat)
    load_game(token, game_id)
    form = CountForm()
    if not form.validate_on_submit():
        return _page(token, game_id, number, status=422, seat=seat, notice=_first_error(form))

    def change(entry):
        counts = entry["hands"][seat]["counts"]
        rank = form.up.data or form.down.data
        counts[rank] = max(counts.get(rank, 0) + (1 if form.up.data else -1), 0)

    return _edit(token, game_id, number, seat, change)


@bp.post("/hands/<int:seat>/remaining")
def remaining_create(token, game_id, number, seat):
    """Give this pile every card (or rank count) that nobody holds yet."""
    seat = _seat_arg(seat)
    load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)

    def change(entry):
        remaining = _remaining(entry)
        hand = entry["hands"][seat]
        if entry["mode"] == "exact":
            hand["won"] = hand["won"] + remaining
        else:
            hand["counts"] = dict(Counter(hand["counts"]) + Counter(remaining))

    return _edit(token, game_id, number, seat, change)


@bp.post("/save")
def round_save(token, game_id, number):
    crew, game = load_game(token, game_id)
    form = SaveForm()
    if not form.validate_on_submit():
        return _page(token, game_id, number, status=422, notice="Reload the page and save again.")
    try:
        with write() as db:
            entry = _open_revision(db, game_id, number)
            if entry["version"] != form.version.data:
                raise RoundConflict()
            problems = tally.problems(entry, game["names"])
            if not problems:
                round_store.mark_saved(db, entry, tally.scores_to_save(entry))
                _update_result(db, game)
    except GameError as error:
        # A correction that would end the game before rounds already saved after it.
        return _page(
            token, game_id, number, status=409,
            notice=f"{error}: undo the later rounds first, then save this correction.",
        )
    except RoundConflict:
        return _page(
            token, game_id, number, status=409,
            notice=f"Round {number} changed on another phone before this save: nothing was "
            "overwritten. Check what is stored now, then save again if needed.",
        )
    if problems:
        return _page(
            token, game_id, number, status=422,
            notice="This round cannot be saved yet: fix the problems below.",
        )
    flash(f"Round {number} saved.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


def _update_result(db, game):
    """Recompute the game's verdict inside the same transaction as the change that moves it."""
    saved = round_store.scored(game["id"], db)
    result = tally.standing(game, saved).result
    game_store.set_result(db, game["id"], result.over, result.winners)


@bp.post("/correct")
def correction_create(token, game_id, number):
    """Open a pre-filled copy of a saved round; the saved one stays until the copy is saved."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        rows = list(
            db.query(
                "SELECT id, status FROM rounds WHERE game_id = ? AND number = ?"
                " AND status IN ('scored', 'entering')",
                [game_id, number],
            )
        )
        statuses = {row["status"]: row["id"] for row in rows}
        if "scored" not in statuses:
            abort(404)
        if "entering" not in statuses:
            round_store.start_correction(db, round_store.load(statuses["scored"], db))
    return see_other(url_for("rounds.round_show", token=token, game_id=game_id, number=number))


@bp.post("/discard")
def correction_discard(token, game_id, number):
    """Drop a correction in progress; the saved round is untouched."""
    load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        if _has_saved(game_id, number):
            try:
                entry = _open_revision(db, game_id, number)
                round_store.set_status(db, entry["id"], "discarded", "correction discarded")
            except RoundConflict:
                pass
    return see_other(url_for("rounds.round_show", token=token, game_id=game_id, number=number))


@bp.post("/delete")
def round_delete(token, game_id, number):
    """Undo the last saved round; it is kept and can be restored."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        saved = round_store.scored(game_id, db)
        if not saved or saved[-1]["number"] != number:
            return _page(token, game_id, number, status=409, notice="Only the last round can be undone.")
        round_store.set_status(db, saved[-1]["id"], "deleted", "undone")
        _update_result(db, game)
    flash(f"Round {number} undone. You can restore it from its page.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


@bp.post("/restore")
def round_restore(token, game_id, number):
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        entry = round_store.for_number(game_id, number)
        saved = round_store.scored(game_id, db)
        busy = list(
            db.query(
                "SELECT 1 FROM rounds WHERE game_id = ? AND number >= ? AND status = 'entering'",
                [game_id, number],
            )
        )
        if entry is None or entry["status"] != "deleted" or len(saved) != number - 1 or busy:
            return _page(
                token, game_id, number, status=409,
                notice="This round cannot be restored: another round has taken its place.",
            )
        round_store.set_status(db, entry["id"], "scored", "restored")
        _update_result(db, game)
    flash(f"Round {number} restored.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


def _first_error(form):
    for errors in form.errors.values():
        if errors:
            return errors[0]
    return "That did not work: reload the page and try again."
