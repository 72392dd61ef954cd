"""The club night machine's steps for phones that follow their player (issue 44, items 1 and 3): a
player's phone takes a seat at a table of a night by the table's code, or checks in at the night's
door by its door code (a name of the crew tapped, or a new one typed), and the organiser undoes a
check-in; after every step each such phone's box on the night's board says what the stored stages
say of the player it last sat or checked in for (worked out here on its own from the stages), its
"Open table" link opens a table that seats that player and no other's, and a phone that never sat
(the big screen) sees no box. The door's page never shows the crew's own link."""
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
        codes = [urlsplit(q.get("data-link")).path for q in select(page, ".night-table .qr[data-link]")]
        code = next((c for c in codes if c.endswith(f"/games/{games[pick % len(games)]['game_id']}")), None)
        if code is None:
            return
        answer = self.follow_phones()[phone].post(f"{code}/seats/{seat}")
        assert answer.status_code < 500, answer.status_code

    @rule(k=st.integers(0, 1), phone=st.integers(0, PHONES - 1), pick=st.integers(0, 30), new=st.booleans())
    def a_player_checks_in_at_the_door(self, k, phone, pick, new):
        codes = select(self.get(self.nights[k]), ".door-code .qr[data-link]")
        if not codes:  # a finished night shows no door code
            return
        door = urlsplit(codes[0].get("data-link")).path
        client = self.follow_phones()[phone]
        page = client.get(door)
        assert page.status_code == 200 and self.token not in page.get_data(as_text=True)
        names = [button.get("value") for button in select(page, ".door-names button")]
        if new or not names:
            self.arrivals += 1
            form = {"name": f"Door {self.arrivals}"}
        else:
            form = {"pick": names[pick % len(names)]}
        answer = client.post(door, data=form)
        assert answer.status_code in (303, 409, 422), answer.status_code

    @rule(k=st.integers(0, 1), pick=st.integers(0, 30))
    def the_organiser_undoes_a_check_in(self, k, pick):
        page = self.get(self.nights[k])
        undos = [form.get("action") for form in select(page, "form[action$='/door-undo']")]
        if not undos:
            return
        before, _ = night_of(self.app, self.nights[k])
        answer = self.post(undos[pick % len(undos)])
        assert answer.status_code == 303, answer.status_code
        after, _ = night_of(self.app, self.nights[k])
        assert len(after["players"]) <= len(before["players"])

    def _player_of(self, k, phone):
        """The player whose seat at one of night k's tables the phone took last, or who it checked
        in as at the night's door later, as stored."""
        client = self.follow_phones()[phone]
        with client.session_transaction() as session:
            device = session.get("device")
        night, _ = night_of(self.app, self.nights[k])
        db = connect(self.app.config["DATABASE"])
        sat = db.execute(
            "SELECT seats.player_id, seat_claims.claimed FROM seat_claims"
            " JOIN club_night_tables AS t ON t.game_id = seat_claims.game_id"
            " JOIN seats ON seats.game_id = t.game_id AND seats.seat = seat_claims.seat"
            " WHERE t.night_id = ? AND seat_claims.device = ? ORDER BY seat_claims.claimed DESC LIMIT 1",
            [night["id"], device]).fetchone() if device else None
        door = db.execute("SELECT player_id, at FROM door_check_ins WHERE night_id = ? AND device = ?",
                          [night["id"], device]).fetchone() if device else None
        found = max((row for row in (sat, door) if row), key=lambda row: row[1], default=None)
        return found and found[0]

    def _expected(self, k, player_id):
        """What the box says, from the stored stages: (its words, the game its link opens or None)."""
        night, stages = night_of(self.app, self.nights[k])
        listed = {p["id"]: p["name"] for p in night["players"]}
        if player_id not in listed or night["finished"]:
            return None, None
        name = listed[player_id]
        waiting = f"{name}, you are on tonight's list. Your table shows here as soon as a stage is drawn with you in it."
        if not stages:
            return waiting, None
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
        if place is None:
            return waiting, None
        if stage["status"] == "planned" and place["table_no"] is not None:
            return (f"Stage {stage['number']} is drawn: {name}, you are at table {place['table_no']}, seat "
                    f"{place['seat'] + 1}, unless the organiser changes it. Your table opens here when the stage "
                    "starts."), None
        return (f"Stage {stage['number']}: {name}, you sit this stage out. Your next table shows here once the "
                "next stage is drawn."), None

    @invariant()
    def each_phone_is_told_where_its_own_player_sits(self):
        if not hasattr(self, "_follow"):
            return
        cookies = tuple(getattr(client.get_cookie("session"), "value", None) for client in self._follow)
        if not self.commits.changed("follow", self.now, cookies):
            return  # the same stored night, clock and phones: the same boxes
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
