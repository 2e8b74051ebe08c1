"""`/docs` and `/redoc` work offline: every asset comes from this server, no other host is named."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import create_app
from taxtreaty.interfaces.http.backend import MemoryBackend

_URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')]+)""")
_ABSOLUTE = re.compile(r"(?:https?:)?//[^\s\"'<>]+")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(backend=MemoryBackend(), token=""))


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_page_names_no_other_host_and_its_assets_load(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    html = response.text
    assert not _ABSOLUTE.findall(html), _ABSOLUTE.findall(html)
    assets = [a or b for a, b in _URL.findall(html)]
    assert any(a.endswith(".js") for a in assets)
    for asset in assets:
        loaded = client.get(asset)
        assert loaded.status_code == 200 and len(loaded.content) > 1000, asset
    assert "/openapi.json" in html and client.get("/openapi.json").status_code == 200


def test_swagger_ui_asks_no_online_validator(client: TestClient) -> None:
    assert '"validatorUrl": null' in client.get("/docs").text
