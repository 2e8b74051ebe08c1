"""Working in the workbench in a real browser: upload a text and a ledger, download the results
and the rates table (issue 15)."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq

SYNTHETIC = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF MALTA

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the dividends.
"""


def test_upload_a_text_then_a_ledger_and_download_the_results(server: str, page, shots: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = tmp_path / "pt-mt.txt"
    text.write_text(SYNTHETIC, encoding="utf-8")
    page.goto(server + "/web/upload")
    page.set_input_files("#treaty-file", str(text))
    page.fill("#treaty-id", "pt-mt-browser")
    page.fill("#token", "browser-token")
    page.click("form[action='/web/upload/treaty'] button[type=submit]")
    page.wait_for_selector("[role=status]")
    assert "Added as" in page.inner_text("[role=status]")
    page.screenshot(path=str(shots / "upload-treaty.png"), full_page=True)

    ledger = tmp_path / "payments.csv"
    ledger.write_text("income,source,residence,beneficial_owner,recipient,amount\n"
                      "dividends,MT,PT,yes,individual,1000.00\n"
                      "dividends,MT,PT,,individual,500.00\n", encoding="utf-8")
    saved = {}
    for fmt in ("csv", "parquet"):
        page.goto(server + "/web/upload")
        page.set_input_files("#ledger-file", str(ledger))
        with page.expect_download() as caught:
            page.click(f"form[action='/ledger'] button[formaction='/ledger?format={fmt}']")
        assert caught.value.suggested_filename == f"ledger-decided.{fmt}"
        saved[fmt] = tmp_path / f"decided.{fmt}"
        caught.value.save_as(str(saved[fmt]))
    rows = list(csv.DictReader(saved["csv"].open(encoding="utf-8")))
    assert [r["treaty"] for r in rows] == ["pt-mt-browser", "pt-mt-browser"]
    assert rows[0]["max_rate_pct"] == "10" and rows[1]["status"] == "indeterminate"
    # the Parquet download reads back with every row, and says what the CSV says
    table = pq.read_table(saved["parquet"]).to_pylist()
    assert len(table) == len(rows) == 2
    for from_parquet, from_csv in zip(table, rows, strict=True):
        for key in ("treaty", "status", "max_rate_pct", "withholding", "eid"):
            assert (from_parquet[key] or "") == from_csv[key], key


def test_download_the_rates_table(server: str, page, shots: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "/web/rates")
    for _ in range(20):  # the table is built once after a change; the page says when it is not ready
        if page.query_selector("table.rates"):
            break
        page.wait_for_timeout(500)
        page.reload()
    page.screenshot(path=str(shots / "rates.png"), full_page=True)
    for label, suffix in (("CSV", "csv"), ("XLSX", "xlsx"), ("Markdown", "md")):
        with page.expect_download() as caught:
            page.click(f"p.downloads a:text('{label}')")
        saved = tmp_path / f"rates.{suffix}"
        caught.value.save_as(str(saved))
        assert caught.value.suggested_filename == f"rates.{suffix}" and saved.stat().st_size > 100
    lines = list(csv.DictReader((tmp_path / "rates.csv").open(encoding="utf-8")))
    assert lines and {"treaty", "source", "residence", "max_rate_pct"} <= set(lines[0])


def test_decide_in_the_ask_form_and_open_the_printable_memo(server: str, page, shots: Path) -> None:  # type: ignore[no-untyped-def]
    # issue 15: a printable decision page, from the ask form's scenario (the CLI's --memo)
    page.goto(server + "/web/ask")
    page.select_option("#income", "dividends")
    page.fill("#source", "TL")
    page.fill("#residence", "PT")
    page.select_option("#beneficial_owner", "yes")
    page.select_option("#recipient", "individual")
    page.click("form.ask button[type=submit]:text('Decide')")
    page.wait_for_load_state()
    assert "art_10" in page.inner_text("main")  # the answer cites the dividends article
    page.screenshot(path=str(shots / "ask.png"), full_page=True)
    with page.context.expect_page() as opened:
        page.click("form.ask button:text('Decision memo (printable)')")
    memo = opened.value
    memo.wait_for_load_state()
    text = memo.inner_text("body")
    assert "Decision memo" in text or "memo" in text.lower()
    assert "TL" in text and "PT" in text and "art_10" in text
    memo.screenshot(path=str(shots / "memo.png"), full_page=True)
