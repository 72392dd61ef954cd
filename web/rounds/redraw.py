"""What each answer on a round being entered redraws, in one place. A view names what happened
(a tap on a card, a refused bid, a poll that found a change…) and `blocks` gives the page's named
blocks (`templates/rounds/show.html`) that its answer swaps out of band. A block not named stays as
the phone has it: the control a thumb is on is redrawn only when a refusal puts it back as stored,
so nothing moves under a thumb that is still tapping."""

# Around a tap that went through: the tabs (a hand's state), the round's check, the hand's result
# (its score, its count), the line under the control and the bar.
AROUND_A_TAP = ("tabs", "check", "hand_result", "message", "bar_message")

REDRAWN = {
    # Taps on a hand, named as the tapped control is (`control.kind` in the template)
    "card": (*AROUND_A_TAP, "pile_count"),
    "rank": AROUND_A_TAP,  # a rank's count
    # The target's summary; in exact entry the grid marks the card as taken, in quick entry the
    # hint names the target's rank, which counts (see `blocks`).
    "target": (*AROUND_A_TAP, "target_summary"),
    "stale": ("tabs", "check", "hand"),  # the hand changed on another phone first: drawn as it is
    "refused": ("control", "bar_message"),  # the control as stored, the reason beside it
    "refused hidden": ("tabs", "check", "hand", "bar_message"),  # the hand moved to its own phone
    # Changes to a whole hand
    "mode": ("tabs", "check", "hand"),
    "rest": ("tabs", "check", "card_grid", "hand_result"),  # the target step stays as it is
    "done": ("tabs", "check", "hand_result"),
    "tab": ("tabs", "hand"),  # a player's tab opened
    # The round as a whole
    "bid": ("bid_summary", "bid_known", "bid_hint", "deal", "check"),  # the form stays open as it is
    "bid form": ("bid", "deal", "check"),  # the bid's form drawn again: refused, or a redeal
    # Said in the check, beside its Save (or a correction's "I agree") button, as the round's problems are.
    "save refused": ("check",),
    "save refused in the bar": ("check", "bar_message"),  # a refusal about no one control
    "agreed": ("tabs", "check"),
    # A poll that found a change made on another phone: the phone's own controls are never in it.
    "poll": ("deal", "bid_summary", "tabs", "check", "clock"),
}


def blocks(kind, view=None):
    """The blocks an answer of `kind` redraws (`view`: the round as the answer shows it)."""
    found = REDRAWN[kind]
    if kind == "target":
        found = (*found, "card_grid" if view.hand["mode"] == "exact" else "quick_hint")
    return found
