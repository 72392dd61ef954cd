"""The crew's share link and QR code point where the other phones can reach: the public URL when
one is set, the LAN address the server printed, and a warning when only this device could open it."""
from urllib.parse import urlsplit

import segno
import pytest

from app import create_app
from settings import SettingError, read as read_setting
from web.share_links import server_address, startup_message
from support.html_text import attribute, element_text
from support.loopback import Phone, ServerProcess
from support.table import Table

TOKEN_PATH = "/c/"


def crew_app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "orchard.db"),
                       "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, **config})


def open_crew(app, base_url):
    """Start a crew and open its page as a browser that reached the server at `base_url`."""
    client = app.test_client()
    crew_path = Table(client).start_crew()
    crew_path = crew_path[crew_path.index(TOKEN_PATH):]
    return crew_path, client.get(crew_path, base_url=base_url).get_data(as_text=True)


def qr_of(link):
    """The modules of the QR code for `link` (the path that draws its dark squares)."""
    svg = segno.make(link, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True)
    modules = attribute(svg, "path.qrline", "d")
    assert modules, svg
    return modules


def test_opened_through_127_0_0_1_with_a_public_url_the_qr_and_link_are_the_public_ones(tmp_path):
    app = crew_app(tmp_path, PUBLIC_URL=read_setting("ORCHARD_PUBLIC_URL", {"ORCHARD_PUBLIC_URL": "https://orchard.example.org/"}))
    crew_path, page = open_crew(app, "http://127.0.0.1:5000/")
    link = "https://orchard.example.org" + crew_path
    assert element_text(page, ".crew-url") == link
    assert attribute(page, ".qr path.qrline", "d") == qr_of(link)
    assert element_text(page, "#link-warning") is None


def test_the_scoreboard_draws_no_qr_code_and_its_table_link_code_is_an_image_of_the_link(tmp_path, monkeypatch):
    """bench/load.py: each scoreboard drew its table link's QR code (5-15 ms in each server process,
    and on every scoreboard past the 256 codes kept), folded away where nobody looked. The page now
    names an image that is drawn when asked for, and that image is the table link's code."""
    from web import share_links
    share_links.qr_svg.cache_clear()
    drawn = []
    make = share_links.segno.make
    monkeypatch.setattr(share_links.segno, "make", lambda *a, **k: drawn.append(a[0]) or make(*a, **k))
    app = crew_app(tmp_path, PUBLIC_URL="https://orchard.example.org")
    client = app.test_client()
    game = Table(client).start_game()
    page = client.get(game).get_data(as_text=True)
    link = attribute(page, ".table-link .qr", "data-link")
    assert link.startswith("https://orchard.example.org/c/") and drawn == []
    image = client.get(attribute(page, ".table-link .qr img", "src"))
    assert image.status_code == 200 and image.mimetype == "image/svg+xml" and drawn == [link]
    svg = image.get_data(as_text=True)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert attribute(svg, "path.qrline", "d") == qr_of(link)
    # Its own table link's phone gets the same code; once the game is over there is none to show
    # (and the page that named it asked for no guess: no 404).
    table_token = urlsplit(link).path.split("/")[2]
    assert client.get(f"/c/{table_token}/games/{game.rsplit('/', 1)[1]}/table-link.svg").get_data() == image.get_data()
    client.post(game.split("/games/")[0] + f"/history/games/{game.rsplit('/', 1)[1]}/abandon")
    assert client.get(attribute(page, ".table-link .qr img", "src")).status_code == 204


@pytest.mark.parametrize("base_url", ["http://127.0.0.1:5000/", "http://localhost:5000/", "http://[::1]:5000/"])
def test_opened_through_loopback_without_a_public_url_the_page_warns(tmp_path, base_url):
    crew_path, page = open_crew(crew_app(tmp_path), base_url)
    assert element_text(page, "#link-warning").startswith("This link only works on this device.")
    assert element_text(page, ".crew-url") == base_url.rstrip("/") + crew_path


def test_opened_through_loopback_the_link_uses_the_address_the_server_printed(tmp_path):
    crew_path, page = open_crew(crew_app(tmp_path, LAN_URL="http://192.168.1.20:5000"), "http://127.0.0.1:5000/")
    link = "http://192.168.1.20:5000" + crew_path
    assert element_text(page, ".crew-url") == link
    assert attribute(page, ".qr path.qrline", "d") == qr_of(link)
    assert element_text(page, "#link-warning") is None


def test_opened_through_a_lan_address_the_link_is_that_address(tmp_path):
    crew_path, page = open_crew(crew_app(tmp_path), "http://192.168.1.20:5000/")
    assert element_text(page, ".crew-url") == "http://192.168.1.20:5000" + crew_path
    assert element_text(page, "#link-warning") is None


@pytest.mark.parametrize("value", ["orchard.example.org", "ftp://orchard.example.org", "https://", "https://x.org/?a=1"])
def test_a_public_url_that_is_not_an_address_stops_the_start_with_a_clear_message(value):
    with pytest.raises(SettingError, match="ORCHARD_PUBLIC_URL must be an address such as"):
        read_setting("ORCHARD_PUBLIC_URL", {"ORCHARD_PUBLIC_URL": value})


@pytest.mark.parametrize("host, printed, this_device_only", [
    ("0.0.0.0", "http://192.168.1.20:5000", False),
    ("", "http://192.168.1.20:5000", False),
    ("127.0.0.1", "http://127.0.0.1:5000", True),
    ("::1", "http://[::1]:5000", True),
    ("10.0.0.7", "http://10.0.0.7:5000", False),
])
def test_the_server_prints_the_address_it_can_be_reached_at(host, printed, this_device_only):
    address = server_address(host, 5000, lan=lambda: "192.168.1.20")
    assert (address.url, address.this_device_only) == (printed, this_device_only)


def test_listening_on_all_interfaces_without_a_network_the_address_is_this_device_only():
    assert server_address("0.0.0.0", 5000, lan=lambda: "127.0.0.1").this_device_only


def test_startup_message_says_a_loopback_address_works_only_on_this_device():
    message = startup_message(server_address("127.0.0.1", 5000))
    assert message.startswith("Orchard is up at http://127.0.0.1:5000/ but only this device can open it")


@pytest.mark.slow
def test_orchard_serve_on_127_0_0_1_prints_that_and_the_crew_page_warns(tmp_path):
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        server = ServerProcess(tmp_path / "orchard.db", log=log).start()
        try:
            phone = Phone(server.base)
            crew_path = phone.start_crew()
            page = phone.get(crew_path).body
        finally:
            server.stop()
    first_line = log_path.read_text().splitlines()[0]
    assert first_line.startswith(f"Orchard is up at {server.base}/ but only this device can open it")
    assert element_text(page, "#link-warning").startswith("This link only works on this device.")
