"""m0002: A crew's house rules, and the rules each game is played under (copied when it starts)."""
from . import migrations


@migrations()
def m0002_house_rules(db):
    """A crew's house rules, and the rules each game is played under (copied when it starts)."""
    for table in ("crews", "games"):
        if table == "crews":
            db[table].add_column("goal", int, not_null_default=250)
        db[table].add_column("tie_rule", str, not_null_default="play-on")
        db[table].add_column("min_bid", int, not_null_default=1)
        db[table].add_column("redeal_moves_deal", int, not_null_default=0)
