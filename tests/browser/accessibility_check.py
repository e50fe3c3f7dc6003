"""What the accessibility tests check on a page of the website, in Chromium.

* **axe-core** (``node_modules/axe-core``, the version ``package-lock.json`` names,
  installed by ``make test`` from the npm registry: never a CDN) with every WCAG 2 A
  and AA rule (2.0, 2.1, 2.2), at 1280x800 and 390x844, in the light and the dark
  theme.  A violation is reported as page, size, theme, rule, element and axe's own
  summary of what to fix.
* What a rule engine does not see: the page declares its edition's language (``en``,
  ``zh-CN`` under ``zh_CN/``); the article's
  headings never skip a level; every typeset equation carries MathJax's assistive
  MathML, the text a screen reader reads; a folded solution opens and closes from the
  keyboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import layout_check  # noqa: E402  (tests/browser/layout_check.py)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Every WCAG 2 success criterion of levels A and AA that axe-core tests, 2.0 to 2.2.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# axe-core's rules for WCAG criteria that it still marks experimental (so a run by tags
# leaves them out): Label in Name (2.5.3, level A).
EXPERIMENTAL_WCAG_RULES = ["label-content-name-mismatch"]
SIZES = {"1280x800": layout_check.DESKTOP, "390x844": layout_check.PHONE}
THEMES = ("light", "dark")


@dataclass(frozen=True)
class Violation:
    page: str
    size: str
    theme: str
    rule: str
    impact: str
    target: str
    summary: str

    def __str__(self) -> str:
        return (f"{self.page} at {self.size}, {self.theme} theme: {self.rule} ({self.impact}) "
                f"at {self.target}: {self.summary}")


def _offline(context) -> list[str]:
    """Block and record every request that would leave the machine."""
    leaving: list[str] = []

    def route(request_route):
        url = urlparse(request_route.request.url)
        if url.scheme in ("file", "data", "blob") or url.hostname == "127.0.0.1":
            request_route.continue_()
        else:
            leaving.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    return leaving


def open_page(browser, url: str, *, size: str = "1280x800", theme: str = "light"):
    """A new context at ``size`` in ``theme`` (the theme's own setting, as a reader's
    choice is stored), the page loaded and its equations typeset.  Returns (context, page)."""
    context = browser.new_context(viewport=SIZES[size], color_scheme=theme)
    # pydata-sphinx-theme keeps the reader's choice under "mode" and the theme it
    # resolves to under "theme"; its script in <head> reads both, so a reader who
    # chose dark never sees the light colours.  With "mode" alone the page starts
    # light and turns dark when the theme's script runs, and the colour transitions
    # of Bootstrap's buttons (0.15 s) were measured half-way (CI, stop 28).
    context.add_init_script(f"localStorage.setItem('mode', '{theme}');"
                            f"localStorage.setItem('theme', '{theme}');")
    leaving = _offline(context)
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.wait_for_function("() => !document.querySelector('script[src*=\"mathjax\"]') || "
                           "(window.MathJax && MathJax.startup && MathJax.startup.promise)",
                           timeout=20_000)
    page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    # What a reader sees once the page has settled: no transition half-way.
    # (Animations that never end, such as a spinner, are not waited for.)
    page.evaluate("() => Promise.all(document.getAnimations()"
                  ".filter(a => a.effect && a.effect.getComputedTiming().endTime < Infinity)"
                  ".map(a => a.finished.catch(() => null)))")
    shown = page.evaluate("() => document.documentElement.dataset.theme")
    assert shown == theme, f"{url}: the page shows the {shown} theme, not {theme}"
    assert leaving == [], f"{url}: requests to other hosts: {leaving}"
    return context, page


def axe_violations(page, axe_source: str, page_path: str, size: str, theme: str) -> list[Violation]:
    """axe-core's WCAG 2 A/AA violations on the loaded page, one per element."""
    page.add_script_tag(content=axe_source)
    result = page.evaluate("""([tags, extra]) => axe.run(document, {
        runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
        rules: Object.fromEntries(extra.map(rule => [rule, {enabled: true}]))})""",
                           [WCAG_TAGS, EXPERIMENTAL_WCAG_RULES])
    return [Violation(page_path, size, theme, rule["id"], rule["impact"] or "",
                      " ".join(map(str, node["target"])),
                      " ".join(node.get("failureSummary", "").split()))
            for rule in result["violations"] for node in rule["nodes"]]


