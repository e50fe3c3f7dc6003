"""The built website in a real browser, served over http://127.0.0.1.

Every page of ``_build/html`` is checked (``site_check.py`` says what), with a
screenshot; the search page finds "Matthews".  The Chinese edition's pages of
``site_check.ZH_PAGES`` get the same checks, their language switch is followed
both ways, and its search page finds a term of the glossary.  The same pages read
from disk are checked in ``test_book_browser_disk.py``: two files, so that
pytest-xdist runs the two halves on its two workers at once.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from site_check import (  # fixtures: the site_check plugin
    SEARCH_WORD,
    SITE_PAGES,
    ZH,
    ZH_HTML_LANG,
    ZH_PAGES,
    ZH_STUBS,
    ZH_TRANSLATED,
    Visit,
    _check_page,
    emptied_once,
    toc_chapters,
)

pytestmark = pytest.mark.book


def test_the_checked_pages_are_all_the_pages(built_site):
    # The Chinese edition under zh_CN/: its translated pages, two stubs, its search
    # (every page's links, language and switch are read by tests/test_translations.py).
    found = sorted(str(p.relative_to(built_site)) for p in built_site.rglob("*.html")
                   if not p.relative_to(built_site).parts[0].startswith("_")
                   and p.relative_to(built_site).parts[0] != ZH)
    assert found == sorted(SITE_PAGES)
    coverage = json.loads((built_site / ZH / "translation-coverage.json").read_text())["pages"]
    assert sorted(ZH_TRANSLATED) == sorted(f"{ZH}/{doc}.html" for doc, record in coverage.items()
                                           if not record["stub"])
    assert all(coverage[page.removeprefix(f"{ZH}/").removesuffix(".html")]["stub"]
               for page in ZH_STUBS)
    assert all((built_site / page).is_file() for page in ZH_PAGES)


@pytest.mark.parametrize("page_path", SITE_PAGES + ZH_PAGES)
def test_page_over_http(browser, server, screenshots, page_path):
    _check_page(browser, server, page_path, screenshots)


def _switch(visit) -> tuple[str, str]:
    """The page's language and where its language switch leads."""
    lang = visit.page.evaluate("() => document.documentElement.lang")
    links = visit.page.locator("a.evalmetrics-language-switch")
    assert links.count() == 1, f"{links.count()} language switches"
    return lang, links.first.evaluate("a => a.href")


@pytest.mark.parametrize("page_path", [p for p in ZH_PAGES if p.startswith(f"{ZH}/book/")])
def test_the_language_switch_leads_to_the_same_page_and_back(browser, server, page_path):
    english_path = page_path.removeprefix(f"{ZH}/")
    for here, there, lang in ((page_path, english_path, ZH_HTML_LANG),
                              (english_path, page_path, "en")):
        visit = Visit(browser, f"{server}/{here}")
        try:
            found, target = _switch(visit)
            assert found == lang
            assert target == f"{server}/{there}"
            visit.page.locator("a.evalmetrics-language-switch").first.click()
            visit.page.wait_for_url(f"{server}/{there}")
            assert visit.page.evaluate("() => document.documentElement.lang") != lang
            assert visit.errors == [] and visit.external == []
        finally:
            visit.close()


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


# A term of the glossary (its user dictionary makes jieba index it as one word) and
# the pages that use it, by their Chinese titles: the Brier chapter's and the glossary's.
ZH_SEARCH = ("分辨力", ["Brier 分数的可靠度—分辨力分解", "术语表"])


@pytest.mark.parametrize("mode", ["http", "file"])
def test_chinese_search_finds_a_glossary_term(browser, server, built_site, mode):
    base = server if mode == "http" else built_site.as_uri()
    word, titles = ZH_SEARCH
    visit = Visit(browser, f"{base}/{ZH}/search.html?q={word}")
    try:
        visit.page.wait_for_selector("#search-results ul.search li", timeout=20_000)
        hits = visit.page.locator("#search-results ul.search li").all_inner_texts()
        missing = [t for t in titles if not any(t in h for h in hits)]
        assert missing == [], (missing, hits)
        # the hits are the Chinese edition's pages
        links = visit.page.locator("#search-results ul.search li a").evaluate_all(
            "links => links.map(a => a.href)")
        assert links and all(f"/{ZH}/" in link for link in links), links
        assert visit.errors == [] and visit.external == []
    finally:
        visit.close()


def test_the_screenshots_folder_is_emptied_once_per_run(tmp_path):
    # Each xdist worker asks for the folder; only the run's first request empties it,
    # and no worker's request removes another's screenshot.
    folder = tmp_path / "screenshots"
    folder.mkdir()
    (folder / "last-run.jpg").write_text("old", encoding="utf-8")

    def worker(number):  # a worker's first request, then its screenshot
        assert emptied_once(folder, "run-1") == folder
        (folder / f"{number}.jpg").write_text(str(number), encoding="utf-8")

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(worker, range(64)))
    assert sorted(path.name for path in folder.glob("*.jpg")) == \
        sorted(f"{number}.jpg" for number in range(64))
    emptied_once(folder, "run-2")
    assert [path.name for path in folder.iterdir()] == [".test-run"]
