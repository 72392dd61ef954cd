"""Flask-WTF forms: the shape and type of what a phone sends. The rules live in `scoring`."""
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, PasswordField, RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from scoring import (MAX_BID, MAX_GOAL, MODES, NAME_MAX, PLAYERS, RANKS, SUITS, HouseRules, SUIT_NAMES,
                     SUIT_SYMBOLS, CardError, parse_card)
from scoring import names as name_rule

SEATS = [SelectChoice(str(seat), f"Seat {seat + 1}") for seat in range(PLAYERS)]
BID_RANGE = f"A bid is a number from 1 to {MAX_BID}."


def check_name(form, field):
    """The one rule for a name (`scoring.names`): the field keeps the name as shown."""
    field.data = name_rule.clean(field.data)
    sentence = name_rule.problem(field.data)
    if len(field.data) > NAME_MAX:
        field.data = field.data[:NAME_MAX]  # the form shows it again: only an excerpt
    if sentence:
        raise ValidationError(sentence)


class CrewForm(FlaskForm):
    name = StringField("Crew name", validators=[check_name])
    # Asked only when the server has a passphrase (ORCHARD_PASSPHRASE), checked in the view.
    passphrase = PasswordField("Server passphrase")


class HouseRulesForm(FlaskForm):
    """The house rules: a crew's defaults, and the same fields on each new game."""

    goal = RadioField(
        "Play to",
        choices=[SelectChoice("250"), SelectChoice("500", "500 (long game)"), SelectChoice("other", "Other")],
        default="250",
    )
    goal_other = IntegerField(
        "Other goal",
        validators=[Optional(), NumberRange(min=1, max=MAX_GOAL, message=f"Pick a goal from 1 to {MAX_GOAL}.")],
    )
    tie_rule = RadioField(
        "A tie at the top when the game ends",
        choices=[SelectChoice("play-on", "Play on (rule book)"), SelectChoice("shared", "Shared win")],
        default="play-on",
    )
    min_bid = IntegerField(
        "Lowest bid number allowed",
        default=1,
        validators=[
            InputRequired("Enter the lowest bid number."),
            NumberRange(min=1, max=MAX_BID, message=BID_RANGE),
        ],
    )
    redeal_moves_deal = RadioField(
        "After four passes",
        choices=[SelectChoice("no", "Same dealer deals again (rule book)"), SelectChoice("yes", "The deal moves on")],
        default="no",
    )

    def fill(self, rules):
        """Pre-fill from a HouseRules value (unless the form was posted)."""
        if self.is_submitted():
            return self
        standard = str(rules.goal) in ("250", "500")
        self.goal.data = str(rules.goal) if standard else "other"
        self.goal_other.data = None if standard else rules.goal
        self.tie_rule.data = rules.tie_rule
        self.min_bid.data = rules.min_bid
        self.redeal_moves_deal.data = "yes" if rules.redeal_moves_deal else "no"
        return self

    def house_rules(self):
        """The rules as the engine's value."""
        goal = int(self.goal.data) if self.goal.data != "other" else self.goal_other.data
        return HouseRules(
            goal=goal,
            tie_rule=self.tie_rule.data,
            min_bid=self.min_bid.data,
            redeal_moves_deal=self.redeal_moves_deal.data == "yes",
        )

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if self.goal.data == "other" and self.goal_other.data is None and not self.goal_other.errors:
            self.goal_other.errors.append("Enter the number of points to play to.")
            ok = False
        return ok


class GameForm(HouseRulesForm):
    player_0 = StringField("Seat 1", validators=[check_name])
    player_1 = StringField("Seat 2", validators=[check_name])
    player_2 = StringField("Seat 3", validators=[check_name])
    player_3 = StringField("Seat 4", validators=[check_name])
    first_dealer = RadioField("Who deals first", choices=SEATS, default="0")

    def names(self):
        return [getattr(self, f"player_{seat}").data for seat in range(PLAYERS)]

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        seen = {}
        for seat, name in enumerate(self.names()):
            field = getattr(self, f"player_{seat}")
            if name and name_rule.key(name) in seen and not field.errors:
                field.errors.append(f"{name} is already in seat {seen[name_rule.key(name)] + 1}.")
                ok = False
            seen.setdefault(name_rule.key(name or ""), seat)
        return ok


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


def check_card(form, field):
    try:
        field.data = parse_card(field.data if isinstance(field.data, str) else "").code
    except CardError as error:
        raise ValidationError(str(error)) from None


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


class DoneForm(FlaskForm):
    done = RadioField(choices=[SelectChoice("1"), SelectChoice("0")], default="1", validators=[Optional()])
