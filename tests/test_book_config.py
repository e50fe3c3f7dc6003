"""The book's build machinery, without building the book: configuration, the
execution-cache guard, the parallel pre-execution (small pages, real kernels), the
notebook downloads of unchanged pages, the handout's warning filter, the
system-package helper."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))

import evalmetrics_book  # noqa: E402
import handout  # noqa: E402
import notebooks  # noqa: E402
import preexecute  # noqa: E402
import system  # noqa: E402

CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def test_mathjax_macros_and_latex_preamble_agree():
    sphinx = CONFIG["sphinx"]["config"]
    mathjax = sphinx["mathjax3_config"]["tex"]["macros"]
    preamble = sphinx["latex_elements"]["preamble"]
    latex = dict(re.findall(r"\\newcommand\{\\(\w+)\}\{(.*)\}\s*$", preamble, re.MULTILINE))
    assert latex == mathjax


def test_thebe_is_not_loaded_and_the_colour_mode_is_set():
    sphinx = CONFIG["sphinx"]["config"]
    assert "sphinx_thebe" not in sphinx["extensions"]
    assert "evalmetrics_book" in sphinx["extensions"]
    assert sphinx["html_context"]["default_mode"] in ("light", "dark", "auto")
    # Jupyter Book replaces its own list by this one: extra_extensions would be ignored
    assert "extra_extensions" not in CONFIG["sphinx"]


def test_build_gate_settings():
    assert CONFIG["execute"]["raise_on_error"] is True
    assert CONFIG["execute"]["execute_notebooks"] == "cache"
    assert CONFIG["latex"]["latex_engine"] == "xelatex"
    assert CONFIG["latex"]["use_jupyterbook_latex"] is False
    assert CONFIG["latex"]["latex_documents"]["targetname"] == "evalmetrics.tex"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "build -n -W --keep-going" in makefile


# ------------------------------------------------------- execution cache guard


def make_package(root: Path, text: str) -> None:
    (root / "evalmetrics").mkdir(parents=True, exist_ok=True)
    (root / "evalmetrics" / "m.py").write_text(text)


def test_source_hash_follows_the_package_source(tmp_path):
    make_package(tmp_path, "x = 1\n")
    first = evalmetrics_book.source_hash(tmp_path)
    (tmp_path / "evalmetrics" / "__pycache__").mkdir()
    (tmp_path / "evalmetrics" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"junk")
    assert evalmetrics_book.source_hash(tmp_path) == first
    make_package(tmp_path, "x = 2\n")
    assert evalmetrics_book.source_hash(tmp_path) != first


def build_dirs(tmp_path: Path):
    dirs = [tmp_path / "_build" / name for name in (".jupyter_cache", ".doctrees",
                                                    "jupyter_execute")]
    for path in dirs:
        path.mkdir(parents=True, exist_ok=True)
        (path / "data").write_text("old outputs")
    return dirs


def test_cache_is_dropped_when_the_source_changed(tmp_path):
    cache, doctrees, executed = build_dirs(tmp_path)
    # a cache without a recorded hash is of unknown origin: dropped
    assert evalmetrics_book.discard_stale_cache(cache, doctrees, executed, "aaa")
    assert not cache.exists() and not doctrees.exists() and not executed.exists()
    build_dirs(tmp_path)
    assert not evalmetrics_book.discard_stale_cache(cache, doctrees, executed, "aaa")
    assert (cache / "data").is_file() and (doctrees / "data").is_file()
    assert evalmetrics_book.discard_stale_cache(cache, doctrees, executed, "bbb")
    assert not cache.exists() and not doctrees.exists() and not executed.exists()
    assert (cache.parent / ".jupyter_cache.source-sha256").read_text().strip() == "bbb"


def test_cache_inputs_cover_the_package_and_the_figure_format():
    inputs = evalmetrics_book.CACHE_INPUTS
    assert "evalmetrics/**/*.py" in inputs
    assert any("ipython_startup" in pattern for pattern in inputs)
    startup = (ROOT / "tools" / "ipython_startup.py").read_text(encoding="utf-8")
    assert "figure_formats = ['png', 'pdf']" in startup


def test_mathjax_comes_from_an_installed_package():
    source = evalmetrics_book._mathjax_source()
    for part in evalmetrics_book.MATHJAX_PARTS:
        assert (source / part).exists(), part


# ----------------------------------------------------------------- handout


def test_handout_tolerates_only_references_into_left_out_chapters(monkeypatch):
    monkeypatch.setattr(handout, "chapters", lambda: ["notation", "roc-auc", "calibration"])
    monkeypatch.setattr(handout, "labels_of",
                        lambda page: {"notation", "book/notation", "eq-notation"}
                        if page == "notation" else {page})
    log = "\n".join([
        "book/index.md:47: WARNING: undefined label: 'notation'",
        "book/roc-auc.md:3: WARNING: undefined label: 'eq-notation'",
        "book/roc-auc.md:9: WARNING: undefined label: 'roc-typo'",
        "book/calibration.md:1: WARNING: Failed to format text/plain data",
        "book/roc-auc.md:163: WARNING: py:func reference target not found: "
        "evalmetrics.roc_curve",
        "book/roc-auc.md:164: WARNING: py:func reference target not found: "
        "evalmetrics.roc_curv",
        "reading sources... [ 50%] book/roc-auc",
    ])
    bad = handout.unexpected_warnings(log, ["roc-auc", "calibration"])
    assert bad == ["book/roc-auc.md:9: WARNING: undefined label: 'roc-typo'",
                   "book/calibration.md:1: WARNING: Failed to format text/plain data",
                   "book/roc-auc.md:164: WARNING: py:func reference target not found: "
                   "evalmetrics.roc_curv"]


def test_handout_inputs(tmp_path):
    toc_path, config_path = handout.write_inputs(["roc-auc", "calibration"], "A title", tmp_path)
    toc = yaml.safe_load(toc_path.read_text())
    assert toc["root"] == "book/index"
    # A numbered part without a caption (no \part in a handout, chapters numbered), then
    # the bibliography, back matter, unnumbered as in the book.
    part, back = toc["parts"]
    assert part["numbered"] == 1 and "caption" not in part
    assert [c["file"] for c in part["chapters"]] == ["book/roc-auc", "book/calibration"]
    assert back == {"chapters": [{"file": "book/bibliography"}]}
    config = yaml.safe_load(config_path.read_text())
    assert config["title"] == "A title"
    assert config["only_build_toc_files"] is True  # the chosen pages, not every page found
    # The full book's numbers and titles (_ext/evalmetrics_latex.py): chapter numbers
    # follow _toc.yml through its numbered parts; neither the preface (index) nor the
    # back matter (bibliography, glossary) has one.
    options = config["sphinx"]["config"]
    book = handout.book_numbers()
    assert list(book) == [page for page in handout.chapters() if page not in ("bibliography", "glossary")]
    # A reference into the glossary, left out as a numbered chapter would be, names it.
    assert options["evalmetrics_foreign_labels"]["glossary"] == "glossary"
    assert book[handout.chapters()[0]] == 1
    assert options["evalmetrics_handout"] is True
    assert options["evalmetrics_chapter_numbers"] == {
        page: book[page] for page in ("roc-auc", "calibration")}
    assert options["evalmetrics_chapter_titles"]["bibliography"] == "Bibliography"
    # the student edition by default, named on its title page and running head
    assert options["evalmetrics_solutions"] is False
    assert options["evalmetrics_edition"] == "Student edition"
    assert options["latex_elements"]["papersize"] == "a4paper"  # the book's paper
    assert options["evalmetrics_chapter_titles"]["roc-auc"] == handout.page_title("roc-auc")
    assert options["evalmetrics_book_title"] == yaml.safe_load(
        (ROOT / "_config.yml").read_text())["title"]
    # A label of a left-out chapter leads to it; the handout's own labels are not foreign.
    foreign = options["evalmetrics_foreign_labels"]
    assert foreign["pitfalls"] == "pitfalls"
    assert "roc-auc" not in foreign and "calibration" not in foreign
    assert config["latex"]["latex_documents"] == {"targetname": "handout.tex", "title": "A title"}
    assert all(Path(p).is_absolute() for p in config["bibtex_bibfiles"])
    assert all(Path(p).is_absolute() for p in config["sphinx"]["local_extensions"].values())


def test_handout_editions_and_paper(tmp_path):
    _, config_path = handout.write_inputs(["roc-auc"], "T", tmp_path, solutions=True,
                                          paper="letter")
    options = yaml.safe_load(config_path.read_text())["sphinx"]["config"]
    assert options["evalmetrics_solutions"] is True
    assert options["evalmetrics_edition"] == "Instructor edition (with solutions)"
    assert options["latex_elements"]["papersize"] == "letterpaper"
    # the rest of the book's LaTeX settings stay
    assert "preamble" in options["latex_elements"]


def _latex_config(monkeypatch, **environment):
    """The configuration as _ext/evalmetrics_latex.py leaves it for a LaTeX build of the
    book under these environment variables (what `make pdf PAPER=... SOLUTIONS=...` sets)."""
    import types

    sys.path.insert(0, str(ROOT / "_ext"))
    import evalmetrics_latex

    for name in ("EVALMETRICS_PAPER", "EVALMETRICS_SOLUTIONS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    config = types.SimpleNamespace(
        latex_elements={"papersize": "a4paper"}, evalmetrics_handout=False,
        evalmetrics_solutions=True, evalmetrics_edition="",
        latex_documents=[("book/index", "evalmetrics.tex", "Evaluation metrics", "A", "manual")])
    evalmetrics_latex._book_options(None, config)
    return config


def test_make_pdf_paper_and_student_edition(monkeypatch):
    import types

    config = _latex_config(monkeypatch)
    assert config.latex_elements["papersize"] == "a4paper" and config.evalmetrics_solutions
    assert config.evalmetrics_edition == ""
    config = _latex_config(monkeypatch, EVALMETRICS_PAPER="letter", EVALMETRICS_SOLUTIONS="no")
    assert config.latex_elements["papersize"] == "letterpaper"
    assert config.evalmetrics_solutions is False
    assert config.evalmetrics_edition == "Student edition"
    import evalmetrics_latex

    app = types.SimpleNamespace(config=config)
    assert evalmetrics_latex._student_target(app, None) == []
    assert config.latex_documents[0][1] == "evalmetrics-student.tex"
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match="EVALMETRICS_PAPER='legal'"):
        _latex_config(monkeypatch, EVALMETRICS_PAPER="legal")
    with pytest.raises(ConfigError, match="EVALMETRICS_SOLUTIONS='maybe'"):
        _latex_config(monkeypatch, EVALMETRICS_SOLUTIONS="maybe")
    # A4 by default (_config.yml), and the Makefile passes both variables to the build
    assert CONFIG["sphinx"]["config"]["latex_elements"]["papersize"] == "a4paper"
    makefile = (ROOT / "Makefile").read_text()
    assert 'EVALMETRICS_PAPER="$(PAPER)" EVALMETRICS_SOLUTIONS="$(SOLUTIONS)"' in makefile
    assert '--paper "$(PAPER)"' in makefile


def test_handout_rejects_unknown_pages(capsys):
    assert handout.main(["no-such-chapter"]) == 2
    assert "not chapters of the book" in capsys.readouterr().err


# ------------------------------------------------------------ system packages


@pytest.mark.skipif(not Path("/usr/bin/dpkg-query").exists(), reason="not a Debian system")
def test_missing_debian_packages_are_found():
    assert system.missing(["dpkg"]) == []
    assert system.missing(["no-such-package-evalmetrics"]) == ["no-such-package-evalmetrics"]


# A fake dpkg-query that reads the installed packages from a file, and a fake apt-get
# that logs when it starts and ends, sleeps, and "installs" by writing to that file (or
# fails like apt-get on a held dpkg lock).  As root or not, the installer runs as root.
FAKE_DPKG_QUERY = """#!/bin/sh
for name; do :; done
grep -qx "$name" "$FAKE_INSTALLED" && printf 'install ok installed' && exit 0
exit 1
"""
FAKE_APT_GET = """#!/bin/sh
echo "start $$ $*" >> "$FAKE_LOG"
sleep 0.4
if [ -n "$FAKE_FAIL" ]; then
  echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1" >&2
  exit 100
