"""schemathesis against the app's own OpenAPI document: generated requests (valid and not) to
every operation never get a 500, and every error is a problem document. Bounded examples, so
this runs in seconds."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEEDS
from hypothesis import HealthCheck, settings

from taxtreaty.interfaces.http import MemoryBackend, create_app
from taxtreaty.interfaces.http.demo import memory_backend

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.checks import not_a_server_error  # noqa: E402

TOKEN = "schema-token"


app = create_app(backend=memory_backend([SEEDS]) if SEEDS.is_dir() else MemoryBackend(), token=TOKEN)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _content_type(response) -> str:  # type: ignore[no-untyped-def]
    value = response.headers.get("content-type") or response.headers.get("Content-Type") or ""
    return value[0] if isinstance(value, list) else value


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_server_errors(case) -> None:  # type: ignore[no-untyped-def]
    headers = {"Authorization": f"Bearer {TOKEN}"} if case.method == "POST" and case.path == "/treaties" else None
    response = case.call(headers=headers)
    case.validate_response(response, checks=[not_a_server_error])
    if response.status_code >= 400:
        assert _content_type(response).startswith("application/problem+json"), (case.method, case.path, response.status_code)
        assert "Traceback" not in response.text


def _store_app():  # type: ignore[no-untyped-def]
    """The same app over the real SQLite store (seeds ingested), when the store is in this build."""
    import atexit
    import shutil
    import tempfile

    try:
        from taxtreaty.store import Store
    except ImportError:
        return None
    if not SEEDS.is_dir():
        return None
    folder = tempfile.mkdtemp(prefix="taxtreaty-schema-")
    atexit.register(shutil.rmtree, folder, True)
    url = str(Path(folder) / "corpus.sqlite")
    with Store.open(url) as store:
        store.ingest([str(SEEDS)])
    return create_app(url, token=TOKEN)


store_app = _store_app()
store_schema = schemathesis.openapi.from_asgi("/openapi.json", store_app) if store_app is not None else None


@pytest.mark.skipif(store_schema is None, reason="the corpus store or the seeds are not available")
@pytest.mark.parametrize("operation", ["GET /treaties/{treaty_id}", "GET /treaties/{treaty_id}/articles/{number}",
                                       "GET /search", "GET /rates", "POST /ask", "POST /ledger"])
def test_no_server_errors_over_the_store(operation: str) -> None:
    from hypothesis import given

    method, path = operation.split(" ")
    op = store_schema[path][method]  # type: ignore[index]

    @given(case=op.as_strategy())
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    def run(case) -> None:  # type: ignore[no-untyped-def]
        response = case.call()
        case.validate_response(response, checks=[not_a_server_error])
        if response.status_code >= 400:
            assert _content_type(response).startswith("application/problem+json")

    run()


def test_the_spec_covers_every_operation() -> None:
    operations = {(op.method.upper(), op.path) for op in (r.ok() for r in schema.get_all_operations())}
    assert {("GET", "/treaties"), ("GET", "/treaties/{treaty_id}"), ("GET", "/treaties/{treaty_id}/articles/{number}"),
            ("GET", "/search"), ("GET", "/rates"), ("POST", "/ask"), ("POST", "/ledger"), ("POST", "/treaties"),
            ("GET", "/health")} <= operations
