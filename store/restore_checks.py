"""What a crew's export file must hold to be restored, beyond its shape (`export_format`, the typed
model that parses the file): the rounds of a game numbered 1, 2, 3 …, its players listed, and
every revision that was ever saved passing the same round check as a live save, in the engine's
words. Every cached value (scores, bonuses, the verdict) is recomputed by the rule engine.
Used by the restore's child process (`store.restore`); RestoreError names the first thing wrong.
"""
import datetime
import operator
from typing import NamedTuple, Optional

from scoring import PLAYERS, GameError, HouseRules, game_result
from scoring import names as name_rule

from .export_format import NotJson, RestoreError, typed
from scoring.entries import engine_hand, hand_score, round_problems
from .stats import bonus_of

SAVED_ONCE = ("scored", "replaced", "deleted")  # revisions that passed the round check once
__all__ = ["GameChecks", "NotJson", "RestoreError", "checked"]


# --- What a type cannot say ----------------------------------------------------------------------

def checked(raw):
    """The export's crew, players and games from the file's bytes, with what concerns the whole
    file checked: every value of its kind, each player listed once, each game numbered once and a
    rematch naming a game before it. RestoreError names the first thing wrong. Each game's own
    checks are `GameChecks`' (run by whoever stages the game)."""
    data = typed(raw)
    crew, players, games = data["crew"], data["players"], data["games"]
    crew["club_nights"] = data.get("club_nights", [])  # checked with the games they name, when staged
    crew["seasons"] = data.get("seasons", [])  # likewise, with the nights
    crew["rules"] = _rules(crew.get("rules", {key: crew[key] for key in _CREW_RULES_BEFORE if key in crew}),
                           "The crew's house rules").as_json()
    names, looks = set(), {}
    for player in players:
        _need(name_rule.key(player["name"]) not in names, f"The player {player['name']} is in the file twice.")
        names.add(name_rule.key(player["name"]))
        look = name_rule.look(player["name"])
        _need(look not in looks, name_rule.look_alike_sentence(player["name"], looks.get(look), "another player in the file"))
        looks[look] = player["name"]
    numbers, started = set(), None
    for game in games:
        _need(game["number"] not in numbers, "Each game needs a number of its own.")
        _need(game["rematch_of"] is None or game["rematch_of"] in numbers,
              f"Game {game['number']} has no proper rematch of.")
        # An export lists the games in the order they were started (and numbers them so): a game
        # started before the one listed above it would be numbered, and its rematch placed, anew.
        when = datetime.datetime.fromisoformat(game["created"])
        _need(started is None or when >= started,
              f"Game {game['number']} was started before the game listed above it: an export lists its games "
              "in the order they were started.")
        numbers.add(game["number"])
        started = when
    return crew, players, games, names


class GameChecks:
    """One game's checks, what live entry would have let through and its cached values recomputed
    (`check(game)`, RestoreError naming the first thing wrong); the engine's answers are kept for
    the games checked after it."""

    def __init__(self, names):
        self.names = names
        self.engine = _Engine()

    def check(self, game):
        # A file from before m0015 counts no runs: each step happened once. An older file's log
        # lines keep their words as they are (they were written to be read), as facts or not.
        for entry in game["rounds"]:
            for change in entry["changes"]:
                change.setdefault("times", 1)
        _check_game(game, self.names, f"Game {game['number']}", self.engine)
        return game


class _Engine:
    """The rule engine's word on each distinct hand and round of one file, asked once: the engine
    is pure, so a hand (or a round) of the same value gets the same answer. Many hands repeat
    (an empty pile with the same target, the same few counts), and a long history is thousands
    of rounds."""

    def __init__(self):
        self.hands = {}  # the hand's value -> Known
        self.saveable = set()  # rounds (their hands' engine values and bid) the check passed

    def hand(self, hand, where):
        # One flat tuple: won cards ("10S") and ranks ("10") never look alike, counts are ints.
        counts = hand["counts"]
        key = (hand["mode"], hand["target"], *hand["won"], *counts, *counts.values())
        found = self.hands.get(key)
        if found is None:
            try:
                value, score = engine_hand(hand), hand_score(hand)
            except Exception as error:  # a count or pile the engine cannot read
                raise RestoreError(f"{where}: {error}") from None
            found = self.hands[key] = Known(value, score and score.total, bonus_of(score))
        return found

    def check(self, entry, seats, known, where):
        """RestoreError unless the round passes the check live entry runs before a save
        (`known`: its hands' Known)."""
        bid = entry["bid"]["number"] if entry["bid"] else None
        # Each distinct hand has one Known, kept for the whole file: its id names the hand's value
        # (its target included).
        key = (*map(id, known), bid is not None)
        if key in self.saveable:
            return
        problems = round_problems({"hands": entry["hands"], "bid_number": bid}, seats,
                                  [found.value for found in known])
        _need(not problems, f"{where} cannot be saved as it is: {problems[0].message}" if problems else "")
        self.saveable.add(key)


