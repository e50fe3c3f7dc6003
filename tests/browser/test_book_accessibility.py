"""Accessibility of the website: axe-core finds no WCAG 2 A/AA violation on any page, at
1280x800 and 390x844, in the light theme (``accessibility_check.py`` says what is run),
the Chinese edition's pages of ``site_check.ZH_PAGES`` included;
the page's language, heading levels, equations' accessible text and the keyboard
folding of solutions.  The dark theme is ``test_book_accessibility_dark.py``: two files,
so that pytest-xdist runs the two themes on its two workers at once."""

from __future__ import annotations

import pytest
from accessibility_check import (
    SIZES,
    axe_violations,
    keyboard_folding,
    open_page,
    semantic_findings,
)

from site_check import READ_PAGES, ZH_PAGES

pytestmark = pytest.mark.book
THEME = "light"


@pytest.mark.parametrize("page_path", READ_PAGES + ZH_PAGES)
def test_no_wcag_violation(browser, server, axe_source, page_path):
    violations = []
    for size in SIZES:
        context, page = open_page(browser, f"{server}/{page_path}", size=size, theme=THEME)
        try:
            violations += axe_violations(page, axe_source, page_path, size, THEME)
        finally:
            context.close()
    assert not violations, f"{len(violations)} WCAG 2 A/AA violation(s):\n" + \
        "\n".join(map(str, violations))


@pytest.mark.parametrize("page_path", READ_PAGES + ZH_PAGES)
def test_language_headings_and_equations(browser, server, page_path):
    context, page = open_page(browser, f"{server}/{page_path}")
    try:
        assert semantic_findings(page, page_path) == []
    finally:
        context.close()


def test_a_solution_folds_from_the_keyboard(browser, server):
    context, page = open_page(browser, f"{server}/book/roc-auc.html")
    try:
        assert keyboard_folding(page) == []
    finally:
        context.close()
