"""Each player keeps one colour, and a shape beside it for colour-blind players, on the
scoreboard, the round tabs, the round table, the game's chart and its history page; every colour
reads (AA, 4.5:1) on the page and the panels, light and dark."""
import re

from playwright.sync_api import expect

from support.browser import shoot

SHAPES = ["●", "■", "▲", "◆"]


def luminance(rgb):
    channels = [int(part) / 255 for part in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mark(locator):
    """The colour and the shape of the seat mark inside `locator`."""
    return locator.locator(".seat-mark").first.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(el, '::before').content.replaceAll('\"', '')]")


def test_a_player_has_one_colour_and_shape_everywhere(page, orchard):
    orchard.start_crew()
    scoreboard = orchard.start_game()
    orchard.enter_round_one()

    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(scoreboard + "/rounds/1")
        tabs = [mark(page.locator(f"#tab-{seat}.colour-{seat}")) for seat in range(1, 4)]  # tab 0 is current
        page.goto(scoreboard)
        cards = [mark(page.locator(f".total-card.colour-{seat}")) for seat in range(4)]
        assert [shape for _, shape in cards] == SHAPES
        assert len({colour for colour, _ in cards}) == 4
        assert tabs == cards[1:]
        for seat, name in enumerate(orchard.names):
            expect(page.locator(f".total-card.colour-{seat} .name")).to_have_text(re.compile(rf"^{name}"))
        panel = page.locator(".total-card").first.evaluate("el => getComputedStyle(el).backgroundColor")
        body = page.evaluate("getComputedStyle(document.body).backgroundColor")
        palette = page.evaluate("""() => [...Array(8).keys()].map(n => {
            const el = document.createElement('span'); el.style.color = `var(--player-${n})`;
            document.body.append(el); const colour = getComputedStyle(el).color; el.remove(); return colour; })""")
        assert len(set(palette)) == 8 and [colour for colour, _ in cards] == palette[:4]
        for colour in palette:  # every player colour a crew may use, not only these four
            assert contrast(colour, panel) >= 4.5 and contrast(colour, body) >= 4.5, (scheme, colour)
    page.emulate_media(color_scheme="light")
    light = [mark(page.locator(f".total-card.colour-{seat}")) for seat in range(4)]

    page.goto(scoreboard + "/rounds/1")
    orchard.save(1)
    table = [mark(page.locator(f"table.rounds thead th.colour-{seat}")) for seat in range(4)]
    assert table == light
    shoot(page, "colours-01-scoreboard")
    shoot(page, "colours-01-scoreboard", dark=True)

    # The game's history page: its standings, the chart's legend and its lines.
    page.goto(scoreboard.replace("/games/", "/history/games/"))
    for seat, name in enumerate(orchard.names):
        expect(page.locator(f".final li.colour-{seat}")).to_contain_text(name)
        assert mark(page.locator(f".final li.colour-{seat}")) == light[seat]
        line = page.locator(f"svg.chart .series.colour-{seat}")
        expect(line).to_have_count(1)
        assert line.evaluate("el => getComputedStyle(el).color") == light[seat][0]
        expect(page.locator(f".legend li.colour-{seat}")).to_have_text(name)
        assert page.locator(f".legend li.colour-{seat}").evaluate("el => getComputedStyle(el).color") == light[seat][0]
    shoot(page, "colours-02-history-game")
    shoot(page, "colours-02-history-game", dark=True)