fi
case "$*" in *install*) for name; do :; done; echo "$name" >> "$FAKE_INSTALLED";; esac
echo "end $$ $*" >> "$FAKE_LOG"
"""
AS_ROOT = ("import os, sys; os.geteuid = lambda: 0; sys.path.insert(0, sys.argv[1]); "
           "import system; sys.exit(system.main(sys.argv[2:]))")


def run_fake_installers(tmp_path, count, fail=False):
    import os
    import subprocess
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("dpkg-query", FAKE_DPKG_QUERY), ("apt-get", FAKE_APT_GET)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    (tmp_path / "installed").write_text("")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_INSTALLED": str(tmp_path / "installed"), "FAKE_LOG": str(tmp_path / "log"),
           "FAKE_FAIL": "1" if fail else ""}
    runs = [subprocess.Popen([sys.executable, "-c", AS_ROOT, str(ROOT / "tools"), "tex",
                              "fake-package"], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(count)]
    results = [(run.wait(timeout=60), *run.communicate()) for run in runs]
    log = (tmp_path / "log").read_text().splitlines() if (tmp_path / "log").exists() else []
    return results, log


def test_installations_run_one_at_a_time(tmp_path):
    results, log = run_fake_installers(tmp_path, 3)
    assert [code for code, _, _ in results] == [0, 0, 0]
    # One caller updated and installed; the others waited for the lock, then found the
    # package installed.  Every apt-get ended before the next one started.
    assert [line.split()[0] for line in log] == ["start", "end", "start", "end"]
    assert all("DPkg::Lock::Timeout=" in line for line in log)
    assert "update" in log[0] and "install" in log[2] and "fake-package" in log[2]
    assert sum("Installing" in out for _, out, _ in results) == 1


def test_a_failed_installation_says_so_in_one_line(tmp_path):
    results, log = run_fake_installers(tmp_path, 1, fail=True)
    code, out, err = results[0]
    assert code == 1
    assert err.strip().count("\n") == 0, err
    assert err.startswith("tex: apt-get update failed (exit 100): E: Could not get lock")


# ----------------------------------------------------------- pre-execution

PAGE_HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# {title}

Some prose.
"""


