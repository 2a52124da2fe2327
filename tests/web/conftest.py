"""The browser tests: Playwright (pytest-playwright) driving Debian's Chromium (`apt-get install chromium`).

Playwright's own browser download is not reachable here, so every launch points at the system binary. Without it
the tests are skipped with the reason, unless CI is set: in CI a missing Chromium is an error (`.ci/run` installs
it). One browser for these tests: ``browser`` and ``page`` here replace pytest-playwright's session-wide ones, so
Playwright's own event loop stops when they end and never meets the asyncio tests that run after them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path(os.environ.get("MAGISTER_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"


def chromium_or_skip() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: CI installs Debian's chromium package (.ci/run)")
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium); CI runs these tests")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Debian's Chromium, headless, in a container (no sandbox: root has none to give it)."""
    chromium_or_skip()
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    }


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (gitignored): artifacts/web/<store>/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="package")
def browser(browser_type_launch_args: dict) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(**browser_type_launch_args)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()
