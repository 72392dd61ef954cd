"""Sizes the app keeps to: how long a typed name or note may be, and which years a stored time may name. The game's own limits (four seats,
bids 1 to 13, 52 cards) live beside the rules they belong to."""

NAME_MAX = 40  # a player's or a crew's name, in characters
NOTE_MAX = 200  # a note on a game or a night
# Every time the app stores is "now" in UTC; a restored file may carry times in these years only
# (before 1970 or in 9999 a time cannot always be shown in the server's own time zone).
YEARS = range(1970, 9999)
# A game's rounds, a round's revisions (corrections) and a round's redeals, each at most this many:
# far beyond any real table, and what a backup file may hold (store/export_format.py).
ROUNDS_MAX = 100_000
# A round page lists its newest changes, this many at most, after a line that counts the others.
HISTORY_LINES = 20
# A scoreboard lists a game's newest saved rounds, this many at most, after a line that counts the
# others (its totals count every round). A game to MAX_GOAL points may have thousands of rounds,
# and the scoreboard is drawn on the worker's event loop: 0.1 ms a round listed.
SCOREBOARD_ROUNDS = 50
