"""Bar charts of chances, as PNG: legible on a phone, in Discord's dark and light themes alike.

matplotlib is imported on the first chart, not at start-up (it takes half a second), and
charts are drawn in a worker thread (``asyncio.to_thread``) so the event loop never waits.
The chart carries its own dark card-coloured background, which reads the same in either theme.
"""

from __future__ import annotations

import io

from rules.base import Chart

WIDTH, HEIGHT, DPI = 8.0, 4.5, 100  # 800 × 450 px: sharp on a phone, small to upload
BACKGROUND = "#2b2d31"
TEXT = "#f2f3f5"
BAR = "#5865f2"
WARNING = "#ed4245"
GRID = "#4e5058"


def render(chart: Chart) -> bytes:
    """The chart as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")  # no display: files only
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, facecolor=BACKGROUND)
    axes = figure.add_subplot()
    axes.set_facecolor(BACKGROUND)
    labels = [label for label, _ in chart.bars]
    values = [max(0.0, min(1.0, value)) * 100 for _, value in chart.bars]
    colors = [WARNING if label in chart.highlight else BAR for label in labels]
    bars = axes.bar(range(len(values)), values, color=colors, width=0.7)
    axes.set_xticks(
        range(len(labels)), labels, rotation=45 if len(labels) > 8 else 0, ha="right" if len(labels) > 8 else "center"
    )
    axes.set_ylabel("chance (%)", color=TEXT, fontsize=13)
    if chart.x_label:
        axes.set_xlabel(chart.x_label, color=TEXT, fontsize=13)
    axes.set_title(chart.title, color=TEXT, fontsize=16, pad=12)
    axes.tick_params(colors=TEXT, labelsize=12)
    axes.set_ylim(0, max([*values, 1.0]) * 1.18)
    axes.grid(axis="y", color=GRID, linewidth=0.6)
    axes.set_axisbelow(True)
    for spine in axes.spines.values():
        spine.set_color(GRID)
    if len(values) <= 14:
        for bar, value in zip(bars, values, strict=True):
            text = f"{value:.1f}%" if value >= 0.1 or value == 0 else "<0.1%"
            axes.annotate(
                text,
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                color=TEXT,
                fontsize=11,
                xytext=(0, 3),
                textcoords="offset points",
            )
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()
