"""Browser tests: Playwright driving Debian's Chromium against a real ``tessera serve``.

Chromium comes from the system (``scripts/ensure-system-packages`` installs it); Playwright's
own browser downloads are never used. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from browserkit import ARTIFACTS, DESKTOP
from serverproc import ServerProcess

CHROMIUM = os.environ.get("TESSERA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("browser") / "games.db"
    # every page of a worker's tests comes from 127.0.0.1: at the default 30 new games a
    # minute per address (and as many new guests an hour) a busy minute of tests ran out of
    # its budget and a game failed to start (the limits' own tests are in tests/server)
    with ServerProcess(db, extra=("--games-per-minute", "100000")) as proc:
        yield proc
    ARTIFACTS.mkdir(exist_ok=True)  # the server's log, for a failed run
    shutil.copy(proc.log_path, ARTIFACTS / f"server-{os.getpid()}.log")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is missing at {CHROMIUM}: run scripts/ensure-system-packages")
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (scripts/ensure-system-packages)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server: ServerProcess) -> Iterator[object]:
    context = browser.new_context(viewport=DESKTOP, base_url=server.url, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(20_000)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
