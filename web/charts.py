"""Line charts as inline SVG, drawn on the server: plain values in, SVG text out (no Flask).

The SVG carries no colours or inline styles (the Content-Security-Policy forbids them): every
mark has a class that static/history.css colours with the page's CSS variables, so one chart
reads in light and dark mode. Lines differ by colour, dash and marker shape, and each is named
at its end, so none depends on colour alone. A <title> and <desc> summarise the chart for
screen readers; pages also show the numbers as a table.
"""
from dataclasses import dataclass
from html import escape

from scoring.rounding import tenths

MINUS = "−"
WIDTH, HEIGHT = 360, 230
LEFT, RIGHT, TOP, BOTTOM = 40, 76, 14, 30  # room for the y labels, the names, the x labels
LABEL_GAP = 13  # the least vertical room between two names at the right edge
LABEL_CHARS = 9
SERIES_STYLES = 4  # series-0 … series-3: colour, dash and marker shape each


@dataclass(frozen=True)
class Series:
    """One line: its name and a y value for each x position (None leaves a gap)."""

    name: str
    values: tuple
    highlighted: tuple = ()  # x positions drawn with a filled marker (e.g. games won)
    colour: int | None = None  # a game's line: the player's colour (web/colours.py), as on the scoreboard


@dataclass(frozen=True)
class Reference:
    """A horizontal line across the plot, such as the goal."""

    value: int
    label: str


def points(value):
    return f"{MINUS}{-value}" if value < 0 else str(value)


