"""The layout rules of a page, measured in the browser at a desktop and a phone size.

``_check_page`` (``site_check.py``) opens a page once at 1280x800, opens every
part a reader can open (the solutions' dropdowns, ``details`` blocks: ``EXPAND``),
measures it, resizes the same page to a phone (390x844) and measures again: the
theme's layout is CSS, so a resize re-lays the page out without loading it twice.
What is measured (``MEASURE`` below), and the rule each finding breaks:

* **everything a reader can open is measured**: a solution is closed when the
  page loads, but a reader who opens it sees its code and equations at their
  width; measured closed (or skipped, as this check once did) a solution's
  code that scrolls sideways passed.  A part that stays closed is a finding;
* **desktop, fits the column**: no display equation, table, code cell, output,
  figure or caption is wider than its own box (``scrollWidth > clientWidth``:
  for code, the ``pre`` is the box that scrolls) or reaches past the right
  edge of the article column;
* **phone, no sideways page**: the page itself never scrolls sideways
  (``document.scrollingElement.scrollWidth > innerWidth``); an element wider
  than its box sits in a box that scrolls (``overflow-x: auto`` or ``scroll``);
  running text (a paragraph, list item, heading, caption: ``TEXT``) wraps inside
  the column, whatever its script: Chinese breaks between any two characters, but
  a run of Latin, a formula or a code name inside it does not;
  That is what a phone accepts: at 390 px a code cell shows about 38
  characters and a solution's about 30, so code lines, wide display equations
  and wide tables scroll inside their own box (the code rule is the desktop's);
  the page itself never does;
* **figures legible as shown**: a figure is drawn for the width it is shown at:
  the build checks that no text of a figure is below 9 CSS pixels when the figure
  is shown at ``min(its width, WEB_COLUMN_PX)`` (``evalmetrics/plotting/_style.py``,
  applied to every figure the pages draw by ``tools/ipython_startup.py``); here the
  page confirms that assumption: the column is at least ``WEB_COLUMN_PX`` wide and
  every figure is shown at its natural width or the column's, never narrower;
* **code cells**: a code cell or docstring example whose longest line is wider
  than the cell would scroll sideways: a finding like any other.  At 1280 px
  (14 px monospace, 8.4 px a character, 16 px padding each side) 77 characters
  fit in a page's code cell, 69 in an opened solution (its box is indented), 73
  in an API page's indented example;
* **alt text** on every image, saying what the figure shows, not a file path;
* **nothing of the build**: no ``NBVAL_CHECK_OUTPUT`` marker or ``from myst_nb
  import glue`` in a visible cell, no glued integer printed as ``82.0``, no raw
  role or directive text (``{glue:text}`` or a ```` ```{figure} ```` fence) in
  the prose.

Each finding is a short string naming the element and its size; a page passes
when it has none.  The first-run findings of every page are written to
``_build/screenshots/layout-findings.json`` as well (the test collects them).
"""

from __future__ import annotations

import re

from evalmetrics.plotting._style import MIN_WEB_TEXT_PX, WEB_COLUMN_PX

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Elements of the content column that must fit it (desktop) or scroll in their own box
# (phone).  MathJax's display container is the box of a display equation.
WIDE = ", ".join([
    'mjx-container[display="true"]', "table", "div.highlight pre", "div.cell_output pre",
    "img", "figure", "figcaption", "div.math"])
# Running text, which wraps: it never runs past the column, at any width.
TEXT = "p, li, dt, dd, h1, h2, h3, h4, figcaption, caption, .admonition-title"

# Open what a reader can open: the toggle buttons of sphinx-togglebutton (solutions
# are admonitions with class toggle-hidden until their button is pressed) and every
# details block (sphinx-design dropdowns).  Returns how many parts are still closed.
EXPAND = """() => {
    for (const button of document.querySelectorAll('button.toggle-button')) {
        const target = document.getElementById(button.dataset.target);
        if (target && target.classList.contains('toggle-hidden')) button.click();
    }
    for (const details of document.querySelectorAll('details:not([open])')) details.open = true;
    return document.querySelectorAll('article .toggle-hidden, article details:not([open])').length;
}"""

