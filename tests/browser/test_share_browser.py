"""The crew page's Copy and Share buttons, tapped on a phone, and its QR code in the middle."""
from playwright.sync_api import expect

from support.browser import assert_fits_phone, shoot, small_tap_targets

RECORD_SHARE = """
window.sharedWith = [];
navigator.share = (data) => { window.sharedWith.push(data); return Promise.resolve(); };
"""
NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"


def crew_link(page):
    return page.locator(".crew-url code").inner_text()


def test_copy_puts_the_crew_link_on_the_clipboard(page, phone, orchard, server):
    phone.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.add_init_script(NO_SHARE)
    orchard.start_crew("Copy crew")
    expect(page.get_by_role("button", name="Share…")).to_be_hidden()
    page.get_by_role("button", name="Copy link").tap()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == crew_link(page)


def test_share_opens_the_phone_share_sheet_with_the_crew_link(page, orchard):
    page.add_init_script(RECORD_SHARE)
    orchard.start_crew("Share crew")
    page.get_by_role("button", name="Share…").tap()
    expect(page.get_by_role("status").filter(has_text="Shared")).to_be_visible()
    shared = page.evaluate("window.sharedWith")
    assert [entry["url"] for entry in shared] == [crew_link(page)]
    assert shared[0]["title"] == "Share crew · Orchard"


def test_the_qr_code_sits_in_the_middle_of_its_box_and_the_page_fits_a_phone(page, orchard):
    orchard.start_crew("QR crew")
    box = page.locator(".qr").bounding_box()
    code = page.locator(".qr svg g").bounding_box()
    left, right = code["x"] - box["x"], box["x"] + box["width"] - code["x"] - code["width"]
    top, bottom = code["y"] - box["y"], box["y"] + box["height"] - code["y"] - code["height"]
    assert abs(left - right) <= 1 and abs(top - bottom) <= 1, (left, right, top, bottom)
    assert page.locator(".qr").evaluate("el => el.closest('main').getBoundingClientRect().width") > box["width"]
    assert_fits_phone(page)
    assert small_tap_targets(page) == []
    # Served from 127.0.0.1 with no public URL: the warning shows above the code.
    expect(page.get_by_text("This link only works on this device.")).to_be_visible()
    page.locator(".join").scroll_into_view_if_needed()
    shoot(page, "crew-share")
    shoot(page, "crew-share", dark=True)
