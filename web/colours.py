"""Each player's colour (and the shape beside their name): the same in every game of the crew.

A player takes the colour of their place in the crew (the order players joined it) among
`PALETTE` colours; static/app.css draws colour N as `--player-N` with shape N % 4 (● ■ ▲ ◆), the
charts' marker of the same shape. At a game where two players would share a colour (a crew of more
than `PALETTE` players), the later seat takes the next free one."""

PALETTE = 8


def seat_colours(joined):
    """Each seat's colour, from each seat's player's place in the crew (0 for the first to join)."""
    taken, colours = set(), []
    for place in joined:
        colour = place % PALETTE
        while colour in taken:
            colour = (colour + 1) % PALETTE
        taken.add(colour)
        colours.append(colour)
    return colours


def game_colours(game):
    """A game's seats' colours (a game read without its players' places: by seat)."""
    return seat_colours(game.get("joined") or range(len(game["names"])))
