"""Sphinx extension of the evalmetrics handbook: a site that works offline, pages
that download as runnable notebooks, and builds that never show stale numbers.

* **Fresh numbers.**  myst-nb's execution cache keys on the text of the code
  cells only, so a change to the ``evalmetrics`` package would leave every page
  with the numbers of the old code.  A hash of the package's source (and of the
  IPython start-up file below) is stored beside the cache; when it differs, the
  cache and the saved environment are dropped before anything is read, so every
  page runs again.
* **Pages run in parallel.**  myst-nb executes a page when Sphinx reads it, one
  after another.  At ``env-before-read-docs`` the pages about to be read that
  are not in the cache run first, two kernels at a time
  (``tools/preexecute.py``; config value ``evalmetrics_execution_workers``,
  default from ``EVALMETRICS_BOOK_WORKERS`` or 2; 0 leaves everything to
  myst-nb), into myst-nb's own cache under myst-nb's own key, so the reading
  finds every page cached.  A page that fails is left to myst-nb, which runs it
  again and fails the build as before; stderr outputs are rendered from the
  cache, so ``stderr_output: warn`` still warns.
* **Vector figures.**  The kernels myst-nb starts inherit ``IPYTHONDIR``; this
  extension points it at a profile in the build folder whose start-up file
  (``tools/ipython_startup.py``) asks matplotlib's inline backend for PNG *and* PDF,
  applies the handbook's font sizes and logs every figure whose text would be
  too small on the website or in the PDF; the log fails the build (a warning).  HTML shows the PNG, LaTeX takes the PDF.
* **Offline MathJax.**  MathJax 3 is copied from the ``sphinx-mathjax-offline``
  wheel into ``_static/mathjax/`` of the HTML output (only the CommonHTML
  output, its fonts, the TeX extensions and the accessibility parts: about
  7 MB instead of 24) and ``mathjax_path`` points at it.  Nothing of it sits in
  a root ``_static/`` folder, whose scripts Jupyter Book would load on every page.
* **Notebook downloads.**  At the end of an HTML build every page is written as a
  plain-Jupyter notebook (``tools/notebooks.py``) to ``_sources/<page>.ipynb``,
  and the page's download menu links it (sphinx-book-theme offers the ``.ipynb``
  entry only when ``ipynb_source`` is set, which it does itself only with a
  launch button).  Only the notebooks of pages read again since they were
  written, or all of them when a title, number or citation of the book changed,
  are converted again (``.evalmetrics-notebooks.json`` in the HTML output).
  Then ``evalmetrics-notebooks.zip`` (``tools/notebook_zip.py``: every notebook,
  a wheel of the package built from the same sources, a README) is written to
  the HTML output, and every page's download menu links it.
* **Layout.**  ``_ext/static/evalmetrics.css``: long names break instead of
  widening a phone's page, printed output wraps at the column, a wide index
  table scrolls in its own box (the rules: ``tests/browser/layout_check.py``).
* **Alt text.**  A figure drawn by a page's cell (``mystnb.figure`` metadata) has no alt text
  of its own, and the HTML writer would fall back to the image's file name: at
  ``doctree-resolved`` an image without alt text takes the first sentence of its
  figure's caption, which says what the figure shows (an ``:alt:`` option wins).
* **Citations in round brackets.**  ``bibtex_reference_style: author_year_round``
  is sphinxcontrib-bibtex's author-year style with parentheses instead of its
  square brackets: "(Fawcett, 2006)" and "Fawcett (2006)", as the downloaded
  notebooks write them, on the website and in the PDF alike.
* **Entries found by their citation.**  ``bibtex_default_style: author_year_entries``
  formats every entry of the bibliography as the notebooks list it: the authors and
  the year first, "Tom Fawcett (2006). An introduction to ROC analysis. ...", then
  the entry's ``annote``, one sentence on what the book reads the work for.  pybtex's
  own styles put the year last and label the entry "[Faw06]", a label no citation
  shows: the labels are hidden, on the website by ``_ext/static/evalmetrics.css`` and
  in the PDF by the preamble of ``_config.yml``.  An entry without an ``annote``
  fails the build (a warning).
"""

