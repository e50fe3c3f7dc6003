"""Accessibility of the website in the dark theme: axe-core finds no WCAG 2 A/AA
violation on any page at 1280x800 and 390x844 (the light theme and the checks beyond
axe are in ``test_book_accessibility.py``)."""

from __future__ import annotations

import pytest
from accessibility_check import SIZES, axe_violations, open_page

from site_check import READ_PAGES, ZH_PAGES

pytestmark = pytest.mark.book
THEME = "dark"


@pytest.mark.parametrize("page_path", READ_PAGES + ZH_PAGES)
def test_no_wcag_violation_in_the_dark_theme(browser, server, axe_source, page_path):
    violations = []
    for size in SIZES:
        context, page = open_page(browser, f"{server}/{page_path}", size=size, theme=THEME)
        try:
            violations += axe_violations(page, axe_source, page_path, size, THEME)
        finally:
            context.close()
    assert not violations, f"{len(violations)} WCAG 2 A/AA violation(s):\n" + \
        "\n".join(map(str, violations))
