"""The built website in a real browser, served over http://127.0.0.1.

Every page of ``_build/html`` is checked (``site_check.py`` says what), with a
screenshot; the search page finds "Matthews".  The same pages read from disk
are checked in ``test_book_browser_disk.py``: two files, so that pytest-xdist
runs the two halves on its two workers at once.
"""

from __future__ import annotations

import re

import pytest

from site_check import SEARCH_WORD, SITE_PAGES, Visit, _check_page, toc_chapters  # fixtures: the site_check plugin

pytestmark = pytest.mark.book


def test_the_checked_pages_are_all_the_pages(built_site):
    # The Chinese edition under zh_CN/ is checked by tests/test_translations.py.
    found = sorted(str(p.relative_to(built_site)) for p in built_site.rglob("*.html")
                   if not p.relative_to(built_site).parts[0].startswith("_")
                   and p.relative_to(built_site).parts[0] != "zh_CN")
    assert found == sorted(SITE_PAGES)


@pytest.mark.parametrize("page_path", SITE_PAGES)
def test_page_over_http(browser, server, screenshots, page_path):
    _check_page(browser, server, page_path, screenshots)


def test_the_site_is_offline_in_its_html(built_site):
    """No page refers to a script, style sheet or font on another host."""
    pattern = re.compile(r"<(script|link)\b[^>]*(src|href)=\"(https?:)?//", re.IGNORECASE)
    for path in built_site.rglob("*.html"):
        bad = pattern.findall(path.read_text(encoding="utf-8"))
        assert not bad, f"{path.relative_to(built_site)} loads from another host"
    assert (built_site / "_static" / "mathjax" / "tex-chtml.js").is_file()


@pytest.mark.parametrize("mode", ["http", "file"])
def test_search_finds_matthews(browser, server, built_site, mode):
    base = server if mode == "http" else built_site.as_uri()
    word = SEARCH_WORD
    visit = Visit(browser, f"{base}/search.html?q={word}")
    try:
        visit.page.wait_for_selector("#search-results ul.search li", timeout=20_000)
        hits = visit.page.locator("#search-results ul.search li").all_inner_texts()
        assert hits, f"no search results for {word}"
        # the pages whose text has the word are among the hits (by their titles)
        titles = [line[2:].strip() for p in toc_chapters() if word in p.read_text(encoding="utf-8")
                  for line in p.read_text(encoding="utf-8").splitlines()[:40]
                  if line.startswith("# ")]
        assert titles, f"no chapter has the word {word}"
        assert any(t in h for t in titles for h in hits), (titles, hits)
        assert visit.errors == [] and visit.external == []
    finally:
        visit.close()
