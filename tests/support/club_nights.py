"""What the club night tests share: nine players, four hands scored by hand, a night of them
started over HTTP, and ways to read it back."""
import pytest

from services import club_nights as night_service
from store import crews as crew_store
from support.html_text import select, text
from support.rounds import save_quick_round

NINE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]

# Four hands a round can deal out, scored by hand from the rule book (docs/RULES.md section 2):
# target A with two more Aces won is three of the target's rank, 40; target K with one K won is a
# pair of Kings, 10; target 9 with one 9 won is a pair of 9s, 5; target 2 alone is a single, 0.
HANDS = [("AS", {"A": 2}, 40), ("KS", {"K": 1}, 10), ("9S", {"9": 1}, 5), ("2S", {}, 0)]


def new_night(client, crew, names=NINE, stage_hands="2", ranking="total", format="hands", seating="mixed"):
    return client.post(crew + "club-nights", data={"name": "Friday club", "names": "\n".join(names), "format": format,
                                                  "stage_hands": stage_hands, "ranking": ranking, "seating": seating})


@pytest.fixture
def night(client, crew):
    response = new_night(client, crew)
    assert response.status_code == 303, text(response)
    return response.headers["Location"]


def night_of(app, night_url):
    token, night_id = night_url.split("/c/")[1].split("/club-nights/")
    with app.app_context():
        crew = crew_store.crew_by_token(token)
        found = night_service.find(crew["id"], int(night_id))
        return found, night_service.stages(found)


def names_by_id(night):
    return {player["id"]: player["name"] for player in night["players"]}


def night_version(client, night_url):
    """The night's version as its page carries it (the swap form's hidden field)."""
    return select(client.get(night_url), ".swap-form input[name=version]")[0].get("value")


def board(client, night_url):
    """The leaderboard as the night page shows it: name -> (place, points, hands)."""
    page = client.get(night_url)
    rows = select(page, "#leaderboard tbody tr")
    return {row.get("data-player"): (int(row.cssselect(".place")[0].text_content()),
                                     int(row.cssselect(".points")[0].text_content().replace("−", "-")),
                                     int(row.cssselect(".hands")[0].text_content())) for row in rows}


def play_round(app, crew, game_id, order):
    """Save one round at a table: seat s gets hand HANDS[order[s]]; returns the seats' scores."""
    targets = [HANDS[k][0] for k in order]
    counts = [HANDS[k][1] for k in order]
    save_quick_round(app, f"{crew.rstrip('/')}/games/{game_id}", targets, counts)
    return [HANDS[k][2] for k in order]
