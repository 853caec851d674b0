"""SVG bar charts drawn on the server: plain shapes the template writes out, no script and no CDN."""
from ..models import CATEGORIES

COLOURS = {
    "guild": "#6c5b7b", "dragons": "#8a2d3b", "abilities": "#c06c84", "eggs": "#e8b04a", "cached": "#c0392b",
    "tucked": "#355c7d", "objectives": "#2a9d8f", "coins": "#95a5a6", "items": "#7f8c5a", "fledglings": "#d35400",
}
ROW = 34
LABEL = 110
WIDTH = 640


BAR_WIDTH = 360  # about a phone's width in CSS pixels, so the chart's text is drawn near the size it is read at
BAR_ROW = 46


def stacked_bars(lines, labels):
    """One horizontal bar per line under its name, one segment per category with VP (negative VP is listed, not
    drawn), the total at the bar's end."""
    top = max([sum(max(0, line["breakdown"][c]) for c in CATEGORIES) for line in lines] + [1])
    scale = (BAR_WIDTH - 44) / top
    bars = []
    for row, line in enumerate(lines):
        x = 0
        y = row * BAR_ROW + 18
        segments = []
        for c in CATEGORIES:
            vp = line["breakdown"][c]
            if vp <= 0:
                continue
            width = vp * scale
            segments.append({"x": round(x, 1), "width": round(width, 1), "colour": COLOURS[c], "vp": vp,
                             "label": labels[c], "text_x": round(x + width / 2, 1), "wide": width >= 18})
            x += width
        bars.append({"y": y, "text_y": y + 11, "name_y": y - 5, "name": line["name"], "total": line["total"],
                     "total_x": round(x + 5, 1), "segments": segments})
    drawn = {segment["label"] for bar in bars for segment in bar["segments"]}
    legend = [{"label": labels[c], "colour": COLOURS[c]} for c in CATEGORIES if labels[c] in drawn]
    return {"width": BAR_WIDTH, "height": len(lines) * BAR_ROW + 6, "bars": bars, "legend": legend,
            "bar_height": 22, "label_x": 0}


SHORT_LABELS = {"guild": "Guild", "dragons": "Dragon VP", "abilities": "Abilities", "eggs": "Eggs",
                "cached": "Cached", "tucked": "Tucked", "objectives": "Objectives", "coins": "Coins",
                "items": "Leftovers", "fledglings": "Fledglings"}


def category_bars(values, labels):
    """One horizontal bar per category (averages), so the names fit on a phone."""
    top = max([v for v in values.values()] + [1])
    label = 130
    scale = (WIDTH - label - 60) / top
    bars = []
    for k, c in enumerate(CATEGORIES):
        width = max(0, values[c]) * scale
        y = k * ROW + 8
        bars.append({"x": label, "y": y, "width": round(width, 1), "text_y": y + (ROW - 8) / 2,
                     "value_x": round(label + width + 6, 1), "colour": COLOURS[c], "value": values[c],
                     "label": labels[c], "short": SHORT_LABELS[c]})
    return {"width": WIDTH, "height": len(CATEGORIES) * ROW + 16, "bars": bars, "bar_height": ROW - 8,
            "label_x": label - 8}


def totals_line(points):
    """Totals game after game, as a polyline with dots (wins drawn filled)."""
    height = 160
    if not points:
        return None
    top = max([p["total"] for p in points] + [1])
    step = (WIDTH - 40) / max(1, len(points) - 1)
    dots = [{"x": round(20 + k * step, 1), "y": round(height - 10 - p["total"] / top * (height - 30), 1),
             "total": p["total"], "won": p["won"], "date": p["date"]} for k, p in enumerate(points)]
    return {"width": WIDTH, "height": height, "dots": dots,
            "path": " ".join(f"{d['x']},{d['y']}" for d in dots)}
