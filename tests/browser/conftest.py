"""Browser fixtures: a real uvicorn server on a free loopback port over a temp SQLite store with
the seeds (and a synthetic text carrying markup) ingested, and Debian's chromium driven headless
by Playwright. Tests skip with a reason when chromium or playwright is missing."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TAXTREATY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(os.environ.get("TAXTREATY_SHARED", ROOT.parent / "shared")) / "seeds"

HOSTILE = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF CYPRUS FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State. <script>alert(1)</script> & "quoted" «term» <img src=x onerror=alert(2)>
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def chromium() -> str:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"chromium not found at {CHROMIUM} (apt-get install chromium; scripts/install.sh does it)")
    pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    return CHROMIUM


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[str]:
    import uvicorn

    from taxtreaty.interfaces.http import create_app

    if not SEEDS.is_dir():
        pytest.skip(f"seeds not found at {SEEDS}")
    folder = tmp_path_factory.mktemp("served")
    url = str(folder / "corpus.sqlite")
    (folder / "hostile.txt").write_text(HOSTILE, encoding="utf-8")
    from taxtreaty.store import Store

    with Store.open(url) as store:
        report = store.ingest([str(SEEDS), str(folder / "hostile.txt")])
        assert not report.rejected, report.rejected
    app = create_app(url, token="browser-token")
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1366, "height": 900})  # type: ignore[attr-defined]
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.dialogs = []
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    yield tab
    context.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go (a temp dir, or TAXTREATY_SCREENSHOTS)."""
    where = os.environ.get("TAXTREATY_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        return Path(where)
    return tmp_path_factory.mktemp("screenshots")
