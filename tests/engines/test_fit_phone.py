"""The engines' windows are sized to a phone's viewport even when the browser is slow to lay its
window out (no browser here: a stand-in driver that answers as WebKitWebDriver does)."""
import pytest
from selenium.common.exceptions import InvalidArgumentException

from .conftest import PHONE, fit_phone


class SlowWindow:
    """A window that reports no outer size for its first readings, as one not yet laid out, and
    refuses a negative size as WebKitWebDriver does ("Invalid width value")."""

    CHROME = (0, 22)  # what the window's frame takes around the page

    def __init__(self, unsettled_readings):
        self.unsettled = unsettled_readings
        self.inner = (1024, 746)
        self.sizes_asked = []

    def execute_script(self, script):
        assert "innerWidth" in script
        return list(self.inner)

    def get_window_size(self):
        if self.unsettled:
            self.unsettled -= 1
            return {"width": 0, "height": 0}
        return {"width": self.inner[0] + self.CHROME[0], "height": self.inner[1] + self.CHROME[1]}

    def set_window_size(self, width, height):
        if width < 0 or height < 0:
            raise InvalidArgumentException("Invalid width value")
        self.sizes_asked.append((width, height))
        self.inner = (width - self.CHROME[0], height - self.CHROME[1])


def test_a_window_not_laid_out_yet_is_read_again_before_it_is_sized():
    window = SlowWindow(unsettled_readings=3)
    fit_phone(window)
    assert window.inner == PHONE
    assert window.sizes_asked == [(390, 866)]


def test_a_window_that_never_fits_is_said_with_what_was_read():
    window = SlowWindow(unsettled_readings=10**9)
    with pytest.raises(AssertionError, match=r"not a phone's 390x844 after 0.3 s.*\(1024, 746\), \(0, 0\)"):
        fit_phone(window, seconds=0.3)
