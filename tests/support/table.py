"""Steps a table takes again and again through HTTP: a crew, a game, rounds entered and saved."""
from support.html_text import field_value, save_fields
from support.rounds import save_quick_round

# What the new game form sends when the house rules are left as they are.
GAME_DEFAULTS = {"tie_rule": "play-on", "min_bid": "1", "redeal_moves_deal": "no"}


class Table:
    """Steps a table takes again and again: a crew, a game, rounds entered through HTTP."""

    names = ("Ann", "Ben", "Cleo", "Dan")

    def __init__(self, client):
        self.client = client
        self.crew_url = None
        self.game_url = None

    def start_crew(self, name="Thursday crew"):
        response = self.client.post("/crews", data={"name": name})
        assert response.status_code == 303
        self.crew_url = response.headers["Location"]
        return self.crew_url

    def start_game(self, names=None, first_dealer=0, goal="250", goal_other=""):
        if self.crew_url is None:
            self.start_crew()
        data = {f"player_{seat}": name for seat, name in enumerate(names or self.names)}
        data.update(GAME_DEFAULTS, first_dealer=str(first_dealer), goal=goal, goal_other=goal_other)
        response = self.client.post(self.crew_url + "games", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.game_url = response.headers["Location"]
        return self.game_url

    def start_round(self):
        response = self.client.post(self.game_url + "/rounds")
        assert response.status_code == 303
        return response.headers["Location"]

    def version(self, round_url):
        return int(field_value(self.client.get(round_url), "version"))

    def save_form(self, round_url):
        """What the round page's Save button sends (support.html_text.save_fields)."""
        return save_fields(self.client.get(round_url))

    def enter_quick_round(self, targets, counts, bid=("0", "1", "D"), save=True):
        """Enter a round in quick mode: targets per seat, {rank: count} per seat."""
        url = self.start_round()
        seat, number, suit = bid
        self.client.post(url + "/bid", data={"bidder": seat, "number": number, "suit": suit})
        for s, target in enumerate(targets):
            assert self.client.post(url + f"/hands/{s}/target", data={"target": target}).status_code == 200
        for s, pile in enumerate(counts):
            for rank, n in pile.items():
                response = self.client.post(url + f"/hands/{s}/counts/{rank}", data={"count": n})
                assert response.status_code == 200, response.get_data(as_text=True)
        if save:
            response = self.client.post(url + "/save", data=self.save_form(url))
            assert response.status_code == 303, response.get_data(as_text=True)
            self.saved_to = response.headers["Location"]  # the scoreboard the save opens
        return url

    def save_quick_round(self, targets, counts, bid=("0", "1", "D")):
        """A saved round for tests that need one but do not test entering it: saved through the
        round service, without the ~30 taps of `enter_quick_round`. Returns the round's URL."""
        return save_quick_round(self.client.application, self.game_url, targets, counts, bid)
