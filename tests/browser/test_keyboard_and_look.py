"""Keyboard users and dim tables: a skip link, a focus ring you can see, and a calm dark header."""
from playwright.sync_api import expect

from support.browser import assert_fits_phone, shoot, small_tap_targets


def relative_luminance(css_colour):
    """WCAG relative luminance of an "rgb(r, g, b)" colour."""
    channels = [int(part) / 255 for part in css_colour[css_colour.index("(") + 1:-1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_the_first_tab_offers_a_skip_link_that_moves_focus_to_the_page(page, orchard):
    orchard.start_crew("Keyboard crew")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["height"] >= 44, box  # on screen once focused
    shoot(page, "skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.keyboard.press("Tab")  # the next stop is inside the page, past the top bar
    assert page.evaluate("document.activeElement.closest('main') !== null")
    assert small_tap_targets(page) == []
    assert_fits_phone(page)


def test_a_focused_button_has_a_thick_ring(page, orchard):
    orchard.start_crew("Ring crew")
    button = page.get_by_role("link", name="New game")
    button.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard, so :focus-visible applies
    expect(button).to_be_focused()
    ring = button.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
    assert ring[0] == "solid" and ring[1] >= 3, ring
    shoot(page, "focus-ring")
    shoot(page, "focus-ring", dark=True)


def test_the_header_is_dim_in_dark_mode(page, orchard):
    orchard.start_crew("Dark crew")
    page.emulate_media(color_scheme="dark")
    header = page.locator(".topbar").evaluate("el => getComputedStyle(el).backgroundColor")
    assert relative_luminance(header) < 0.05, header  # the old dark header, #6fbf7c, was 0.42
    page.emulate_media(color_scheme="light")