def write_page(folder: Path, name: str, *cells: str) -> Path:
    text = PAGE_HEADER.format(title=name)
    for cell in cells:
        text += f"\n```{{code-cell}} ipython3\n{cell}\n```\n\nMore prose.\n"
    path = folder / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


class _Logger:
    """Stands in for myst-nb's document logger; keeps the messages."""

    def __init__(self):
        self.messages = []

    def __getattr__(self, level):
        return lambda msg, *args, **kwargs: self.messages.append((level, str(msg)))


def fake_sphinx(tmp_path: Path, workers: int = 2):
    from types import SimpleNamespace

    from myst_nb.core.config import NbParserConfig
    from myst_parser.config.main import MdParserConfig

    build = tmp_path / "_build"
    nb_config = NbParserConfig(execution_mode="cache",
                               execution_cache_path=str(build / ".jupyter_cache"),
                               execution_raise_on_error=True, execution_timeout=120,
                               output_folder=str(build / "jupyter_execute"))
    env = SimpleNamespace(mystnb_config=nb_config, myst_config=MdParserConfig(),
                          doc2path=lambda doc: str(tmp_path / f"{doc}.md"))
    config = SimpleNamespace(evalmetrics_execution_workers=workers,
                             nb_execution_cache_path=nb_config.execution_cache_path)
    app = SimpleNamespace(env=env, config=config, outdir=str(build / "html"))
    return app, env, nb_config


