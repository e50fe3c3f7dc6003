"""Accessibility fixes of the website's markup, each at the point where the HTML is made.

axe-core (tests/browser/test_book_accessibility*.py) found three kinds of WCAG 2
violations that come from the projects the book is built with, not from its pages:

* **pydata-sphinx-theme**: a part of the sidebar's table of contents that has pages under
  it folds them with ``<details><summary>`` whose summary holds only a decorative
  chevron, so a screen reader announces a toggle with no name (WCAG 4.1.2, axe
  ``summary-name``).  Each such summary gets the name of what it folds, "Pages of
  19. Reference", from the link beside it.
* **docutils** (Sphinx's HTML5 writer): the bibliography is a ``role="list"`` whose
  entries carry ``role="doc-biblioentry"``, a role ARIA 1.2 deprecated, so the list has
  no list items (axe ``aria-required-children``, critical, and ``aria-deprecated-role``).
  Entries become ``role="listitem"``.
* **myst-nb**: a folded code cell's summary shows "Show code cell source" but is named
  "Toggle hidden content", so the spoken name does not contain the visible words
  (WCAG 2.5.3, axe ``label-content-name-mismatch``): the generic name is removed and
  the summary is named by what it shows.
* **sphinx-togglebutton**: the button that folds a solution is named "Toggle hidden
  content" on every solution; a small script (``_ext/static/evalmetrics-a11y.js``)
  names it after the solution's title ("Solution to Exercise 6.1 ...").

* **pydata-sphinx-theme** again: the search field's ``aria-label="Search"`` leaves out
  the shortcut it shows ("Search Ctrl+K"), so the spoken name does not contain the
  visible label (WCAG 2.5.3, axe ``label-content-name-mismatch``): a template override
  (``_ext/templates/search-button-field.html``) names it by its content.  Likewise the
  colour-mode button, named "Color mode", held its icons' titles ("Light", "Dark") as
  text: its icons are hidden from assistive technology
  (``_ext/templates/theme-switcher.html``).

The colours of links inside the theorem, exercise and solution boxes (4.29:1 on their
tinted background in the light theme, below the 4.5:1 body text needs) are set in
``_ext/static/evalmetrics.css``.
"""

from __future__ import annotations

import re
from pathlib import Path

DEPRECATED_ENTRY_ROLE = re.compile(r'(<div class="citation"[^>]*?) role="doc-biblioentry"')
# myst-nb's folded cell: a summary that shows "Show code cell source" but is named
# "Toggle hidden content".
GENERIC_SUMMARY = '<summary aria-label="Toggle hidden content">'


def named_by_what_it_shows(body: str) -> str:
    """A folded cell's summary named by its visible words, not a generic label."""
    return body.replace(GENERIC_SUMMARY, "<summary>")


def name_toctree_toggles(soup):
    """Give every nameless ``<summary>`` of a table of contents the name of its part.

    ``soup`` is the theme's parsed sidebar (a BeautifulSoup object, changed in place and
    returned) or its HTML (a new string is returned)."""
    if isinstance(soup, str):
        if "<summary" not in soup:
            return soup
        from bs4 import BeautifulSoup  # a dependency of pydata-sphinx-theme

        return str(name_toctree_toggles(BeautifulSoup(soup, "html.parser")))
    for summary in soup.select("li > details > summary"):
        if summary.get_text(strip=True) or summary.get("aria-label"):
            continue
        item = summary.parent.parent
        link = item.find("a", recursive=False)
        name = link.get_text(" ", strip=True) if link else ""
        summary["aria-label"] = f"Pages of {name}" if name else "Pages of this part"
    return soup


def list_items_for_citations(body: str) -> str:
    """``role="doc-biblioentry"`` (deprecated in ARIA 1.2) becomes a list item."""
    return DEPRECATED_ENTRY_ROLE.sub(r'\1 role="listitem"', body)


def _on_page_context(app, pagename, templatename, context, doctree):
    generate = context.get("generate_toctree_html")
    if generate is not None and not getattr(generate, "names_its_toggles", False):
        def named(*args, **kwargs):
            return name_toctree_toggles(generate(*args, **kwargs))

        named.names_its_toggles = True
        context["generate_toctree_html"] = named
    if "body" in context:
        context["body"] = named_by_what_it_shows(list_items_for_citations(context["body"]))


def _add_templates(app, config):
    config.templates_path.insert(0, str(Path(__file__).resolve().parent / "templates"))


def setup(app):
    app.connect("config-inited", _add_templates)
    # After pydata-sphinx-theme has put its toctree functions into the context (500).
    app.connect("html-page-context", _on_page_context, priority=700)
    app.add_js_file("evalmetrics-a11y.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
