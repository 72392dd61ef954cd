"""Ratings, records and the result card on a phone: the ladder, the records, and "Share result"
sharing the PNG card where the phone can share files and downloading it where it cannot."""
import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect

from app import create_app
from support.browser import assert_fits_phone, shoot, small_tap_targets
from support.known_history import build_known_history

NO_SHARE = "delete Navigator.prototype.share; delete navigator.share; delete Navigator.prototype.canShare;"
RECORD_SHARE = """
window.sharedFiles = [];
navigator.canShare = (data) => Boolean(data && data.files);
navigator.share = (data) => {
  window.sharedFiles.push(...data.files.map((f) => ({name: f.name, type: f.type, size: f.size})));
  return Promise.resolve();
};
"""


def seeded(server, tmp_path):
    """The known history, written into the served database through a second app on the same file."""
    app = create_app({"DATABASE": str(tmp_path / "orchard.db"), "SECRET_KEY": "seed", "WTF_CSRF_ENABLED": False})
    return server + build_known_history(app.test_client())


def check(page, name):
    assert_fits_phone(page)
    assert small_tap_targets(page) == []
    shoot(page, name)
    shoot(page, name, dark=True)


def test_share_result_downloads_the_card_without_the_web_share_api(page, server, tmp_path):
    page.add_init_script(NO_SHARE)
    crew = seeded(server, tmp_path)
    page.goto(crew + "history/games/1")
    with page.expect_download() as caught:
        page.get_by_role("link", name="Share result").tap()
    download = caught.value
    assert download.suggested_filename == "orchard-game-1.png"
    image = Image.open(io.BytesIO(Path(download.path()).read_bytes()))
    assert (image.format, image.size) == ("PNG", (1200, 630))
    expect(page.get_by_role("status").filter(has_text="Card downloaded.")).to_be_visible()
    check(page, "game-record-share")


def test_share_result_hands_the_png_to_the_share_sheet(page, server, tmp_path):
    page.add_init_script(RECORD_SHARE)
    crew = seeded(server, tmp_path)
    page.goto(crew + "history/games/2")
    page.get_by_role("link", name="Share result").tap()
    expect(page.get_by_role("status").filter(has_text="Shared.")).to_be_visible()
    shared = page.evaluate("window.sharedFiles")
    assert [(f["name"], f["type"]) for f in shared] == [("orchard-game-2.png", "image/png")]
    assert shared[0]["size"] > 1000


def test_the_ladder_and_the_records_on_a_phone(page, server, tmp_path):
    crew = seeded(server, tmp_path)
    page.goto(crew + "history")
    page.get_by_role("link", name="Ladder").click()
    expect(page.get_by_role("heading", name="Ladder")).to_be_visible()
    expect(page.locator(".ladder li").first).to_contain_text("still settling after")
    check(page, "ladder")
    page.goto(crew + "history")
    page.get_by_role("link", name="Records").click()
    expect(page.locator("#record-comeback")).to_contain_text("55 behind, Eve won")
    check(page, "records")
    page.locator("#record-comeback a").click()
    expect(page).to_have_url(crew + "games/2/rounds/2")
    page.goto(crew + "players/1")
    expect(page.get_by_text("Ann’s rating: about")).to_be_visible()
    check(page, "player-rating")
    page.goto(crew + "history/games/5")
    expect(page.get_by_text("Rating changes from this game: Ann +")).to_be_visible()
    check(page, "game-record-rating-changes")
