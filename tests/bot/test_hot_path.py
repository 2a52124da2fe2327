"""Issue 23's per-action shortcuts keep their meaning: the cached clock text, the kept locks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.storage import rows


def test_the_clock_text_is_made_once_a_second_and_is_always_that_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_700_000_000.2]
    monkeypatch.setattr(rows.time, "time", lambda: now[0])
    assert rows.utcnow() == "2023-11-14T22:13:20+00:00"
    now[0] = 1_700_000_000.9  # the same second: the same text
    assert rows.utcnow() == "2023-11-14T22:13:20+00:00"
    now[0] = 1_700_000_001.0  # the next one: new text at once
    assert rows.utcnow() == "2023-11-14T22:13:21+00:00"
    now[0] = 1_600_000_000.0  # a clock set back is followed too
    assert rows.utcnow() == datetime.fromtimestamp(1_600_000_000, UTC).isoformat(timespec="seconds")


def test_the_clock_text_matches_the_standard_librarys() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    text = rows.utcnow()
    after = datetime.now(UTC)
    assert before <= datetime.fromisoformat(text) <= after
