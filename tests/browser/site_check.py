"""Fixtures and the page check of the browser tests (Debian's Chromium driven by Playwright).

A pytest plugin, registered by the root ``conftest.py`` (``pytest_plugins``):
its session fixtures exist once however many files use them.  Not a
``tests/browser/conftest.py``, so that ``from conftest import ...`` keeps
meaning the root one.

``test_book_browser.py`` opens every page from a local static server (127.0.0.1)
and ``test_book_browser_disk.py`` straight from disk (file://).  On each
page: no request leaves the machine, no JavaScript error or console error, math
is typeset by MathJax (no raw ``\\(`` left), every image loads, and a book
page's download menu offers its ``.ipynb``, which exists.  Over http, every
solution and dropdown of the page is opened and the page is checked for its
layout at 1280x800 and on a phone, 390x844 (``layout_check.py`` says what), its
findings written to ``_build/screenshots/<page>.layout.json`` before they are
asserted; a screenshot of the opened page (JPEG: a full-page PNG of a long
chapter costs twice as long) is saved under ``_build/screenshots/`` at both
sizes, ``<page>.desktop.jpg`` and ``<page>.phone.jpg``.

Chromium comes from Debian (``make browser`` installs it when missing); the
Playwright package drives it through ``executable_path``: no browser download.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import layout_check  # noqa: E402  (tests/browser/layout_check.py)
from conftest import build_lock, run_make, toc_chapters  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--allow-file-access-from-files"]
SCREENSHOTS = ROOT / "_build" / "screenshots"
# Console messages that cannot be fixed in the book's configuration, by exact text.
# (None today: the theme's THEBE_JS_URL and colour-mode errors are fixed in _config.yml.)
ALLOWED_CONSOLE: set[str] = set()
SEARCH_WORD = "Matthews"  # the imbalance chapter's Matthews correlation coefficient

BOOK_PAGES = [f"book/{p.stem}.html" for p in toc_chapters()]
# No domain index pages (html_domain_indices: false), so no prf-prf.html.
SITE_PAGES = ["index.html", "genindex.html", "search.html", *BOOK_PAGES]
# The pages a reader reads: the site's root only forwards to the book's first page.
READ_PAGES = [page for page in SITE_PAGES if page != "index.html"]

# The Chinese edition (zh_CN/, tools/translations.py): every page with a catalogue,
# in the order of the book, two pages without one (a stub that links the English page:
# a chapter and a page of the reference) and its search page.  Its pages are the
# English ones read in Chinese: the same checks, plus the edition's own (its language,
# the switch to the same page in English, CJK text that wraps on a phone).
ZH = "zh_CN"
ZH_HTML_LANG = "zh-CN"
ZH_TRANSLATED = [f"{ZH}/book/{p.stem}.html" for p in toc_chapters()
                 if (ROOT / "locale" / ZH / "LC_MESSAGES" / "book" / f"{p.stem}.po").is_file()]
ZH_STUBS = [f"{ZH}/book/roc-auc.html", f"{ZH}/book/api-calibration.html"]
ZH_PAGES = [*ZH_TRANSLATED, *ZH_STUBS, f"{ZH}/search.html"]

@pytest.fixture(scope="session")
def chromium() -> str:
    if not Path(CHROMIUM).is_file():
        result = subprocess.run(["make", "--no-print-directory", "browser"], cwd=ROOT,
                                capture_output=True, text=True)
        if result.returncode != 0 or not Path(CHROMIUM).is_file():
            said = (result.stderr.strip() or result.stdout.strip() or "no message").splitlines()
            pytest.fail(f"Chromium is needed at {CHROMIUM}; `make browser`: {said[-1]}",
                        pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, from the npm package ``make test`` installs (never a CDN)."""
    from accessibility_check import AXE

    if not AXE.is_file():
        run_make(str(AXE.relative_to(ROOT)))
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def server(built_site):
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page closed while a file was still being sent (the next test's page
        # load cancels it): not an error of the site.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots(testrun_uid) -> Path:
    return emptied_once(SCREENSHOTS, testrun_uid)


def emptied_once(folder: Path, run: str) -> Path:
    """``folder``, emptied once per test run and then shared.  Every xdist worker has
    its own session: each emptying the screenshots' folder unguarded, two workers raced
    (one's ``rmtree`` under the other's ``mkdir`` or screenshot).  The first worker of
    the run empties it, under a lock, and marks it with the run's id."""
    mark = folder / ".test-run"
    with build_lock(folder.name):
        if not (mark.is_file() and mark.read_text(encoding="utf-8") == run):
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            mark.write_text(run, encoding="utf-8")
    return folder


class Visit:
    """One page load, with what the page logged and requested."""

    def __init__(self, browser, url: str, redirect: str | None = None):
        self.context = browser.new_context(viewport=layout_check.DESKTOP)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.external: list[str] = []
        self.failed: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        self.context.route("**/*", self._route)
        if redirect:  # the site's root page only forwards to the book's first page
            self.page.goto(url, wait_until="commit")
            self.page.wait_for_url(f"**/{redirect}", wait_until="load")
        else:
            self.page.goto(url, wait_until="load")

    def _console(self, message):
        if message.type == "error" and message.text not in ALLOWED_CONSOLE:
            self.errors.append(f"console: {message.text}")

    def _route(self, route):
        url = urlparse(route.request.url)
        if url.scheme in ("file", "data", "blob") or url.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.external.append(route.request.url)
            route.abort()

    def close(self):
        self.context.close()


def _typeset(page) -> dict:
    """Wait for MathJax (when the page loads it); report math and raw TeX left."""
    page.wait_for_function("() => Array.from(document.images).every(i => i.complete)",
                           timeout=20_000)
    has_mathjax = page.evaluate("() => !!document.querySelector('script[src*=\"mathjax\"]')")
    if has_mathjax:
        page.wait_for_function(
            "() => window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20_000)
        page.evaluate("() => MathJax.startup.promise")
    return page.evaluate("""() => {
        const main = document.querySelector('main') || document.body;
        const copy = main.cloneNode(true);
        copy.querySelectorAll('pre, code, mjx-container, script, style, .highlight')
            .forEach(e => e.remove());
        const text = copy.textContent;
        return {
            mathjax: !!document.querySelector('script[src*="mathjax"]'),
            typeset: document.querySelectorAll('mjx-container').length,
            mathNodes: document.querySelectorAll('main .math, main span.math, main div.math').length,
            raw: (text.match(/\\\\\\(|\\\\\\[|\\$\\$/g) || []).length,
            broken: Array.from(document.images)
                .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
            images: document.images.length,
            ipynb: Array.from(document.querySelectorAll('.dropdown-download-buttons a'))
                .map(a => a.href).filter(h => h.endsWith('.ipynb')),
        };
    }""")


def _redirect(site: Path, page_path: str) -> str | None:
    """Where a forwarding page (``<meta http-equiv="Refresh">``) sends the reader."""
    found = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"',
                      (site / page_path).read_text(encoding="utf-8"), re.IGNORECASE)
    return found.group(1) if found else None


def _check_page(browser, base: str, page_path: str, shots: Path | None):
    redirect = _redirect(ROOT / "_build" / "html", page_path)
    visit = Visit(browser, f"{base}/{page_path}", redirect)
    try:
        state = _typeset(visit.page)
        layout = None
        if shots is not None:
            layout = _layout(visit.page, shots, page_path.replace("/", "_").removesuffix(".html"))
        assert visit.external == [], f"requests to other hosts: {visit.external}"
        assert visit.failed == [], f"failed requests: {visit.failed}"
        assert visit.errors == [], "\n".join(visit.errors)
        if state["mathNodes"]:
            assert state["mathjax"], "math on the page but MathJax not loaded"
            assert state["typeset"] >= state["mathNodes"], state
        assert state["raw"] == 0, f"raw TeX delimiters left: {state['raw']}"
        assert state["broken"] == [], f"images that did not load: {state['broken']}"
        # (a Chinese page offers the English page's notebook: the same cells)
        if page_path.removeprefix(f"{ZH}/") in BOOK_PAGES:
            stem = Path(page_path).stem
            assert any(h.endswith(f"_sources/book/{stem}.ipynb") for h in state["ipynb"]), \
                f"the download menu offers no .ipynb: {state['ipynb']}"
            if base.startswith("http"):
                response = visit.page.request.get(state["ipynb"][0])
                assert response.ok and b'"nbformat": 4' in response.body()
        if layout is not None:
            problems = [f"{size}: {finding}" for size, found in layout.items() for finding in found]
            assert problems == [], "layout:\n" + "\n".join(problems)
        return state
    finally:
        visit.close()


def _layout(page, shots: Path, name: str) -> dict[str, list[str]]:
    """Open every solution and dropdown, measure the page at 1280x800, then on a phone;
    a screenshot at each size (with everything open: what the reader can see)."""
    layout_check.expand(page)
    desktop = layout_check.measure(page)
    found = {"desktop": layout_check.desktop_findings(desktop)}
    page.screenshot(path=str(shots / f"{name}.desktop.jpg"), full_page=True, type="jpeg",
                    quality=80)
    page.set_viewport_size(layout_check.PHONE)
    found["phone"] = layout_check.phone_findings(layout_check.measure(page))
    page.screenshot(path=str(shots / f"{name}.phone.jpg"), full_page=True, type="jpeg",
                    quality=80)
    (shots / f"{name}.layout.json").write_text(json.dumps(found, indent=1),
                                               encoding="utf-8")
    return found
