"""m0008: Skill ratings: a crew setting to switch them off, and a cache of every rating change,"""
from . import migrations


@migrations()
def m0008_crew_ratings(db):
    """Skill ratings: a crew setting to switch them off, and a cache of every rating change,
    rebuilt from the finished games whenever a finished game's results change (the triggers
    drop the crew's `rating_state` row; the next read rebuilds)."""
    db["crews"].add_column("ratings", int, not_null_default=1)
    db["rating_state"].create(
        {"crew_id": int, "built": str}, pk="crew_id", foreign_keys=[("crew_id", "crews", "id")])
    db["rating_changes"].create(
        {
            "crew_id": int, "seq": int,  # seq: the game's place among the crew's finished games
            "game_id": int, "player_id": int,
            "games": int,  # the player's finished games, this one included
            "mu_before": float, "sigma_before": float, "mu": float, "sigma": float,
            "latest": int,  # 1 on the player's last change: their rating now
        },
        # No keys on games or players: a merge drops a player whose old changes are stale, and
        # the rebuild that follows replaces them.
        pk=("game_id", "player_id"),
        foreign_keys=[("crew_id", "crews", "id")],
    )
    db["rating_changes"].create_index(["crew_id", "latest"], index_name="idx_rating_changes_latest")
    db["rating_changes"].create_index(["player_id", "seq"], index_name="idx_rating_changes_player")
    stale = "DELETE FROM rating_state WHERE crew_id = (SELECT crew_id FROM games WHERE id = {game})"
    for name, event, condition, game in (
        ("ratings_stale_result_added", "AFTER INSERT", "NEW.status = 'finished'", "NEW.game_id"),
        ("ratings_stale_result_removed", "AFTER DELETE", "OLD.status = 'finished'", "OLD.game_id"),
        ("ratings_stale_result_changed", "AFTER UPDATE",
         "OLD.status = 'finished' OR NEW.status = 'finished'", "NEW.game_id"),
    ):
        db.execute(f"CREATE TRIGGER {name} {event} ON seat_results WHEN {condition} BEGIN"
                   f" {stale.format(game=game)}; END")
