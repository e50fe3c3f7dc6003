"""The book's build machinery, without building: configuration, the execution-cache
guard, the handout's warning filter, the system-package helper."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))

import evalmetrics_book  # noqa: E402
import handout  # noqa: E402
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
        "/work/main/book/index.md:47: WARNING: undefined label: 'notation'",
        "/work/main/book/roc-auc.md:3: WARNING: undefined label: 'eq-notation'",
        "/work/main/book/roc-auc.md:9: WARNING: undefined label: 'roc-typo'",
        "/work/main/book/calibration.md:1: WARNING: Failed to format text/plain data",
        "reading sources... [ 50%] book/roc-auc",
    ])
    bad = handout.unexpected_warnings(log, ["roc-auc", "calibration"])
    assert bad == ["/work/main/book/roc-auc.md:9: WARNING: undefined label: 'roc-typo'",
                   "/work/main/book/calibration.md:1: WARNING: Failed to format text/plain data"]


def test_handout_inputs(tmp_path):
    toc_path, config_path = handout.write_inputs(["roc-auc", "calibration"], "A title", tmp_path)
    toc = yaml.safe_load(toc_path.read_text())
    assert toc["root"] == "book/index"
    assert [c["file"] for c in toc["chapters"]] == ["book/roc-auc", "book/calibration",
                                                    "book/bibliography"]
    config = yaml.safe_load(config_path.read_text())
    assert config["title"] == "A title"
    assert config["latex"]["latex_documents"] == {"targetname": "handout.tex", "title": "A title"}
    assert all(Path(p).is_absolute() for p in config["bibtex_bibfiles"])
    assert all(Path(p).is_absolute() for p in config["sphinx"]["local_extensions"].values())


def test_handout_rejects_unknown_pages(capsys):
    assert handout.main(["no-such-chapter"]) == 2
    assert "not chapters of the book" in capsys.readouterr().err


# ------------------------------------------------------------ system packages


@pytest.mark.skipif(not Path("/usr/bin/dpkg-query").exists(), reason="not a Debian system")
def test_missing_debian_packages_are_found():
    assert system.missing(["dpkg"]) == []
    assert system.missing(["no-such-package-evalmetrics"]) == ["no-such-package-evalmetrics"]
