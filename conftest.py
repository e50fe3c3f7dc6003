"""pytest set-up of the repository: the book's chapters run through nbval, and the
built website, notebooks and PDFs are provided to the tests that check them.

nbval
-----
Every chapter listed in ``_toc.yml`` is read through jupytext and run by nbval in
lax mode: every cell runs (so every ``assert`` of a hidden cell is checked) and
only cells tagged ``nbval-check-output`` (nbval's tag; a tag, not nbval's
``# NBVAL_CHECK_OUTPUT`` comment, so that a reader never sees it) have their
output compared.  A MyST
page stores no outputs, so the expected outputs of marked cells live in
``tests/book_outputs/<page>.json``, recorded by ``make expected-outputs`` from a
run whose asserts pass, and reviewed like any other expected value.  A marked
cell whose output was never recorded fails (it never passes unchecked).

The chapters are collected when pytest runs its default ``testpaths`` (plain
``pytest``) and when a page or ``book/`` is named on the command line
(``pytest book/roc-auc.md``); not when ``-m`` deselects the ``book`` marker
(``pytest -m "not book"``), which then needs neither nbval nor jupytext:
both are imported only when a page is collected.

Built artifacts
---------------
``built_site``, ``built_pdf`` and ``handout`` build with the Makefile targets
when their output is missing or older than any of the book's inputs.  A failed
build fails the tests that need it: nothing is skipped because a build failed.

Parallel runs
-------------
``make test`` runs pytest-xdist workers with ``--dist loadfile``: a page's cells
share one kernel, so a file never leaves its worker.  Workers share ``_build/``:
the check "is it fresh, else build" is done under ``build_lock(artifact)``, so one
worker builds and the others wait and then find the output fresh (no second build
rewrites ``_build/html`` while another worker's tests read it).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
# The browser tests' fixtures (tests/browser/site_check.py), registered once for the
# whole session: both browser test files use the same Playwright browser.
sys.path.insert(0, str(ROOT / "tests" / "browser"))
pytest_plugins = ["site_check"]
BOOK = ROOT / "book"
BUILD = ROOT / "_build"
OUTPUTS = ROOT / "tests" / "book_outputs"
# What a built page depends on (for deciding whether a build is stale).
BOOK_INPUTS = ("book/*", "_config.yml", "_toc.yml", "_ext/*.py", "_ext/static/*", "_ext/templates/*",
               "tools/*.py", "locale/*/LC_MESSAGES/book/*.po",
               "evalmetrics/**/*.py", "pyproject.toml")


# ------------------------------------------------------------------ chapters


def toc_chapters() -> list[Path]:
    """The Markdown files of every page listed in ``_toc.yml``, in reading order."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]]

    def walk(node):
        for part in node.get("parts", []):
            walk(part)
        for entry in node.get("chapters", []) + node.get("sections", []):
            if "file" in entry:
                files.append(entry["file"])
            walk(entry)

    walk(toc)
    return [ROOT / f"{name}.md" for name in files if (ROOT / f"{name}.md").is_file()]


def is_notebook(path: Path) -> bool:
    """A MyST notebook page (jupytext header with a kernel), not plain Markdown."""
    head = path.read_text(encoding="utf-8")[:2000]
    return head.startswith("---") and "kernelspec:" in head


def selects_book(config) -> bool:
    """Whether ``-m`` keeps items marked ``book`` (every cell of a page is one)."""
    if not config.option.markexpr:
        return True
    # pytest's own parser of -m expressions (the one its deselection uses).
    from _pytest.mark.expression import Expression

    return Expression.compile(config.option.markexpr).evaluate(lambda name, **_: name == "book")


def pytest_configure(config):
    config.addinivalue_line("markers", "book: the chapters through nbval and the checks of the "
                            "built book (site, notebooks, PDF); deselect with -m 'not book'")
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS and selects_book(config):
        config.args.extend(str(p) for p in toc_chapters() if is_notebook(p))


