import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.command_line import main

ROOT = Path(__file__).resolve().parent.parent
FIRST_EXAMPLE = ["--target", "10S", *"3C 3D 4H 6S 9C 9D JC JD JH QS AH AD".split()]
ROUND = [
    "10S: 3C 3D 4H 6S 9C 9D JC JD JH QS AH AD",
    "QH: QD QC KD KH KC KS AC AS 10D 10H 10C JS",
    "2C: 2D 2H 2S 3H 3S 4D 4C 4S 5D 5H 5C 5S",
    "7D: 6D 6H 6C 7H 7C 7S 8D 8H 8C 8S 9H 9S",
]


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys, *argv):
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    return json.loads(out)


def test_pile_text(capsys):
    assert run(capsys, "pile", *FIRST_EXAMPLE) == (0, "\n".join([
        "Pair of 3s: −15", "Pair of 9s: +5", "Three Jacks: 2 × 10 = +20", "Pair of Aces: +15",
        "Singles score nothing: 4, 6, 10, Q", "Total: 25"]) + "\n", "")


@pytest.mark.parametrize("argv, total", [
    (["pile", *FIRST_EXAMPLE, "--json"], 25),
    (["--json", "pile", "--target", "4S", "4C", "4D", "10C", "10D"], 50),
    (["pile", "4C", "4D", "--json", "--target", "4S", "10C", "10D"], 50),   # options among the cards
    (["pile", "--target", "4", "4", "4", "10", "10", "--json"], 50),        # ranks only
    (["pile", "--target", "2", "2", "2", "2", "--json"], 80),
    (["pile", "--target", "KS", "AS", "AH", "AD", "AC", "--json"], 60),
    (["pile", "--target", "KS", "7S", "7H", "7D", "--json"], 10),
    (["pile", "--target", "KS", "--json"], 0),
])
def test_pile_json(capsys, argv, total):
    data = run_json(capsys, *argv)
    assert data["total"] == total
    assert isinstance(data["groups"], list)


def test_pile_json_groups(capsys):
    data = run_json(capsys, "pile", "--json", "--target", "4S", "4C", "4D", "10C", "10D")
    assert data["groups"] == [
        {"rank": "4", "count": 3, "points": 40, "rule": "target-triple", "text": "Three 4s with your target: 40"},
        {"rank": "10", "count": 2, "points": 10, "rule": "pair", "text": "Pair of 10s: +10"},
    ]


def test_round_text(capsys):
    status, out, err = run(capsys, "round", *ROUND)
    assert (status, err) == (0, "")
    assert out.splitlines() == ["Player 1: 25", "Player 2: 115", "Player 3: −25", "Player 4: 115",
                                "The round is complete and consistent."]


def test_round_json(capsys):
    data = run_json(capsys, "round", *ROUND, "--json")
    assert (data["ok"], data["problems"], data["scores"]) == (True, [], [25, 115, -25, 115])


def test_round_problems_are_output_not_errors(capsys):
    hands = [ROUND[0], ROUND[1] + " 3C", ROUND[2].replace("5S", "7D"), ROUND[3].replace(" 8S 9H 9S", "")]
    data = run_json(capsys, "round", "--json", "--names", "Ann,Ben,Cleo,Dan", *hands)
    assert data["ok"] is False
    assert data["problems"] == [
        "3♣ is in Ann's and Ben's piles.",
        "Dan's target 7♦ is also in Cleo's pile.",
        "Ben's pile has 13 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards.",
        "Dan's pile has 9 cards: a pile is whole tricks, so 0, 4, 8 … 48 cards.",
        "The piles hold 46 cards; the 12 tricks make 48.",
        "Not yet in any pile or target (4): 5♠, 8♠, 9♥, 9♠.",
    ]
    assert data["problem_details"][0] == {"kind": "duplicate", "message": "3♣ is in Ann's and Ben's piles.",
                                          "seats": [0, 1], "cards": ["3C"]}
    assert data["scores"] == [25, 115, 5, 100]


def test_round_problems_in_text(capsys):
    status, out, _ = run(capsys, "round", ROUND[0], ROUND[1], ROUND[2], "7D: 6D")
    assert status == 0
    assert "Problems:" in out and "- Player 4's pile has 1 card: a pile is whole tricks" in out


def test_trick(capsys):
    assert run(capsys, "trick", "--trump", "S", "4H", "KH", "2S", "AH") == (
        0, "2♠ wins (card 3 of 4): the only trump\n", "")
    assert run_json(capsys, "trick", "--trump", "S", "4H", "KH", "2S", "AH", "--json") == {
        "winner": 2, "card": "2S", "reason": "the only trump"}
    assert run_json(capsys, "trick", "--json", "4H", "KH", "2C", "AH", "--trump", "♠")["winner"] == 3


def test_bid(capsys):
    assert run(capsys, "bid", "2S", "3D", "2C") == (
        0, "Strongest bid: 3♦ (Three Diamonds), call 2 of 3\n"
           "As an auction in turn order this is not legal: 2♣ does not beat 3♦\n", "")
    assert run_json(capsys, "bid", "2S", "3D", "2C", "--json")["highest"] == 1
    data = run_json(capsys, "bid", "--json", "pass", "2s", "pass", "pass", "pass")
    assert (data["highest"], data["bid"], data["auction_over"]) == (1, "2S", True)
    assert run_json(capsys, "bid", "--json", *["pass"] * 4)["highest"] is None


@pytest.mark.parametrize("argv, message", [
    (["pile", "--target", "ZZ", "3C"], "error: 'ZZ' is not a card: write a rank and a suit"),
    (["pile", "--target", "10S", "1S"], "error: '1S' is not a card: '1' is not a rank"),
    (["pile", "--target", "10S", "JH", "JH"], "error: J♥ is in the pile twice"),
    (["pile", "--target", "10S", "10S"], "error: Your target 10♠ cannot also be in your won pile"),
    (["pile", "--target", "4", "4", "4", "4", "4"], "error: You cannot have 5 4s"),
    (["pile", "3C"], "error: no target card"),
    (["round", *ROUND[:3]], "error: a round needs 4 hands"),
    (["round", *ROUND[:3], "3C 3D"], "error: Player 4: '3C 3D' has no target"),
    (["round", *ROUND[:3], ": 3C 3D"], "error: Player 4 has no target card"),
    (["round", *ROUND[:3], "7D: 6D 6D"], "error: Player 4: 6♦ is in the pile twice"),
    (["round", *ROUND[:3], "7D: 6D 7D"], "error: Player 4: Your target 7♦ cannot also be in your won pile"),
    (["trick", "4H"], "error: no trump suit"),
    (["trick", "--trump", "X", "4H"], "error: 'X' is not a suit"),
    (["bid", "14S"], "error: '14S': a bid is a number from 1 to 13"),
    ([], "error: choose a command"),
    (["deal"], "error: argument command: invalid choice: 'deal'"),
    (["pile", "--target", "4S", "--frob"], "error: unrecognized arguments: --frob"),
])
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1


def run_module(*argv):
    return subprocess.run([sys.executable, "-m", "cli", "score", *argv], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=30)


@pytest.mark.slow
def test_module_answers_in_json():
    done = run_module("pile", *FIRST_EXAMPLE, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["total"] == 25


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["pile", "--target", "ZZ", "3C"], ["round", "a", "b"], []])
def test_module_bad_input_exits_2_without_traceback(argv):
    done = run_module(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
