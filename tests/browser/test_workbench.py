"""The workbench in a real browser: list -> treaty -> language switch -> ask -> trace link,
injected markup inert, phone width readable, keyboard reachable; screenshots saved."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def test_open_treaty_switch_language_ask_and_follow_trace(server: str, page, shots: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/web/")
    page.screenshot(path=str(shots / "01-list.png"), full_page=True)
    row = page.locator("table.treaties tbody tr", has_text="PT – TL")
    assert row.count() == 1 and "2011-09-27" in row.inner_text()
    row.locator("a").first.click()
    page.wait_for_url(re.compile(r"/web/treaties/"))
    treaty_url = page.url
    # bilingual side by side, aligned on the eId
    aligned = page.locator("#art_10__para_2 > div.cell")
    assert aligned.count() == 2
    assert aligned.nth(0).get_attribute("lang") == "pt" and aligned.nth(1).get_attribute("lang") == "en"
    assert page.locator("#pt-art_10__para_2 p.damage").count() == 1  # lost list items are marked
    page.screenshot(path=str(shots / "02-reader-side-by-side.png"))
    if os.environ.get("TAXTREATY_UPDATE_SCREENSHOT"):  # the README picture: dividends, side by side
        page.goto(treaty_url + "#art_10")
        page.wait_for_timeout(1500)  # let the :target flash fade
        page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
        page.goto(treaty_url)

    page.get_by_role("navigation", name="Language versions").get_by_role("link", name="English").click()
    page.wait_for_url(re.compile(r"lang=en"))
    assert page.locator("div.cell[lang='pt']").count() == 0 and page.locator("div.cell[lang='en']").count() > 10
    page.screenshot(path=str(shots / "03-reader-english.png"))

    page.goto(treaty_url)
    page.get_by_role("link", name="Ask this treaty").click()
    page.get_by_label("Income", exact=True).select_option("pensions")
    page.get_by_label("Source State", exact=True).fill("TL")
    page.get_by_label("Residence State", exact=True).fill("PT")
    page.get_by_role("button", name="Decide").click()
    decision = page.locator("section.decision")
    decision.wait_for()
    assert "determined" in decision.inner_text()
    page.screenshot(path=str(shots / "04-decision.png"), full_page=True)

    link = page.locator("ol.trace a.trace-link").first
    href = link.get_attribute("href")
    assert href and "#" in href
    link.click()
    page.wait_for_url(re.compile(re.escape(href.split("#")[1]) + "$"))
    target = page.locator("#" + href.split("#")[1])
    assert target.is_visible()
    if "hl=" in href:
        assert target.locator("mark.quote").count() >= 1
    page.screenshot(path=str(shots / "05-trace-target.png"))
    assert page.dialogs == []


def test_injected_script_stays_inert(server: str, page, shots: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server}/web/")
    page.locator("table.treaties tbody tr", has_text=re.compile(r"CY – PT|PT – CY")).locator("a").first.click()
    page.wait_for_load_state("load")
    cell = page.locator("div.cell", has_text="alert(1)").first
    assert "<script>alert(1)</script>" in cell.inner_text()
    assert "«term»" in cell.inner_text() and '"quoted"' in cell.inner_text()
    assert page.locator("main img").count() == 0
    page.goto(f"{server}/web/search?q=alert")
    assert page.locator("ol.hits li").count() >= 1
    page.wait_for_timeout(200)
    assert page.dialogs == []
    page.screenshot(path=str(shots / "06-inert.png"))


def test_phone_width_has_no_horizontal_scroll_and_keyboard_works(browser, server: str, shots: Path) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/web/")
        page.locator("table.treaties tbody tr", has_text="PT – TL").locator("a").first.click()
        page.wait_for_load_state("load")
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1] + 1, width
        # side by side becomes stacked: the English cell sits below the Portuguese one
        pt_box = page.locator("#pt-art_10__para_1").bounding_box()
        en_box = page.locator("#en-art_10__para_1").bounding_box()
        assert en_box["y"] > pt_box["y"] and abs(en_box["x"] - pt_box["x"]) < 5
        page.screenshot(path=str(shots / "07-phone.png"))
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.className") == "skip"
        page.keyboard.press("/")
        assert page.evaluate("() => document.activeElement.id") == "site-q"
        page.keyboard.type("beneficial owner")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/web/search\?q="))
        assert page.locator("ol.hits mark").count() >= 1
    finally:
        context.close()