# The slowest test files, run first: pytest-xdist hands out whole files (--dist
# loadfile) in collection order, so a long file collected last would leave one
# worker alone at the end.
SLOW_FIRST = ("tests/browser/test_book_browser.py", "tests/test_book_notebooks.py",
              "tests/browser/test_book_browser_disk.py", "tests/test_common.py")


def pytest_collection_modifyitems(session, config, items):
    def rank(item):
        path = Path(str(item.fspath)).resolve().relative_to(ROOT).as_posix()
        return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: the order within each file is kept


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".md" and file_path.parent == BOOK and selects_book(parent.config) and \
            file_path in toc_chapters() and is_notebook(file_path):
        return page_collector().from_parent(parent, path=file_path)
    return None


def load_expected(page: str) -> dict[str, list]:
    """Recorded outputs of the marked cells of a page: cell source -> outputs."""
    path = OUTPUTS / f"{page}.json"
    if not path.is_file():
        return {}
    return {cell["source"]: cell["outputs"]
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]}


@functools.cache
def page_collector():
    """The nbval collector of a MyST page; nbval is imported here, when a page is collected."""
    from nbval.plugin import IPyNbCell, IPyNbFile, find_comment_markers, find_metadata_tags

    class MystNotebook(IPyNbFile):
        """A MyST Markdown page run by nbval (lax mode, whatever the command line says)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.compare_outputs = False

        def setup(self):
            # nbval starts the kernel named in the notebook, in the page's folder (as
            # myst-nb does); the kernel should not pick up a personal IPython profile.
            # One folder per xdist worker: two kernels never share IPython's history database.
            worker = os.environ.get("PYTEST_XDIST_WORKER", "")
            os.environ.setdefault("IPYTHONDIR", str(BUILD / f".ipython-tests{worker}"))
            super().setup()

        def collect(self):
            import jupytext
            import nbformat

            self.nb = jupytext.read(str(self.path), fmt="md:myst")
            expected = load_expected(self.path.stem)
            cell_num = 0
            for cell in self.nb.cells:
                if cell.cell_type != "code":
                    continue
                options = defaultdict(bool, find_metadata_tags(cell.metadata))
                options.update(dict(find_comment_markers(cell.source)))
                options.setdefault("check", False)
                missing = False
                if options["check"]:
                    if cell.source in expected:
                        cell.outputs = nbformat.from_dict(expected[cell.source])
                        cell.execution_count = 1  # nbval compares only cells that "ran"
                    else:
                        missing = True
                item = MystCell.from_parent(self, name=f"Cell {cell_num}", cell_num=cell_num,
                                            cell=cell, options=options)
                item.missing_expected = missing
                item.add_marker(pytest.mark.book)
                yield item
                cell_num += 1

    class MystCell(IPyNbCell):
        """A cell of a page; a marked cell without recorded output fails after running."""

        missing_expected = False

        def runtest(self):
            if self.missing_expected:
                self.options["check"] = False
            super().runtest()
            if self.missing_expected:
                pytest.fail(f"{self.parent.path.name}, cell {self.cell_num} is tagged "
                            "nbval-check-output but has no recorded output in "
                            f"tests/book_outputs/{self.parent.path.stem}.json: run "
                            "`make expected-outputs` and review the recorded values",
                            pytrace=False)

    return MystNotebook


# ------------------------------------------------------------ built artifacts


def newest_input() -> float:
    """Modification time of the newest file the book's build depends on."""
    newest = 0.0
    for pattern in BOOK_INPUTS:
        for path in ROOT.glob(pattern):
            if path.is_file() and "__pycache__" not in path.parts:
                newest = max(newest, path.stat().st_mtime)
    return newest


def fresh(path: Path) -> bool:
    return path.is_file() and path.stat().st_mtime >= newest_input()