def myst_nb_client(path: Path, nb_config):
    """myst-nb's own cache client on the page, as its parser creates it."""
    from myst_nb.core.execute import create_client
    from myst_nb.core.read import create_nb_reader
    from myst_parser.config.main import MdParserConfig

    text = path.read_text(encoding="utf-8")
    reader = create_nb_reader(str(path), MdParserConfig(), nb_config, text)
    logger = _Logger()
    client = create_client(reader.read(text), str(path), nb_config, logger, reader.read_fmt)
    return client, logger


def test_extension_pre_executes_before_reading_with_two_workers(monkeypatch):
    events = []

    class App:
        def add_config_value(self, name, default, rebuild, types=()):
            events.append(("config", name, default))

        def connect(self, event, handler, priority=500):
            events.append(("connect", event, handler))

    monkeypatch.delenv("EVALMETRICS_BOOK_WORKERS", raising=False)
    evalmetrics_book.setup(App())
    assert ("config", "evalmetrics_execution_workers", 2) in events
    assert ("connect", "env-before-read-docs",
            evalmetrics_book._on_env_before_read_docs) in events
    monkeypatch.setenv("EVALMETRICS_BOOK_WORKERS", "0")
    assert evalmetrics_book._workers_default() == 0


def test_pre_execution_fills_the_cache_myst_nb_reads(tmp_path):
    """Two pages run in parallel; myst-nb then finds them cached (it executes
    nothing), with their outputs, stderr included; a failing page is not cached,
    so myst-nb runs it itself and raises (the build gate)."""
    from jupyter_cache import get_cache
    from myst_nb.core.execute import ExecutionError

    write_page(tmp_path, "good", "print('out')", "import sys\nprint('careful', file=sys.stderr)")
    write_page(tmp_path, "other", "x = 6 * 7\nx")
    write_page(tmp_path, "bad", "y = 1", "raise ValueError('broken page')")
    app, env, nb_config = fake_sphinx(tmp_path)

    evalmetrics_book._on_env_before_read_docs(app, env, ["bad", "good", "other"])

    cache = get_cache(nb_config.execution_cache_path)
    assert sorted(Path(r.uri).name for r in cache.list_cache_records()) == ["good.md", "other.md"]
    timings = json.loads((tmp_path / "_build" / ".jupyter_cache.seconds.json").read_text())
    assert set(timings) == {"bad", "good", "other"}

    client, logger = myst_nb_client(tmp_path / "good.md", nb_config)
    with client:
        outputs = [o for cell in client.notebook.cells if cell.cell_type == "code"
                   for o in cell.outputs]
    assert any("Using cached notebook" in msg for _, msg in logger.messages)
    assert not any("Executing notebook" in msg for _, msg in logger.messages)
    assert {(o.get("name"), o.get("text")) for o in outputs} == {("stdout", "out\n"),
                                                                 ("stderr", "careful\n")}

    client, logger = myst_nb_client(tmp_path / "bad.md", nb_config)
    with pytest.raises(ExecutionError):
        with client:
            pass
    assert any("Executing notebook" in msg for _, msg in logger.messages)


