"""The rest of the cards: who holds each card entered card by card, the cards nobody holds yet,
and the one rule for which hand may be given them (offered on the page, enforced on a tap)."""
from scoring import DECK


def owners_of(hands):
    """Who holds each card entered card by card: code -> (seat, 'pile' or 'target')."""
    owners = {}
    for hand in hands:
        if hand["target"]:
            owners[hand["target"]] = (hand["seat"], "target")
        if hand["mode"] == "exact":
            for code in hand["won"]:
                owners.setdefault(code, (hand["seat"], "pile"))
    return owners


REST_WAITS = "The rest of the cards can be given once every hand on another phone is all in."


def rest_refusal(entry, viewer, seat, names):
    """Why "the rest of the cards" may not go to `seat`'s pile from this phone, or None when it may.

    The rest (every card no target and no exact pile holds) goes to a hand still open once every
    hand held on another phone is all in. Never to a finished hand: its phone said it is complete,
    and an empty pile can be true (a player who won no trick). Never while a hand on another phone
    is open: that hand's cards would be given away, and the rest would tell, by what it leaves
    out, what it holds so far. (Hands this phone enters itself, its own and those of players
    without a phone, are its own to finish.) It is known only once every hand is entered card by
    card and every target is picked. A phone may not touch a hand another phone holds at all
    (`Viewer.hidden_seats`)."""
    hands = entry["hands"]
    if hands[seat]["mode"] != "exact":
        return f"{names[seat]}’s hand is entered by rank: the rest of the cards needs exact entry."
    if hands[seat]["done"]:
        return f"{names[seat]}’s hand is all in: tap “Not done” to change it first."
    if any(not hands[s]["done"] for s in viewer.hidden_seats(entry)):
        return REST_WAITS
    if any(hand["mode"] != "exact" for hand in hands):
        return "The rest of the cards is known only when every hand is entered card by card."
    if not all(hand["target"] for hand in hands):
        return "The rest of the cards can be given once every target card is picked."
    return None


def remaining_cards(entry):
    """The cards no target and no exact pile holds yet, for the last pile of the round (quick
    hands leave singles out, so the rest cannot be known while one is in quick mode)."""
    if any(hand["mode"] != "exact" for hand in entry["hands"]):
        return []
    taken = set(owners_of(entry["hands"]))
    return [card.code for card in DECK if card.code not in taken]
