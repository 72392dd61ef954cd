"""The round page's context: what a phone sees of a round being entered or already scored."""

from flask import abort, request

import tally
from forms import CARD_CHOICES, ActionForm, BidForm, SaveForm, TargetForm
from scoring import DECK, RANKS, SUIT_SYMBOLS
from store import rounds as round_store
from store import seats as seat_store

from .lookup import load_game
from .render import render
from .viewer import viewer_for


def round_page(token, game_id, number, *, status=200, notice=None, seat=None, forms=None):
    """The round page, or just its main block for htmx."""
    crew, game = load_game(token, game_id)
    entry = round_store.for_number(game_id, number)
    if entry is None:
        abort(404)
    names = game["names"]
    context = {
        "crew": crew, "game": game, "entry": entry, "names": names, "notice": notice,
        "action_form": ActionForm(), "suit_symbols": SUIT_SYMBOLS, "rules": tally.house_rules(game),
    }
    viewer = viewer_for(game)
    context["viewer"] = viewer
    if entry["status"] == round_store.OPEN:
        seat = seat_arg(seat, default=viewer.seat)
        hidden = viewer.hidden_seats(entry)
        # While a phone is still entering in private, nothing on this page may give its cards away.
        secret = bool(hidden) and not all(hand["done"] for hand in entry["hands"])
        problems = tally.problems(entry, names)
        if secret:
            problems = [p for p in problems if p.seats and not set(p.seats) & hidden]
        visible = [hand if hand["seat"] not in hidden else _blank(hand) for hand in entry["hands"]]
        others_done = all(hand["done"] for hand in entry["hands"] if hand["seat"] != seat)
        context.update(
            seat=seat,
            hidden=hidden,
            secret=secret,
            seat_mode=bool(viewer.claims),
            waiting=[names[hand["seat"]] for hand in entry["hands"] if not hand["done"]],
            problems=problems,
            seat_problems=[p for p in problems if seat in p.seats],
            scores=[tally.pile_score(entry["mode"], hand) if hand["seat"] not in hidden else None
                    for hand in entry["hands"]],
            dealer=entry["dealer"],
            first_bidder=tally.dealer_and_first_bidder(entry)[1],
            bid=tally.bid_of(entry),
            owners=owners_of({**entry, "hands": visible}, names),
            # Offered once every target is known, for the last pile of the round.
            remaining=remaining_of(entry)
            if all(h["target"] for h in entry["hands"]) and (not hidden or others_done) else None,
            card_choices=CARD_CHOICES,
            deck=DECK,
            ranks=RANKS,
            is_correction=entry["is_correction"],
            bid_form=(forms or {}).get("bid") or _bid_form(entry),
            target_form=(forms or {}).get("target") or TargetForm(target=visible[seat]["target"]),
            save_form=SaveForm(version=entry["version"]),
        )
    else:
        saved = round_store.scored(game_id)
        context.update(
            agreed=seat_store.signoffs([entry["id"]]).get(entry["id"], set()),
            breakdowns=[tally.pile_score(entry["mode"], hand) for hand in entry["hands"]],
            bid=tally.bid_of(entry),
            first_bidder=tally.dealer_and_first_bidder(entry)[1],
            history=round_store.history(game_id, number),
            is_last=bool(saved) and saved[-1]["number"] == number,
            can_restore=entry["status"] == "deleted" and len(saved) == number - 1
            and round_store.open_round(game_id) is None,
        )
    return render("rounds/show.html", "round_main", status=status, **context)


def _blank(hand):
    """A hand as a phone that may not see it: no target, no cards."""
    return {**hand, "target": None, "won": [], "counts": {}}


def seat_arg(seat, default=None):
    """The player tab to show: the one asked for, else this phone's own seat, else the first."""
    if seat is None:
        fallback = "0" if default is None else str(default)
        seat = request.args.get("seat", request.form.get("seat", fallback))
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


def has_saved(game_id, number):
    return any(row["number"] == number for row in round_store.scored(game_id))


def owners_of(entry, names):
    """Who holds each card in exact entry, for the grid: code -> (seat, 'pile' or 'target')."""
    owners = {}
    for hand in entry["hands"]:
        if hand["target"]:
            owners[hand["target"]] = (hand["seat"], "target")
        for code in hand["won"]:
            owners.setdefault(code, (hand["seat"], "pile"))
    return owners


def remaining_of(entry):
    """The cards no pile or target holds yet (exact entry; quick entry leaves singles out, so
    "the rest" cannot be known there)."""
    if entry["mode"] != "exact":
        return []
    taken = set(owners_of(entry, None))
    return [card.code for card in DECK if card.code not in taken]