def test_pre_execution_skips_cached_pages_and_can_be_switched_off(tmp_path):
    from jupyter_cache import get_cache

    write_page(tmp_path, "page", "print(1)")
    app, env, nb_config = fake_sphinx(tmp_path, workers=0)
    evalmetrics_book._on_env_before_read_docs(app, env, ["page"])
    cache = get_cache(nb_config.execution_cache_path)
    assert cache.list_cache_records() == []

    app.config.evalmetrics_execution_workers = 2
    evalmetrics_book._on_env_before_read_docs(app, env, ["page"])
    assert len(cache.list_cache_records()) == 1
    page = preexecute.read_page("page", str(tmp_path / "page.md"), env.myst_config, nb_config)
    assert not preexecute.needs_execution(page, cache)
    # a prose edit keeps the key; a code edit changes it
    path = tmp_path / "page.md"
    path.write_text(path.read_text() + "\nA new sentence.\n")
    page = preexecute.read_page("page", str(path), env.myst_config, nb_config)
    assert not preexecute.needs_execution(page, cache)
    path.write_text(path.read_text().replace("print(1)", "print(2)"))
    page = preexecute.read_page("page", str(path), env.myst_config, nb_config)
    assert preexecute.needs_execution(page, cache)


def test_figures_are_outputs_whatever_mplbackend_says(tmp_path, monkeypatch):
    """A reader's MPLBACKEND=Agg (common on headless machines) must not take the
    figures out of the cells' outputs (every figure label would be undefined): the
    kernels' start-up file, installed as the extension installs it, draws inline."""
    import os

    from jupyter_cache import get_cache

    startup = tmp_path / ".ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    startup.joinpath("00-evalmetrics.py").write_text(
        (ROOT / "tools" / "ipython_startup.py").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setitem(os.environ, "IPYTHONDIR", str(tmp_path / ".ipython"))
    monkeypatch.setitem(os.environ, "MPLBACKEND", "Agg")
    write_page(tmp_path, "drawn", "import matplotlib.pyplot as plt\nplt.plot([0, 1]);")
    app, env, nb_config = fake_sphinx(tmp_path)
    evalmetrics_book._on_env_before_read_docs(app, env, ["drawn"])
    cache = get_cache(nb_config.execution_cache_path)
    (record,) = cache.list_cache_records()
    notebook = cache.get_cache_bundle(record.pk).nb
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert any("image/png" in o.get("data", {}) for o in outputs), outputs


