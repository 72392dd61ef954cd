"""The club night machine's steps for the links it hands out (tests/test_club_night_machine.py,
issue 44 item 2): a phone at a table polls its table's code (the table's scoreboard, round and
live poll) whether the table still plays, its game is over or its link was replaced; the organiser
replaces a table's link on the crew page. After every step: nothing the app itself gave out was
answered 404, and the phone's address has no guess counted."""
from urllib.parse import urlsplit

from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from store import rounds as round_store
from support.html_text import select

PHONE = {"REMOTE_ADDR": "10.0.0.44"}  # the table phones' address, apart from the organiser's


class NightLinkSteps:
    """Rules mixed into the club night machine (it provides app, client, crew, nights, get)."""

    def codes(self):
        """Every table code seen, in the order the pages showed them (never by the tokens, which are
        random: a replayed example must pick the same code)."""
        if not hasattr(self, "_codes"):
            self._codes, self.phone = {}, self.app.test_client()  # code -> replaced?
        return self._codes

    def look_at_codes(self, k):
        """The codes the night's page shows now (its current stage's tables), kept for later."""
        page = self.get(self.nights[k])
        for q in select(page, ".night-table .qr[data-link]"):
            self.codes().setdefault(urlsplit(q.get("data-link")).path, False)

    @rule(k=st.integers(0, 1), pick=st.integers(0, 40), poll=st.sampled_from(["", "/live?v=1", "/rounds/1/live?v=1"]))
    def a_table_phone_polls(self, k, pick, poll):
        self.look_at_codes(k)
        codes = list(self.codes())
        if not codes:
            return
        code = codes[pick % len(codes)]
        if poll.startswith("/rounds/") and not self.has_a_round(int(code.rsplit("/", 1)[1])):
            poll = ""  # no phone is on a round page its table never opened
        response = self.phone.get(code + poll, headers={"HX-Request": "true"} if poll else {}, environ_base=PHONE)
        assert response.status_code < 500, (code + poll, response.status_code)
        assert response.status_code != 404, f"{code + poll}: a link the app gave out answered as a guess"
        if self.codes()[code]:  # replaced
            assert response.status_code == 410

    def has_a_round(self, game_id):
        with self.app.app_context():
            return round_store.for_number(game_id, 1) is not None

    @rule(k=st.integers(0, 1), pick=st.integers(0, 40))
    def replace_a_table_link(self, k, pick):
        self.look_at_codes(k)
        rows = [row for row in select(self.get(self.crew), "#links li")
                if "Table link" in row.text_content() and row.cssselect("form")]
        if not rows:
            return
        row = rows[pick % len(rows)]
        old = [code for code in self.codes() if code.split("/")[2] in row.text_content()]
        assert self.post(row.cssselect("form")[0].get("action")).status_code == 303
        for code in old:
            self.codes()[code] = True

    @invariant()
    def no_guess_was_counted_for_a_link_the_app_gave_out(self):
        counter = self.app.extensions["orchard_limits"].counter
        with self.app.app_context():
            assert counter.count("GUESS_LIMIT", PHONE["REMOTE_ADDR"], 60) == 0
