"""Quick entry as a newcomer follows it (issue 43, items 1 and 2): the page says which won cards
must be counted, and doing exactly that gives the engine's score of the whole pile; "Everything
adds up" is said only when all 52 cards are in a pile or a target, and cards the entries do not
hold are saved as singles only when the table ticks that they are."""
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import (DECK, check_entry, left_out, parse_card, parse_cards, quick_counts, score_counts,
                     score_pile)
from store import connect
from scoring.rounds import Hand, QuickHand
from support.apps import make_app
from support.html_text import save_fields, select, text, text_of
from support.profiles import examples
from support.table import Table

NAMES = ("Ann", "Ben", "Cleo", "Dan")


@st.composite
def deals(draw):
    """Four targets and twelve tricks shared out among four piles, as a round really ends."""
    cards = draw(st.permutations(DECK))
    winners = draw(st.lists(st.integers(0, 3), min_size=12, max_size=12))
    piles = [[] for _ in range(4)]
    for trick, winner in enumerate(winners):
        piles[winner] += cards[4 + 4 * trick: 8 + 4 * trick]
    return [(cards[seat], piles[seat]) for seat in range(4)]


def hint(html):
    """The quick entry hint over the rank grid, as the player reads it."""
    return text_of(select(html, "#quick-hint")[0])


def counted_as_the_hint_says(hint_text, target, pile):
    """The rank counts a newcomer enters who does exactly what the hint says."""
    won = Counter(card.rank for card in pile)
    named = re.search(r"and every (\w+) won", hint_text)
    if named:  # the target's rank, by name
        rank = {"Ace": "A", "King": "K", "Queen": "Q", "Jack": "J"}.get(named[1], named[1])
    else:
        assert "and every card of the target’s rank;" in hint_text, hint_text
        rank = target.rank
    assert "Count every rank won twice or more" in hint_text and "other singles may be left out" in hint_text
    return {r: n for r, n in won.items() if n >= 2 or r == rank}


# --- The engine --------------------------------------------------------------------------------

@settings(max_examples=examples(200), deadline=None)
@given(deals())
def test_what_quick_entry_asks_for_scores_the_whole_pile(deal):
    hands = [QuickHand.from_counts(target.rank, quick_counts(Counter(c.rank for c in pile), target.rank))
             for target, pile in deal]
    for quick, (target, pile) in zip(hands, deal):
        assert score_pile(pile, target).total == check_score(quick)
    # What was left out can all be singles: no problem, only cards for the table to confirm.
    assert check_entry(hands, NAMES, targets=[target for target, _ in deal]) == []
    assert sum(left_out(hands).values()) == 48 - sum(n for hand in hands for _, n in hand.counts)


def check_score(quick):
    return score_counts(dict(quick.counts), quick.target_rank).total


def test_a_lone_card_of_the_targets_rank_left_out_is_a_problem_not_a_single():
    """The issue's pile: Ann left her lone 10 out (target 10♠). No quick pile may leave out a
    card of its own target's rank, so with every other pile exact the 10 has nowhere to be."""
    ann = QuickHand.from_counts("10", {"3": 2, "9": 2, "J": 3, "A": 2})
    assert score_pile("10H 3C 3D 4H 9C 9D JC JD JH QS AH AD".split(), "10S").total == 35
    assert left_out([ann, Hand(None), Hand(None), Hand(None)])["10"] == 3


# --- The page, followed word for word ----------------------------------------------------------

def play(client):
    table = Table(client)
    table.start_game(names=NAMES)
    url = table.start_round()
    client.post(url + "/bid", data={"bidder": "0", "number": "1", "suit": "D"})
    return table, url


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deal=deals(), target_first=st.booleans())
def test_entering_exactly_what_the_page_asks_saves_the_engines_scores(tmp_path_factory, deal, target_first):
    app = make_app(tmp_path_factory.mktemp("quick") / "orchard.db")  # a fresh table each example
    client = app.test_client()
    table, url = play(client)
    for seat, (target, pile) in enumerate(deal):
        if target_first:
            assert client.post(url + f"/hands/{seat}/target", data={"target": target.code}).status_code == 200
        counts = counted_as_the_hint_says(hint(client.get(f"{url}?seat={seat}")), target, pile)
        for rank, n in counts.items():
            assert client.post(url + f"/hands/{seat}/counts/{rank}", data={"count": n}).status_code == 200
        if not target_first:
            assert client.post(url + f"/hands/{seat}/target", data={"target": target.code}).status_code == 200
    page = text_of(client.get(url))
    unsaid = 48 - sum(min(n, 4) for target, pile in deal
                      for n in quick_counts(Counter(c.rank for c in pile), target.rank).values())
    if unsaid:
        assert "Everything adds up" not in page
        assert f"{unsaid} card{'s' if unsaid > 1 else ''} in no pile or target" in page
    else:
        assert "Everything adds up" in page
    answer = client.post(url + "/save", data=save_fields(client.get(url)))
    assert answer.status_code == 303, text(answer)[-400:]
    saved = [row["score"] for row in connect(app.config["DATABASE"]).query(
        "SELECT score FROM hands JOIN rounds ON rounds.id = hands.round_id WHERE rounds.status = 'scored' ORDER BY seat")]
    assert saved == [score_pile(pile, target).total for target, pile in deal]


