"""What is this pile worth?"""
import re
from collections import Counter
from dataclasses import dataclass, replace

from flask import url_for

from web.access import CREW, TABLE, allow
from wtforms import StringField
from wtforms.validators import ValidationError

from scoring import (
    DECK, MAX_PILE_CARDS, RANKS, CardError, PileError, parse_card, parse_rank, rank_name, score_counts, score_pile,
)

from ..lookup import load_crew

from . import bp
from .common import CardsQuestion, GRID_SUITS, QuestionForm, Tap, answer, at_most, one, tokens


@dataclass(frozen=True)
class Pile:
    """A pile in question: exact cards or quick rank counts, a target, and what a tap sets."""

    mode: str = "exact"
    target: object = None  # a Card in exact mode, a rank in quick mode
    cards: tuple = ()  # exact mode, deck order, repeats kept so that the engine can name them
    counts: tuple = ()  # quick mode: (rank, count) in rank order
    pick: str = ""  # "target" or "pile" when chosen; otherwise it follows from the target

    @property
    def picking(self):
        return self.pick or ("pile" if self.target is not None else "target")

    @property
    def size(self):
        return len(self.cards) if self.mode == "exact" else sum(n for _, n in self.counts)

    def args(self):
        """The query string that asks this question again."""
        args = {}
        if self.mode == "quick":
            args["mode"] = "quick"
        if self.target is not None:
            args["target"] = self.target.code if self.mode == "exact" else self.target
        if self.mode == "exact" and self.cards:
            args["cards"] = " ".join(card.code for card in self.cards)
        if self.mode == "quick" and self.counts:
            args["counts"] = ",".join(f"{rank}:{n}" for rank, n in self.counts)
        if self.pick and self.pick != replace(self, pick="").picking:
            args["pick"] = self.pick
        return args

    def score(self):
        """The engine's score and breakdown; PileError for a pile no round could produce."""
        if self.mode == "exact":
            return score_pile(self.cards, self.target)
        return score_counts(dict(self.counts), self.target)

    def with_cards(self, cards):
        return replace(self, cards=tuple(sorted(cards)))

    def with_counts(self, counts):
        return replace(self, counts=tuple((rank, counts[rank]) for rank in RANKS if counts.get(rank)))

    def tapped_card(self, card):
        """A tap on a card of the exact grid: set it as target, or put it in or out of the pile."""
        if self.picking == "target":
            target = None if card == self.target else card
            # A card is in one place: made the target, it leaves the pile.
            rest = [c for c in self.cards if c != card]
            return replace(self.with_cards(rest), target=target, pick="")
        if card in self.cards:
            return self.with_cards([c for c in self.cards if c != card])
        return self.with_cards([*self.cards, card])

    def tapped_rank(self, rank, step=1):
        """A tap on a rank tile: set the target's rank, or count the rank up or down."""
        if self.picking == "target" and step > 0:
            return replace(self, target=None if rank == self.target else rank, pick="")
        counts = dict(self.counts)
        counts[rank] = max(counts.get(rank, 0) + step, 0)
        return self.with_counts(counts)

    def in_mode(self, mode):
        """The same pile in the other entry mode: cards become rank counts; counts cannot become cards."""
        if mode == self.mode:
            return self
        if mode == "quick":
            target = self.target.rank if self.target is not None else None
            pile = Pile("quick", target, pick=self.pick)
            return pile.with_counts(Counter(card.rank for card in self.cards))
        return Pile("exact", pick=self.pick)


