"""m0010 on: what phones following a game read."""
from . import migrations


@migrations()
def m0010_board_version(db):
    """The scoreboard's own version: it moves when something the scoreboard shows changes (a round
    started, saved, corrected, undone or signed off, a seat, the game's status), not with every tap
    on the round being entered, so phones watching the scoreboard get a 204 while a round is tapped in."""
    db["games"].add_column("board_version", int, not_null_default=0)