class Known(NamedTuple):
    """What the engine says of one hand: its value, its score (None until it can be scored) and
    its target bonus."""
    value: object
    total: Optional[int]
    bonus: int


def _need(condition, message):
    if not condition:
        raise RestoreError(message)


# A crew's rules as files written before m0020 carry them: one key each beside its name.
_CREW_RULES_BEFORE = ("goal", "tie_rule", "min_bid", "redeal_moves_deal")


def _rules(value, what):
    """The rules of a file's crew or game, checked by the engine and as the app stores them."""
    try:
        return HouseRules.from_json(value)
    except (TypeError, GameError) as error:
        raise RestoreError(f"{what}: {error}") from None


def _check_game(game, names, where, engine):
    rules = _rules(game["rules"], f"{where}'s rules")
    game["rules"] = rules.as_json()  # stored as the app writes them
    seats = game["seats"]
    _need(len(seats) == PLAYERS and len({name_rule.key(name) for name in seats}) == PLAYERS,
          f"{where} needs four different players.")
    _need(all(name_rule.key(name) in names for name in seats), f"{where} seats a player the file does not list.")
    scored, revisions, open_rounds = [], {}, set()
    for entry in game["rounds"]:
        _check_round(entry, seats, f"{where}, round {entry['number']}", engine)
        revisions.setdefault(entry["number"], []).append(entry["revision"])
        if entry["status"] == "scored":
            scored.append(entry)
        elif entry["status"] == "entering":
            _need(entry["number"] not in open_rounds, f"{where}, round {entry['number']} has two revisions open "
                  "for entry at once; live entry opens one at a time.")
            open_rounds.add(entry["number"])
    saved_once = {(entry["number"], entry["revision"]) for entry in game["rounds"] if entry["status"] in SAVED_ONCE}
    for entry in game["rounds"]:  # live entry copies a correction from the saved revision
        _need(entry["copied_from"] is None or (entry["number"], entry["copied_from"]) in saved_once,
              f"{where}, round {entry['number']}: revision {entry['revision']} is copied from a revision "
              "that was never saved.")
    scored.sort(key=lambda entry: entry["number"])
    _need([entry["number"] for entry in scored] == list(range(1, len(scored) + 1)),
          f"{where}: its saved rounds are not numbered 1, 2, 3 …")
    # Live entry opens round n + 1 only after round n, and numbers each correction next.
    _need(sorted(revisions) == list(range(1, len(revisions) + 1)),
          f"{where}: its rounds are not numbered 1, 2, 3 … (round {_first_gap(sorted(revisions))} is missing).")
    for number, found in revisions.items():
        _need(sorted(found) == list(range(1, len(found) + 1)),
              f"{where}, round {number}: its revisions are not numbered 1, 2, 3 …")
    try:
        result = game_result([[h["score"] for h in e["hands"]] for e in scored], rules)
    except GameError as error:
        raise RestoreError(f"{where}: {error}.") from None
    # The verdict is a cache too: the engine's, whatever the file says; abandoned stays abandoned.
    if result.over:
        game["status"], game["winner_seats"] = "finished", list(result.winners)
    else:
        game["status"] = "abandoned" if game["status"] == "abandoned" else "playing"
        game["winner_seats"] = []


def _first_gap(numbers):
    return next(n for n, found in enumerate(numbers + [None], start=1) if n != found)


_SEATS = list(range(PLAYERS))


def _check_round(entry, seats, where, engine):
    entry.setdefault("copied_from", None)  # a round, and any round of a file from before m0014
    _need(entry["copied_from"] is None or entry["copied_from"] < entry["revision"],
          f"{where}: revision {entry['revision']} is copied from a later one.")
    hands = entry["hands"]
    for hand in hands:
        hand.setdefault("mode", entry["mode"])
    hands.sort(key=_BY_SEAT)
    _need(list(map(_BY_SEAT, hands)) == _SEATS, f"{where} needs one hand per seat.")
    known = [engine.hand(hand, where) for hand in hands]
    saved = entry["status"] in SAVED_ONCE
    # A revision that was saved once (the saved one, one a correction replaced, one undone) passed
    # the round check when it was saved: it must pass it again.
    if saved:
        engine.check(entry, seats, known, where)
    # Scores and target bonuses are caches: recomputed for every revision that was ever saved.
    if saved or all(hand.get("score") is not None for hand in hands):
        for hand, found in zip(hands, known):
            if found.total is None:
                raise RestoreError(f"{where}: a saved hand cannot be scored.")
            hand["score"], hand["target_bonus"] = found.total, found.bonus
    else:
        for hand in hands:
            hand["score"] = hand["target_bonus"] = None


_BY_SEAT = operator.itemgetter("seat")

