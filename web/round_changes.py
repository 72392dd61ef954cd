"""A round's logged change in words, for its line on the round page (the `change` template filter):
the store keeps facts (services/rounds.py hands them over from `round_store.history`), the words
are the web's."""
from scoring import RANKS, format_points, parse_card, rank_name
from scoring.cards import a_rank


def change_words(change, names=None):
    """What a logged change says: its step, then what it changed ("saved · 25 · 50 · −10 · 35",
    "corrected · 160 · … → 140 · …", or with the players' `names` only the hands it changed,
    "corrected · Ann 160 → 140", "correction started · from revision 2") and, for a run of the
    same step, how often ("redeal · everyone passed · 3 times", "seats swapped · … · 3 swaps in a
    row"), or how many earlier changes are not listed. A line an older release stored with its
    words says them as they are."""
    if change.get("earlier"):
        return f"{change['earlier']} earlier change{'s' * (change['earlier'] > 1)}"
    action, said = change["action"], change.get("detail")
    if not said and action in ("saved", "corrected") and change.get("scores"):
        said = _points(change["scores"])
        if action == "corrected" and change.get("copied_scores"):
            said = f"{_points(change['copied_scores'])} → {said}"
            if names:  # which hands changed, by name, and how: "Ann 160 → 140 (+2 Aces)"
                piles = zip(change.get("copied_piles") or [None] * len(names), change.get("piles") or [None] * len(names))
                moved = []
                for name, was, now, (pile_was, pile_now) in zip(names, change["copied_scores"], change["scores"], piles):
                    how = _pile_change(pile_was, pile_now)
                    if was != now or how:
                        moved.append(f"{name} {_points([was])} → {_points([now])}" + (f" ({how})" if how else ""))
                said = ", ".join(moved) or said
    elif not said and action == "correction started" and change.get("copied_from"):
        said = f"from revision {change['copied_from']}"
    times = change.get("times") or 1
    counted = (f"{times} swaps in a row" if action == "seats swapped" else f"{times} times") if times > 1 else ""
    return " · ".join(part for part in (action, said, counted) if part)


def _pile_change(was, now):
    """How a hand's pile changed between two revisions, in words: "target 4♠ → 5♠, 2 Aces more, a
    King fewer" (its won cards compared by rank, however each revision entered them), or ""."""
    if not was or not now:
        return ""
    (target_was, ranks_was), (target_now, ranks_now) = was, now
    parts = []
    if target_was != target_now:
        parts.append(f"target {_card(target_was)} → {_card(target_now)}")
    for rank in RANKS:
        moved = ranks_now.get(rank, 0) - ranks_was.get(rank, 0)
        if moved:
            cards = a_rank(rank) if abs(moved) == 1 else f"{abs(moved)} {rank_name(rank, plural=True)}"
            parts.append(f"{cards} {'more' if moved > 0 else 'fewer'}")
    return ", ".join(parts)


def _card(code):
    return str(parse_card(code)) if code else "none"


def _points(scores):
    return " · ".join("—" if score is None else format_points(score) for score in scores)
