"""The round machine's steps for taps held offline (tests/test_round_machine.py, issue 43 item 5):
a phone's taps made without a connection are kept as static/app.js keeps them (one per control, the
latest values, the hand version the page had), and a reload sends them again in the order they were
made, as the next page's first act. A tap whose answer was lost is sent a second time, and must
change nothing then. After every step the machine's invariant holds: the stored round is what the
phones' accepted taps entered, so no tap sent again is lost or counted twice."""
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from scoring import PLAYERS, RANKS

phones = st.integers(0, PLAYERS - 1)
seats = st.integers(0, PLAYERS - 1)


def _hands_as_stored(entry):
    return [(h["mode"], h["target"], sorted(h["won"]), h["counts"], h["version"]) for h in entry["hands"]]


class ReloadSteps:
    """Rules mixed into the round machine (it provides stored, send, tap, with_page, look, open)."""

    def held(self, phone):
        if not hasattr(self, "unsent"):
            self.unsent, self.made = [{} for _ in range(PLAYERS)], 0
        return self.unsent[phone]

    def hold(self, phone, seat, path, data, change, asked=None):
        """A tap made offline: written down under its control's address, the latest one kept."""
        if not self.open():
            return
        self.held(phone)
        self.made += 1
        self.held(phone)[f"{seat}/{path}"] = (self.made, seat, path, data, change, asked)

    @rule(phone=phones, seat=seats, rank=st.sampled_from(RANKS), count=st.integers(0, 4))
    def count_offline(self, phone, seat, rank, count):
        def change(hand):
            hand["counts"] = {r: n for r, n in {**hand["counts"], rank: count}.items() if n}
        self.hold(phone, seat, f"counts/{rank}", self.with_page({"count": count}, phone, seat, "seen"), change)

    @rule(phone=phones, seat=seats, pick=st.integers(0, 47), held=st.booleans())
    def card_offline(self, phone, seat, pick, held):
        pile = self.piles[seat]
        code = pile[pick % len(pile)] if pile else self.targets[seat]

        def change(hand):
            if held and code not in hand["won"]:
                hand["won"].append(code)
            elif not held and code in hand["won"]:
                hand["won"].remove(code)
        data = {"held": "1"} if held else {}
        self.hold(phone, seat, f"cards/{code}", self.with_page(data, phone, seat, "seen"), change, asked=code)

    @rule(phone=phones, seat=seats)
    def target_offline(self, phone, seat):
        code = self.targets[seat]
        self.hold(phone, seat, "target", self.with_page({"target": code}, phone, seat, "seen"),
                  lambda hand: hand.update(target=code), asked=code)

    @precondition(lambda self: any(getattr(self, "unsent", ())))
    @rule(data=st.data(), answers_lost=st.booleans())
    def reload(self, data, answers_lost):
        """A phone holding taps loads its page again and sends them, oldest first; with
        `answers_lost` each answer is lost on the way back, so the tap stays written down and goes
        once more."""
        phone = data.draw(st.sampled_from([p for p in range(PLAYERS) if self.unsent[p]]), label="phone")
        taps = sorted(self.held(phone).values(), key=lambda tap: tap[0])
        self.unsent[phone] = {}
        self.look(phone, None, False)
        for _, seat, path, data, change, asked in taps:
            response = self.tap(phone, seat, path, dict(data), change, asked=asked)
            if response is None:  # the round was saved meanwhile: its page says so, nothing to enter
                continue
            assert response.status_code in (200, 403, 409, 422), (path, response.status_code)
            event(f"a held tap sent again: {response.status_code}")
            if answers_lost and response.status_code == 200:
                before = _hands_as_stored(self.stored()[0])
                again = self.send(phone, "POST", f"{self.url}/hands/{seat}/{path}", dict(data), asked=asked)
                assert again.status_code == 200, (path, again.get_data(as_text=True)[-500:])
                assert _hands_as_stored(self.stored()[0]) == before, f"{path} sent twice changed the hand"
                event("a held tap sent twice")
