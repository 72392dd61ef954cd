"""History shows times in the phone's own time zone, not the server's."""
import datetime
from zoneinfo import ZoneInfo

import pytest

from support.browser import Orchard, new_phone, close_phone

PHONE_ZONE = "Pacific/Auckland"  # 12 or 13 hours from the UTC the stamps are stored in


@pytest.fixture
def far_away_page(browser, server):
    context = new_phone(browser, timezone_id=PHONE_ZONE, locale="en-GB")
    yield context.new_page()
    close_phone(context)


def test_a_game_start_time_in_history_is_the_phones_local_time(far_away_page, server):
    page = far_away_page
    orchard = Orchard(page, server)
    orchard.start_crew("Far crew")
    crew_url = page.url
    orchard.start_game()
    page.goto(crew_url + "history")
    shown = page.locator("time[data-local=clock]").first
    stamp = datetime.datetime.fromisoformat(shown.get_attribute("datetime"))
    assert shown.inner_text() == f"{stamp.astimezone(ZoneInfo(PHONE_ZONE)):%H:%M}"
    assert shown.inner_text() != f"{stamp.astimezone(datetime.timezone.utc):%H:%M}"


def test_a_rounds_change_history_is_in_the_phones_local_day_and_time(far_away_page, server):
    page = far_away_page
    orchard = Orchard(page, server)
    orchard.start_crew("Far crew")
    orchard.start_game()
    orchard.enter_round_one()
    orchard.save(1)
    orchard.round_rows().nth(0).locator("th a").click()
    page.locator("details.history summary").click()
    shown = page.locator("details.history time[data-local=datetime]").first
    stamp = datetime.datetime.fromisoformat(shown.get_attribute("datetime")).astimezone(ZoneInfo(PHONE_ZONE))
    assert shown.inner_text().replace(",", "") == f"{stamp.day} {stamp:%b %H:%M}"  # en-GB: "12 Mar, 19:30"
    assert "UTC" not in page.locator("details.history").inner_text()
    assert page.locator("details.history li").first.inner_text().endswith("· started · by the table's shared phone")
