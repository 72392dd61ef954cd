"""A round's logged change in words, for its line on the round page (the `change` template filter):
the store keeps facts (services/rounds.py hands them over from `round_store.history`), the words
are the web's."""
from scoring import format_points


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
            if names:  # which hands changed, by name: "Ann 160 → 140"
                moved = [f"{name} {_points([was])} → {_points([now])}"
                         for name, was, now in zip(names, change["copied_scores"], change["scores"]) if was != now]
                said = ", ".join(moved) or said
    elif not said and action == "correction started" and change.get("copied_from"):
        said = f"from revision {change['copied_from']}"
    times = change.get("times") or 1
    counted = (f"{times} swaps in a row" if action == "seats swapped" else f"{times} times") if times > 1 else ""
    return " · ".join(part for part in (action, said, counted) if part)


def _points(scores):
    return " · ".join("—" if score is None else format_points(score) for score in scores)
