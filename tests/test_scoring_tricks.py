import pytest

from scoring.cards import parse_card, parse_cards
from scoring.tricks import TrickError, TrickResult, trick_winner

LED_HEARTS = "highest of the suit led (♥); no trump was played"


@pytest.mark.parametrize("cards, trump, winner, reason", [
    ("4H KH 2S AH", "S", 2, "the only trump"),           # a low trump beats high cards of the suit led
    ("4H KH 2S AS", "S", 3, "the highest trump"),
    ("4H KH 2C AH", "S", 3, LED_HEARTS),
    ("4H AS KS QS", "D", 0, LED_HEARTS),                 # off-suit high cards lose
    ("4H AC KD QS", "D", 2, "the only trump"),
    ("10H 9H JH 2H", "C", 2, LED_HEARTS),                # the 10 below the Jack, the 9 below the 10
    ("9H 10H", "C", 1, LED_HEARTS),
    ("KS 2S", "S", 0, "the highest trump"),             # trump led
    ("QS", "S", 0, "the only trump"),
    ("QH", "S", 0, LED_HEARTS),
    ("3D 2D AC", "d", 0, "the highest trump"),          # trump as a lowercase letter
    ("3D 2D AC", "♣", 2, "the only trump"),             # trump as a symbol
])
def test_trick_winner(cards, trump, winner, reason):
    result = trick_winner(parse_cards(cards), trump)
    assert result == TrickResult(winner, parse_cards(cards)[winner], reason)


def test_trick_winner_accepts_typed_cards():
    assert trick_winner(["4h", "KH", "2♠", "AH"], "S").card == parse_card("2S")


@pytest.mark.parametrize("cards, trump, message", [
    ("", "S", "A trick has 1 to 4 cards, not 0"),
    ("2H 3H 4H 5H 6H", "S", "A trick has 1 to 4 cards, not 5"),
    ("2H 3H 2H", "S", "2♥ is played twice in one trick"),
    ("2H 3H", "X", "'X' is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)"),
    ("2H 1H", "S", "'1H' is not a card: '1' is not a rank (use 2–10, J, Q, K, A)"),
])
def test_trick_errors(cards, trump, message):
    with pytest.raises(TrickError) as caught:
        trick_winner(cards.split(), trump)
    assert str(caught.value) == message