@contextlib.contextmanager
def build_lock(artifact: str, *, shared: bool = False):
    """Held while a test checks a built artifact and (re)builds it: xdist workers
    take turns.  One lock per artifact (a worker checking the site does not wait for
    another's handout), none of them ``_build/.lock``, which the Makefile takes.
    ``shared=True``: held by a test that reads the artifact, so that no other worker
    rebuilds it under the reader (several readers at once)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / f".test-{artifact}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run_make(*target: str) -> None:
    """Run a Makefile target; a failure fails the calling test (never a skip)."""
    log = BUILD / f"make-{'-'.join(target).replace(' ', '_').replace('=', '-')[:60]}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(["make", "--no-print-directory", *target], cwd=ROOT,
                            capture_output=True, text=True)
    log.write_text(result.stdout + result.stderr, encoding="utf-8")
    if result.returncode != 0:
        tail = (result.stdout + result.stderr)[-5000:]
        pytest.fail(f"`make {' '.join(target)}` failed (full log: {log}):\n{tail}",
                    pytrace=False)


# The fixtures through which a test reads ``_build/html`` (directly, or served over
# http by tests/browser/site_check.py).
SITE_READERS = frozenset({"built_site", "server"})


@pytest.fixture(autouse=True)
def _site_not_rebuilt_while_read(request):
    """A test that reads the site holds the site's lock shared until it ends, so that a
    test that rebuilds the site (test_book_pdf's, after ``make pdf``) waits for it, and
    it for the rebuild.  Without this a page was read in the middle of a rebuild by
    the other worker, when Sphinx's pygments.css is its light style only (the theme
    writes the dark one at the end of the build): dark-theme contrast failures."""
    if SITE_READERS.isdisjoint(request.fixturenames):
        yield
        return
    with build_lock("html", shared=True):
        yield


@pytest.fixture(scope="session")
def built_site() -> Path:
    """``_build/html``, rebuilt with ``make book`` if older than the book's inputs."""
    stamp = BUILD / ".html-built"  # touched by `make book` after a clean build
    with build_lock("html"):
        if not fresh(stamp):
            run_make("book")
    if not stamp.is_file():
        pytest.fail("make book succeeded but did not mark _build/html as built", pytrace=False)
    return BUILD / "html"


@pytest.fixture(scope="session")
def built_pdf() -> Path:
    """``_build/latex/evalmetrics.pdf``, rebuilt with ``make pdf`` if stale."""
    pdf = BUILD / "latex" / "evalmetrics.pdf"
    with build_lock("pdf"):
        if not fresh(pdf):
            run_make("pdf")
    if not pdf.is_file():
        pytest.fail("make pdf succeeded but wrote no _build/latex/evalmetrics.pdf", pytrace=False)
    return pdf


@pytest.fixture(scope="session")
def built_zh_pdf() -> Path:
    """The Chinese edition's PDF, ``_build/zh_CN/evalmetrics-zh_CN.pdf``, rebuilt with
    ``make pdf LANGUAGE=zh_CN`` if stale (tools/translations.py)."""
    pdf = BUILD / "zh_CN" / "evalmetrics-zh_CN.pdf"
    with build_lock("pdf-zh_CN"):
        if not fresh(pdf):
            run_make("pdf", "LANGUAGE=zh_CN")
    if not pdf.is_file():
        pytest.fail(f"make pdf LANGUAGE=zh_CN succeeded but wrote no {pdf}", pytrace=False)
    return pdf


@pytest.fixture(scope="session")
def handout():
    """A function building (if stale) the handout of some pages, the student edition
    or with ``solutions=True`` the instructor edition; returns its PDF."""

    def build(pages: list[str], title: str = "", solutions: bool = False) -> Path:
        edition = "instructor" if solutions else "student"
        pdf = BUILD / "handout" / f"{'-'.join(pages)}-{edition}.pdf"
        with build_lock("handout"):
            if not fresh(pdf):
                run_make("handout", f"PAGES={' '.join(pages)}", f"TITLE={title}",
                         f"SOLUTIONS={'yes' if solutions else 'no'}")
        if not pdf.is_file():
            pytest.fail(f"make handout wrote no {pdf}", pytrace=False)
        return pdf

    return build
