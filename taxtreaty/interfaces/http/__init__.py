"""The HTTP API (FastAPI) and the process that also serves the web workbench.

    from taxtreaty.interfaces.http import create_app
    app = create_app("sqlite:///corpus.sqlite", token="s3cret")
"""

from taxtreaty.interfaces.http.app import create_app
from taxtreaty.interfaces.http.backend import Backend, MemoryBackend

__all__ = ["Backend", "MemoryBackend", "create_app"]