def semantic_findings(page, page_path: str) -> list[str]:
    """The page's language, its heading levels and its equations' accessible text."""
    found = page.evaluate("""() => {
        const lang = document.documentElement.getAttribute('lang') || '';
        const article = document.querySelector('main article') || document.querySelector('main');
        const levels = article ? Array.from(article.querySelectorAll('h1, h2, h3, h4, h5, h6'))
            .filter(h => h.offsetParent !== null || h.closest('details'))
            .map(h => [Number(h.tagName[1]), h.textContent.trim().slice(0, 60)]) : [];
        const skips = [];
        for (let i = 1; i < levels.length; i++) {
            if (levels[i][0] > levels[i - 1][0] + 1) skips.push(
                `h${levels[i - 1][0]} "${levels[i - 1][1]}" then h${levels[i][0]} "${levels[i][1]}"`);
        }
        if (levels.length && levels[0][0] !== 1) skips.push(`first heading is h${levels[0][0]}`);
        const equations = Array.from(document.querySelectorAll('mjx-container'));
        const mute = equations.filter(e => {
            const math = e.querySelector('mjx-assistive-mml math');
            return !math || !math.textContent.trim();
        }).map(e => (e.closest('[id]') || {}).id || '?');
        return {lang, skips, equations: equations.length, mute};
    }""")
    findings = []
    # The edition's language (the Chinese pages are under zh_CN/), as a screen reader
    # and a browser's line breaking read it.
    expected = "zh-CN" if page_path.startswith("zh_CN/") else "en"
    if found["lang"] != expected:
        findings.append(f"{page_path}: <html lang={found['lang']!r}>, not {expected!r}")
    findings += [f"{page_path}: heading level skipped: {skip}" for skip in found["skips"]]
    if found["mute"]:
        findings.append(f"{page_path}: {len(found['mute'])} of {found['equations']} equations "
                        f"have no assistive MathML (near: {found['mute'][:5]})")
    return findings


def keyboard_folding(page) -> list[str]:
    """Open and close the first folded solution from the keyboard only: its toggle is a
    focusable button, Enter opens it, Space closes it; returns what went wrong."""
    toggle = page.locator(".solution.dropdown button.toggle-button").first
    if toggle.count() == 0:
        return ["no folded solution with a toggle button"]
    problems = []
    name = toggle.get_attribute("aria-label") or ""
    if "Solution" not in name:
        problems.append(f"the solution's toggle is named {name!r}, not after the solution")
    solution = page.locator(".solution.dropdown").first

    def shown() -> bool:
        return solution.evaluate("""s => Array.from(s.children)
            .filter(c => !c.classList.contains('admonition-title'))
            .some(c => c.offsetParent !== null && c.getBoundingClientRect().height > 0)""")

    if shown():
        problems.append("the solution is shown before it is opened")
    toggle.focus()
    if not toggle.evaluate("b => document.activeElement === b && b.tabIndex >= 0"):
        problems.append("the solution's toggle cannot take the keyboard focus")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    if not shown():
        problems.append("Enter on the toggle did not open the solution")
    if toggle.get_attribute("aria-expanded") != "true":
        problems.append("the opened toggle does not say aria-expanded=true")
    page.keyboard.press("Space")
    page.wait_for_timeout(300)
    if shown():
        problems.append("Space on the toggle did not close the solution")
    return problems
