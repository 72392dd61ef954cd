"""The organiser's taps on a club night, counted as the organiser makes them (bench/taps.py runs
and prints it): a new night of nine players typed in, three stages each drawn and started, and
the night finished. The tables play their hands through the app's round service meanwhile (their
taps are the round bench's). Each control tap is measured as the round page's are
(tests/support/organiser.py): how far it moved, and whether another control is under the thumb."""
import re

from playwright.sync_api import expect

from support.browser import PHONE, Orchard, close_phone
from support.club_nights import night_of, play_round
from support.organiser import MOVE_LIMIT, measured_tap

NINE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
STAGES = 3
ORDERS = [(0, 1, 2, 3), (2, 3, 0, 1), (1, 0, 3, 2), (3, 2, 1, 0)]  # each hand's deal, seat by seat


class Night:
    """What the organiser did: taps per step, names typed, and each control's move."""

    def __init__(self):
        self.steps, self.typed, self.moves, self.reloads = [], 0, [], []

    def report(self):
        """The lines to print, and whether a limit was missed."""
        total = sum(n for _, n in self.steps)
        biggest = max(self.moves, default=(0, None, "-"))
        under = [(label, other) for _, other, label in self.moves if other]
        failed = biggest[0] > MOVE_LIMIT or bool(under)
        lines = [f"club night, {len(NINE)} players, {STAGES} stages (the organiser's phone): "
                 + ", ".join(f"{name} {n}" for name, n in self.steps)
                 + f": {total} taps in all, and {self.typed} names typed"
                 + (f"; {len(self.reloads)} of them reloads, the button did not come by itself ({', '.join(self.reloads)})"
                    if self.reloads else ""),
                 f"  organiser's taps on the night page: largest move {biggest[0]:.0f} px ({biggest[2]}), "
                 f"limit {MOVE_LIMIT}; another control under the thumb after a tap: {len(under)}"]
        lines += [f"  under the thumb after {label}: {other}" for label, other in under]
        return lines, failed


def organiser_night(browser, base, app, counter):
    """One club night from the crew page to its end, on one phone; returns a Night."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    counter.watch(page)
    crew = Orchard(page, base).start_crew("Club night crew")
    night, typing = Night(), counter.typing
    counter.by_page[id(page)] = 0

    def step(name):
        night.steps.append((name, counter.by_page[id(page)] - sum(n for _, n in night.steps)))

    def tap(button, answered, label):
        moved, other = measured_tap(page, button, answered)
        night.moves.append((moved, other, label))

    page.get_by_role("link", name="Club night: more than four players").tap()
    page.get_by_role("link", name="New club night").tap()
    page.locator("#names").fill("\n".join(NINE))
    night.typed = len(NINE)
    page.get_by_role("button", name="Start the night").tap()
    page.wait_for_url(re.compile(r"/club-nights/\d+$"))
    step("new night")
    note = page.locator("#note-stage")
    for stage in range(1, STAGES + 1):
        draw = page.get_by_role("button", name=f"Draw stage {stage}")
        try:  # the tables' last saves reach the page by its poll
            expect(draw).to_be_visible(timeout=8000)
        except AssertionError:
            counter.by_page[id(page)] += 1  # not there by itself: the organiser reloads, one tap
            night.reloads.append(f"Draw stage {stage}")
            page.reload()
        tap(draw, lambda: expect(note).to_contain_text(f"Stage {stage} drawn"), f"Draw stage {stage}")
        tap(page.get_by_role("button", name=f"Start stage {stage}"),
            lambda: expect(note).to_contain_text(f"Stage {stage} started"), f"Start stage {stage}")
        step(f"stage {stage}")
        _, stages = night_of(app, page.url)
        for table in stages[-1]["tables"].values():
            for order in ORDERS:  # a stage is four hands, the new night's default
                play_round(app, crew.removeprefix(base), table["game_id"], order)
    finish = page.get_by_role("button", name="Finish the night")
    try:
        expect(finish).to_be_visible(timeout=8000)
    except AssertionError:
        counter.by_page[id(page)] += 1
        night.reloads.append("Finish the night")
        page.reload()
    if finish.count():
        finish.tap()  # and its confirm, counted by the page's dialog handler
        expect(page.locator("#stage h2")).to_have_text("The night is over")
        step("finish")
    counter.typing = typing  # the names typed are the night's, counted here: not a round's
    close_phone(context)
    return night
