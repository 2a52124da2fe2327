"""Bar charts of chances, and a battle board, as PNG: legible on a phone, in Discord's dark and light themes alike.

matplotlib is imported on the first chart, not at start-up (it takes half a second), and
charts are drawn in a worker thread (``asyncio.to_thread``) so the event loop never waits.
The chart carries its own dark card-coloured background, which reads the same in either theme.
"""

from __future__ import annotations

import io

from rules.base import BattlePicture, Chart
from rules.text import clip

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


# ---------------------------------------------------------------------- a battle, as a picture


# What a battle picture shows is the ruleset's (``rules.base.BattlePicture``, from ``Ruleset.picture``).

BATTLE_WIDTH = 720  # px: a phone shows it full width, text at a readable size
PANEL = "#383a40"
MUTED = "#b5bac1"
LIFE = "#23a55a"
ENERGY = "#5865f2"
TURN = "#f0b232"
TEAMS = ("#5865f2", "#ed4245", "#23a55a", "#f0b232", "#eb459e", "#00a8fc")
MAX_LINES = 12  # spells in play listed; the rest are counted
MAX_BEINGS = 16


def battle_height(picture: BattlePicture) -> int:
    beings = min(len(picture.beings), MAX_BEINGS)
    lines = min(len(picture.in_play), MAX_LINES + 1)
    return (
        118
        + beings * 138
        + (56 + lines * 30 if picture.in_play else 0)
        + (56 + len(picture.manifesting[:4]) * 30 if picture.manifesting else 0)
        + 20
    )


def render_battle(picture: BattlePicture) -> bytes:
    """The battle as PNG bytes: one panel per being (life and energy bars, hand size, actions), then the
    spells in play and what is manifesting. Its own dark background reads the same in Discord's dark
    and light themes; sizes are in pixels of a ``BATTLE_WIDTH``-wide image."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    width, height = BATTLE_WIDTH, battle_height(picture)
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=BACKGROUND)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")

    def text(x: float, y: float, words: str, size: int, color: str = TEXT, **kw: object) -> None:
        axes.text(x, y, words, fontsize=size, color=color, va="center", **kw)  # type: ignore[arg-type]

    text(24, 40, clip(picture.title, 44), 22, weight="bold")
    if picture.subtitle:
        text(24, 82, clip(picture.subtitle, 62), 15, MUTED)
    y = 118
    teams = {team: TEAMS[i % len(TEAMS)] for i, team in enumerate(dict.fromkeys(b.team for b in picture.beings))}
    for being in picture.beings[:MAX_BEINGS]:
        edge = TURN if being.status == "TURN" else teams[being.team]
        axes.add_patch(
            FancyBboxPatch((16, y), width - 32, 126, boxstyle="round,pad=0,rounding_size=10", fc=PANEL, ec=edge, lw=3)
        )
        axes.add_patch(Rectangle((16, y + 6), 8, 114, color=teams[being.team]))
        text(38, y + 24, clip(being.name, 22), 19, weight="bold")
        text(width - 36, y + 24, clip(f"team {being.team}", 18), 14, teams[being.team], ha="right")
        if being.status:
            color = TURN if being.status == "TURN" else MUTED
            text(width - 36, y + 56, "▶ their turn" if being.status == "TURN" else being.status, 14, color, ha="right")
        share = max(0.0, min(1.0, being.essence / being.max_essence)) if being.max_essence else 0.0
        axes.add_patch(Rectangle((38, y + 46), 300, 20, color=GRID))
        axes.add_patch(Rectangle((38, y + 46), 300 * share, 20, color=LIFE if share > 0.34 else WARNING))
        text(348, y + 56, f"Essence {being.essence}/{being.max_essence}", 15)
        axes.add_patch(Rectangle((38, y + 76), min(300, 20 * max(0, being.resonance)), 16, color=ENERGY))
        text(348, y + 84, f"Resonance {being.resonance}", 15)
        details = [f"hand: {being.hand} prepared" if being.hand is not None else "", being.actions, being.extra]
        text(38, y + 110, clip(" · ".join(d for d in details if d), 60), 14, MUTED)
        y += 138
    if picture.in_play:
        text(24, y + 26, "In play", 17, weight="bold")
        y += 56
        shown = picture.in_play[:MAX_LINES]
        if len(picture.in_play) > MAX_LINES:
            shown.append(f"… and {len(picture.in_play) - MAX_LINES} more (/serpent battle board)")
        for line in shown:
            text(32, y + 2, clip(line, 64), 14)
            y += 30
    if picture.manifesting:
        text(24, y + 26, "Manifesting", 17, WARNING, weight="bold")
        y += 56
        for line in picture.manifesting[:4]:
            text(32, y + 2, clip(line, 64), 14)
            y += 30
    out = io.BytesIO()
    figure.savefig(out, format="png", facecolor=BACKGROUND)
    return out.getvalue()