MEASURE = """([selector, column, text]) => {
    const article = document.querySelector('article.bd-article') || document.querySelector('main');
    const box = article.getBoundingClientRect();
    const describe = el => {
        const text = (el.getAttribute('alt') || el.textContent || '').replace(/\\s+/g, ' ').trim();
        const section = el.closest('section[id]');
        return `${el.tagName.toLowerCase()}${section ? ' in #' + section.id : ''}`
            + ` "${text.slice(0, 50)}"`;
    };
    const scrolls = el => {
        for (let e = el; e && e !== article; e = e.parentElement) {
            const o = getComputedStyle(e).overflowX;
            if ((o === 'auto' || o === 'scroll') && e.clientWidth < box.width + 1) return true;
        }
        return false;
    };
    const wide = [];
    for (const el of article.querySelectorAll(selector)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;  // not displayed
        const over = el.scrollWidth - el.clientWidth;
        const past = r.right - box.right;
        if (over > 1 || past > 1) {
            wide.push({what: describe(el), over: Math.round(over), past: Math.round(past),
                       scrolls: scrolls(el),
                       code: el.tagName === 'PRE' && !el.closest('div.cell_output')});
        }
    }
    const unwrapped = [];
    for (const el of article.querySelectorAll(text)) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const over = el.scrollWidth - el.clientWidth;
        const past = r.right - box.right;
        if ((over > 1 || past > 1) && !scrolls(el)) {
            unwrapped.push({what: describe(el), over: Math.round(over), past: Math.round(past)});
        }
    }
    const figures = Array.from(article.querySelectorAll('img')).map(img => ({
        what: describe(img), alt: img.getAttribute('alt') || '', src: img.getAttribute('src') || '',
        natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
        column: img.closest('figure, div.cell_output, p, div') ?
            img.closest('figure, div.cell_output, p, div').clientWidth : box.width,
    }));
    const visibleCode = Array.from(article.querySelectorAll('div.highlight')).map(el => el.textContent);
    // A glued number, with the text that follows it ("94.0 %" is a percentage, not a count).
    const pasted = Array.from(article.querySelectorAll('.pasted-text, .pasted-inline'))
        .map(el => ({text: el.textContent.trim(),
                     after: el.nextSibling ? (el.nextSibling.textContent || '').trim() : ''}));
    const copy = article.cloneNode(true);
    copy.querySelectorAll('pre, code, mjx-container, script, style, .highlight, .math')
        .forEach(e => e.remove());
    return {
        closed: article.querySelectorAll('.toggle-hidden, details:not([open])').length,
        pageWide: document.scrollingElement.scrollWidth - innerWidth,
        column: box.width,
        wide, unwrapped, figures, visibleCode, pasted, prose: copy.textContent,
    };
}"""

ROLE = re.compile(r"\{[a-z][\w:-]*\}`|```\{|^:::", re.MULTILINE)
FILE_NAME = re.compile(r"(^|[/\\])[\w.-]+\.(png|jpe?g|svg|pdf|gif)$|^_?build/|jupyter_execute",
                       re.IGNORECASE)
FLOAT_INTEGER = re.compile(r"^-?\d+\.0$")


def expand(page) -> None:
    """Open every solution and dropdown, as a reader who reads them all would."""
    page.evaluate(EXPAND)


def measure(page) -> dict:
    # Two animation frames: the resize's re-layout has happened before anything is read.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(MEASURE, [WIDE, WEB_COLUMN_PX, TEXT])


def desktop_findings(state: dict) -> list[str]:
    """What breaks the rules at 1280 px (``state`` from :func:`measure`)."""
    found = [f"code wider than its cell by {w['over']} px (shorten its lines): {w['what']}"
             if w["code"] else
             f"wider than its box by {w['over']} px, past the column by {w['past']} px: {w['what']}"
             for w in state["wide"]]
    if state["closed"]:
        found.append(f"{state['closed']} part(s) of the page could not be opened and measured")
    if state["pageWide"] > 0:
        found.append(f"the page scrolls sideways by {state['pageWide']} px")
    if state["figures"] and state["column"] < WEB_COLUMN_PX - 1:
        found.append(f"the content column is {state['column']:.0f} px, narrower than the "
                     f"{WEB_COLUMN_PX} px the figures' text sizes are checked for")
    for fig in state["figures"]:
        expected = min(fig["natural"], WEB_COLUMN_PX)
        if fig["shown"] < expected - 1:
            found.append(f"figure shown {fig['shown']:.0f} px wide, narrower than "
                         f"{expected} px (its text would be under {MIN_WEB_TEXT_PX} px): "
                         f"{fig['what']}")
    found.extend(_unwrapped(state))
    found.extend(_reader_findings(state))
    return found


def phone_findings(state: dict) -> list[str]:
    """What breaks the rules at 390 px: a sideways page, a wide element that does not scroll."""
    found = []
    if state["pageWide"] > 0:
        found.append(f"the page scrolls sideways by {state['pageWide']} px")
    found.extend(f"wider than the screen and not in a scrolling box: {w['what']}"
                 for w in state["wide"] if not w["scrolls"] and not w["what"].startswith("img"))
    found.extend(_unwrapped(state))
    return found


def _unwrapped(state: dict) -> list[str]:
    return [f"text does not wrap in the column (wider by {w['over']} px, past it by "
            f"{w['past']} px): {w['what']}" for w in state["unwrapped"]]


def _words(text: str) -> int:
    """Words of a text: spaces separate English words; Chinese writes none, so each Han
    character counts as one (a caption of a dozen characters is a description)."""
    han = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    return len(text.split()) + han


def _reader_findings(state: dict) -> list[str]:
    found = []
    for fig in state["figures"]:
        alt = fig["alt"].strip()
        if not alt:
            found.append(f"image without alt text: {fig['src']}")
        elif FILE_NAME.search(alt) or alt == fig["src"] or _words(alt) < 3:
            found.append(f"alt text is not a description: {alt!r}")
    for code in state["visibleCode"]:
        found.extend(f"visible cell shows {marker!r}: {code.strip()[:60]!r}"
                     for marker in ("NBVAL_CHECK_OUTPUT", "from myst_nb import glue")
                     if marker in code)
    found.extend(f"glued integer printed as a float: {glued['text']!r}"
                 for glued in state["pasted"]
                 if FLOAT_INTEGER.match(glued["text"]) and not glued["after"].startswith("%"))
    found.extend(f"raw role or directive text in the prose: {m.group(0)!r} in "
                 f"{state['prose'][max(0, m.start() - 40):m.end() + 20]!r}"
                 for m in ROLE.finditer(state["prose"]))
    return found
