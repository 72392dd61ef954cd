"""A round as a state machine (hypothesis), through the Flask test client (issue 36): four phones,
each with its own cookies, any of them holding a seat or entering for the table, tapping any
control in any order: the bid's choices, quick or exact entry, targets, cards, counts, whole hands
(some cards forgotten), "the rest", "all in" and "not done", tabs, polls, a redeal, a save (from
a fresh or an old page), seats taken, moved and left, taps held offline and sent again by a reload
(once, or twice when an answer is lost: `support.round_reloads`), and the next round.

Here the phones' taps are the model: what each tap that was accepted (200) entered. After every
step:

* no answer is a 5xx;
* no answer to a phone shows a card, a mark on a card grid, a score or a control of a hand another
  phone holds while the round is being played (`support.round_secrets`);
* "all the remaining cards" is offered only where the rule gives the rest, with the right count,
  and to the hand a whole panel draws whenever the rule gives it the rest;
* the stored hands are the hands the phones entered;
* a saved round is one the engine passes, scored as the engine scores the piles the phones
  entered.

A small run is in `make check`; a longer one is marked `fuzz` for `make test`."""
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from scoring import DECK, RANKS, PLAYERS
from scoring.entries import hand_score, round_left_out, round_problems
from store import rounds as round_store
from store import seats as seat_store
from support.apps import make_app
from support.html_text import field_value, poll_url, select
from support.profiles import examples
from support.round_corrections import CorrectionSteps
from support.round_reloads import ReloadSteps
from support.round_secrets import leaks, remaining, rest_problems
from support.table import Table

NAMES = ("Ann", "Ben", "Cleo", "Dan")
CODES = [card.code for card in DECK]
phones = st.integers(0, PLAYERS - 1)
seats = st.integers(0, PLAYERS - 1)
modes = st.sampled_from(["quick", "exact"])
pages = st.sampled_from(["seen", "fresh", "old", None])  # the hand version a tap says it is based on


@st.composite
def deals(draw):
    """A real deal: four targets, and twelve tricks each won by one of the four."""
    deck = draw(st.permutations(CODES))
    winners = draw(st.lists(seats, min_size=12, max_size=12))
    piles, rest = [[] for _ in range(PLAYERS)], deck[PLAYERS:]
    for trick, winner in enumerate(winners):
        piles[winner] += rest[4 * trick:4 * trick + 4]
    return deck[:PLAYERS], piles


def _blank(mode):
    return {"mode": mode, "target": None, "won": [], "counts": {}, "done": False}


