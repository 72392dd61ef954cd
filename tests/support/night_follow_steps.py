"""The club night machine's steps for phones that follow their player (issue 44, item 1): a player's
phone takes a seat at a table of a night by the table's code; after every step each such phone's
box on the night's board says what the stored stages say of the player it last sat for (worked out
here on its own from the stages), its "Open table" link opens a table that seats that player and no
other's, and a phone that never sat (the big screen) sees no box."""
from urllib.parse import urlsplit

from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from store import connect
from support.club_nights import night_of
from support.html_text import select

PHONES = 3  # player phones at the venue


class NightFollowSteps:
    """Rules mixed into the club night machine (it provides app, client, nights, get, playing_games)."""

    def follow_phones(self):
        if not hasattr(self, "_follow"):
            self._follow = [self.app.test_client() for _ in range(PHONES)]
            self._big_screen = self.app.test_client()
        return self._follow

    @rule(k=st.integers(0, 1), phone=st.integers(0, PHONES - 1), pick=st.integers(0, 3), seat=st.integers(0, 3))
    def a_player_sits_down_by_the_tables_code(self, k, phone, pick, seat):
        games = self.playing_games(k)
        if not games:
            return
        page = self.get(self.nights[k])
        codes = [urlsplit(q.get("data-link")).path for q in select(page, ".qr[data-link]")]
        code = next((c for c in codes if c.endswith(f"/games/{games[pick % len(games)]['game_id']}")), None)
        if code is None:
            return
        answer = self.follow_phones()[phone].post(f"{code}/seats/{seat}")
        assert answer.status_code < 500, answer.status_code

    def _player_of(self, k, phone):
        """The player whose seat at one of night k's tables the phone took last, as stored."""
        client = self.follow_phones()[phone]
        with client.session_transaction() as session:
            device = session.get("device")
        night, _ = night_of(self.app, self.nights[k])
        row = connect(self.app.config["DATABASE"]).execute(
            "SELECT seats.player_id FROM seat_claims JOIN club_night_tables AS t ON t.game_id = seat_claims.game_id"
            " JOIN seats ON seats.game_id = t.game_id AND seats.seat = seat_claims.seat"
            " WHERE t.night_id = ? AND seat_claims.device = ? ORDER BY seat_claims.claimed DESC LIMIT 1",
            [night["id"], device]).fetchone() if device else None
        return row and row[0]

    def _expected(self, k, player_id):
        """What the box says, from the stored stages: (its words, the game its link opens or None)."""
        night, stages = night_of(self.app, self.nights[k])
        if player_id is None or night["finished"] or not stages:
            return None, None
        name = {p["id"]: p["name"] for p in night["players"]}[player_id]
        stage = stages[-1]
        for table_no, table in sorted(stage["tables"].items()):
            if player_id in table["players"] and table["status"] == "playing":
                seat = table["players"].index(player_id) + 1
                return (f"Stage {stage['number']}: {name}, you are at table {table_no}, seat {seat}. "
                        f"Open table {table_no}"), table["game_id"]
        if not {p["id"]: p["here"] for p in night["players"]}[player_id]:
            return (f"{name}, you are not on tonight's list of who is here, so no stage seats you: the organiser "
                    "can bring you back."), None
        if any(player_id in table["players"] for table in stage["tables"].values()):
            return (f"{name}, your table of stage {stage['number']} has finished. Your next table shows "
                    "here once the next stage is drawn."), None
        place = next((p for p in stage["places"] if p["player_id"] == player_id), None)
        if stage["status"] == "planned" and place and place["table_no"] is not None:
            return (f"Stage {stage['number']} is drawn: {name}, you are at table {place['table_no']}, seat "
                    f"{place['seat'] + 1}, unless the organiser changes it. Your table opens here when the stage "
                    "starts."), None
        return (f"Stage {stage['number']}: {name}, you sit this stage out. Your next table shows here once the "
                "next stage is drawn."), None

    @invariant()
    def each_phone_is_told_where_its_own_player_sits(self):
        if not hasattr(self, "_follow"):
            return
        for k, night in enumerate(self.nights):
            for phone, client in enumerate(self.follow_phones()):
                words, game_id = self._expected(k, self._player_of(k, phone))
                boxes = select(client.get(night + "/board"), "#my-table")
                said = " ".join(boxes[0].text_content().split()) if boxes else None
                assert said == words, (k, phone, said, words)
                links = [urlsplit(a.get("href")).path for a in boxes[0].cssselect("a")] if boxes else []
                assert links == ([] if game_id is None else [links[0]]) and all(
                    link.endswith(f"/games/{game_id}") for link in links), (links, game_id)
            assert not select(self._big_screen.get(night + "/board"), "#my-table")
