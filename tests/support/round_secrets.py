"""What a phone may learn of a round being played, checked on the HTML it is sent (issue 36).

Seat mode keeps each held hand (its target, its pile, its score) on its own phone until the round
is scored. These checks read an answer the way a curious player could: the visible text, the
marks on the card grids (a card checked, greyed out or named as someone's), the scores on the
tabs, the controls that would act on a hand, and the "all the remaining cards" button, and
compare them with the round as stored. They know the rule book, not the templates' internals:
a card is written "10♥" on every page."""
import copy
import re

from scoring import DECK

from .html_text import parse, select, text_of

SUIT_SYMBOLS = {"D": "♦", "H": "♥", "C": "♣", "S": "♠"}
CARD_NAME = re.compile(r"(10|[2-9JQKA])([♦♥♣♠])")
HAND_CONTROL = re.compile(r"/hands/(\d+)/")
CONTROL_LABELS = "#card-grid, #target-picker, label.cardbtn, script, style, template"


def card_label(code):
    """A card as the pages write it: "10♥"."""
    return code[:-1] + SUIT_SYMBOLS[code[-1]]


def cards_named(words):
    """The cards a text names, as codes ("10H")."""
    suits = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
    return {rank + suits[symbol] for rank, symbol in CARD_NAME.findall(words)}


def hand_cards(hand):
    """The cards one stored hand holds: its target and, entered card by card, its pile."""
    return ({hand["target"]} if hand["target"] else set()) | (set(hand["won"]) if hand["mode"] == "exact" else set())


def remaining(entry):
    """The cards no target and no exact pile holds."""
    held = set().union(*(hand_cards(hand) for hand in entry["hands"]))
    return [card.code for card in DECK if card.code not in held]


def rest_allowed(entry, hidden, seat):
    """The issue's rule: the rest goes to a hand this phone may see that is still open, once every
    hand held on another phone is all in, every hand is exact and every target is picked."""
    hands = entry["hands"]
    return (seat not in hidden and not hands[seat]["done"]
            and all(hands[s]["done"] for s in hidden)
            and all(hand["mode"] == "exact" for hand in hands)
            and all(hand["target"] for hand in hands))


def leaks(html, entry, hidden, names, asked=None, strict=True):
    """Everything in an answer that tells this phone what a `hidden` hand holds (an empty list
    when nothing does). `asked`: the card this phone tapped, which a refusal may name ("8♦ is
    taken."), never whose it is. `strict` (an answer about the round being played): no card but
    those of the hands this phone sees is named at all, since naming the cards nobody holds
    tells, by what it leaves out, what the hidden hands hold; otherwise (another page, which
    may show saved rounds) no card of a hidden hand is named."""
    root = copy.deepcopy(parse(html))  # its controls' labels are dropped below
    secret = set().union(*(hand_cards(entry["hands"][s]) for s in hidden)) if hidden else set()
    seen = set().union(*(hand_cards(hand) for hand in entry["hands"] if hand["seat"] not in hidden))
    found = []
    for element in root.xpath("//*[@hx-post]"):
        match = HAND_CONTROL.search(element.get("hx-post"))
        if match and int(match.group(1)) in hidden:
            found.append(f"a control of {names[int(match.group(1))]}'s hand: {element.get('hx-post')}")
    for seat_field in select(root, "#hand-seat"):
        version = select(root, "#hand-version")
        if int(seat_field.get("value")) in hidden and version and version[0].get("value"):
            found.append(f"the version of {names[int(seat_field.get('value'))]}'s hand")
    for label in select(root, "label.cardbtn"):
        box = label.find(".//input")
        code = box.get("value") if box.get("type") == "radio" else box.get("id")[2:]
        marked = ({"taken", "elsewhere"} & set(label.get("class", "").split())
                  or box.get("checked") is not None or box.get("disabled") is not None)
        if marked and code in secret:
            found.append(f"{card_label(code)} marked on a card grid")
    for seat in hidden:
        for score in select(root, f"#tab-{seat} .tab-score"):
            if not text_of(score).startswith("secret"):
                found.append(f"{names[seat]}'s score on the tabs: {text_of(score)}")
    for line in select(root, ".score-line span"):
        if text_of(line) in {names[s] for s in hidden}:
            found.append(f"{text_of(line)}'s score line")
    for element in select(root, CONTROL_LABELS):
        if element.getparent() is not None:
            element.drop_tree()
    words = "" if select(root, CONTROL_LABELS) else text_of(root)
    if asked:
        words = words.replace(f"{card_label(asked)} is taken.", "")
    named = (cards_named(words) - seen if strict else cards_named(words) & secret) if hidden else set()
    found += [f"{card_label(code)} named in the text" for code in sorted(named)]
    return found


def rest_offers(html):
    """Each "all the remaining cards" button in an answer: (the seat its form posts to, how many
    cards its label says)."""
    offers = []
    for form in select(html, "form[hx-post$='/remaining']"):
        seat = int(HAND_CONTROL.search(form.get("hx-post")).group(1))
        count = int(re.search(r"\((\d+)\)", text_of(form)).group(1))
        offers.append((seat, count))
    return offers


def rest_problems(html, entry, hidden, names):
    """Where an answer offers the rest of the cards against the rule, or withholds it from the
    hand whose whole panel it draws although the rule gives it the rest."""
    found = []
    offers = rest_offers(html)
    left = len(remaining(entry))
    for seat, count in offers:
        if not rest_allowed(entry, hidden, seat):
            found.append(f"the rest offered to {names[seat]}'s hand against the rule")
        elif count != left:
            found.append(f"the rest offered to {names[seat]} as {count} cards; {left} are left")
    panel_seat = select(html, "#hand-seat")
    if panel_seat and select(html, "#hand-result") and not offers:
        seat = int(panel_seat[0].get("value"))
        if left and rest_allowed(entry, hidden, seat):
            found.append(f"the rest not offered to {names[seat]}'s open hand")
    return found
