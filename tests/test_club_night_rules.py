"""Properties of a club night's seating (rule book, "Club night"), for 5 to 40 players over 1 to 8
stages: every seating is legal, sit-outs are as fair as the rules say, the first deal goes to who
has dealt first least, a swap exchanges exactly two players, and the same night draws the same."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import club_night
from scoring.club_night import NightError, Record, Seating
from support.profiles import examples

SOME = settings(max_examples=examples(40), deadline=None)

players = st.integers(min_value=5, max_value=40)
stages = st.integers(min_value=1, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def night(present, count, seed):
    drawn = []
    for stage in range(count):
        drawn.append(club_night.draw_seating(present, drawn, seed=seed + stage))
    return drawn


@SOME
@given(players, stages, seeds)
def test_every_seating_is_legal_and_nobody_sits_out_twice_before_all_have_once(n, count, seed):
    present = [f"P{i}" for i in range(n)]
    sat_out = Counter()
    for stage in night(present, count, seed):
        club_night.check_seating(stage, present)
        assert len(stage.tables) == n // 4
        assert len(stage.sitting_out) == club_night.sit_out_count(n) == n % 4
        sat_out.update(stage.sitting_out)
        counts = [sat_out[p] for p in present]
        # Nobody has sat out twice while someone has not sat out at all (and so on up).
        assert max(counts) - min(counts) <= 1


@SOME
@given(players, stages, seeds)
def test_the_first_deal_goes_to_whoever_at_the_table_has_dealt_first_least(n, count, seed):
    present = [f"P{i}" for i in range(n)]
    drawn = night(present, count, seed)
    for index, stage in enumerate(drawn):
        dealt = Record.of(drawn[:index]).first_deals
        for table in stage.tables:
            assert dealt.get(table[0], 0) == min(dealt.get(p, 0) for p in table)


@SOME
@given(players, stages, seeds, st.data())
def test_late_arrivals_and_early_leavers_sit_out_only_when_they_have_played_most(n, count, seed, data):
    """Between stages players leave and arrive; whoever sits out has played at least as many
    stages as everyone seated (a stage missed counts as sat out)."""
    everyone = [f"P{i}" for i in range(n + 6)]
    drawn = []
    for stage in range(count):
        present = data.draw(st.lists(st.sampled_from(everyone), min_size=5, max_size=n, unique=True))
        seating = club_night.draw_seating(present, drawn, seed=seed + stage)
        club_night.check_seating(seating, present)
        played = Record.of(drawn).played
        seated = [p for table in seating.tables for p in table]
        if seating.sitting_out:
            assert min(played.get(p, 0) for p in seating.sitting_out) >= max(played.get(p, 0) for p in seated)
        drawn.append(seating)


@SOME
@given(players, stages, seeds)
def test_the_same_night_draws_the_same_seating(n, count, seed):
    present = [f"P{i}" for i in range(n)]
    assert night(present, count, seed) == night(present, count, seed)


@SOME
@given(players, seeds, st.data())
def test_a_swap_exchanges_exactly_two_players_and_swapping_back_restores(n, seed, data):
    present = [f"P{i}" for i in range(n)]
    seating = club_night.draw_seating(present, seed=seed)
    a, b = data.draw(st.lists(st.sampled_from(present), min_size=2, max_size=2, unique=True))
    swapped = club_night.swap(seating, a, b)
    club_night.check_seating(swapped, present)
    before, after = seating.players, swapped.players
    moved = [i for i in range(n) if before[i] != after[i]]
    assert sorted(before[i] for i in moved) == sorted([a, b])
    assert after[before.index(a)] == b and after[before.index(b)] == a
    assert club_night.swap(swapped, a, b) == seating


def test_a_first_stage_of_sixteen_repeats_nobody_and_a_second_repeats_as_few_as_can_be():
    present = [f"P{i}" for i in range(16)]
    first = club_night.draw_seating(present)
    assert club_night.repeat_meetings([first]) == 0
    second = club_night.draw_seating(present, [first])
    # Four tables of four, then four more with each new table taking one from each old one.
    assert club_night.repeat_meetings([first, second]) == 0
    assert club_night.repeat_left_neighbours([first, second]) == 0


@pytest.mark.parametrize("present, sentence", [
    (["A", "B", "C"], "at least 4 players"),
    (["A", "B", "C", "A"], "only one table at a time"),
    ([f"P{i}" for i in range(club_night.MAX_PLAYERS + 1)], f"at most {club_night.MAX_PLAYERS} players"),
])
def test_a_night_that_cannot_be_seated_is_refused_with_the_reason(present, sentence):
    with pytest.raises(NightError, match=sentence):
        club_night.draw_seating(present)


def test_a_seating_that_leaves_someone_out_or_seats_three_is_refused():
    present = ["A", "B", "C", "D", "E"]
    with pytest.raises(NightError, match="each once"):
        club_night.check_seating(Seating(tables=(("A", "B", "C", "D"),)), present)
    with pytest.raises(NightError, match="Every table seats 4"):
        club_night.check_seating(Seating(tables=(("A", "B", "C"),), sitting_out=("D", "E")), present)
    with pytest.raises(NightError, match="Pick two different players"):
        club_night.swap(Seating(tables=(("A", "B", "C", "D"),), sitting_out=("E",)), "A", "A")
    with pytest.raises(NightError, match="must be in this stage"):
        club_night.swap(Seating(tables=(("A", "B", "C", "D"),), sitting_out=("E",)), "A", "Z")


@SOME
@given(st.integers(min_value=4, max_value=12), st.integers(min_value=0, max_value=4), seeds)
def test_a_small_nights_draw_weighs_every_split_as_counting_the_meetings_by_hand_does(n, count, seed):
    """The exhaustive draw prices splits by table numbers, not players: each option it weighs is a
    split of the players not sitting out, in `_splits`'s order, with the meetings its tables repeat
    counted pair by pair here."""
    from scoring.club_night import draw

    present = [f"P{i}" for i in range(n)]
    earlier = night(present, count, seed)
    record = Record.of(earlier)
    choices = draw._sit_out_choices(present, record)
    by_hand = []
    for sitting_out in choices:
        playing = [player for player in present if player not in sitting_out]
        for split in draw._splits(playing):
            repeats = sum(frozenset((a, b)) in record.met for table in split
                          for i, a in enumerate(table) for b in table[i + 1:])
            by_hand.append((repeats, split, sitting_out))
    by_hand.sort(key=lambda option: option[0])
    assert draw._options(present, choices, record) == by_hand
