"""The field checks several features' forms share: a player's or a crew's name (the rule itself is
`scoring.names`), a card code, and the seats as choices. Each feature's forms live beside its
blueprint (web/crews.py, web/games.py, web/rounds/forms.py, web/history/forms.py, ...)."""
from wtforms import SelectChoice
from wtforms.validators import ValidationError

from scoring import MAX_BID, NAME_MAX, PLAYERS, CardError, parse_card
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


def check_card(form, field):
    try:
        field.data = parse_card(field.data if isinstance(field.data, str) else "").code
    except CardError as error:
        raise ValidationError(str(error)) from None
