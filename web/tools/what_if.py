"""What if? A saved round with one thing changed; nothing is saved."""
import copy

from flask import abort, request, url_for

from web.access import CREW, TABLE, allow
from wtforms import StringField
from wtforms.validators import ValidationError

from scoring.entries import engine_hand, hand_score, round_problems
from scoring import (
    DECK, RANKS, SUIT_SYMBOLS, CardError, PileError, parse_card, parse_rank, rank_name, score_round,
)
from services import rounds as round_service

from ..lookup import load_game

from . import bp
from .common import QuestionForm, answer, one


class WhatIfForm(QuestionForm):
    change = StringField(validators=[one("a change")])
    card = StringField("Card to move", validators=[one("a card")])
    rank = StringField("Rank to move", validators=[one("a rank")])
    to = StringField("To", validators=[one("a seat")])
    seat = StringField("Whose target", validators=[one("a seat")])
    target = StringField("New target card", validators=[one("a card")])

    def validate_change(self, field):
        if field.data not in (None, "", "move", "target"):
            raise ValidationError("Pick what to change: move a card, or change a target.")

    def validate_card(self, field):
        field.data = _optional(field.data, lambda text: parse_card(text).code)

    def validate_rank(self, field):
        field.data = _optional(field.data, parse_rank)

    def validate_target(self, field):
        field.data = _optional(field.data, lambda text: parse_card(text).code)

    def validate_from(self, field):
        field.data = _seat(field.data)

    def validate_to(self, field):
        field.data = _seat(field.data)

    def validate_seat(self, field):
        field.data = _seat(field.data)


# "from" is a Python keyword, so the field is added by name; the address reads ?rank=J&from=0&to=1.
setattr(WhatIfForm, "from", StringField("From", validators=[one("a seat")]))


def _optional(text, parse):
    if not (text or "").strip():
        return None
    try:
        return parse(text)
    except CardError as error:
        raise ValidationError(str(error)) from None


def _seat(text):
    if not (text or "").strip():
        return None
    if text.strip() not in ("0", "1", "2", "3"):
        raise ValidationError("Pick one of the four players.")
    return int(text)


def _recorded_round(game_id, number):
    """The saved revision of a round (also while a correction of it is open), or 404."""
    entry = round_service.saved_revision(game_id, number)
    if entry is None:
        abort(404)
    # Moving a card needs every card known; with any hand entered by rank, ranks are moved.
    entry["mode"] = "exact" if all(hand["mode"] == "exact" for hand in entry["hands"]) else "quick"
    return entry


def _card_code_label(code):
    return str(parse_card(code))


def _apply_change(entry, form, names):
    """Change the round as asked (in place), and describe it; or say why it cannot be done.

    Returns (description, problem, field); all None while the question is not complete yet.
    """
    hands = entry["hands"]
    if form.change.data == "target":
        seat, code = form.seat.data, form.target.data
        if seat is None or code is None:
            return None, None, None
        old = hands[seat]["target"]
        if code == old:
            return None, f"{_card_code_label(code)} is already {names[seat]}’s target.", form.target
        for hand in hands:
            # The cards stay a deck: the new target leaves wherever it was and the old one
            # takes its place there.
            if hand["target"] == code:
                hand["target"] = old
            if hand["mode"] == "exact" and code in hand["won"]:
                hand["won"][hand["won"].index(code)] = old
        hands[seat]["target"] = code
        return (f"{names[seat]}’s target had been {_card_code_label(code)} instead of "
                f"{_card_code_label(old)}", None, None)
    if entry["mode"] == "exact":
        code, taker = form.card.data, form.to.data
        if code is None or taker is None:
            return None, None, None
        giver = next((hand["seat"] for hand in hands if code in hand["won"]), None)
        if giver is None:
            return None, f"{_card_code_label(code)} is in nobody’s won pile.", form.card
        if giver == taker:
            return None, f"{_card_code_label(code)} is already in {names[taker]}’s pile.", form.to
        hands[giver]["won"].remove(code)
        hands[taker]["won"].append(code)
        return (f"{names[taker]} had won {_card_code_label(code)} instead of {names[giver]}",
                None, None)
    rank, giver, taker = form.rank.data, form["from"].data, form.to.data
    if rank is None or giver is None or taker is None:
        return None, None, None
    if giver == taker:
        return None, "Pick two different players.", form.to
    if not hands[giver]["counts"].get(rank):
        return None, f"{names[giver]}’s pile has no {rank_name(rank, plural=True)} entered.", form.rank
    hands[giver]["counts"][rank] -= 1
    hands[taker]["counts"][rank] = hands[taker]["counts"].get(rank, 0) + 1
    return (f"{names[taker]} had won one {rank_name(rank)} instead of {names[giver]}", None, None)


def _what_if_url(token, game_id, number, form):
    order = ("change", "card", "rank", "from", "to", "seat", "target")
    args = {name: form[name].data for name in order if form[name].data not in (None, "")}
    if not form.has_errors:
        return url_for("tools.what_if_show", token=token, game_id=game_id, number=number, **args)
    return request.full_path.rstrip("?")


@bp.get("/c/<token>/games/<int:game_id>/rounds/<int:number>/what-if")
@allow(CREW, TABLE)
def what_if_show(token, game_id, number):
    """A saved round with one thing changed, scored by the engine; nothing is stored."""
    crew, game = load_game(token, game_id)
    entry = _recorded_round(game_id, number)
    names = game["names"]
    form = WhatIfForm.from_address()
    change = form.change.data or "move"
    form.change.data = change
    recorded = [hand_score(hand) for hand in entry["hands"]]
    after, description, scores, new_problems = copy.deepcopy(entry), None, None, []
    if not form.has_errors:
        description, problem, where = _apply_change(after, form, names)
        if problem:
            where.errors.append(problem)
    if description and not form.has_errors:
        try:
            scores = score_round([engine_hand(hand) for hand in after["hands"]], names)
        except PileError as error:
            (form.target if change == "target" else form.to).errors.append(str(error))
        else:
            known = {problem.message for problem in round_problems(entry, names)}
            new_problems = [p.message for p in round_problems(after, names) if p.message not in known]
    rows = []
    for seat, name in enumerate(names):
        was = entry["hands"][seat]["score"]
        now = scores[seat].total if scores else None
        rows.append({
            "seat": seat, "name": name, "was": was, "now": now,
            "change": None if now is None else now - was,
            "was_lines": recorded[seat].lines() if recorded[seat] else [],
            "now_lines": scores[seat].lines() if scores else [],
        })
    owners = [
        (names[hand["seat"]], [(code, _card_code_label(code)) for code in
                               sorted(hand["won"], key=lambda code: parse_card(code))])
        for hand in entry["hands"]
    ]
    return answer(
        "tools/what_if.html", "what_if", 422 if form.has_errors else 200,
        _what_if_url(token, game_id, number, form),
        crew=crew, game=game, entry=entry, names=names, form=form, change=change,
        description=description, rows=rows, changed=scores is not None, new_problems=new_problems,
        owners=owners, deck=DECK, ranks=RANKS, suit_symbols=SUIT_SYMBOLS,
        targets=[hand["target"] for hand in entry["hands"]],
        base=url_for("tools.what_if_show", token=token, game_id=game_id, number=number),
    )
