"""The round machine's steps on corrections (tests/test_round_machine.py): open one, agree to it
from the seated phones, save or drop it. Its hands, pre-filled from the saved round, become the
model's when it opens; the machine's save step checks that a correction that moved a score was
saved only with every other seated phone's agreement."""
from hypothesis import strategies as st
from hypothesis.stateful import rule

from scoring import PLAYERS
from store import connect
from store import rounds as round_store

phones = st.integers(0, PLAYERS - 1)
seats = st.integers(0, PLAYERS - 1)


def _model(hands):
    return [{"mode": h["mode"], "target": h["target"], "won": list(h["won"]),
             "counts": dict(h["counts"]), "done": bool(h["done"])} for h in hands]


class CorrectionSteps:
    """Rules mixed into the round machine (it provides stored, send, open, holder, look, save)."""

    saved_scores = ()

    def app_db(self):
        return connect(self.app.config["DATABASE"])

    @rule(phone=phones)
    def correct(self, phone):
        """Open a correction of the round last saved: its hands, pre-filled, are the model's now."""
        if self.open() or not self.number:
            return
        response = self.send(phone, "POST", f"{self.url}/correct", {})
        if response.status_code in (200, 303) and self.open():
            entry, _ = self.stored()
            saved = [row for row in round_store.scored(self.game_id, self.app_db()) if row["number"] == self.number]
            self.saved_scores = [h["score"] for h in round_store.load(saved[0]["id"], self.app_db())["hands"]]
            self.hands = _model(entry["hands"])

    @rule(phone=phones, page=st.sampled_from(["seen", "fresh", "old"]))
    def agree_to_correction(self, phone, page):
        entry, _ = self.stored()
        if entry is None or not entry["is_correction"]:
            return
        version = {"seen": self.seen[phone].get("version"), "fresh": entry["version"], "old": 0}[page]
        self.send(phone, "POST", f"{self.url}/agree-correction", {"version": version or 0})

    @rule(saver=phones, skip=st.one_of(st.none(), seats))
    def the_table_agrees_and_saves(self, saver, skip):
        """Every seated phone but `skip`'s agrees to the correction as it stands, then `saver` saves it."""
        entry, claims = self.stored()
        if entry is None or not entry["is_correction"]:
            return
        for seat in sorted(claims):
            if seat != skip:
                self.agree_to_correction(self.holder(seat), "fresh")
        self.look(saver, None, False)
        self.save(saver, "seen", True)

    @rule(phone=phones)
    def drop_correction(self, phone):
        entry, _ = self.stored()
        if entry is not None and entry["is_correction"]:
            self.send(phone, "POST", f"{self.url}/discard", {})
            if not self.open():
                saved = round_store.load(round_store.for_number(self.game_id, self.number, self.app_db())["id"], self.app_db())
                self.hands = _model(saved["hands"])
