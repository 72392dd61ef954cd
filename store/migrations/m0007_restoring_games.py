"""m0007: A game a restore is still writing has status 'restoring': the triggers that keep"""
from . import migrations


@migrations()
def m0007_restoring_games(db):
    """A game a restore is still writing has status 'restoring': the triggers that keep
    `seat_results` leave it alone while its rounds and hands go in, and its results are worked
    out once, when it takes its real status (`seat_results_game_changed`)."""
    # Each trigger as m0004 made it, with one more condition: "CREATE TRIGGER name event WHEN
    # condition BEGIN body END" becomes "... WHEN (condition) AND <not restoring> BEGIN body END".
    round_game = "(SELECT game_id FROM rounds WHERE id = NEW.round_id)"
    for name, game in (("seat_results_round_added", "NEW.game_id"), ("seat_results_round_changed", "NEW.game_id"),
                       ("seat_results_hand_added", round_game), ("seat_results_hand_scored", round_game)):
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", [name]).fetchone()
        head, body = sql.split(" BEGIN ", 1)
        head, condition = head.split(" WHEN ", 1)
        db.execute(f"DROP TRIGGER {name}")
        db.execute(f"{head} WHEN ({condition})"
                   f" AND (SELECT status FROM games WHERE id = {game}) IS NOT 'restoring' BEGIN {body}")
