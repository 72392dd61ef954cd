"""A finished game's result as a PNG card to share: the crew's name (never its link), the night's
date, the winner, the standings and the running-totals chart, drawn with Pillow. No Flask."""
import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630  # the size chat apps show whole as a preview
MARGIN = 48
CHART = (600, 150, 1152, 560)  # left, top, right, bottom of the chart's plot area
PAPER, INK, FAINT, GRID, ACCENT = "#fbf8f1", "#1d2a1f", "#5c6b5e", "#d9d4c7", "#2f7d32"
# Each player's colour, as static/app.css has them (light): the card is on paper.
PLAYER_COLOURS = ("#0b5cad", "#b34700", "#00796b", "#8e3a9e", "#b0003a", "#4d7c0f", "#795548", "#455a64")
NAME_CHARS = 16
# DejaVu Sans 2.37, shipped in static/fonts with its licence: the card draws the same on any
# machine, ★ and − included (a system without the font had them as empty boxes).
FONT_FOLDER = Path(__file__).resolve().parents[1] / "static" / "fonts"
FONT_FILES = {False: FONT_FOLDER / "DejaVuSans.ttf", True: FONT_FOLDER / "DejaVuSans-Bold.ttf"}


@dataclass(frozen=True)
class CardGame:
    """What the card shows."""

    crew_name: str
    date: str  # the night's date as the history writes it
    goal: int
    names: tuple  # in seat order
    totals: tuple  # final totals in seat order
    order: tuple  # seats from first to last
    winners: tuple  # winning seats
    running: tuple  # each round's totals after it, in seat order
    highlight: str = ""  # the game's highlight in words (`highlight_words`)
    colours: tuple = (0, 1, 2, 3)  # each seat's player's colour (web/colours.py)


def highlight_words(found, names):
    """A scoring.Highlight as the card and the record say it, or "" for none."""
    if found is None:
        return ""
    name = _short(names[found.seat])
    if found.kind == "comeback":
        return f"Comeback by {name}: {found.points} behind after round {found.round}"
    return f"Best round by {name}: {_points(found.points)} points in round {found.round}"


def _font(size, bold=False):
    return ImageFont.truetype(str(FONT_FILES[bold]), size)


def _short(name):
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _points(value):
    return f"−{-value}" if value < 0 else str(value)


def draw(game):
    """The card as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, 12), fill=ACCENT)
    pen.text((MARGIN, 40), _short(game.crew_name), font=_font(30, bold=True), fill=INK)
    pen.text((MARGIN, 80), game.date, font=_font(24), fill=FAINT)
    winners = " and ".join(_short(game.names[seat]) for seat in game.winners)
    verb = "wins!" if len(game.winners) == 1 else "win!"
    pen.text((MARGIN, 130), winners, font=_font(52, bold=True), fill=ACCENT)
    pen.text((MARGIN, 192), verb, font=_font(40, bold=True), fill=INK)
    row_font, total_font = _font(30), _font(30, bold=True)
    for line, seat in enumerate(game.order):
        y = 270 + line * 62
        pen.ellipse((MARGIN, y + 6, MARGIN + 22, y + 28), fill=PLAYER_COLOURS[game.colours[seat]])
        mark = "★ " if seat in game.winners else f"{line + 1}. "
        pen.text((MARGIN + 36, y), mark + _short(game.names[seat]), font=row_font, fill=INK)
        pen.text((520, y), _points(game.totals[seat]), font=total_font, fill=INK, anchor="ra")
    if game.highlight:  # under the standings: what it is, then who and when
        label, said = game.highlight.split(": ", 1)
        y = 270 + len(game.order) * 62
        pen.text((MARGIN, y), label, font=_font(20, bold=True), fill=ACCENT)
        pen.text((MARGIN, y + 26), said, font=_font(20), fill=INK)
    _chart(pen, game)
    pen.text((MARGIN, HEIGHT - 50), "Orchard · the Apples score keeper", font=_font(20), fill=FAINT)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _chart(pen, game):
    """Running totals from 0 before round 1, with the goal line, one coloured line a player."""
    left, top, right, bottom = CHART
    small = _font(18)
    pen.text((left, top - 44), "Running totals", font=_font(24, bold=True), fill=INK)
    series = [[0] + [totals[seat] for totals in game.running] for seat in range(len(game.names))]
    values = [v for line in series for v in line] + [game.goal, 0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    rounds = len(game.running)

    def x_at(i):
        return left + (right - left) * i / max(rounds, 1)

    def y_at(value):
        return bottom - (bottom - top) * (value - low) / span

    pen.line((left, y_at(0), right, y_at(0)), fill=GRID, width=2)
    goal_y = y_at(game.goal)
    for x in range(left, right, 18):  # a dashed goal line
        pen.line((x, goal_y, min(x + 10, right), goal_y), fill=FAINT, width=2)
    pen.text((left + 4, goal_y - 24), f"Goal {game.goal}", font=small, fill=FAINT)
    pen.text((right, bottom + 10), f"{rounds} round{'' if rounds == 1 else 's'}", font=small,
             fill=FAINT, anchor="ra")
    pen.text((left - 8, y_at(0)), "0", font=small, fill=FAINT, anchor="rm")
    for seat, line in enumerate(series):
        colour = PLAYER_COLOURS[game.colours[seat]]
        pen.line([(x_at(i), y_at(v)) for i, v in enumerate(line)], fill=colour, width=5, joint="curve")
        end = (x_at(len(line) - 1), y_at(line[-1]))
        pen.ellipse((end[0] - 7, end[1] - 7, end[0] + 7, end[1] + 7), fill=colour)
