"""A club night's logged change in words, as the night page's log lists it (the `night_change`
filter; tests/test_club_night_log.py reads them so too): the store keeps
facts (a stage, the players a line names, a count, a run's `times`; services/club_nights.py hands
them over from `store/club_nights.py`'s `changes`, each player's name as it is now), the words are
the web's. A line an older release stored with its words says them as they are."""

_NEEDS = {"drawn": ("stage", "count"), "swapped": ("stage",), "started": ("stage", "count"), "finished": ("count",),
          "clock": ("stage",)}
_ABOUT_ONE = {"arrived": "{} joined", "door": "{} checked in at the door",
              "door undone": "{}'s check-in at the door undone", "left": "{} left", "back": "{} is back"}
_NAMING = ("created", "swapped", *_ABOUT_ONE)


def night_change_words(change):
    """What a logged change of a night says: "Stage 1 drawn for 9 players · 3 draws", "Stage 1: Ann
    and Ben swapped places", "Stage 2 started at 3 tables", "The night finished after 2 stages",
    "12 players: Ann, Ben, …", "Jo joined", "Jo checked in at the door", "Jo's check-in at the door
    undone", "Jo left · 2 changes", "Jo is back", "Stage 2: the clock set, 45 minutes to play"."""
    if change.get("detail"):
        return change["detail"]
    action, names, stage, count = change["action"], change["names"], change["stage"], change["count"]
    if any(change[fact] is None for fact in _NEEDS.get(action, ())) or (action in _NAMING and not names):
        return action  # a line without the facts its words need (a file edited by hand, say)
    if action == "created":
        said = f"{len(names)} players: {', '.join(names)}"
    elif action == "drawn":
        said = f"Stage {stage} drawn for {count} players"
    elif action == "swapped":
        said = f"Stage {stage}: {' and '.join(names)} swapped places"
    elif action == "started":
        said = f"Stage {stage} started at {_counted(count, 'table')}"
    elif action == "clock":
        said = (f"Stage {stage}: the clock set, {_counted(count, 'minute')} to play" if count is not None
                else f"Stage {stage}: the clock taken away")
    elif action == "reopened":
        said = "The night was reopened: its standings are open again"
    elif action == "finished":
        dropped = f" (stage {stage}, drawn but not started, dropped)" if stage else ""
        said = f"The night finished after {_counted(count, 'stage')}{dropped}"
    elif action in _ABOUT_ONE:
        said = _ABOUT_ONE[action].format(names[0])
    else:
        said = action  # a kind this release does not word (a restored file's), shown as stored
    unit = {"drawn": "draws", "swapped": "swaps", "left": "changes", "back": "changes"}.get(action)
    return f"{said} · {change['times']} {unit}" if unit and change["times"] > 1 else said


def _counted(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"