def test_nodes_parsed_in_a_second_document_are_adopted_by_the_page():
    """MyST parses an {eval-rst} block in a document of its own; its nodes, moved into
    the page, must not drag that document (and Sphinx's environment in its settings)
    into the page's pickled doctree."""
    import pickle

    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    page = new_document("page.md", get_default_settings(Parser))
    other = new_document("page.md", get_default_settings(Parser))
    other.settings.env = list(range(100_000))  # stands in for the build environment
    paragraph = nodes.paragraph()
    other += paragraph
    emphasis = nodes.emphasis(text="From the docstring.")
    paragraph += emphasis
    page.extend(other.children)  # as MyST moves them: only the direct children adopt the page
    assert paragraph.document is page and emphasis.document is other
    heavy = len(pickle.dumps(page))
    evalmetrics_book._adopt_nodes(None, page)
    assert paragraph.document is page and emphasis.document is page
    assert len(pickle.dumps(page)) < heavy / 50


def test_split_stream_outputs_are_joined():
    cell = nbformat.v4.new_code_cell("...")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="a\n"),
                    nbformat.v4.new_output("stream", name="stdout", text="b\n"),
                    nbformat.v4.new_output("stream", name="stderr", text="w\n"),
                    nbformat.v4.new_output("stream", name="stdout", text="c\n"),
                    nbformat.v4.new_output("execute_result", data={"text/plain": "1"},
                                           execution_count=1)]
    nb = nbformat.v4.new_notebook(cells=[cell])
    assert preexecute.join_split_streams(nb) == 1
    assert [(o.output_type, o.get("name"), o.get("text")) for o in nb.cells[0].outputs] == [
        ("stream", "stdout", "a\nb\n"), ("stream", "stderr", "w\n"),
        ("stream", "stdout", "c\n"), ("execute_result", None, None)]


def test_schedule_runs_the_longest_pages_first(tmp_path):
    from myst_nb.core.config import NbParserConfig
    from myst_parser.config.main import MdParserConfig

    pages = [preexecute.read_page(name, str(write_page(tmp_path, name, code)),
                                  MdParserConfig(), NbParserConfig())
             for name, code in [("a", "1"), ("b", "x = 1\n" * 50), ("c", "2")]]
    assert [p.docname for p in preexecute.schedule(pages, {})][0] == "b"
    assert [p.docname for p in preexecute.schedule(pages, {"c": 9.0, "a": 1.0})] == ["c", "a", "b"]


# ------------------------------------------------- notebooks of unchanged pages


def notebook_app(tmp_path: Path, monkeypatch, converted: list, problems=()):
    from types import SimpleNamespace

    env = SimpleNamespace(all_docs={"book/a": 1, "book/b": 1})
    app = SimpleNamespace(env=env, outdir=str(tmp_path / "html"), srcdir=str(tmp_path))
    state = {"book": notebooks.Book(titles={"book/a": "A", "book/b": "B"})}
    monkeypatch.setattr(evalmetrics_book, "book_references", lambda app: state["book"])
    monkeypatch.setattr(evalmetrics_book, "notebook_pages", lambda app: ["book/a", "book/b"])
    monkeypatch.setattr(evalmetrics_book, "executed_notebook",
                        lambda app, doc: nbformat.v4.new_notebook())

    def convert(nb, book, *, docname, srcdir):
        converted.append(docname)
        return nb, [p for d, p in problems if d == docname]
    monkeypatch.setattr(evalmetrics_book.notebooks, "convert_notebook", convert)
    # The zip of all the notebooks (a wheel build) is tested in test_book_notebooks.py.
    monkeypatch.setattr(evalmetrics_book, "_write_zip", lambda app, book: None)
    return app, state


