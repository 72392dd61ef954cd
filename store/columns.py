"""A round's, a hand's and a logged change's columns as entered and kept, written once. A
correction's copy (store/rounds.py), the export's hands (store/export.py) and the restore's staging
file and copy (store/restore.py) are built from these, so a new column is added here and follows
everywhere."""
# A round of a game as entered: its place, its deal and bid, when, and for a correction the revision
# it was copied from. `id` and `version` (how many times phones saw it change) are the database's
# own and not carried.
ROUND = ("game_id", "number", "revision", "status", "mode", "dealer", "redeals", "bid_seat", "bid_number",
         "bid_suit", "created", "updated", "copied_from")
# A hand of a round: what a seat entered, its score (a cache the engine recomputes) and who entered it.
HAND = ("round_id", "seat", "mode", "target", "won", "counts", "score", "target_bonus", "entered_by", "done")
# A round's logged change: when, what, its detail, who, and how many times in a row (m0015).
CHANGE = ("round_id", "at", "action", "detail", "by", "times")
