"""The treaty workbench: server-rendered pages (Jinja2, autoescaped) over the same backend as the API.

Pages live under /web/ and are left out of the OpenAPI document; / redirects to /web/.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

HERE = Path(__file__).resolve().parent


def mount(app: FastAPI) -> None:
    from taxtreaty.interfaces.web.pages import error_page, router
    from taxtreaty.interfaces.web.work import router as work_router

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(work_router)  # before the pages: /web/rates/download is not a rates page
    app.include_router(router)
    app.state.html_error = error_page  # errors under /web/ are pages, not problem documents