def test_notebooks_are_rewritten_only_for_pages_read_again_or_a_changed_book(
        tmp_path, monkeypatch):
    converted = []
    app, state = notebook_app(tmp_path, monkeypatch, converted)
    evalmetrics_book._write_notebooks(app)
    assert converted == ["book/a", "book/b"]
    assert (tmp_path / "html" / "_sources" / "book" / "a.ipynb").is_file()
    converted.clear()
    evalmetrics_book._write_notebooks(app)  # nothing read again
    assert converted == []
    app.env.all_docs["book/b"] = 2  # b read again (by any builder)
    evalmetrics_book._write_notebooks(app)
    assert converted == ["book/b"]
    converted.clear()
    state["book"] = notebooks.Book(titles={"book/a": "A new title", "book/b": "B"})
    evalmetrics_book._write_notebooks(app)  # a reference target changed: every page
    assert converted == ["book/a", "book/b"]
    converted.clear()
    (tmp_path / "html" / "_sources" / "book" / "a.ipynb").unlink()
    evalmetrics_book._write_notebooks(app)
    assert converted == ["book/a"]


def test_notebooks_that_warned_are_converted_again_and_warn_again(tmp_path, monkeypatch):
    converted = []
    app, _ = notebook_app(tmp_path, monkeypatch, converted,
                          problems=[("book/a", "glue value missing")])
    warned = []
    monkeypatch.setattr(evalmetrics_book.logger, "warning",
                        lambda msg, *args, **kwargs: warned.append(msg))
    evalmetrics_book._write_notebooks(app)
    evalmetrics_book._write_notebooks(app)
    assert converted == ["book/a", "book/b", "book/a"]
    assert len(warned) == 2


def test_citation_style_is_author_year_in_round_brackets():
    # The website and the PDF cite as the downloaded notebooks do: "(Fawcett, 2006)".
    import sphinxcontrib.bibtex.plugin

    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    name = config["sphinx"]["config"]["bibtex_reference_style"]
    # evalmetrics_book (imported above) registers the style.
    style = sphinxcontrib.bibtex.plugin.find_plugin("sphinxcontrib.bibtex.style.referencing", name)()
    assert isinstance(style, evalmetrics_book.RoundAuthorYearStyle)
    brackets = {(b.left, b.right) for b in (style.bracket_parenthetical, style.bracket_textual,
                                            style.bracket_author, style.bracket_label, style.bracket_year)}
    assert brackets == {("(", ")")}


def test_bibliography_entries_start_as_the_text_cites_them():
    # Every entry reads "Authors (year). Title. ..." and ends with what the book reads it
    # for, on the website and in the PDF (the pybtex style) as in the notebooks.
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    name = CONFIG["sphinx"]["config"]["bibtex_default_style"]
    style = find_plugin("pybtex.style.formatting", name)()
    assert isinstance(style, evalmetrics_book.AuthorYearEntryStyle)
    paths = [ROOT / path for path in CONFIG["bibtex_bibfiles"]]
    assert evalmetrics_book.bibliography_problems(paths) == []
    bib = parse_file(str(paths[0]))
    citations = notebooks.citations_from_bibtex(paths)
    text = find_plugin("pybtex.backends", "text")()
    entries = list(style.format_bibliography(bib))
    assert len(entries) == len(citations) > 30
    for entry in entries:
        shown, cited = entry.text.render(text), citations[entry.key]
        # The year follows the authors and nowhere else ends the entry.
        assert re.match(rf"[^()]+ \({cited.year}\)\. ", shown), shown
        assert not shown.rstrip(".").endswith(cited.year), shown
        # Surnames of the citation, then the annotation as the last sentence.
        for surname in re.split(r" and | et al\.", cited.authors):
            assert surname.strip() in shown.split(" (")[0], (surname, shown)
        annote = bib.entries[entry.key].fields["annote"]
        assert shown.endswith(annote.rstrip(".") + "."), shown
        lead = f"({cited.year}). "
        assert cited.reference.split(lead)[0] == shown.split(lead)[0], (cited.reference, shown)
        assert cited.reference.endswith(f"*{annote.rstrip('.')}.*")
    # The order of the notebooks' list (authors, then year) is the bibliography's.
    keys = sorted(citations, key=lambda k: (citations[k].authors.lower(), citations[k].year))
    assert keys == [entry.key for entry in entries]


