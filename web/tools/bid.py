"""Is this bid legal?"""

from flask import url_for

from web.access import CREW, TABLE, allow
from wtforms import StringField
from wtforms.validators import ValidationError

from services.games import house_rules
from scoring import (
    MAX_AUCTION_CALLS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Bid, BidError, auction, first_bidder_seat, legal_call_error, parse_call,
)
from scoring.bidding import MAX_BID

from ..lookup import load_crew

from . import bp
from .common import QuestionForm, Tap, answer, at_most, one, tokens


ORDINALS = ("First", "Second", "Third", "Fourth")
VISIBLE_BID_NUMBERS = 6  # higher bids fold away: they are rare, and the grid stays short


def caller_name(offset):
    """Who makes the call at this offset from the round's first bidder (the dealer's left)."""
    dealer = 0
    seat = (first_bidder_seat(dealer) + offset) % 4
    return f"{ORDINALS[offset % 4]} bidder" + (" (the dealer)" if seat == dealer else "")


def call_text(call):
    return "pass" if call is None else call.code


def call_label(call):
    return "Pass" if call is None else str(call)


class BidQuestionForm(QuestionForm):
    calls = StringField("Calls so far", validators=[
        at_most(MAX_AUCTION_CALLS, f"An auction has at most {MAX_AUCTION_CALLS} calls.")])
    next = StringField("Next call", validators=[one("a call")])

    def validate_calls(self, field):
        self.call_list, problem = [], None
        for token in tokens(field.data):
            try:
                self.call_list.append(parse_call(token))
            except BidError as error:
                problem = problem or str(error)
        if problem:
            raise ValidationError(problem)

    def validate_next(self, field):
        self.asked, self.next_call = False, None
        if not (field.data or "").strip():
            return
        try:
            self.next_call = parse_call(field.data)
        except BidError as error:
            raise ValidationError(str(error)) from None
        self.asked = True


def _bid_url(token, calls, next_call=None, asked=False):
    args = {}
    if calls:
        args["calls"] = " ".join(call_text(call) for call in calls)
    if asked:
        args["next"] = call_text(next_call)
    return url_for("tools.bid_show", token=token, **args)


@bp.get("/c/<token>/tools/bid")
@allow(CREW, TABLE)
def bid_show(token):
    crew = load_crew(token)
    rules = house_rules(crew)
    form = BidQuestionForm.from_address()
    calls, next_call, asked = form.call_list, form.next_call, form.asked
    before = verdict = None
    if not form.calls.errors:
        try:
            before = auction(calls, rules.min_bid)
        except BidError as error:
            form.calls.errors.append(str(error))
    if before is not None and asked:
        verdict = legal_call_error(calls, next_call, rules.min_bid)
    legal = before is not None and asked and verdict is None
    # The auction as it stands once the call in question is made, if it may be made.
    state = auction([*calls, next_call], rules.min_bid) if legal else before
    # A tap names the next call; a legal call already in question joins the calls first.
    kept = [*calls, next_call] if legal else calls

    def tap(call):
        return _bid_url(token, kept, call, True)

    bids = [[Tap(str(Bid(n, suit)), "", tap(Bid(n, suit)), Bid(n, suit).code) for suit in SUITS]
            for n in range(1, MAX_BID + 1)]
    take_back = (_bid_url(token, calls) if asked
                 else _bid_url(token, calls[:-1]) if calls else "")
    return answer(
        "tools/bid.html", "bid_tool", 422 if form.has_errors else 200,
        _bid_url(token, calls, next_call, asked),
        crew=crew, form=form, rules=rules, calls=calls, next_call=next_call, asked=asked,
        verdict=verdict, legal=legal, state=state, before=before,
        pass_url=tap(None), bids=bids, visible=VISIBLE_BID_NUMBERS,
        take_back=take_back, start_over=_bid_url(token, []),
        caller_name=caller_name, call_label=call_label, suit_names=SUIT_NAMES, suit_symbols=SUIT_SYMBOLS,
    )