class PileForm(CardsQuestion, QuestionForm):
    mode = StringField("Entry", validators=[one("an entry mode")])
    target = StringField("Target card", validators=[one("a card")])
    cards = StringField("Won cards", validators=[
        at_most(MAX_PILE_CARDS, f"A pile holds at most {MAX_PILE_CARDS} cards.")])
    counts = StringField("Won cards by rank", validators=[
        at_most(len(RANKS), f"A pile holds at most {len(RANKS)} ranks.")])
    pick = StringField(validators=[one("a choice")])

    def validate_mode(self, field):
        if field.data not in (None, "", "exact", "quick"):
            raise ValidationError("Pick exact (cards) or quick (ranks).")

    def validate_target(self, field):
        self.target_value = None
        if not (field.data or "").strip():
            return
        try:
            if self.quick:
                self.target_value = _rank_or_card_rank(field.data)
            else:
                self.target_value = parse_card(field.data)
        except CardError as error:
            raise ValidationError(str(error)) from None

    def validate_counts(self, field):
        self.count_map, problem = _counts(field.data)
        if problem:
            raise ValidationError(problem)

    @property
    def quick(self):
        return self.mode.data == "quick"

    def pile(self):
        """The pile asked about, leaving out whatever could not be read (its message is shown)."""
        pick = self.pick.data if self.pick.data in ("target", "pile") else ""
        if self.quick:
            return Pile("quick", self.target_value, pick=pick).with_counts(self.count_map)
        return Pile("exact", self.target_value, pick=pick).with_cards(self.card_list)


def _rank_or_card_rank(text):
    """A rank, or the rank of a card (so a card's code works as a quick-mode target)."""
    try:
        return parse_rank(text)
    except CardError as not_a_rank:
        try:
            return parse_card(text).rank
        except CardError:
            raise not_a_rank from None


def _counts(text):
    """Rank counts from a text such as "3:2,J:3" (a rank alone counts once), and the first problem."""
    counts, problem = {}, None
    for token in tokens(text):
        rank_text, _, number = token.partition(":")
        try:
            rank = parse_rank(rank_text)
        except CardError as error:
            problem = problem or str(error)
            continue
        if number and not re.fullmatch(r"-?\d+", number):
            problem = problem or f"{number!r} is not a number of {rank_name(rank, plural=True)}"
            continue
        if rank in counts:
            problem = problem or f"The {rank_name(rank, plural=True)} are counted twice"
            continue
        counts[rank] = int(number) if number else 1
    return counts, problem


def _pile_url(token, pile):
    return url_for("tools.pile_show", token=token, **pile.args())


@bp.get("/c/<token>/tools/pile")
@allow(CREW, TABLE)
def pile_show(token):
    crew = load_crew(token)
    form = PileForm.from_address()
    pile = form.pile()
    score = None
    if pile.target is not None and not form.has_errors:
        try:
            score = pile.score()
        except PileError as error:
            (form.counts if pile.mode == "quick" else form.cards).errors.append(str(error))
    context = {
        "crew": crew, "form": form, "pile": pile, "score": score,
        "mode_urls": {mode: _pile_url(token, pile.in_mode(mode)) for mode in ("exact", "quick")},
        "pick_urls": {pick: _pile_url(token, replace(pile, pick=pick)) for pick in ("target", "pile")},
        "start_over": _pile_url(token, Pile(pile.mode)),
        "action": url_for("tools.pile_show", token=token),
    }
    if pile.mode == "exact":
        context["grid"] = _card_grid(token, pile)
    else:
        context["tiles"] = _rank_tiles(token, pile)
    return answer(
        "tools/pile.html", "pile_tool", 422 if form.has_errors else 200, _pile_url(token, pile),
        **context,
    )


def _card_grid(token, pile):
    rows = []
    for suit in GRID_SUITS:
        row = []
        for card in (c for c in DECK if c.suit == suit):
            if card == pile.target:
                url = _pile_url(token, pile.tapped_card(card)) if pile.picking == "target" else ""
                row.append(Tap(str(card), "target", url, card.code, "target"))
            elif card in pile.cards:
                row.append(Tap(str(card), "taken", _pile_url(token, pile.tapped_card(card)), card.code, "won"))
            else:
                row.append(Tap(str(card), "", _pile_url(token, pile.tapped_card(card)), card.code))
        rows.append((suit, row))
    return rows


def _rank_tiles(token, pile):
    counts = dict(pile.counts)
    return [
        Tap(
            rank,
            ("has " if counts.get(rank) else "") + ("target" if rank == pile.target else ""),
            _pile_url(token, pile.tapped_rank(rank)),
            rank,
            extra={"count": counts.get(rank, 0),
                   "down": _pile_url(token, pile.tapped_rank(rank, -1)) if counts.get(rank) else ""},
        )
        for rank in RANKS
    ]
