"""`orchard score pile|round|trick|bid [--json]`, also `python -m scoring ...`: the rule engine's answers
on the command line, for checking a ruling by hand. The engine's only I/O: it reads argv and prints."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from scoring.bidding import BidError, auction, highest_bid, parse_call
from scoring.cards import SUIT_NAMES, Card, CardError, parse_card, parse_rank
from scoring.piles import check_pile_cards, format_points, score_counts, score_pile
from scoring.rounds import check_round, parse_hand, score_round
from scoring.tricks import trick_winner

HAND_FORMAT = "'TARGET: CARD CARD ...'"


class UsageError(ValueError):
    """A command line that does not say what to score."""


class _Parser(argparse.ArgumentParser):
    # argparse would print the usage and exit; one line on stderr is kinder to a script.
    def error(self, message: str):
        raise UsageError(message)


def main(argv: list[str] | None = None) -> int:
    """Run one command and return the exit status: 0 for an answer, 2 for bad input."""
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    argv = [arg for arg in argv if arg != "--json"]
    try:
        args, extra = _parser().parse_known_args(argv)
        if args.command is None:
            raise UsageError("choose a command: pile, round, trick or bid")
        # Options may come after the cards, which argparse leaves over; they are more cards.
        unknown = [arg for arg in extra if arg.startswith("-") and arg != "-"]
        if unknown:
            raise UsageError(f"unrecognized arguments: {' '.join(unknown)}")
        data, lines = COMMANDS[args.command](args, args.items + extra)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(data) if as_json else "\n".join(lines))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="orchard score", description="Check Apples scores and rulings.")
    commands = parser.add_subparsers(dest="command")
    pile = commands.add_parser("pile", help="score one pile with its target card")
    pile.add_argument("--target", "-t", help="the target card, such as 10S (or just a rank)")
    pile.add_argument("items", nargs="*", metavar="CARD", help="won cards, such as 3C 9D (or just ranks)")
    round_ = commands.add_parser("round", help="check and score a round's four hands")
    round_.add_argument("items", nargs="*", metavar="HAND", help=f"four hands, each {HAND_FORMAT}")
    round_.add_argument("--names", help="the players' names, separated by commas")
    trick = commands.add_parser("trick", help="say who wins a trick")
    trick.add_argument("--trump", help="the trump suit: C, D, H, S or ♣ ♦ ♥ ♠")
    trick.add_argument("items", nargs="*", metavar="CARD", help="cards in play order, the led card first")
    bid = commands.add_parser("bid", help="find the strongest bid among calls")
    bid.add_argument("items", nargs="*", metavar="CALL", help="bids such as 2S or 3♦, or pass")
    return parser


def _pile(args, tokens: list[str]):
    if args.target is None:
        raise UsageError("no target card: give it with --target, such as --target 10S")
    target = _card_or_rank(args.target)
    won = [_card_or_rank(token) for token in tokens]
    if isinstance(target, Card) and all(isinstance(item, Card) for item in won):
        score = score_pile(won, target)
    else:
        # Ranks alone cannot repeat a card, but any full cards typed still must not.
        check_pile_cards([item for item in won if isinstance(item, Card)],
                         target if isinstance(target, Card) else None)
        score = score_counts(Counter(_rank_of(item) for item in won), _rank_of(target))
    data = {**score.as_dict(), "lines": score.lines(), "won_cards": len(won)}
    return data, score.lines()


def _round(args, tokens: list[str]):
    names = [name.strip() for name in args.names.split(",")] if args.names else None
    if len(tokens) != 4:
        raise UsageError(f"a round needs 4 hands, one per player, not {len(tokens)}; "
                         f"write each hand as {HAND_FORMAT}")
    if names is None:
        names = [f"Player {seat}" for seat in range(1, 5)]
    elif len(names) != 4:
        raise UsageError(f"--names needs 4 names separated by commas, not {len(names)}")
    hands = []
    for name, token in zip(names, tokens):
        try:
            hand = parse_hand(token)
        except CardError as error:
            raise UsageError(f"{name}: {error}") from None
        if hand.target is None:
            raise UsageError(f"{name} has no target card: write it before the colon, as {HAND_FORMAT}")
        hands.append(hand)
    scores = score_round(hands, names)
    problems = check_round(hands, names)
    data = {
        "ok": not problems,
        "problems": [problem.message for problem in problems],
        "problem_details": [
            {"kind": p.kind, "message": p.message, "seats": list(p.seats),
             "cards": [card.code for card in p.cards]}
            for p in problems
        ],
        "scores": [score.total for score in scores],
        "names": names,
        "breakdowns": [score.as_dict() for score in scores],
    }
    lines = [f"{name}: {format_points(score.total)}" for name, score in zip(names, scores)]
    if problems:
        lines += ["Problems:"] + [f"- {problem.message}" for problem in problems]
    else:
        lines.append("The round is complete and consistent.")
    return data, lines


def _trick(args, tokens: list[str]):
    if args.trump is None:
        raise UsageError("no trump suit: give it with --trump, such as --trump S")
    result = trick_winner(tokens, args.trump)
    data = {"winner": result.winner, "card": result.card.code, "reason": result.reason}
    line = f"{result.card} wins (card {result.winner + 1} of {len(tokens)}): {result.reason}"
    return data, [line]


def _bid(args, tokens: list[str]):
    calls = [parse_call(token) for token in tokens]
    if not calls:
        raise UsageError("no calls: give bids such as 2S 3D, or pass")
    highest = highest_bid(calls)
    best = calls[highest] if highest is not None else None
    try:
        state = auction(calls)
        error = None
    except BidError as problem:
        state, error = None, str(problem)
    data = {
        "highest": highest,
        "bid": best.code if best else None,
        "name": best.name if best else None,
        "legal_auction": error is None,
        "auction_error": error,
        "auction_over": bool(state and state.over),
        "redeal": bool(state and state.redeal),
    }
    lines = [f"Strongest bid: {best} ({best.name}), call {highest + 1} of {len(calls)}"
             if best else "No bid: every call was a pass"]
    if error:
        lines.append(f"As an auction in turn order this is not legal: {error}")
    elif state.redeal:
        lines.append("Four passes: the cards are thrown in and redealt")
    elif state.over:
        lines.append(f"The auction is over: {SUIT_NAMES[best.suit]} are trump")
    else:
        lines.append("The auction is still open")
    return data, lines


def _card_or_rank(text: str) -> Card | str:
    try:
        return parse_card(text)
    except CardError as error:
        try:
            return parse_rank(text)
        except CardError:
            raise error from None


def _rank_of(item: Card | str) -> str:
    return item.rank if isinstance(item, Card) else item


COMMANDS = {"pile": _pile, "round": _round, "trick": _trick, "bid": _bid}
