"""The server-side SVG charts: pure values in, SVG out; a goal line, lines told apart without
colour, a text summary, and nothing the Content-Security-Policy would block."""
import re
import xml.etree.ElementTree as ET

import pytest

from web import charts

NS = "{http://www.w3.org/2000/svg}"
RUNNING = [(80, 15, 40, -15), (95, 15, 40, 65), (135, 95, 25, 65)]


def parse(svg):
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_running_totals_chart_has_a_line_per_player_and_the_goal():
    svg = charts.running_totals_chart(["Ann", "Ben", "Cleo", "Dan"], RUNNING, 100)
    root = parse(svg)
    assert root.get("viewBox") == "0 0 360 230" and root.get("role") == "img"
    assert root.find(f"{NS}title").text == "Running totals by round"
    assert root.find(f"{NS}desc").text == (
        "Running totals over 3 rounds, goal 100. After the last round: Ann 135, Ben 95, Dan 65, Cleo 25.")
    lines = root.findall(f".//{NS}g[@class]")
    series = [g for g in lines if g.get("class").startswith("series ")]
    assert [g.get("class") for g in series] == [f"series series-{seat} colour-{seat}" for seat in range(4)]
    # Four rounds of points each (0 before round 1), and a marker shape per player.
    assert [len(g.find(f"{NS}polyline").get("points").split()) for g in series] == [4, 4, 4, 4]
    shapes = [g[1].tag.replace(NS, "") for g in series]
    assert shapes == ["circle", "rect", "polygon", "polygon"]
    assert series[2][1].get("points") != series[3][1].get("points")
    goal = [g for g in lines if g.get("class") == "reference"]
    assert len(goal) == 1 and goal[0].find(f"{NS}text").text == "Goal 100"
    labels = [t.text for t in root.iter(f"{NS}text") if (t.get("class") or "").startswith("end-label")]
    assert sorted(labels) == ["Ann", "Ben", "Cleo", "Dan"]


def y_ticks(root):
    """The y axis labels and the heights of their gridlines."""
    return {t.text: float(t.get("y")) - 4 for t in root.iter(f"{NS}text")
            if t.get("class") == "tick" and float(t.get("x")) < charts.LEFT}


def test_the_goal_line_sits_where_the_goal_is():
    root = parse(charts.running_totals_chart(["A", "B", "C", "D"], [(0, 0, 0, 0)], 250))
    goal_y = float(root.find(f".//{NS}g[@class='reference']/{NS}line").get("y1"))
    ticks = y_ticks(root)
    assert goal_y == pytest.approx((ticks["200"] + ticks["300"]) / 2, abs=0.1)


def test_no_inline_style_anywhere():
    svg = charts.running_totals_chart(["A", "B", "C", "D"], RUNNING, 100)
    svg += charts.finishing_totals_chart("A", [{"total": 10, "won": True, "goal": 250, "date": "1 Mar 26"}])
    assert "style" not in svg and "fill=\"#" not in svg and "stroke=\"#" not in svg


def test_names_are_escaped_and_long_ones_shortened_at_the_line_end():
    names = ["<script>x</script>", "Bartholomew the Great", "C", "D"]
    svg = charts.running_totals_chart(names, RUNNING, 100)
    assert "<script>" not in svg
    labels = [t.text for t in parse(svg).iter(f"{NS}text") if (t.get("class") or "").startswith("end-label")]
    assert "Bartholo…" in labels and "&lt;script&gt;x&lt;/script&gt;" in svg


def test_close_totals_get_labels_apart():
    root = parse(charts.running_totals_chart(["A", "B", "C", "D"], [(100, 101, 102, 103)], 250))
    ys = sorted(float(t.get("y")) for t in root.iter(f"{NS}text") if (t.get("class") or "").startswith("end-label"))
    assert all(b - a >= charts.LABEL_GAP - 0.01 for a, b in zip(ys, ys[1:]))


def test_negative_totals_and_a_game_without_rounds():
    root = parse(charts.running_totals_chart(["A", "B", "C", "D"], [(-60, -15, 0, 5)], 250))
    assert list(y_ticks(root)) == ["−100", "0", "100", "200", "300"]
    empty = charts.running_totals_chart(["A", "B", "C", "D"], [], 250)
    assert "No round saved yet." in empty


def test_finishing_totals_fill_the_games_won():
    games = [{"total": t, "won": w, "goal": g, "date": d} for t, w, g, d in
             [(135, True, 100, "12 Mar 26"), (-15, False, 100, "13 Mar 26"), (260, True, 250, "14 Mar 26")]]
    svg = charts.finishing_totals_chart("Ann", games)
    root = parse(svg)
    assert len(root.findall(f".//{NS}circle[@class='marker filled']")) == 2
    assert len(root.findall(f".//{NS}circle[@class='marker']")) == 1
    assert [g.find(f"{NS}text").text for g in root.findall(f".//{NS}g[@class='reference']")] == ["Goal 100", "Goal 250"]
    assert "oldest first: 135, −15, 260. Won 2 of them" in root.find(f"{NS}desc").text
    assert [t.text for t in root.iter(f"{NS}text") if t.get("text-anchor") in ("start", "end") and t.get("class") == "tick"
            and re.match(r"\d+ \w+ \d+", t.text or "")] == ["12 Mar 26", "14 Mar 26"]


@pytest.mark.parametrize(("span", "step"), [(1, 1), (10, 5), (37, 10), (100, 25), (330, 100), (1000, 250)])
def test_gridline_steps_are_round_numbers(span, step):
    assert charts.nice_step(span) == step
