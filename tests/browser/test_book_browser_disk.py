"""The built website in a real browser, read straight from disk (file://).

A reader who unpacks the site and opens ``index.html`` gets the same pages as
over http.  ``test_book_browser.py`` runs the checks of ``site_check.py`` on
every page; from disk, what can differ is how a page's relative paths (its
scripts, MathJax, figures, the notebook download) resolve without a server,
which depends on the page's folder and template, not on its text.  So every
top-level page is checked here, and the first, the last and the most
figure-laden book pages.
"""

from __future__ import annotations

import pytest

from site_check import (  # fixtures: the site_check plugin
    BOOK_PAGES,
    SITE_PAGES,
    ZH_PAGES,
    ZH_STUBS,
    ZH_TRANSLATED,
    _check_page,
)

pytestmark = pytest.mark.book


TOP_LEVEL = [page for page in SITE_PAGES if "/" not in page]
# The Chinese edition's folders too: a translated page and a stub (their MathJax, figures
# and notebook are the English site's, two folders up) and its search page.
FROM_DISK = TOP_LEVEL + [BOOK_PAGES[0], "book/in-practice.html", BOOK_PAGES[-1],
                         ZH_TRANSLATED[-1], ZH_STUBS[0], "zh_CN/search.html"]


def test_the_sample_has_every_folder_of_the_site():
    folders = {page.rpartition("/")[0] for page in SITE_PAGES + ZH_PAGES}
    assert folders == {page.rpartition("/")[0] for page in FROM_DISK}
    assert set(FROM_DISK) <= set(SITE_PAGES + ZH_PAGES)


@pytest.mark.parametrize("page_path", FROM_DISK)
def test_page_from_disk(browser, built_site, page_path):
    _check_page(browser, built_site.as_uri(), page_path, None)