from __future__ import annotations

import atexit
import dataclasses
import gc
import hashlib
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import nbformat
import sphinxcontrib.bibtex.plugin
from pybtex.plugin import register_plugin as register_pybtex_plugin
from pybtex.style.formatting import toplevel
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.formatting.unsrt import pages as entry_pages
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.template import field, first_of, join, names, optional, optional_field, sentence, tag, words
from sphinx.util import logging
from sphinx.util.fileutil import copy_asset
from sphinxcontrib.bibtex.style.referencing import BracketStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_failures  # noqa: E402  (tools/build_failures.py)
import notebook_zip  # noqa: E402  (tools/notebook_zip.py)
import notebooks  # noqa: E402  (tools/notebooks.py)
import preexecute  # noqa: E402  (tools/preexecute.py)

logger = logging.getLogger(__name__)

def _round_brackets() -> BracketStyle:
    return BracketStyle(left="(", right=")")


@dataclasses.dataclass
class RoundAuthorYearStyle(AuthorYearReferenceStyle):
    """Author-year citations in parentheses (the plugin ``author_year_round``)."""

    bracket_textual: BracketStyle = dataclasses.field(default_factory=_round_brackets)
    bracket_parenthetical: BracketStyle = dataclasses.field(default_factory=_round_brackets)
    bracket_author: BracketStyle = dataclasses.field(default_factory=_round_brackets)
    bracket_label: BracketStyle = dataclasses.field(default_factory=_round_brackets)
    bracket_year: BracketStyle = dataclasses.field(default_factory=_round_brackets)


class AuthorYearEntryStyle(UnsrtStyle):
    """Bibliography entries as the text cites them (the plugin ``author_year_entries``).

    pybtex's ``unsrt`` templates for the entry types of ``book/references.bib``, with
    the year moved from the end to just after the authors, and the ``annote`` field
    (what the book reads the work for) as a closing sentence in italics.  Entries are
    sorted as the text cites them (:class:`CitedOrder`), as the notebooks sort them.
    """

    default_sorting_style = "cited_author_year"
    # Hidden on the website and in the PDF (the entry itself starts with the citation).
    default_label_style = "alpha"
    # The entry types the templates below cover; tests/test_book_config.py checks the .bib.
    ENTRY_TYPES = ("article", "book", "incollection", "inproceedings", "misc")

    def format_names(self, role, as_sentence=True):
        # "Alan Agresti and Brent A. Coull", "A, B and C": the notebooks' list, no serial comma.
        formatted = names(role, sep=", ", sep2=" and ", last_sep=" and ")
        return sentence[formatted] if as_sentence else formatted

    def author_year(self):
        return sentence[join[self.format_names("author", as_sentence=False), " (", field("year"), ")"]]

    def annotation(self):
        return optional[sentence[tag("em")[field("annote")]]]

    def get_article_template(self, e):
        volume_and_pages = first_of[
            optional[join[field("volume"), optional["(", field("number"), ")"], ":", entry_pages]],
            words["pages", entry_pages],
        ]
        return toplevel[
            self.author_year(), self.format_title(e, "title"),
            sentence[tag("em")[field("journal")], optional[volume_and_pages]],
            sentence[optional_field("note")], self.annotation(),
        ]

    def get_book_template(self, e):
        return toplevel[
            self.author_year(), self.format_btitle(e, "title"), self.format_volume_and_series(e),
            sentence[field("publisher"), optional_field("address"), self.format_edition(e)],
            sentence[optional_field("note")], self.annotation(),
        ]

    def get_incollection_template(self, e):
        return toplevel[
            self.author_year(), self.format_title(e, "title"),
            words["In", sentence[self.format_btitle(e, "booktitle", as_sentence=False),
                                 self.format_chapter_and_pages(e)]],
            sentence[optional_field("publisher"), optional_field("address")],
            self.annotation(),
        ]

    def get_inproceedings_template(self, e):
        return toplevel[
            self.author_year(), self.format_title(e, "title"),
            words["In", sentence[self.format_btitle(e, "booktitle", as_sentence=False),
                                 optional[entry_pages]]],
            sentence[optional_field("note")], self.annotation(),
        ]

    def get_misc_template(self, e):
        return toplevel[
            self.author_year(), self.format_title(e, "title"),
            sentence[optional_field("howpublished")],
            sentence[optional_field("note")], self.annotation(),
        ]


