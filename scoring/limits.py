"""Sizes the app keeps to: how long a typed name or note may be. The game's own limits (four seats,
bids 1 to 13, 52 cards) live beside the rules they belong to."""

NAME_MAX = 40  # a player's or a crew's name, in characters
NOTE_MAX = 200  # a note on a game or a night