class RoundMachine(CorrectionSteps, ReloadSteps, RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="orchard-round-machine-")
        self.app = make_app(Path(self.folder) / "orchard.db")
        self.phones = [self.app.test_client() for _ in range(PLAYERS)]
        table = Table(self.phones[0])
        table.start_crew()
        self.game_url = table.start_game(names=NAMES)
        self.game_id = int(self.game_url.rsplit("/", 1)[1])
        self.number = 0
        self.seen = [{} for _ in self.phones]  # what each phone last saw: poll, versions
        self.asked = None

    def teardown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    @initialize(deal=deals())
    def start(self, deal):
        self.targets, self.piles = deal
        self.hands = [_blank("quick") for _ in range(PLAYERS)]
        self.next_round(0)

    # --- The table as stored ------------------------------------------------------------------
    @property
    def url(self):
        return f"{self.game_url}/rounds/{self.number}"

    def stored(self):
        with self.app.app_context():
            entry = round_store.for_number(self.game_id, self.number)
            return entry, seat_store.claims(self.game_id)

    def device(self, phone):
        cookie = self.phones[phone].get_cookie("session")
        if cookie is None:
            return None
        serializer = self.app.session_interface.get_signing_serializer(self.app)
        return serializer.loads(cookie.value).get("device")

    def hidden(self, phone, entry, claims):
        """The seats whose hands this phone may not see: held by other phones, in play."""
        if entry is None or entry["status"] != round_store.OPEN or entry["is_correction"]:
            return set()
        me = self.device(phone)
        return {seat for seat, claim in claims.items() if claim["device"] != me}

    # --- Requests: never a 5xx, never a secret, the rest only where it belongs -----------------
    def send(self, phone, method, url, data=None, htmx=True, asked=None):
        client = self.phones[phone]
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.open(url, method=method, data=data, headers=headers)
        assert response.status_code < 500, (method, url, data, response.get_data(as_text=True)[-2000:])
        html = response.get_data(as_text=True)
        entry, claims = self.stored()
        hidden = self.hidden(phone, entry, claims)
        if entry is not None and entry["status"] == round_store.OPEN and html.strip():
            found = leaks(html, entry, hidden, NAMES, asked, strict=url.startswith(self.url))
            assert not found, (f"{NAMES[phone]}'s phone after {method} {url} {data}", found)
            found = rest_problems(html, entry, hidden, NAMES)
            assert not found, (f"{NAMES[phone]}'s phone after {method} {url} {data}", found)
        self.remember(phone, html)
        return response

    def remember(self, phone, html):
        if not html.strip():
            return
        seen = self.seen[phone]
        if poll_url(html):
            seen["poll"] = poll_url(html)
        if field_value(html, "version"):
            seen["version"] = field_value(html, "version")
        if select(html, "#step-check"):  # the check drawn: its box for the cards left out, or none
            boxes = select(html, 'input[name="singles"]')
            seen["singles"] = boxes[0].get("value") if boxes else None
        for field in select(html, "#hand-seat"):
            version = select(html, "#hand-version")
            if version and version[0].get("value"):
                seen[int(field.get("value"))] = version[0].get("value")

    def with_page(self, data, phone, seat, page):
        """A tap's form, saying which version of the hand it is based on: the one this phone saw
        last, the one stored, an old one, or none."""
        entry, _ = self.stored()
        if entry is not None:
            based_on = {"seen": self.seen[phone].get(seat), "fresh": entry["hands"][seat]["version"],
                        "old": 0, None: None}[page]
            if based_on is not None:
                data["based_on"] = based_on
        return data

    def tap(self, phone, seat, path, data, change, asked=None):
        """One tap on a hand; the model takes it only if the server did (200)."""
        if not self.open():
            return
        response = self.send(phone, "POST", f"{self.url}/hands/{seat}/{path}", data, asked=asked)
        if response.status_code == 200:
            before = dict(self.hands[seat], won=list(self.hands[seat]["won"]), counts=dict(self.hands[seat]["counts"]))
            change(self.hands[seat])
            if any(before[key] != self.hands[seat][key] for key in ("mode", "target", "won", "counts")):
                self.hands[seat]["done"] = False
        return response

    def open(self):
        entry, _ = self.stored()
        return entry is not None and entry["status"] == round_store.OPEN

    # --- Seats ------------------------------------------------------------------------------
    @rule(phone=phones, seat=seats, force=st.booleans())
    def take_seat(self, phone, seat, force):
        self.send(phone, "POST", f"{self.game_url}/seats/{seat}", {"force": "1"} if force else {})

    @rule(phone=phones)
    def leave_seat(self, phone):
        self.send(phone, "POST", f"{self.game_url}/seats/leave", {})

    @rule(sitting=st.sets(phones, min_size=1))
    def sit_down(self, sitting):
        """These phones take their players' seats (phone n is player n's), the others leave theirs."""
        for phone in range(PLAYERS):
            self.take_seat(phone, phone, True) if phone in sitting else self.leave_seat(phone)

    def holder(self, seat):
        """The phone holding `seat`, else Ann's (entering for the table), as a phone index."""
        _, claims = self.stored()
        device = claims[seat]["device"] if seat in claims else None
        return next((phone for phone in range(PLAYERS) if device and self.device(phone) == device), 0)

    # --- The round as a whole ---------------------------------------------------------------
    @rule(phone=phones, bidder=st.sampled_from(["", "0", "1", "2", "3"]),
          number=st.sampled_from(["", "1", "2", "13"]), suit=st.sampled_from(["", "S", "D"]))
    def bid(self, phone, bidder, number, suit):
        if self.open():
            self.send(phone, "POST", f"{self.url}/bid", {"bidder": bidder, "number": number, "suit": suit})

    @rule(phone=phones)
    def redeal(self, phone):
        if self.open():
            self.send(phone, "POST", f"{self.url}/redeal", {})

    @rule(phone=phones, page=st.sampled_from(["seen", "fresh", "old"]), tick=st.booleans())
    def save(self, phone, page, tick):
        """Save, with the box saying the cards left out are singles ticked (as the page this phone
        saw last drew it) or not."""
        if not self.open():
            return
        entry, claims = self.stored()
        waiting = [NAMES[s] for s in self.hidden(phone, entry, claims) if not entry["hands"][s]["done"]]
        version = {"seen": self.seen[phone].get("version"), "fresh": entry["version"], "old": 0}[page]
        form = {"version": version or 0}
        if tick and self.seen[phone].get("singles"):
            form["singles"] = self.seen[phone]["singles"]
        left_out = sum(round_left_out(entry).values())
        mine = next((seat for seat, claim in claims.items() if claim["device"] == self.device(phone)), None)
        agreed = seat_store.signoffs([entry["id"]], self.app_db()).get(entry["id"], set())
        changed = entry["is_correction"] and any(
            hand_score(hand) is None or hand_score(hand).total != was
            for hand, was in zip(entry["hands"], self.saved_scores))
        response = self.send(phone, "POST", f"{self.url}/save", form)
        saved = response.status_code == 303 or bool(response.headers.get("HX-Redirect"))  # htmx: no 303
        event(f"save {'of a correction' if entry['is_correction'] else 'of a round'}: {'saved' if saved else response.status_code}")
        if saved:
            assert not self.open()
            # A hand held on another phone is saved only once that phone said it is all in.
            assert not waiting, f"saved from {NAMES[phone]}'s phone while {waiting} entered in private"
            # Cards no entry held were saved as singles only as many as the phone confirmed.
            assert not left_out or form.get("singles") == str(left_out), (left_out, form)
            # A correction that moved a score was saved only with every other seated phone's agreement.
            if changed:
                missing = set(claims) - agreed - {mine}
                assert not missing, f"a correction saved by {NAMES[phone]}'s phone without {missing}"

    @rule(phone=phones)
    def next_round(self, phone):
        if self.open():
            return
        response = self.send(phone, "POST", f"{self.game_url}/rounds", {}, htmx=False)
        if response.status_code == 303 and "/rounds/" in response.headers["Location"]:
            self.number = int(response.headers["Location"].rsplit("/", 1)[1])
            self.hands = [_blank(hand["mode"]) for hand in self.hands]
            self.send(phone, "GET", self.url, htmx=False)

    # --- Reading: the page, a tab, the poll ---------------------------------------------------
    @rule(phone=phones, seat=st.one_of(st.none(), seats), htmx=st.booleans())
    def look(self, phone, seat, htmx):
        if seat is None:
            self.send(phone, "GET", self.url, htmx=htmx)
        elif htmx:
            self.send(phone, "GET", f"{self.url}/hands/{seat}")
        else:
            self.send(phone, "GET", f"{self.url}?seat={seat}", htmx=False)

    @rule(phone=phones, seat=st.one_of(st.none(), seats), stale=st.booleans())
    def poll(self, phone, seat, stale):
        url = self.seen[phone].get("poll")
        if url is None or f"/rounds/{self.number}/" not in url:
            return
        if stale:
            url = url.replace("?v=", "?v=0&old=")
        if seat is not None:
            url += f"&seat={seat}&based_on={self.seen[phone].get(seat, '')}"
        self.send(phone, "GET", url)

    # --- Taps on a hand -----------------------------------------------------------------------
    @rule(phone=phones, seat=seats, mode=modes)
    def mode(self, phone, seat, mode):
        def change(hand):
            if hand["mode"] == mode:
                return
            hand["counts"] = dict(Counter(code[:-1] for code in hand["won"])) if mode == "quick" else {}
            hand["won"], hand["mode"] = [], mode
        self.tap(phone, seat, "mode", {"mode": mode}, change)

    @rule(phone=phones, seat=seats, own=st.booleans(), other=st.sampled_from(CODES), page=pages)
    def target(self, phone, seat, own, other, page):
        code = self.targets[seat] if own else other
        data = self.with_page({"target": code}, phone, seat, page)
        self.tap(phone, seat, "target", data, lambda hand: hand.update(target=code), asked=code)

    @rule(phone=phones, seat=seats, pick=st.integers(0, 47), other=st.sampled_from(CODES),
          held=st.booleans(), page=pages)
    def card(self, phone, seat, pick, other, held, page):
        pile = self.piles[seat]
        self.tap_card(phone, seat, pile[pick % len(pile)] if pile and pick < 40 else other, held, page)

    def tap_card(self, phone, seat, code, held, page):
        def change(hand):
            if held and code not in hand["won"]:
                hand["won"].append(code)
            elif not held and code in hand["won"]:
                hand["won"].remove(code)
        data = {"held": "1"} if held else {}
        self.tap(phone, seat, f"cards/{code}", self.with_page(data, phone, seat, page), change, asked=code)

    @rule(phone=phones, seat=seats, rank=st.sampled_from(RANKS), count=st.integers(0, 4))
    def count(self, phone, seat, rank, count):
        def change(hand):
            hand["counts"] = {r: n for r, n in {**hand["counts"], rank: count}.items() if n}
        self.tap(phone, seat, f"counts/{rank}", {"count": count}, change)

    @rule(phone=phones, seat=seats, mode=modes, forget=st.integers(0, 8))
    def whole_hand(self, phone, seat, mode, forget):
        """One phone enters a whole hand as dealt, perhaps forgetting some of its cards."""
        self.mode(phone, seat, mode)
        pile = self.piles[seat][forget:] if forget < 8 else []
        if mode == "exact":
            for code in pile:
                self.tap_card(phone, seat, code, True, "seen")
        else:
            for rank, n in Counter(code[:-1] for code in pile).items():
                self.count(phone, seat, rank, n)
        self.target(phone, seat, True, self.targets[seat], "seen")

    @rule(mode=modes, short=seats, forget=st.integers(0, 8))
    def the_table_plays_on(self, mode, short, forget):
        """The bid, and every hand entered as dealt from the phone that holds it (Ann's phone
        enters the others), `short`'s without its first `forget` cards; each held hand all in."""
        if not self.open():
            return
        self.send(0, "POST", f"{self.url}/bid", {"bidder": "0", "number": "1", "suit": "C"})
        for seat in range(PLAYERS):
            self.whole_hand(self.holder(seat), seat, mode, forget if seat == short else 0)
        _, claims = self.stored()
        for seat in sorted(claims):
            self.all_in(self.holder(seat), seat, True)
        if self.open():  # then Save, on the page as it is now, its box ticked if it has one
            self.look(0, None, False)
            self.save(0, "seen", True)

    @rule(phone=phones, seat=seats)
    def the_rest(self, phone, seat):
        left = remaining({"hands": self.hands})
        self.tap(phone, seat, "remaining", {}, lambda hand: hand["won"].extend(left))

    @rule(phone=phones, seat=seats, done=st.booleans())
    def all_in(self, phone, seat, done):
        self.tap(phone, seat, "done", {"done": "1" if done else "0"}, lambda hand: hand.update(done=done))

    # --- After every step ---------------------------------------------------------------------
    @invariant()
    def the_stored_round_is_what_the_phones_entered(self):
        entry, _ = self.stored()
        if entry is None:
            return
        for seat, (hand, mine) in enumerate(zip(entry["hands"], self.hands)):
            stored = {"mode": hand["mode"], "target": hand["target"], "won": sorted(hand["won"]),
                      "counts": hand["counts"], "done": bool(hand["done"])}
            assert stored == {**mine, "won": sorted(mine["won"])}, (NAMES[seat], stored, mine)
        if entry["status"] == round_store.SCORED:
            # The engine passes the hands the phones entered, and scores them as saved.
            assert not round_problems(entry, NAMES)
            assert [hand["score"] for hand in entry["hands"]] == [hand_score(h).total for h in entry["hands"]]


def _run(examples, steps):
    run_state_machine_as_test(RoundMachine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))


def test_a_round_machine_small_run():
    """make check's short profile (about half the time it took at 15 × 30); make test runs the long one."""
    _run(examples=examples(8, check=4), steps=25)


@pytest.mark.fuzz
def test_a_round_machine_long_run():
    _run(examples=40, steps=50)