def nice_step(span, ticks=4):
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` gridlines."""
    raw = max(span / ticks, 1)
    power = 1
    while power * 10 <= raw:
        power *= 10
    for factor in (1, 2, 2.5, 5, 10):
        if power * factor >= raw and power * factor == int(power * factor):
            return int(power * factor)
    return power * 10


def line_chart(series, x_labels, *, title, description, references=(), chart_id="chart", x_name="",
               from_zero=True):
    """An SVG line chart: one line per series over the same x positions, optional reference
    lines, y gridlines, x labels (an empty label is skipped), and each line named at its end.
    With from_zero off, the y axis spans only the values (a rating moves a few points near 25)."""
    count = max((len(s.values) for s in series), default=0)
    values = [v for s in series for v in s.values if v is not None]
    values += [ref.value for ref in references]
    anchor = [0] if from_zero else []
    low, high = min(values + anchor), max(values + anchor)
    step = nice_step(high - low or 1)
    low = (low // step) * step
    high = -((-high) // step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(i):  # a little room after the y axis labels for the first markers
        return LEFT + 8 + ((plot_w - 8) * i / (count - 1) if count > 1 else (plot_w - 8) / 2)

    def y_at(value):
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" focusable="false">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
        '<g class="grid" aria-hidden="true">',
    ]
    tick = low
    while tick <= high + 1e-9:
        y = y_at(tick)
        kind = "axis" if tick == 0 else "gridline"
        parts.append(f'<line class="{kind}" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}"/>')
        parts.append(_text("tick", LEFT - 5, y + 4, points(_whole(tick)), "end"))
        tick += step
    for i, label in enumerate(x_labels):
        if label:
            anchor = "start" if i == 0 and count > 1 else "end" if i == count - 1 and count > 1 else "middle"
            parts.append(_text("tick", x_at(i), HEIGHT - BOTTOM + 16, label, anchor))
    if x_name:
        parts.append(_text("axis-name", LEFT + plot_w, HEIGHT - 2, x_name, "end"))
    parts.append("</g>")
    for ref in references:
        y = y_at(ref.value)
        parts.append(
            f'<g class="reference" aria-hidden="true">'
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}"/>'
            f"{_text(None, LEFT + 4, y - 4, ref.label)}</g>"
        )
    ends = []
    for index, s in enumerate(series):
        kind = index if s.colour is None else s.colour  # a player's line: their colour, dash and marker
        style = f"series-{kind % SERIES_STYLES}" + (f" colour-{s.colour}" if s.colour is not None else "")
        drawn = [(i, v) for i, v in enumerate(s.values) if v is not None]
        if not drawn:
            continue
        parts.append(f'<g class="series {style}" aria-hidden="true">')
        line = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in drawn)
        parts.append(f'<polyline points="{line}"/>')
        for i, v in drawn:
            filled = " filled" if i in s.highlighted else ""
            parts.append(_marker(kind % SERIES_STYLES, x_at(i), y_at(v), filled))
        parts.append("</g>")
        ends.append([y_at(drawn[-1][1]), style, s.name, x_at(drawn[-1][0])])
    for y, style, name, x in _spread(ends):
        short = name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"
        parts.append(_text(f"end-label {style}", x + 8, y + 4, short))
    parts.append("</svg>")
    return "".join(parts)


def _text(cls, x, y, content, anchor=None):
    """A <text> element; the content is escaped."""
    attributes = f' class="{cls}"' if cls else ""
    attributes += f' x="{x:.1f}" y="{y:.1f}"'
    attributes += f' text-anchor="{anchor}"' if anchor else ""
    return f"<text{attributes}>{escape(content)}</text>"


def _whole(value):
    return int(value) if value == int(value) else value


def _marker(style, x, y, filled):
    """A marker whose shape tells the series apart without colour."""
    cls = f'class="marker{filled}"'
    if style == 0:
        return f'<circle {cls} cx="{x:.1f}" cy="{y:.1f}" r="3.5"/>'
    if style == 1:
        return f'<rect {cls} x="{x - 3.2:.1f}" y="{y - 3.2:.1f}" width="6.4" height="6.4"/>'
    if style == 2:
        corners = [(x, y - 4.2), (x + 4, y + 3), (x - 4, y + 3)]  # a triangle
    else:
        corners = [(x, y - 4.5), (x + 4.5, y), (x, y + 4.5), (x - 4.5, y)]  # a diamond
    return f'<polygon {cls} points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in corners)}"/>'


def _spread(ends):
    """Move the end labels apart vertically so that close totals stay readable."""
    ends = sorted(ends)
    for i in range(1, len(ends)):
        if ends[i][0] - ends[i - 1][0] < LABEL_GAP:
            ends[i][0] = ends[i - 1][0] + LABEL_GAP
    overflow = ends[-1][0] - (HEIGHT - BOTTOM) if ends else 0
    if overflow > 0:
        for end in ends:
            end[0] -= overflow
    return ends


def running_totals_chart(names, running, goal, colours=None, chart_id="game-chart"):
    """Each player's total after every round of a game (from 0 before round 1), with the goal, each
    line in its player's colour (`colours`, by seat; by seat when None)."""
    rounds = len(running)
    colours = colours or range(len(names))
    series = [Series(name, tuple([0] + [totals[seat] for totals in running]), colour=colours[seat])
              for seat, name in enumerate(names)]
    every = 1 if rounds <= 12 else 2 if rounds <= 24 else 5
    # Every round, or every 2nd or 5th in a long game; the last always, so none crowd it.
    labels = ["0"] + [str(n) if n == rounds or (n % every == 0 and rounds - n >= every) else ""
                      for n in range(1, rounds + 1)]
    final = running[-1] if running else [0] * len(names)
    order = sorted(range(len(names)), key=lambda seat: -final[seat])
    standing = ", ".join(f"{names[seat]} {points(final[seat])}" for seat in order)
    description = (
        f"Running totals over {rounds} round{'s' if rounds != 1 else ''}, goal {goal}. "
        + (f"After the last round: {standing}." if rounds else "No round saved yet.")
    )
    return line_chart(
        series, labels, title="Running totals by round", description=description,
        references=[Reference(goal, f"Goal {goal}")], chart_id=chart_id, x_name="round",
    )


def finishing_totals_chart(name, games, chart_id="player-chart"):
    """A player's finishing total in each of their last games (oldest first), wins filled in,
    with a line at each goal played to. `games`: dicts with total, won, goal and a short date."""
    totals = tuple(game["total"] for game in games)
    won = tuple(i for i, game in enumerate(games) if game["won"])
    labels = [""] * len(games)
    if games:
        labels[0] = games[0]["date"]
        labels[-1] = games[-1]["date"]
    goals = sorted({game["goal"] for game in games})
    wins = len(won)
    description = (
        f"{name}'s finishing totals in their last {len(games)} finished games, oldest first: "
        + ", ".join(points(total) for total in totals)
        + f". Won {wins} of them; games won are drawn with filled markers."
        if games else f"{name} has no finished game yet."
    )
    return line_chart(
        [Series(name, totals, won)], labels, title=f"{name}'s finishing totals",
        description=description, references=[Reference(goal, f"Goal {goal}") for goal in goals],
        chart_id=chart_id, x_name="games",
    )


def rating_chart(name, changes, chart_id="rating-chart"):
    """A player's rating after each of their games (oldest first), one decimal, with the
    starting rating drawn across. `changes`: dicts with mu and a short date."""
    values = tuple(round(change["mu"], 1) for change in changes)
    labels = [""] * len(changes)
    if changes:
        labels[0] = changes[0]["date"]
        labels[-1] = changes[-1]["date"]
    description = (
        f"{name}'s rating after each of their last {len(changes)} rated games, oldest first: "
        + ", ".join(tenths(change["mu"]) for change in changes) + "."
        if changes else f"{name} has no rating yet."
    )
    return line_chart(
        [Series(name, values)], labels, title=f"{name}'s rating", description=description,
        references=[Reference(25, "Start 25")], chart_id=chart_id, x_name="games", from_zero=False,
    )
