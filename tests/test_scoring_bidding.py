import pytest

from scoring.bidding import (
    Auction,
    Bid,
    BidError,
    auction,
    dealer_seat,
    first_bidder_seat,
    highest_bid,
    is_legal_call,
    legal_call_error,
    parse_call,
)


@pytest.mark.parametrize("weaker, stronger", [
    ("2S", "3D"),    # a higher number beats any suit
    ("2C", "2S"),    # equal numbers: the stronger suit
    ("2D", "2H"),
    ("2H", "2C"),
    ("12S", "13D"),
    ("1S", "2D"),
])
def test_bid_order(weaker, stronger):
    assert parse_call(weaker) < parse_call(stronger)
    assert parse_call(stronger) > parse_call(weaker)
    assert max(parse_call(weaker), parse_call(stronger)) == parse_call(stronger)


def test_bids_sort_into_the_bidding_ladder():
    assert [b.code for b in sorted([Bid(2, "S"), Bid(3, "D"), Bid(2, "D"), Bid(2, "C"), Bid(1, "H")])] == [
        "1H", "2D", "2C", "2S", "3D"]


@pytest.mark.parametrize("text, bid", [
    ("2S", Bid(2, "S")), ("2s", Bid(2, "S")), ("2♠", Bid(2, "S")), ("13D", Bid(13, "D")),
    (" 1 h ", Bid(1, "H")), ("7♧", Bid(7, "C")), ("3 spades", Bid(3, "S")),
    ("pass", None), ("PASS", None), ("p", None), ("P", None), ("-", None),
])
def test_parse_call(text, bid):
    assert parse_call(text) == bid


@pytest.mark.parametrize("text, message", [
    ("14S", "'14S': a bid is a number from 1 to 13 and a suit, such as 2S or 2♠, or pass"),
    ("0D", "'0D': a bid is a number from 1 to 13 and a suit, such as 2S or 2♠, or pass"),
    ("S2", "'S2': a bid is a number from 1 to 13 and a suit, such as 2S or 2♠, or pass"),
    ("", "'': a bid is a number from 1 to 13 and a suit, such as 2S or 2♠, or pass"),
    ("2X", "'2X': 'X' is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)"),
])
def test_parse_call_errors(text, message):
    with pytest.raises(BidError) as caught:
        parse_call(text)
    assert str(caught.value) == message


@pytest.mark.parametrize("number, suit", [(0, "S"), (14, "S"), (2, "X"), (2, "s"), (True, "S")])
def test_bid_validates(number, suit):
    with pytest.raises(BidError):
        Bid(number, suit)


@pytest.mark.parametrize("bid, shown, name, code", [
    (Bid(2, "S"), "2♠", "Two Spades", "2S"),
    (Bid(3, "D"), "3♦", "Three Diamonds", "3D"),
    (Bid(13, "H"), "13♥", "Thirteen Hearts", "13H"),
    (Bid(1, "C"), "1♣", "One Club", "1C"),
])
def test_bid_text(bid, shown, name, code):
    assert (str(bid), bid.name, bid.code) == (shown, name, code)


@pytest.mark.parametrize("calls, index", [
    (["2S", "3D", "2C"], 1),
    (["pass", "2S", "pass", "2C"], 1),
    (["1D", "1H", "1C", "1S"], 3),
    (["pass", "pass"], None),
    ([], None),
    ([None, Bid(4, "H")], 1),
])
def test_highest_bid(calls, index):
    assert highest_bid(calls) == index


@pytest.mark.parametrize("calls, over, redeal, highest, next_caller, lowest", [
    ([], False, False, None, 0, "1D"),
    (["pass"], False, False, None, 1, "1D"),
    (["2H"], False, False, 0, 1, "2C"),
    (["2S"], False, False, 0, 1, "3D"),
    (["2H", "pass", "pass"], False, False, 0, 3, "2C"),
    (["2H", "pass", "pass", "pass"], True, False, 0, None, None),           # three passes end it
    (["pass", "2H", "pass", "pass", "pass"], True, False, 1, None, None),
    (["pass", "pass", "pass", "pass"], True, True, None, None, None),       # four passes: redeal
    (["pass", "pass", "pass", "1D"], False, False, 3, 0, "1H"),
    (["1D", "pass", "1S", "pass", "pass"], False, False, 2, 1, "2D"),
    (["1D", "pass", "pass", "2D", "pass", "pass", "pass"], True, False, 3, None, None),
    (["13S"], False, False, 0, 1, None),                                    # nothing beats 13♠
])
def test_auction_state(calls, over, redeal, highest, next_caller, lowest):
    state = auction(calls)
    assert (state.over, state.redeal, state.highest, state.next_caller) == (over, redeal, highest, next_caller)
    assert state.lowest_legal == (lowest and parse_call(lowest))


