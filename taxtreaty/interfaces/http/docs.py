"""`/docs` (Swagger UI) and `/redoc`, working with no internet.

FastAPI's own pages load their JavaScript, CSS, favicon and fonts from a CDN, so offline they
are blank. Here the same pages are built with every asset served by this server from the
files the `fastapi-offline` package installs (`/docs-assets/...`), the ReDoc bundle with the
one image it would fetch from its CDN pointed here; nothing in either page names another host,
and in a browser with every other host refused both render (tested).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import regex
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
#: images the ReDoc bundle fetches from its CDN at run time (its logo): served from here instead
_REDOC_CDN_IMAGE = regex.compile(r"https://cdn\.redoc\.ly/[^\"'\s)]+\.(?:svg|png)")


def _asset_folder() -> Path:
    return Path(str(resources.files("fastapi_offline").joinpath("static")))


@cache
def _redoc_bundle() -> bytes:
    text = (_asset_folder() / "redoc.standalone.js").read_text(encoding="utf-8")
    return _REDOC_CDN_IMAGE.sub(f"{ASSETS}/favicon.png", text).encode("utf-8")


def install_docs(app: FastAPI) -> None:
    """Serve the API documentation pages and their assets from this server."""

    @app.get(f"{ASSETS}/redoc.offline.js", include_in_schema=False)
    async def redoc_bundle() -> Response:
        return Response(_redoc_bundle(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    app.mount(ASSETS, StaticFiles(directory=_asset_folder()), name="docs-assets")
    title = f"{app.title} - API"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title=title,
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js", swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from validator.swagger.io
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=app.openapi_url or "/openapi.json", title=title,
            redoc_js_url=f"{ASSETS}/redoc.offline.js", redoc_favicon_url=f"{ASSETS}/favicon.png",
            with_google_fonts=False,
        )
