"""A rating's history as the geometry of a small line chart, drawn by the page as inline SVG (no script): the
rating after each game as a line, and its deviation as a band around it."""
from typing import NamedTuple

WIDTH, HEIGHT = 480, 160
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 8, 10, 20
TICKS = 3  # rating labels on the left edge


class Tick(NamedTuple):
    y: float
    label: str


class Chart(NamedTuple):
    width: int
    height: int
    line: str  # the polyline's points: "x,y x,y ..."
    band: str  # the polygon of rating ± deviation
    last: tuple  # (x, y) of the newest point, marked on the chart
    ticks: list  # Tick rows for the rating axis
    left: int
    right: int
    bottom: int
    games: int
    low: float
    high: float


def history_chart(points):
    """The chart of `points`: [(rating, deviation), ...] oldest first, the first being where the rating started.
    None when there is nothing to draw (fewer than two points)."""
    if len(points) < 2:
        return None
    low = min(r - d for r, d in points)
    high = max(r + d for r, d in points)
    if high - low < 1:
        high, low = high + 1, low - 1
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM
    step = (right - left) / (len(points) - 1)

    def y(value):
        return bottom - (value - low) / (high - low) * (bottom - top)

    xs = [left + i * step for i in range(len(points))]
    line = " ".join(f"{x:.1f},{y(r):.1f}" for x, (r, _) in zip(xs, points))
    upper = [f"{x:.1f},{y(r + d):.1f}" for x, (r, d) in zip(xs, points)]
    lower = [f"{x:.1f},{y(r - d):.1f}" for x, (r, d) in zip(xs, points)]
    ticks = [Tick(round(y(v), 1), f"{v:.0f}") for v in (low + (high - low) * i / (TICKS - 1) for i in range(TICKS))]
    return Chart(WIDTH, HEIGHT, line, " ".join(upper + lower[::-1]), (round(xs[-1], 1), round(y(points[-1][0]), 1)),
                 ticks, left, right, bottom, len(points) - 1, low, high)