def test_a_player_who_passed_may_bid_again():
    # Seat offset 1 passes, then bids on their next turn after the others keep it open.
    state = auction(["1D", "pass", "1H", "pass", "pass", "2D", "pass", "pass", "pass"])
    assert state.over and state.winner_offset == 1 and state.winning_bid == Bid(2, "D")


def test_auction_keeps_calls_and_winner():
    state = auction(["pass", "2h", "pass", "pass", "pass"])
    assert state == Auction((None, Bid(2, "H"), None, None, None), 1, True, False, None, None)
    assert state.winner_offset == 1
    assert auction(["pass"] * 4).winner_offset is None


@pytest.mark.parametrize("calls, message", [
    (["3S", "3D"], "3♦ does not beat 3♠"),
    (["3S", "3S"], "3♠ does not beat 3♠"),
    (["2S", "pass", "1S"], "1♠ does not beat 2♠"),
    (["2S", "pass", "pass", "pass", "3S"], "The auction is over: 2♠ won it after three passes, so no more calls"),
    (["2S", "pass", "pass", "pass", "pass"], "The auction is over: 2♠ won it after three passes, so no more calls"),
    (["pass"] * 5, "Everybody passed, so the cards are thrown in and redealt: no more calls"),
])
def test_illegal_calls_are_refused(calls, message):
    with pytest.raises(BidError) as caught:
        auction(calls)
    assert str(caught.value) == message


def test_house_minimum_bid():
    assert auction([], min_bid=3).lowest_legal == Bid(3, "D")
    with pytest.raises(BidError, match="^2♠ is below the house minimum: bids start at 3$"):
        auction(["2S"], min_bid=3)
    with pytest.raises(BidError):
        auction([], min_bid=14)


@pytest.mark.parametrize("calls, call, error", [
    (["2S"], "3D", None),
    (["2S"], "pass", None),
    (["2S"], "2C", "2♣ does not beat 2♠"),
    (["2S", "pass", "pass", "pass"], "pass", "The auction is over: 2♠ won it after three passes, so no more calls"),
    ([], "1D", None),
])
def test_legal_call_error(calls, call, error):
    assert legal_call_error(calls, call) == error
    assert is_legal_call(calls, call) is (error is None)


def test_legal_call_error_refuses_an_illegal_history():
    with pytest.raises(BidError):
        legal_call_error(["3S", "2S"], "pass")


@pytest.mark.parametrize("first_dealer, round_number, redeals, moves, dealer", [
    (0, 1, 0, False, 0),
    (0, 2, 0, False, 1),
    (0, 4, 0, False, 3),
    (0, 5, 0, False, 0),   # the deal comes back round
    (2, 3, 0, False, 0),
    (1, 1, 2, False, 1),   # by the rule book a redeal keeps the dealer
    (1, 3, 2, False, 3),
    (1, 1, 2, True, 3),    # by the house rule each earlier redeal moves it on
    (1, 3, 2, True, 1),
    (3, 2, 1, True, 1),
])
def test_dealer_seat(first_dealer, round_number, redeals, moves, dealer):
    assert dealer_seat(first_dealer, round_number, redeals, moves) == dealer


@pytest.mark.parametrize("args", [(4, 1), (0, 0), (0, 1, -1)])
def test_dealer_seat_refuses_impossible_numbers(args):
    with pytest.raises(ValueError):
        dealer_seat(*args)


@pytest.mark.parametrize("dealer, bidder", [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_first_bidder_sits_left_of_the_dealer(dealer, bidder):
    assert first_bidder_seat(dealer) == bidder


def test_first_bidder_moves_one_seat_each_round():
    assert [first_bidder_seat(dealer_seat(2, n)) for n in range(1, 6)] == [3, 0, 1, 2, 3]


def test_the_longest_legal_auction_has_max_auction_calls():
    """Three passes, every bid with two passes between, three passes to end: the tools' bound."""
    from scoring import MAX_AUCTION_CALLS

    bids = [f"{number}{suit}" for number in range(1, 14) for suit in "DHCS"]
    calls = ["pass"] * 3 + [call for bid in bids for call in (bid, "pass", "pass")][:-2] + ["pass"] * 3
    state = auction(calls)
    assert state.over and len(calls) == MAX_AUCTION_CALLS
