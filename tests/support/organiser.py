"""The organiser's taps on a club night's page, measured as the round page's are (bench/taps.py):
the tapped control scrolled mid-screen first, as a thumb finds it; then how far the control (or
the sentence that takes its place: a stage drawn, drawn again or started) moved, and what is
under the thumb now. Shared by tests/browser/test_layout_sweep.py and bench/taps.py."""
from .browser import htmx_settled

MOVE_LIMIT = 40  # px, as the round page's taps
ACTIONS = "button, a[href], select, input:not([type=hidden]), label, summary"

AFTER = """([action, x, y]) => {
    const form = [...document.querySelectorAll('#night form[hx-post]')].find(f => f.getAttribute('hx-post') === action);
    const done = document.querySelector('#night #note-stage.done');
    const anchor = done || (form && form.querySelector('button'));
    const under = document.elementFromPoint(x, y);
    const other = under && under.closest('""" + ACTIONS + """');
    return [anchor ? anchor.getBoundingClientRect().top : null,
            other && !(form && form.contains(other)) ? other.outerHTML.slice(0, 80) : null];
}"""


def measured_tap(page, button, answered):
    """Tap `button` on the night page and wait for `answered()` (an expect on what the answer
    shows); returns (px moved, the other control under the thumb now or None)."""
    button.evaluate("el => el.scrollIntoView({block: 'center'})")
    action = button.evaluate("el => el.closest('form').getAttribute('hx-post')")
    box = button.bounding_box()
    button.tap()
    answered()
    htmx_settled(page)
    page.wait_for_timeout(50)
    top, under = page.evaluate(AFTER, [action, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert top is not None, "neither the control nor its sentence is on the page"
    return abs(top - box["y"]), under