def test_bibliography_problems_name_the_entry(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@phdthesis{someone2020,\n  author = {One, Some},\n  title = {T},\n"
                   "  school = {S},\n  year = {2020}\n}\n", encoding="utf-8")
    problems = evalmetrics_book.bibliography_problems([bib])
    assert [p.split(":")[0] for p in problems] == ["someone2020", "someone2020"]
    assert "@phdthesis" in problems[0] and "annote" in problems[1]


# ------------------------------------------------------------ one numbering


def test_chapters_are_numbered_through_the_parts():
    # Chapters numbered 1, 2, ... across the parts of _toc.yml, figures, tables,
    # equations and theorems within the chapter ("6.1"): the same numbers on the
    # website, in the PDF (_ext/evalmetrics_latex.py sets LaTeX's chapter counter from
    # them), in the handouts and in the notebooks (which read Sphinx's numbers).
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    *numbered, back = toc["parts"]
    assert all(part.get("numbered") == 1 for part in numbered)
    # The bibliography and the glossary, back matter, close the book without a number (and
    # without a caption: no part of their own in the PDF or the website's menu).
    assert back == {"chapters": [{"file": "book/bibliography"}, {"file": "book/glossary"}]}
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    sphinx = config["sphinx"]["config"]
    # Jupyter Book adds sphinx_multitoc_numbering itself; this list replaces Jupyter Book's.
    assert "sphinx_multitoc_numbering" in sphinx["extensions"]
    assert "evalmetrics_latex" in sphinx["extensions"]
    assert sphinx["numfig"] is True and sphinx["numfig_secnum_depth"] == 1
    assert sphinx["latex_domain_indices"] is False  # no "Proof Index"


def test_latex_log_gate_is_part_of_the_pdf_targets():
    makefile = (ROOT / "Makefile").read_text()
    assert "tools/latex_log.py _build/latex/$(PDF_NAME).log" in makefile
    assert "latex_log.problems(" in (ROOT / "tools" / "handout.py").read_text()


# ------------------------------------------------------------ the first run


def test_ci_runs_the_readme_commands_first():
    """CI proves what a new user types: the README's quick-start commands, in its order,
    are the first commands of .ci/run, with nothing that installs before them."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    typed = re.findall(r"```bash\n(.*?)\n```", quick_start, flags=re.S)
    assert typed == ["make book", "make test"]
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines()
                if line.strip() and not line.lstrip().startswith(("#", "step ", "step(", "set ",
                                                                  "cd ", "printf"))
                and not line.startswith("step()")]
    assert commands[:2] == typed


def test_the_lock_pins_every_package_the_environment_has():
    """constraints.txt names one exact version of each package, and the Makefile
    installs with it by default."""
    lines = [line for line in (ROOT / "constraints.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines and all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[^=\s]+", line) for line in lines)
    names = {line.split("==")[0].lower() for line in lines}
    assert {"numpy", "scipy", "scikit-learn", "matplotlib", "jupyter-book", "sphinx"} <= names
    assert "evalmetrics" not in names
    makefile = (ROOT / "Makefile").read_text()
    assert "--constraint $(LOCKFILE)" in makefile and "LOCKFILE := constraints.txt" in makefile


# ------------------------------------------------------------ accessibility fixes


def test_toctree_toggles_get_the_name_of_their_part():
    sys.path.insert(0, str(ROOT / "_ext"))
    import evalmetrics_a11y

    html = ('<ul><li class="toctree-l1 has-children"><a href="api.html">19. Reference</a>'
            '<details><summary><span class="toctree-toggle" role="presentation"><i></i>'
            '</span></summary><ul><li><a href="x.html">x</a></li></ul></details></li></ul>')
    named = evalmetrics_a11y.name_toctree_toggles(html)
    assert '<summary aria-label="Pages of 19. Reference">' in named
    assert evalmetrics_a11y.name_toctree_toggles(named) == named  # named once only


def test_bibliography_entries_are_list_items_and_folded_cells_named_by_their_words():
    import evalmetrics_a11y

    body = ('<div role="list" class="citation-list"><div class="citation" id="id1" '
            'role="doc-biblioentry"><span class="label">x</span></div></div>'
            '<summary aria-label="Toggle hidden content"><p>Show code cell source</p></summary>')
    fixed = evalmetrics_a11y.named_by_what_it_shows(evalmetrics_a11y.list_items_for_citations(body))
    assert 'role="doc-biblioentry"' not in fixed and 'id="id1" role="listitem"' in fixed
    assert "<summary><p>Show code cell source" in fixed
