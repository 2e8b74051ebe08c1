"""A real `kill -9` in the middle of an ingest leaves a consistent store; the next run completes it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import test_store_support as support
from sqlalchemy import func, select

from taxtreaty.store import Store, champions
from taxtreaty.store.schema import Document

store_url = support.store_url
FILES = 40


def _documents(store: Store) -> int:
    with store.engine.connect() as c:
        return c.execute(select(func.count()).select_from(Document)).scalar() or 0


def test_sigkill_mid_ingest_leaves_whole_documents_and_rerun_completes(store_url: str, tmp_path: Path) -> None:
    texts = tmp_path / "texts"
    support.write_synthetic(texts, range(FILES))
    cli = Path(sys.executable).parent / "taxtreaty"
    command = [str(cli), "ingest", str(texts), "--db", store_url, "--jobs", "2"]
    store = Store.open(store_url)  # create the schema first so the poll below can count
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 180  # 5 documents; minutes only on a 2-core machine loaded by other jobs
        while _documents(store) < 5:
            assert process.poll() is None, f"ingest ended before it could be killed: {process.stderr.read()!r}"
            assert time.monotonic() < deadline, "ingest made no progress"
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL
    # the parse workers die with their parent's pipe; give them a moment to go
    time.sleep(0.2)
    done = _documents(store)
    assert 5 <= done < FILES, "the kill must land mid-way"
    assert store.check() == []
    store.close()

    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{FILES - done} added, {done} skipped, 0 rejected" in rerun.stdout
    with Store.open(store_url) as after:
        assert _documents(after) == FILES
        assert after.check() == []
        assert sum(t.documents for t in after.list_treaties()) == FILES
        if after.engine.dialect.name == "sqlite":
            # the killed run never rebuilt the search lists; the rerun did
            with after.engine.connect() as c:
                assert not champions.is_stale(c)
