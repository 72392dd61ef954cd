"""The round page's forms: the bid, and each tap on a hand (its target, a card, a count, its
entry mode, all in), and the save. Their shape only: the rules are the engine's (`scoring`)."""
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, NumberRange, Optional

from scoring import DECK, MAX_BID, MODES, RANKS, SUITS, SUIT_NAMES, SUIT_SYMBOLS
from web.fields import BID_RANGE, SEATS, check_card


class BidForm(FlaskForm):
    bidder = RadioField("Won by", choices=SEATS, validators=[InputRequired("Who won the bid?")])
    number = IntegerField(
        "Number",
        validators=[
            InputRequired("Enter the number bid."),
            NumberRange(min=1, max=MAX_BID, message=BID_RANGE),
        ],
    )
    suit = RadioField(
        "Suit",
        choices=[SelectChoice(suit, f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}") for suit in SUITS],
        validators=[InputRequired("Pick the trump suit.")],
    )


class HandTapForm(FlaskForm):
    """A tap on a hand: the state it asks for, and the hand version the phone showed."""

    based_on = IntegerField(validators=[Optional(), NumberRange(min=0)])


class TargetForm(HandTapForm):
    """The rank-then-suit target picker (or a whole card code); nothing is saved until both are
    picked."""

    target = StringField("Target card", validators=[Optional(), check_card])
    rank = RadioField(choices=[SelectChoice(rank) for rank in RANKS], validators=[Optional()])
    suit = RadioField(choices=[SelectChoice(suit) for suit in SUITS], validators=[Optional()])

    def card(self):
        """The card picked, or None while only its rank or its suit is."""
        if self.target.data:
            return self.target.data
        if self.rank.data and self.suit.data:
            return self.rank.data + self.suit.data
        return None


class CardTapForm(HandTapForm):
    """A tap on the card grid: is this card in the pile?"""

    held = BooleanField()


class CountTapForm(HandTapForm):
    """A tap on a rank's count: how many of this rank the pile holds."""

    count = IntegerField(
        validators=[InputRequired("Pick how many."),
                    NumberRange(min=0, max=len(SUITS), message=f"A pile holds 0 to {len(SUITS)} of a rank.")]
    )


class ModeForm(FlaskForm):
    mode = RadioField(choices=[SelectChoice(mode, mode.title()) for mode in MODES],
                      validators=[InputRequired("Pick quick or exact entry.")])


class SaveForm(FlaskForm):
    version = IntegerField(validators=[InputRequired()])
    # How many cards no entry holds the phone confirmed as singles (quick entry leaves them out).
    singles = IntegerField(validators=[Optional(), NumberRange(min=0, max=len(DECK))])


class DoneForm(FlaskForm):
    done = RadioField(choices=[SelectChoice("1"), SelectChoice("0")], default="1", validators=[Optional()])