class CitedOrder(BaseSortingStyle):
    """Entries by the authors as a citation names them ("Everingham et al."), then year and
    title: two works of one first author with different co-authors stand in the order of
    their years, as in the notebooks' reference lists (tools/notebooks.py)."""

    def sorting_key(self, entry):
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        lasts = [" ".join(p.prelast_names + p.last_names) for p in people]
        cited = (lasts[0] if len(lasts) == 1 else " and ".join(lasts) if len(lasts) == 2
                 else f"{lasts[0]} et al." if lasts else entry.fields.get("organization", entry.key))
        return cited.lower(), entry.fields.get("year", ""), entry.fields.get("title", "").lower()


# Registered on import, before sphinxcontrib-bibtex looks the styles up.
sphinxcontrib.bibtex.plugin.register_plugin(
    "sphinxcontrib.bibtex.style.referencing", "author_year_round", RoundAuthorYearStyle)
register_pybtex_plugin("pybtex.style.formatting", "author_year_entries", AuthorYearEntryStyle)
register_pybtex_plugin("pybtex.style.sorting", "cited_author_year", CitedOrder)

# What the executed outputs depend on besides the code cells' text.
CACHE_INPUTS = ("evalmetrics/**/*.py", "tools/ipython_startup.py")
# The parts of MathJax 3 that tex-chtml.js loads (fonts, \require'd or autoloaded
# TeX extensions, the menu's accessibility options).
MATHJAX_PARTS = ("tex-chtml.js", "output/chtml", "input/tex/extensions", "ui", "a11y", "sre")


def source_hash(root: Path = ROOT, patterns=CACHE_INPUTS) -> str:
    """SHA-256 over the paths and contents of the files the outputs depend on."""
    digest = hashlib.sha256()
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def discard_stale_cache(cache: Path, doctrees: Path, jupyter_execute: Path,
                        current: str) -> bool:
    """Drop the execution cache (and what was built from it) unless it was written
    for the ``current`` source hash; returns True when something was dropped."""
    stamp = cache.with_name(cache.name + ".source-sha256")
    recorded = stamp.read_text().strip() if stamp.is_file() else None
    dropped = False
    if recorded != current:
        for path in (cache, doctrees, jupyter_execute):
            if path.exists():
                shutil.rmtree(path)
                dropped = True
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(current + "\n")
    return dropped


def _cache_path(app) -> Path:
    configured = getattr(app.config, "nb_execution_cache_path", "")
    return Path(configured) if configured else Path(app.outdir).parent / ".jupyter_cache"


def _on_config_inited(app, config):
    # Fresh numbers: runs before Sphinx loads its saved environment.
    cache = _cache_path(app).resolve()
    build = Path(app.outdir).parent
    if discard_stale_cache(cache, Path(app.doctreedir), build / "jupyter_execute",
                           source_hash()):
        logger.info("evalmetrics changed since the execution cache was written: "
                    "cache discarded, every page runs again")
    # Vector figures: the kernels inherit the environment of this process.
    ipython = build / ".ipython"
    startup = ipython / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ROOT / "tools" / "ipython_startup.py", startup / "00-evalmetrics.py")
    os.environ["IPYTHONDIR"] = str(ipython)
    # Figure text: the kernels log each figure whose text is too small (the start-up
    # file); a figure of a hidden cell shows no stderr, so the log is read at env-updated.
    log = build / "figure-text.log"
    log.unlink(missing_ok=True)
    os.environ["EVALMETRICS_FIGURE_LOG"] = str(log)
    # Offline MathJax (unless a page set explicitly wants another one).
    if not config.mathjax_path or "cdn.jsdelivr.net" in config.mathjax_path:
        # A translated edition loads the English site's copy (its _static is ../../_static).
        translated = (config.language or "en") != "en"
        config.mathjax_path = ("../../_static/" if translated else "") + "mathjax/tex-chtml.js"


