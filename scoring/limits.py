"""Sizes the app keeps to: how long a typed name or note may be, and which years a stored time may name. The game's own limits (four seats,
bids 1 to 13, 52 cards) live beside the rules they belong to."""

NAME_MAX = 40  # a player's or a crew's name, in characters
NOTE_MAX = 200  # a note on a game or a night
# Every time the app stores is "now" in UTC; a restored file may carry times in these years only
# (before 1970 or in 9999 a time cannot always be shown in the server's own time zone).
YEARS = range(1970, 9999)
# A game's rounds, a round's revisions (corrections) and a round's redeals, each at most this many:
# far beyond any real table (a game to 250 takes about 15 rounds), and what a backup file may hold
# (store/export_format.py). A game's pages and saves read every saved round, starting a round does
# so inside the write lock every table waits for: at 100,000 rounds (the limit until 2026-12-06) a
# "Start round" held it 1.0-1.2 s; about a hundredth of that at this limit.
ROUNDS_MAX = 1_000
# A round page lists its newest changes, this many at most, after a line that counts the others.
HISTORY_LINES = 20
# A scoreboard lists a game's newest saved rounds, this many at most, after a line that counts the
# others (its totals count every round): it is drawn on the worker's event loop, 0.1 ms a round listed.
SCOREBOARD_ROUNDS = 50
