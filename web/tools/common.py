"""What every tool shares: reading a question from the address, and answering page or fragment."""
import re
from dataclasses import dataclass, field

from flask import request
from flask_wtf import FlaskForm
from wtforms.validators import ValidationError

from scoring import CardError, parse_card

from ..render import render, wants_fragment


GRID_SUITS = ("S", "H", "C", "D")  # the order of the round page's card grid
SEPARATORS = re.compile(r"[\s,]+")


# A card, suit, rank count or call is a few characters ("10♠", "Spades", "J:3", "pass");
# a text longer than this many per item is not a question anyone typed.
CHARS_PER_ITEM = 20


def tokens(text):
    return [part for part in SEPARATORS.split(text or "") if part]


def at_most(items, message):
    """A field listing at most `items` things (cards, counts, calls): a longer one is cut to
    that many, which are still read, and refused with `message`, before any work is done."""

    def check(form, field):
        text = field.data if isinstance(field.data, str) else ""
        cut = text[: items * CHARS_PER_ITEM]
        parts = tokens(cut)
        if len(text) > len(cut) or len(parts) > items:
            field.data = " ".join(parts[:items])
            raise ValidationError(message)

    return check


def one(what):
    """A field naming one thing (a target card, a suit, a call), cut short if it is far too long."""

    def check(form, field):
        if isinstance(field.data, str) and len(field.data) > CHARS_PER_ITEM:
            field.data = field.data[:CHARS_PER_ITEM]
            raise ValidationError(f"That is too long to be {what}.")

    return check


def answer(template, block, status, canonical, **context):
    """The page or its tool block; an htmx swap also puts the question's own address in the
    address bar, so what was typed into a form becomes the same link a tap would make."""
    response = render(template, block, status=status, **context)
    if wants_fragment():
        response.headers["HX-Push-Url"] = canonical
    return response


class QuestionForm(FlaskForm):
    """A GET form that only asks a question: it changes nothing, so it carries no CSRF token."""

    class Meta:
        csrf = False

    @classmethod
    def from_address(cls):
        form = cls(formdata=request.args)
        form.validate()
        return form

    @property
    def has_errors(self):
        return any(f.errors for f in self)


class CardsQuestion:
    """A question form's `cards` field: the cards it names end up in `card_list`."""

    def validate_cards(self, field):
        self.card_list, problem = cards_in(field.data)
        if problem:
            raise ValidationError(problem)


def cards_in(text):
    """The cards named in a text, skipping any that are not cards, and the first such problem."""
    cards, problem = [], None
    for token in tokens(text):
        try:
            cards.append(parse_card(token))
        except CardError as error:
            problem = problem or str(error)
    return cards, problem


@dataclass(frozen=True)
class Tap:
    """One button of a tool's grid: what it shows, its state and the address it leads to."""

    label: str
    state: str = ""  # a CSS class: "taken", "target", "off" ...
    url: str = ""  # no address: the button cannot be tapped now
    code: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)