def test_the_hint_names_the_targets_rank_and_the_issues_pile_scores_35(app):
    client = app.test_client()
    table, url = play(client)
    before = hint(client.get(url))
    assert before == ("Ann’s won cards: how many of each rank. Count every rank won twice or more, and every "
                      "card of the target’s rank; other singles may be left out.")
    client.post(url + "/hands/0/target", data={"target": "10S"})
    assert "and every 10 won (the target is a 10); other singles may be left out." in hint(client.get(url))
    # Ann does what it says: her pairs and more, and her lone 10; the 4 and the Queen stay out.
    pile = "10H 3C 3D 4H 9C 9D JC JD JH QS AH AD".split()
    counts = counted_as_the_hint_says(hint(client.get(url)), parse_card("10S"), parse_cards(pile))
    assert counts == {"3": 2, "9": 2, "J": 3, "A": 2, "10": 1}
    for rank, n in counts.items():
        client.post(url + f"/hands/0/counts/{rank}", data={"count": n})
    assert score_pile(pile, "10S").total == 35
    assert text_of(select(client.get(url), "#hand-result .score-line")[0]) == "Ann 35"


def test_no_all_clear_with_only_the_targets_in_and_no_save_until_the_table_says_singles(app):
    client = app.test_client()
    table, url = play(client)
    for seat, target in enumerate(("4S", "2S", "3S", "5S")):
        client.post(url + f"/hands/{seat}/target", data={"target": target})
    page = client.get(url)
    said = text_of(page)
    assert "Everything adds up" not in said
    assert "48 cards in no pile or target:" in said
    assert "Quick entry leaves singles out. Save only if each of these was won as a single" in said
    box = select(page, "#singles")[0]
    assert box.get("value") == "48" and box.get("required") is not None
    # A save without the box ticked is refused beside the button, and nothing is saved.
    refused = client.post(url + "/save", data={"version": save_fields(page)["version"]},
                          headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "48 cards are in no pile or target: tick that they are singles, or enter them." in text_of(refused)
    assert "Totals after round 1" not in text_of(client.get(url))
    # A box ticked for another count (the page changed since) is refused the same way.
    stale = client.post(url + "/save", data={"version": save_fields(page)["version"], "singles": "12"})
    assert stale.status_code == 422
    assert client.post(url + "/save", data=save_fields(client.get(url))).status_code == 303


def test_two_exact_piles_and_two_quick_ones_say_how_many_cards_are_not_in(app):
    deal = [(parse_card(t), parse_cards(p)) for t, p in (
        ("AS", "2C 3C 4C 5C 6C 7C 8C 9C"), ("KS", "10C JC QC KC AC 2D 3D 4D"),
        ("QS", "5D 6D 7D 8D 9D 10D JD QD KD AD 2H 3H"), ("JS", "4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S"))]
    client = app.test_client()
    table, url = play(client)
    for seat, (target, pile) in enumerate(deal):
        if seat < 2:
            client.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})
            for card in pile:
                client.post(url + f"/hands/{seat}/cards/{card.code}", data={"held": "y"})
        else:
            for rank, n in quick_counts(Counter(c.rank for c in pile), target.rank).items():
                client.post(url + f"/hands/{seat}/counts/{rank}", data={"count": n})
        client.post(url + f"/hands/{seat}/target", data={"target": target.code})
    said = text_of(client.get(url))
    assert "Everything adds up" not in said
    # Cleo left out 2 3 5 … as singles (all but her Queens), Dan his lone 2 3 4 … 10 of spades.
    unsaid = 48 - 16 - sum(quick_counts(Counter(c.rank for c in pile), t.rank).get(r, 0)
                           for t, pile in deal[2:] for r in {c.rank for c in pile})
    assert f"{unsaid} cards in no pile or target:" in said
    assert client.post(url + "/save", data=save_fields(client.get(url))).status_code == 303


def test_cards_that_cannot_all_be_singles_are_a_problem(app):
    """Three Jacks missing, and only two quick piles without Jacks or a Jack target: one pile would
    hold two, a pair that scores. The page says so in red, and there is no box to tick."""
    client = app.test_client()
    table, url = play(client)
    for seat in (0, 1):
        client.post(url + f"/hands/{seat}/mode", data={"mode": "exact"})
    for seat, target in enumerate(("4S", "2S", "JS", "5S")):
        client.post(url + f"/hands/{seat}/target", data={"target": target})
    page = client.get(url)
    said = text_of(page)
    assert ("3 Jacks are in no pile or target, and only Dan’s quick pile could hold one as a single "
            "(a pile counts every card of its target’s rank): enter them where they were won.") in said
    assert "Everything adds up" not in said and not select(page, "#singles")
    assert client.post(url + "/save", data=save_fields(page)).status_code == 422


def test_a_single_card_that_cannot_be_a_single_is_named_as_one():
    """Ann's lone 10 left out with her 10 target, every other pile exact: said of one card."""
    ann = QuickHand.from_counts("10", {"3": 2, "9": 2, "J": 3, "A": 2})
    anns = set("10S 3C 3D 9C 9D JC JD JH AH AD 4H QS 10H".split())  # her pile, her target, the lone 10H
    rest = [card.code for card in DECK if card.code not in anns]  # 39 cards: three targets, 36 won
    others = [Hand(rest[seat], tuple(rest[3 + 12 * seat: 15 + 12 * seat])) for seat in range(3)]
    problems = [p.message for p in check_entry([ann, *others], NAMES)]
    assert len(problems) == 1
    assert ("A 10 is in no pile or target, and no quick pile could hold one as a single (a pile counts "
            "every card of its target’s rank): enter it where it was won.") in problems