def _mathjax_source() -> Path:
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or spec.origin is None:
        raise RuntimeError("MathJax for the offline site comes from the "
                           "sphinx-mathjax-offline package: pip install sphinx-mathjax-offline")
    return Path(spec.origin).parent / "static" / "mathjax"


def _copy_mathjax(outdir: Path) -> None:
    source = _mathjax_source()
    target = outdir / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        path = source / part
        if path.is_dir():
            copy_asset(str(path), str(target / part))
        else:
            target.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target / part)


# ------------------------------------------------------------- pre-execution


def _workers_default() -> int:
    try:
        return int(os.environ.get("EVALMETRICS_BOOK_WORKERS", "2"))
    except ValueError:
        return 2


def _timings_file(app) -> Path:
    cache = _cache_path(app).resolve()
    return cache.with_name(cache.name + ".seconds.json")


# The wheel of the notebooks' zip, being built (notebook_zip.start_wheel) while Sphinx
# reads and writes the pages on one core: a function that waits for it.
_wheel: list = []


def _start_wheel(app, *args):
    """Connected to env-before-read-docs after the pre-execution: the kernels are done."""
    if app.builder.format != "html":
        return None
    wait = notebook_zip.start_wheel(ROOT, ROOT / "_build" / "wheel", package_version())
    _wheel[:] = [wait]
    return wait


def _on_env_before_read_docs(app, env, docnames):
    """Parallel execution: the pages about to be read that myst-nb would execute
    run now, ``evalmetrics_execution_workers`` kernels at a time, into its cache."""
    workers = app.config.evalmetrics_execution_workers
    nb_config = env.mystnb_config
    if workers < 1 or nb_config.execution_mode != "cache" or not docnames:
        return
    from jupyter_cache import get_cache

    pages = []
    for docname in sorted(docnames):
        try:
            page = preexecute.read_page(docname, str(Path(env.doc2path(docname))),
                                        env.myst_config, nb_config)
        except Exception:  # myst-nb reports it when it reads the page
            continue
        if page is not None:
            pages.append(page)
    cache = get_cache(nb_config.execution_cache_path)
    done = preexecute.preexecute(pages, cache, workers, timings_file=_timings_file(app),
                                 log=logger.info)
    failed = [build_failures.describe(page.docname, page.notebook, page.error)
              for page in done if page.error is not None]
    if failed:
        _failed_pages.extend(failed)
        if len(_failed_pages) == len(failed):
            # At exit: after the traceback jupyter-book prints for the first failing page.
            atexit.register(_print_failed_pages)


_failed_pages: list[str] = []
_build_failed = False


def _print_failed_pages():
    # Only after a build that failed: a page can fail here and pass when myst-nb runs it again.
    if _build_failed:
        print("\n".join(build_failures.summary(sorted(_failed_pages))), file=sys.stderr, flush=True)


# ------------------------------------------------------------------ notebooks


