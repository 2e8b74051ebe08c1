"""/docs and /redoc render in a real browser with every request to another host refused."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest


@pytest.mark.parametrize(("path", "ready"), [("/docs", ".swagger-ui .info .title"), ("/redoc", "h1")])
def test_api_docs_render_with_the_network_unplugged(server: str, page, shots: Path, path: str, ready: str) -> None:  # type: ignore[no-untyped-def]
    own = urlparse(server).netloc
    elsewhere: list[str] = []

    def only_this_server(route) -> None:  # type: ignore[no-untyped-def]
        if urlparse(route.request.url).netloc in (own, ""):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.route("**/*", only_this_server)
    page.goto(server + path)
    page.wait_for_selector(ready, timeout=30_000)
    assert "taxtreaty" in page.inner_text(ready)
    page.screenshot(path=str(shots / f"api{path.replace('/', '-')}.png"))
    assert elsewhere == [], elsewhere
