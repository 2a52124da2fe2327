"""Charts beside /odds and previews: a PNG of the right size is attached and shown in the embed."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from bot.adapter import charts
from rules.base import Chart
from tests.conftest import Console

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(body: bytes) -> tuple[int, int]:
    assert body.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", body[16:24])  # the IHDR chunk comes first
    return width, height


def _read(path: str) -> bytes:
    return Path(path).read_bytes()


@pytest.mark.parametrize(
    "line", ["/odds check skill:12", "/odds pool dice:6 again:8-again rote:true", "/odds calamity mp:-22"]
)
async def test_odds_attach_a_chart(console: Console, line: str) -> None:
    result = await console.ok(line)
    (chart,) = result["files"]
    assert chart.endswith("chart.png")
    assert png_size(_read(chart)) == (800, 450)
    sent = console.table.virtual.adapter.sent[-1]
    assert sent.embeds[0]["image"]["url"] == "attachment://chart.png"


def test_a_chart_draws_every_bar_and_stays_small() -> None:
    many = Chart(title="many", bars=[(str(k), 1 / 40) for k in range(40)], highlight=["0"], x_label="k")
    body = charts.render(many)
    assert png_size(body) == (800, 450) and len(body) < 200_000
    empty = Chart(title="certain", bars=[("yes", 1.0), ("no", 0.0)])
    assert png_size(charts.render(empty)) == (800, 450)


async def test_a_runic_preview_charts_its_calamity_rows(console: Console) -> None:
    for line in (
        "/campaign start ruleset:runic name:Camelot",
        "/runic mage create name:Merlin magery:3 iq:15 thaumatology:15",
        "/runic mage word mage:Merlin word:Ort skill:14",
        "/runic mage word mage:Merlin word:Sanct skill:14",
        "/runic spell define mage:Merlin name:Sleep words:Ort-Sanct known:true",
        "/runic adjust character:Merlin field:mp value:-9 reason:drained",
    ):
        await console.ok(line)
    shown = await console.ok("/runic preview mage:Merlin spell:Sleep")
    assert png_size(_read(shown["files"][0])) == (800, 450)