def book_references(app) -> notebooks.Book:
    """Titles, numbers and citations of the whole book, from the Sphinx environment."""
    env = app.env
    book = notebooks.Book()
    book.titles = {doc: title.astext() for doc, title in env.titles.items()}
    std = env.domaindata.get("std", {})
    for label, (doc, node_id, text) in std.get("labels", {}).items():
        book.targets[label] = (doc, text or book.titles.get(doc, label))
        for kind in ("figure", "table", "code-block", "exercise"):
            number = env.toc_fignumbers.get(doc, {}).get(kind, {}).get(node_id)
            if number:
                book.numbers[label] = (kind, ".".join(map(str, number)))
    for label, (doc, _) in std.get("anonlabels", {}).items():
        book.targets.setdefault(label, (doc, book.titles.get(doc, label)))
    for label, (doc, eqno) in env.domaindata.get("math", {}).get("objects", {}).items():
        number = str(eqno)
        if app.config.math_numfig and app.config.numfig:
            found = env.toc_fignumbers.get(doc, {}).get("displaymath", {})
            number = ".".join(map(str, found.get(f"equation-{label}", ()))) or number
        book.numbers[label] = ("equation", number)
        book.targets.setdefault(label, (doc, f"({number})"))
    for label, proof in getattr(env, "proof_list", {}).items():
        kind = proof.get("realtype") or proof.get("type", "theorem")
        number = ""
        if not proof.get("nonumber"):
            found = env.toc_fignumbers.get(proof["docname"], {}).get(proof.get("countertype"), {})
            number = ".".join(map(str, found.get(label, ())))
        book.numbers[label] = (kind, number)
        book.targets.setdefault(label, (proof["docname"], f"{kind.title()} {number}".strip()))
    book.citations = notebooks.citations_from_bibtex(
        Path(app.srcdir) / path for path in app.config.bibtex_bibfiles)
    book.numfig_format = {**book.numfig_format, **dict(app.config.numfig_format or {})}
    book.eqref_format = app.config.math_eqref_format or "({number})"
    book.macros = dict((app.config.mathjax3_config or {}).get("tex", {}).get("macros", {}))
    book.chapters = chapter_numbers(app)
    book.version = package_version()
    book.website = getattr(app.config, "evalmetrics_website", "") or app.config.html_baseurl or ""
    book.wheel = f"evalmetrics-{book.version}-py3-none-any.whl"
    return book


def package_version() -> str:
    """The package's version, as its wheel is named: ``__version__`` of
    evalmetrics/__init__.py, the one place that holds it (pyproject.toml reads
    it from there), read without importing the package."""
    import ast

    tree = ast.parse((ROOT / "evalmetrics" / "__init__.py").read_text())
    return next(node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(target, "id", None) == "__version__" for target in node.targets))


def chapter_numbers(app) -> dict[str, str]:
    """docname -> chapter number: Sphinx's own when it numbers the chapters, else the
    chapter's place in the root's table of contents (how the PDF numbers them)."""
    env = app.env
    numbers = {}
    for doc, secnumbers in env.toc_secnumbers.items():
        number = secnumbers.get("")
        if number and len(number) == 1:
            numbers[doc] = str(number[0])
    if numbers:
        return numbers
    chapters = [doc for doc in env.toctree_includes.get(app.config.root_doc, [])]
    return {doc: str(i) for i, doc in enumerate(chapters, start=1)}


def executed_notebook(app, docname: str):
    """The page as myst-nb read it for this build, with the outputs of its execution.

    myst-nb saves the notebook it parsed to ``jupyter_execute/<page>.ipynb`` (without
    outputs when they came from the cache); the outputs are merged back from the
    cache.  Reading that file rather than the page's source keeps the notebook
    identical to the HTML even when the source changes during the build.
    """
    from jupyter_cache import get_cache

    saved = Path(app.env.mystnb_config.output_folder) / f"{docname}.ipynb"
    if not saved.is_file():  # a plain Markdown page: one Markdown cell
        text = Path(app.env.doc2path(docname)).read_text(encoding="utf-8")
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        return nb
    nb = nbformat.read(saved, as_version=4)
    # A page without code cells runs too (its kernel's language_info is cached); it
    # is merged when found, so a cache hit gives the notebook a fresh run gives.
    cache = get_cache(app.env.mystnb_config.execution_cache_path)
    try:
        _, nb = cache.merge_match_into_notebook(nb)
    except KeyError:
        if any(cell.cell_type == "code" for cell in nb.cells):
            raise
    return nb


