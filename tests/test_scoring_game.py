import pytest

from scoring.game import GameError, GameResult, HouseRules, game_result, running_totals

SHARED = HouseRules(tie_rule="shared")
LONG = HouseRules(goal=500)


def test_running_totals():
    assert running_totals([[25, -5, 40, 10], [10, 10, -30, 0], [-60, 0, 0, 5]]) == [
        (25, -5, 40, 10), (35, 5, 10, 10), (-25, 5, 10, 15)]


def test_running_totals_of_no_rounds():
    assert running_totals([]) == []


@pytest.mark.parametrize("rounds", [[[1, 2, 3]], [[1, 2, 3, 4, 5]], [[1, 2, 3, "4"]], [[1.5, 0, 0, 0]]])
def test_running_totals_want_four_whole_numbers_a_round(rounds):
    with pytest.raises(GameError):
        running_totals(rounds)


@pytest.mark.parametrize("rounds, rules, expected", [
    # Nobody has reached the goal: the game goes on.
    ([[10, 20, 30, 40]], HouseRules(),
     GameResult((10, 20, 30, 40), False, (), False, None, (3,))),
    # Reaching the goal exactly is enough; the highest total wins.
    ([[100, 0, 0, 0], [150, 90, 0, 0]], HouseRules(),
     GameResult((250, 90, 0, 0), True, (0,), False, 2, (0,))),
    # Two pass the goal in the same round: the higher one wins.
    ([[260, 270, 0, 0]], HouseRules(),
     GameResult((260, 270, 0, 0), True, (1,), False, 1, (1,))),
    # A tie at the top plays on ...
    ([[250, 250, 0, 0]], HouseRules(),
     GameResult((250, 250, 0, 0), False, (), True, 1, (0, 1))),
    ([[250, 250, 0, 0], [5, 5, 10, 0]], HouseRules(),
     GameResult((255, 255, 10, 0), False, (), True, 1, (0, 1))),
    # ... until one player alone is highest.
    ([[250, 250, 0, 0], [5, 5, 10, 0], [-15, 5, 0, 0]], HouseRules(),
     GameResult((240, 260, 10, 0), True, (1,), False, 1, (1,))),
    # The single leader ends it even after every total fell below the goal again.
    ([[250, 250, 0, 0], [-100, -100, 0, 0], [-15, 0, 0, 0]], HouseRules(),
     GameResult((135, 150, 0, 0), True, (1,), False, 1, (1,))),
    # A third player can overtake the tied leaders while they play on.
    ([[250, 250, 240, 0], [0, 0, 20, 0]], HouseRules(),
     GameResult((250, 250, 260, 0), True, (2,), False, 1, (2,))),
    # The long game runs to 500.
    ([[300, 0, 0, 0]], LONG, GameResult((300, 0, 0, 0), False, (), False, None, (0,))),
    ([[300, 0, 0, 0], [200, 0, 0, 0]], LONG, GameResult((500, 0, 0, 0), True, (0,), False, 2, (0,))),
    # Totals may be negative.
    ([[-60, -30, -15, -45]], HouseRules(),
     GameResult((-60, -30, -15, -45), False, (), False, None, (2,))),
    ([[-60, 200, -15, -45], [-60, 60, 0, 0]], HouseRules(),
     GameResult((-120, 260, -15, -45), True, (1,), False, 2, (1,))),
    # The shared-win house rule ends the game on a tie, with several winners.
    ([[250, 250, 0, 0]], SHARED, GameResult((250, 250, 0, 0), True, (0, 1), False, 1, (0, 1))),
    ([[250, 240, 0, 0]], SHARED, GameResult((250, 240, 0, 0), True, (0,), False, 1, (0,))),
    # Before the first round everyone leads with nothing.
    ([], HouseRules(), GameResult((0, 0, 0, 0), False, (), False, None, (0, 1, 2, 3))),
])
def test_game_result(rounds, rules, expected):
    assert game_result(rounds, rules) == expected


def test_game_result_uses_the_rule_book_by_default():
    assert game_result([[249, 0, 0, 0]]).over is False
    assert game_result([[250, 0, 0, 0]]).winners == (0,)


def test_rounds_after_the_end_are_refused():
    with pytest.raises(GameError, match="^The game ended after round 1, so there is no round 2$"):
        game_result([[250, 0, 0, 0], [10, 0, 0, 0]])


@pytest.mark.parametrize("kwargs", [
    {"goal": 0}, {"goal": -250}, {"goal": True}, {"goal": "250"},
    {"tie_rule": "sudden-death"},
    {"min_bid": 0}, {"min_bid": 14},
    {"redeal_moves_deal": "yes"},
])
def test_house_rules_are_checked(kwargs):
    with pytest.raises(GameError):
        HouseRules(**kwargs)


def test_house_rules_defaults_are_the_rule_book():
    assert HouseRules() == HouseRules(goal=250, tie_rule="play-on", min_bid=1, redeal_moves_deal=False)


def test_house_rules_summary_says_the_rules_in_force():
    assert HouseRules().summary() == [
        "Play to 250",
        "A tie at the top plays on",
        "Bids from 1",
        "After four passes the same dealer deals again",
    ]
    assert HouseRules(goal=500, tie_rule="shared", min_bid=2, redeal_moves_deal=True).summary() == [
        "Play to 500",
        "A tie at the top is a shared win",
        "Bids from 2",
        "After four passes the deal moves on",
    ]
