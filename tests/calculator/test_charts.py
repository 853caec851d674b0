"""The server-drawn charts: bar lengths in proportion to VP, nothing drawn for zero or negative VP."""
from game.calculator import charts
from game.calculator.score import CATEGORY_LABELS
from game.models import CATEGORIES


def line(name, **vp):
    breakdown = dict.fromkeys(CATEGORIES, 0)
    breakdown.update(vp)
    return {"name": name, "breakdown": breakdown, "total": sum(breakdown.values())}


def test_stacked_bars_are_in_proportion_to_each_category():
    chart = charts.stacked_bars([line("Ann", dragons=30, eggs=10), line("Ben", dragons=20)], CATEGORY_LABELS)
    ann, ben = chart["bars"]
    widths = {s["label"]: s["width"] for s in ann["segments"]}
    assert widths["Printed dragon VP"] == 3 * widths["Eggs"]
    assert ben["segments"][0]["width"] * 3 == widths["Printed dragon VP"] * 2
    assert ann["segments"][1]["x"] == ann["segments"][0]["x"] + ann["segments"][0]["width"]  # stacked end to end


def test_zero_and_negative_categories_are_not_drawn_but_the_total_is_written():
    chart = charts.stacked_bars([line("Ann", dragons=5, abilities=-4)], CATEGORY_LABELS)
    bar = chart["bars"][0]
    assert [s["label"] for s in bar["segments"]] == ["Printed dragon VP"]
    assert bar["total"] == 1


def test_category_averages_have_one_bar_each_longest_for_the_largest():
    values = dict.fromkeys(CATEGORIES, 0.0)
    values.update(dragons=30.5, eggs=7.0)
    chart = charts.category_bars(values, CATEGORY_LABELS)
    assert len(chart["bars"]) == len(CATEGORIES)
    widths = {b["short"]: b["width"] for b in chart["bars"]}
    assert max(widths, key=widths.get) == "Dragon VP" and widths["Guild"] == 0


def test_totals_line_marks_wins():
    chart = charts.totals_line([{"total": 50, "won": True, "date": "2026-11-01"},
                                {"total": 25, "won": False, "date": "2026-11-08"}])
    first, second = chart["dots"]
    assert first["won"] and not second["won"]
    assert second["y"] > first["y"]  # a lower total sits lower on the chart
    assert charts.totals_line([]) is None