def notebook_pages(app) -> list[str]:
    """The pages that get a downloadable notebook: every Markdown page of the book."""
    return sorted(doc for doc in app.env.found_docs
                  if str(app.env.doc2path(doc)).endswith(".md"))


# Which notebooks of _sources/ are up to date: page -> key (see _write_notebooks).
NOTEBOOK_MANIFEST = ".evalmetrics-notebooks.json"  # in the HTML output, like .buildinfo


def notebooks_fingerprint(book: notebooks.Book) -> str:
    """What every page's notebook depends on besides the page itself: the whole
    book's titles, numbers, citations and macros, and the converter's code."""
    digest = hashlib.sha256(json.dumps(dataclasses.asdict(book), sort_keys=True,
                                       default=str).encode())
    for path in (ROOT / "tools" / "notebooks.py", Path(__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _read_manifest(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_notebooks(app) -> None:
    """Write ``_sources/<page>.ipynb`` for every page whose notebook may have changed.

    A page's key is the book's fingerprint and the time Sphinx last read the page
    (``env.all_docs``, by any builder: the HTML and LaTeX builds share the
    environment).  Re-reading a page is what brings new outputs (an execution, a
    cache hit after the cache was dropped) or new text, and a changed reference
    elsewhere changes the fingerprint; a page whose key is the one its notebook was
    written with, and whose notebook is there, is skipped.  Pages that warned are
    never recorded, so their warnings come back on every build.
    """
    book = book_references(app)
    outdir = Path(app.outdir) / "_sources"
    fingerprint = notebooks_fingerprint(book)
    manifest_path = Path(app.outdir) / NOTEBOOK_MANIFEST
    manifest = _read_manifest(manifest_path)
    written = {}
    for docname in notebook_pages(app):
        target = outdir / f"{docname}.ipynb"
        key = f"{fingerprint}:{app.env.all_docs.get(docname)}"
        if manifest.get(docname) == key and target.is_file():
            written[docname] = key
            continue
        try:
            nb = executed_notebook(app, docname)
        except KeyError:
            logger.warning(f"{docname}: its executed notebook is not in the cache "
                           "(did the page fail to run?)", location=docname)
            continue
        converted, problems = notebooks.convert_notebook(
            nb, book, docname=docname, srcdir=Path(app.srcdir))
        for problem in problems:
            logger.warning(f"notebook download: {problem}", location=docname)
        text = "\n".join(c.source for c in converted.cells if c.cell_type == "markdown")
        leftovers = notebooks.leftover_myst(text)
        for kind in leftovers:
            logger.warning(f"notebook download: raw MyST left ({kind})", location=docname)
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(converted, target)
        # The worked solutions of the page's exercises, a notebook of their own.
        solutions, more = notebooks.solutions_notebook(
            nb, book, docname=docname, srcdir=Path(app.srcdir))
        if solutions is not None:
            for problem in more:
                logger.warning(f"solutions notebook: {problem}", location=docname)
            text = "\n".join(c.source for c in solutions.cells if c.cell_type == "markdown")
            for kind in notebooks.leftover_myst(text):
                logger.warning(f"solutions notebook: raw MyST left ({kind})", location=docname)
                more = [*more, kind]
            nbformat.write(solutions, outdir / f"{docname}-solutions.ipynb")
            problems = [*problems, *more]
        if not problems and not leftovers:
            written[docname] = key
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n")
    _write_zip(app, book)


def _write_zip(app, book: notebooks.Book) -> None:
    """``evalmetrics-notebooks.zip``: the chapters' notebooks, the wheel, a README."""
    outdir = Path(app.outdir) / "_sources"
    files, chapters = [], []
    # Every page's notebook (a chapter links to the reference's pages too), the
    # chapters in reading order first; the README lists the chapters.
    order = {doc: int(number) for doc, number in book.chapters.items()}
    # (and the chapters of the toc without a number, the bibliography, after them)
    unnumbered = [doc for doc in app.env.toctree_includes.get(app.config.root_doc, [])
                  if doc not in order]
    for docname in sorted(notebook_pages(app), key=lambda doc: (order.get(doc, 10**6), doc)):
        notebook = outdir / f"{docname}.ipynb"
        if not notebook.is_file():
            continue
        files.append(notebook)
        solutions = outdir / f"{docname}-solutions.ipynb"
        if solutions.is_file():
            files.append(solutions)
        if docname in order or docname in unnumbered:
            chapters.append((book.chapters.get(docname, ""), book.titles.get(docname, docname),
                             notebook.name))
    try:
        wheel = (_wheel.pop() if _wheel else _start_wheel(app))()
    except RuntimeError as error:
        logger.warning(f"notebooks zip: {error}")
        return
    notebook_zip.write_zip(Path(app.outdir) / notebook_zip.ZIP_NAME, files, wheel,
                           notebook_zip.readme(book.version, wheel.name, chapters),
                           notebook_zip.wheel_constraints(ROOT))


def _on_build_finished(app, exception):
    global _build_failed
    _build_failed = _build_failed or exception is not None or app.statuscode != 0
    if exception is not None or app.builder.format != "html":
        return
    if _translated(app):
        return  # MathJax, the notebooks and their zip are the English edition's
    _copy_mathjax(Path(app.outdir))
    _write_notebooks(app)


def _translated(app) -> bool:
    """A translated edition (tools/translations.py): it sits in ``zh_CN/`` of the English
    site and uses the English edition's MathJax, notebooks and zip (the same cells)."""
    return (app.config.language or "en") != "en"


def _edition_prefix(app) -> str:
    """From a translated edition's root to the English site's root."""
    return "../" if _translated(app) else ""


def _on_page_context(app, pagename, templatename, context, doctree):
    # Runs before sphinx-book-theme's header buttons (priority 501).
    if doctree is not None and pagename in app.env.found_docs and \
            str(app.env.doc2path(pagename)).endswith(".md"):
        # The theme links ``<edition root>/_sources/`` + this: a translated page's notebook
        # is the English site's, in its _sources/.
        context["ipynb_source"] = _edition_prefix(app) * 2 + "_sources/" + pagename + ".ipynb" \
            if _translated(app) else pagename + ".ipynb"


def _report_figure_text(app, env):
    log = Path(os.environ.get("EVALMETRICS_FIGURE_LOG", Path(app.outdir).parent / "figure-text.log"))
    if log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            logger.warning(line)


def bibliography_problems(paths) -> list[str]:
    """What keeps an entry of the .bib files from reading as the bibliography promises:
    an entry type the style has no template for, or no ``annote``."""
    from pybtex.database import parse_file

    problems = []
    for path in paths:
        for key, entry in parse_file(str(path)).entries.items():
            if entry.type not in AuthorYearEntryStyle.ENTRY_TYPES:
                problems.append(f"{key}: entry type @{entry.type} has no author-year template "
                                f"(_ext/evalmetrics_book.py, AuthorYearEntryStyle)")
            if not entry.fields.get("annote", "").strip():
                problems.append(f"{key}: no annote field (one sentence: what the book reads it for)")
    return problems


def _check_bibliography(app):
    for problem in bibliography_problems(Path(app.srcdir) / path for path in app.config.bibtex_bibfiles):
        logger.warning(f"bibliography: {problem}")


def _add_stylesheet(app, config):
    config.html_static_path.append(str(ROOT / "_ext" / "static"))
    app.add_css_file("evalmetrics.css")


def _plain_math(app, latex: str) -> str:
    """Inline TeX as plain words for alt text: the book's macros expanded, commands and
    braces dropped (``\\cFP = 1`` reads as ``c_FP = 1``)."""
    import re

    macros = app.config.mathjax3_config.get("tex", {}).get("macros", {})
    for name, body in sorted(macros.items(), key=lambda item: -len(item[0])):
        latex = re.sub(rf"\\{name}(?![A-Za-z])", lambda _: body, latex)
    latex = re.sub(r"\\[,;:! ]", " ", latex)
    latex = re.sub(r"\\(mathrm|operatorname|mathbb|text)(?![A-Za-z])", "", latex)
    latex = re.sub(r"\\([A-Za-z]+)", r"\1", latex)
    return latex.replace("{", "").replace("}", "")


def _alt_from_caption(app, doctree, docname):
    from docutils import nodes

    for figure in doctree.findall(nodes.figure):
        captions = [child for child in figure.children if isinstance(child, nodes.caption)]
        if not captions:
            continue
        parts = [_plain_math(app, node.astext()) if isinstance(node, nodes.math) else node.astext()
                 for node in captions[0].findall(lambda n: isinstance(n, (nodes.math, nodes.Text)))
                 if not isinstance(node, nodes.Text) or not isinstance(node.parent, nodes.math)]
        text = " ".join("".join(parts).split())
        # The first sentence: up to the first full stop followed by a space.
        # (A Chinese caption ends with its own full stop, 。, and gets no second one.)
        sentence = text.split(". ", 1)[0].rstrip(".")
        sentence += "" if sentence.endswith("。") else "."
        for image in figure.findall(nodes.image):
            if not image.get("alt"):
                image["alt"] = sentence


def _offer_zip(app, pagename, templatename, context, doctree):
    """Every page's download menu offers the zip of all the notebooks and the wheel."""
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append({
                "type": "link",
                "url": context["pathto"](_edition_prefix(app) + notebook_zip.ZIP_NAME, 1),
                "text": "all notebooks .zip",
                "tooltip": "Download every chapter's notebook and the package's wheel",
                "icon": "fas fa-file-zipper",
                "label": "download-notebooks-zip-button",
            })


def _adopt_nodes(app, doctree) -> None:
    """Point every node of a page at the page's own document.

    MyST renders an ``{eval-rst}`` block (the Reference pages' docstrings) into a
    document of its own and moves its top nodes into the page; the nodes nested in them
    keep a reference to that second document, whose settings hold Sphinx's whole build environment.
    Pickled with the page, it made each Reference page's doctree 3.6 MB instead of
    about 0.2 MB, and every build loads every doctree to number the figures: seconds
    of each rebuild.  A node without its own ``_document`` asks its parent.
    """
    for node in doctree.findall(include_self=False):
        if getattr(node, "_document", None) is not None and node._document is not doctree:
            node._document = None


# Python's cycle collector, at its default thresholds, walks the whole heap (every
# doctree node Sphinx has unpickled) every few hundred thousand allocations: a third of
# a rebuild.  Collected ten times less often, a full rebuild from the execution cache
# takes 20 s instead of 28 s and a prose edit 3.5 s instead of 4.6 s, for 10-40 MB more.
GC_THRESHOLDS = (50_000, 20, 10)


def setup(app):
    gc.set_threshold(*GC_THRESHOLDS)
    # Kernels run at once by the pre-execution (0: none, myst-nb runs every page itself).
    app.add_config_value("evalmetrics_execution_workers", _workers_default(), "", int)
    app.connect("config-inited", _on_config_inited, priority=100)
    app.connect("env-before-read-docs", _on_env_before_read_docs)
    app.connect("env-before-read-docs", _start_wheel, priority=600)
    app.connect("html-page-context", _on_page_context, priority=400)
    # After sphinx-book-theme built the header buttons (its priority 501).
    app.connect("html-page-context", _offer_zip, priority=600)
    app.connect("build-finished", _on_build_finished)
    app.connect("doctree-resolved", _alt_from_caption)
    app.connect("doctree-read", _adopt_nodes)
    app.connect("config-inited", _add_stylesheet)
    app.connect("env-updated", _report_figure_text)
    app.connect("builder-inited", _check_bibliography)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
