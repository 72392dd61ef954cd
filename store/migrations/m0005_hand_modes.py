"""m0005: Quick or exact is a property of one hand, so a phone switches only the hand it enters; and"""
from . import migrations


@migrations()
def m0005_hand_modes(db):
    """Quick or exact is a property of one hand, so a phone switches only the hand it enters; and
    each hand counts its changes, so a tap made on an old view of a hand changed elsewhere shows."""
    db["hands"].add_column("mode", str)
    db.execute("UPDATE hands SET mode = (SELECT mode FROM rounds WHERE rounds.id = hands.round_id)")
    db["hands"].add_column("version", int, not_null_default=0)
