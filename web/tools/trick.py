"""Who wins this trick?"""

from flask import url_for

from web.access import CREW, TABLE, allow
from wtforms import StringField
from wtforms.validators import ValidationError

from scoring import DECK, MAX_PILE_CARDS, SUIT_NAMES, SUIT_SYMBOLS, CardError, TrickError, parse_suit, trick_winner

from ..lookup import load_crew

from . import bp
from .common import CardsQuestion, GRID_SUITS, QuestionForm, Tap, answer, at_most, one


PLACES = ("1st", "2nd", "3rd", "4th")  # in play order; the 1st card is the one led


class TrickForm(CardsQuestion, QuestionForm):
    trump = StringField("Trump", validators=[one("a suit")])
    cards = StringField("Cards in play order", validators=[
        at_most(MAX_PILE_CARDS, f"Too many cards: a deck has {MAX_PILE_CARDS}.")])

    def validate_trump(self, field):
        self.trump_suit = None
        if not (field.data or "").strip():
            return
        try:
            self.trump_suit = parse_suit(field.data)
        except CardError as error:
            raise ValidationError(str(error)) from None


def _trick_url(token, trump, cards):
    args = {}
    if trump:
        args["trump"] = trump
    if cards:
        args["cards"] = " ".join(card.code for card in cards)
    return url_for("tools.trick_show", token=token, **args)


@bp.get("/c/<token>/tools/trick")
@allow(CREW, TABLE)
def trick_show(token):
    crew = load_crew(token)
    form = TrickForm.from_address()
    trump, cards = form.trump_suit, form.card_list
    result = None
    if trump and cards and not form.has_errors:
        try:
            result = trick_winner(cards, trump)
        except TrickError as error:
            form.cards.errors.append(str(error))
    full = len(cards) >= len(PLACES)
    grid = []
    for suit in GRID_SUITS:
        row = []
        for card in (c for c in DECK if c.suit == suit):
            if card in cards:
                rest = [c for c in cards if c != card]
                place = PLACES[cards.index(card)] if cards.index(card) < len(PLACES) else ""
                row.append(Tap(str(card), "taken", _trick_url(token, trump, rest), card.code, place))
            elif full:
                row.append(Tap(str(card), "off", "", card.code))
            else:
                row.append(Tap(str(card), "", _trick_url(token, trump, [*cards, card]), card.code))
        grid.append((suit, row))
    slots = [
        {"place": place, "card": cards[i] if i < len(cards) else None,
         "url": _trick_url(token, trump, cards[:i] + cards[i + 1:]) if i < len(cards) else ""}
        for i, place in enumerate(PLACES)
    ]
    trumps = [
        Tap(f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}", "taken" if suit == trump else "",
            _trick_url(token, suit, cards), suit)
        for suit in GRID_SUITS
    ]
    return answer(
        "tools/trick.html", "trick_tool", 422 if form.has_errors else 200,
        _trick_url(token, trump, cards),
        crew=crew, form=form, trump=trump, cards=cards, result=result, grid=grid, slots=slots,
        trumps=trumps, places=PLACES, clear_url=_trick_url(token, trump, []),
    )
