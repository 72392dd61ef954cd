"""A season's standings as a PNG card to share: the crew's and the season's names, its days and
rule, and its top ten (never a link), drawn with Pillow as a game's card is. No Flask."""
import io

from PIL import Image, ImageDraw

from scoring.season import percent

from .result_card import ACCENT, FAINT, HEIGHT, INK, MARGIN, PAPER, WIDTH, _font, _short

SHOWN = 10  # the card's lines: the top of the standings


def draw(crew_name, season, standing):
    """The card as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, WIDTH, 12), fill=ACCENT)
    pen.text((MARGIN, 36), _short(crew_name), font=_font(26, bold=True), fill=FAINT)
    pen.text((MARGIN, 72), season["name"], font=_font(46, bold=True), fill=ACCENT)
    days = season["first_day"] + (f" – {season['last_day']}" if season["last_day"] else " onwards")
    pen.text((MARGIN, 132), f"{days} · {standing.rule.sentence()}", font=_font(20), fill=INK)
    ranked = [line for line in standing.lines if line.place is not None]
    if not ranked:
        pen.text((MARGIN, 200), "Nobody is ranked yet.", font=_font(30), fill=INK)
    row, bold = _font(26), _font(26, bold=True)
    for n, line in enumerate(ranked[:SHOWN]):
        column, y = (0, 190 + n * 46) if n < 5 else (1, 190 + (n - 5) * 46)
        x = MARGIN + column * 560
        pen.text((x, y), f"{line.place}. {_short(standing.names.get(line.player, '?'))}", font=row, fill=INK)
        pen.text((x + 470, y), percent(line.average), font=bold, fill=INK, anchor="ra")
    if len(ranked) > SHOWN:
        pen.text((MARGIN, 190 + 5 * 46 + 10), f"and {len(ranked) - SHOWN} more", font=_font(20), fill=FAINT)
    pen.text((MARGIN, HEIGHT - 50), "Orchard · the Apples score keeper · a result is the share of the others "
             "finished ahead of", font=_font(18), fill=FAINT)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
