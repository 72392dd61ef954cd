import pytest

from scoring.cards import (
    DECK,
    RANKS,
    SUITS,
    Card,
    CardError,
    parse_card,
    parse_cards,
    parse_rank,
    parse_suit,
    rank_name,
    rank_value,
)


@pytest.mark.parametrize(
    "text, code, shown",
    [
        ("10S", "10S", "10♠"),
        ("10s", "10S", "10♠"),
        ("TS", "10S", "10♠"),
        ("ts", "10S", "10♠"),
        ("10♠", "10S", "10♠"),
        ("10♤", "10S", "10♠"),
        ("  jh ", "JH", "J♥"),
        ("J♥", "JH", "J♥"),
        ("q♡", "QH", "Q♥"),
        ("2C", "2C", "2♣"),
        ("2♧", "2C", "2♣"),
        ("a♦", "AD", "A♦"),
        ("K♢", "KD", "K♦"),
        ("9d", "9D", "9♦"),
    ],
)
def test_parse_card(text, code, shown):
    card = parse_card(text)
    assert card.code == code
    assert str(card) == shown


def test_the_same_card_typed_three_ways_is_equal():
    assert parse_card("10s") == parse_card("TS") == parse_card("10♠") == Card("10", "S")


@pytest.mark.parametrize(
    "text, message",
    [
        ("1S", "'1S' is not a card: '1' is not a rank (use 2–10, J, Q, K, A)"),
        ("10X", "'10X' is not a card: 'X' is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)"),
        ("", "'' is not a card: it is empty"),
        ("   ", "'   ' is not a card: it is empty"),
        ("J", "'J' has no suit"),
        ("10", "'10' has no suit"),
        ("S", "'S' is not a card: it has no rank"),
        ("11H", "'11H' is not a card: '11' is not a rank (use 2–10, J, Q, K, A)"),
        ("ZZ", "'ZZ' is not a card: write a rank and a suit, such as 10S or Q♥ "
               "(use 2–10, J, Q, K, A; use C, D, H, S or ♣ ♦ ♥ ♠)"),
    ],
)
def test_parse_card_errors_name_the_bad_text(text, message):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert str(caught.value) == message


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text, rank", [("10", "10"), ("t", "10"), ("T", "10"), ("j", "J"),
                                        (" a ", "A"), ("2", "2"), ("q", "Q")])
def test_parse_rank(text, rank):
    assert parse_rank(text) == rank


@pytest.mark.parametrize("text, message", [
    ("1", "'1' is not a rank (use 2–10, J, Q, K, A)"),
    ("", "'' is not a rank: it is empty"),
    ("JS", "'JS' is not a rank (use 2–10, J, Q, K, A)"),
])
def test_parse_rank_errors(text, message):
    with pytest.raises(CardError) as caught:
        parse_rank(text)
    assert str(caught.value) == message


@pytest.mark.parametrize("text, suit", [("s", "S"), ("♠", "S"), ("♡", "H"), ("Clubs", "C"),
                                        ("diamond", "D")])
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


def test_parse_cards_splits_on_spaces_and_commas():
    assert parse_cards("10S, jh  2♣,,AD\n3d") == (
        Card("10", "S"), Card("J", "H"), Card("2", "C"), Card("A", "D"), Card("3", "D"))


def test_parse_cards_takes_a_list_of_texts_and_cards():
    assert parse_cards(["ts", Card("2", "C")]) == (Card("10", "S"), Card("2", "C"))


def test_parse_cards_of_empty_text_is_empty():
    assert parse_cards("  ") == ()


@pytest.mark.parametrize("smaller, larger", [
    ("2S", "3D"),   # rank first
    ("2D", "2H"),   # then suit in bidding order
    ("2H", "2C"),
    ("2C", "2S"),
    ("9S", "10D"),  # the 10 sorts after the 9, not as the text "10" would
    ("10S", "JD"),
    ("KS", "AD"),
])
def test_card_order(smaller, larger):
    assert parse_card(smaller) < parse_card(larger)
    assert parse_card(larger) > parse_card(smaller)


def test_deck_is_52_different_cards_in_order():
    assert len(DECK) == len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert DECK[0] == Card("2", "D") and DECK[-1] == Card("A", "S")


def test_rank_index_runs_from_the_2_to_the_ace():
    assert [Card(rank, "S").rank_index for rank in RANKS] == list(range(13))


@pytest.mark.parametrize("rank, suit", [("1", "S"), ("10", "X"), ("T", "S"), ("j", "H")])
def test_card_constructor_wants_canonical_values(rank, suit):
    with pytest.raises(CardError):
        Card(rank, suit)


def test_card_has_a_name_in_words():
    assert Card("J", "H").name == "Jack of Hearts"


@pytest.mark.parametrize("rank, value", [
    ("2", -15), ("3", -15), ("4", -15), ("5", -15),
    ("6", 5), ("7", 5), ("8", 5), ("9", 5),
    ("10", 10), ("J", 10), ("Q", 10), ("K", 10),
    ("A", 15), ("t", 10),
])
def test_rank_value_follows_the_table(rank, value):
    assert rank_value(rank) == value


@pytest.mark.parametrize("rank, singular, plural", [
    ("2", "2", "2s"), ("10", "10", "10s"), ("J", "Jack", "Jacks"),
    ("Q", "Queen", "Queens"), ("K", "King", "Kings"), ("A", "Ace", "Aces"),
])
def test_rank_name(rank, singular, plural):
    assert rank_name(rank) == singular
    assert rank_name(rank, plural=True) == plural


def test_suits_are_in_bidding_order():
    assert SUITS == ("D", "H", "C", "S")
