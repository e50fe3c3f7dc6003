"""The book as PDF (``make pdf``) and a handout of chosen chapters (``make handout``).

Checked with Debian's poppler-utils: the text (pdftotext), the page count and
title (pdfinfo), the absence of raster images (pdfimages: figures are vector),
and the LaTeX log of the last run.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"

# Numbers of the handbook's worked examples, as the pages print them, per chapter
# (source: the Evaluation Metrics Handbook's worked examples, asserted by each
# chapter's hidden cells and its nbval-check-output cell, tests/book_outputs/).
WORKED_EXAMPLE = {
    "confusion-matrix": ["0.6667", "0.8333"],  # twelve units at 0.5: accuracy, NPV
    "f-scores": ["0.6818", "0.5357"],  # F2, F0.5
    "averaging": ["0.8143"],  # micro average = accuracy of the graded parts
    "imbalance": ["0.3536", "0.6875"],  # MCC, balanced accuracy of the twelve units
    "roc-auc": ["0.7969"],  # AUC of the twelve units, 25.5/32
    "precision-recall": ["0.6917"],  # average precision, 83/120
    "costs": ["0.0909"],  # Bayes threshold c_FP / (c_FP + c_FN)
    "calibration": ["0.2583", "0.196875"],  # lower bin's mean score, Brier score
    "brier-decomposition": ["0.196875"],  # the twelve units' Brier score
    "regression": ["3.0822", "56.8889"],  # RMSE of the six households, best MSE constant
    "cross-validation": ["0.4583"],  # mean precision over the four folds
    "intervals": ["0.3906", "0.8619"],  # Wilson interval for 8 of 12
    "pitfalls": ["0.796875"],  # AUC with ties grouped
    "in-practice": ["0.9214"],  # binormal AUC, Phi(sqrt 2)
}

pytestmark = pytest.mark.book


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def pdf_info(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                         check=True).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def figure_files(tex: Path) -> list[str]:
    """The files the LaTeX source includes as graphics (Sphinx writes ``{{name}.pdf}``)."""
    found = re.findall(r"\\(?:sphinx)?includegraphics(?:\[[^\]]*\])?\{(\{[^}]*\}[^}]*|[^}]*)\}",
                       tex.read_text(encoding="utf-8"))
    return [f.replace("{", "").replace("}", "") for f in found]


def raster_figures(tex: Path) -> list[str]:
    """Included figures that are not vector PDFs (matplotlib's PDF output is vector;
    an imshow inside it stays an image, as in any vector format)."""
    return [f for f in figure_files(tex) if not f.endswith(".pdf")]


def latex_problems(log: Path) -> list[str]:
    """Errors and unresolved references reported by the last LaTeX run."""
    text = log.read_text(encoding="utf-8", errors="replace")
    bad = [line for line in text.splitlines()
           if line.startswith("!") or "LaTeX Error" in line
           or "Undefined control sequence" in line or "Emergency stop" in line]
    if "There were undefined references" in text:
        bad.append("There were undefined references")
    if re.search(r"Reference `[^']*' on page \d+ undefined", text):
        bad += re.findall(r"Reference `[^']*' on page \d+ undefined", text)
    return bad


def chapter_titles(pages) -> dict[str, str]:
    titles = {}
    for page in pages:
        for line in (BOOK / f"{page}.md").read_text(encoding="utf-8").splitlines():
            if line.startswith("# "):
                titles[page] = line[2:].strip()
                break
    return titles


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# ------------------------------------------------------------------ the book


@pytest.fixture(scope="module")
def book_text(built_pdf) -> str:
    return pdf_text(built_pdf)


def test_book_pdf_has_every_chapter(built_pdf, book_text):
    from conftest import toc_chapters

    pages = [p.stem for p in toc_chapters() if p.stem not in ("index", "bibliography")]
    info = pdf_info(built_pdf)
    assert info["Title"] == "Evaluation metrics"
    # at least a page per chapter (with the title page and contents, many more)
    assert int(info["Pages"]) >= len(pages) + 2
    for page, title in chapter_titles(pages).items():
        assert squash(title).lower() in squash(book_text).lower(), f"chapter {page} missing"


@pytest.mark.parametrize("page", sorted(WORKED_EXAMPLE))
def test_book_pdf_shows_the_worked_examples(book_text, page):
    for number in WORKED_EXAMPLE[page]:
        assert number in book_text, f"{page}: {number} not in the PDF"


def test_book_pdf_has_no_undefined_references(book_text):
    assert "??" not in book_text


def test_book_pdf_latex_log_is_clean(built_pdf):
    assert latex_problems(built_pdf.with_suffix(".log")) == []


def test_book_pdf_figures_are_vector(built_pdf):
    tex = built_pdf.with_suffix(".tex")
    assert figure_files(tex), "no figures in the book"
    assert raster_figures(tex) == []


def test_book_pdf_renders_proofs_and_tables(built_pdf, book_text):
    from conftest import toc_chapters

    sources = " ".join(p.read_text(encoding="utf-8") for p in toc_chapters())
    tex = built_pdf.with_suffix(".tex").read_text(encoding="utf-8")
    if "{prf:theorem}" in sources:
        assert "Theorem" in book_text
    if "{prf:proof}" in sources:
        assert "Proof" in book_text
    if re.search(r"^\|.*\|\s*$", sources, re.MULTILINE):
        assert "\\begin{tabulary}" in tex or "\\begin{longtable}" in tex


def test_book_pdf_has_citations_and_bibliography(book_text):
    # author-year citations and the bibliography's entries (book/references.bib)
    assert "Fawcett" in book_text
    assert "An introduction to ROC analysis" in squash(book_text)
    # In round brackets, as on the website and in the notebooks (never "[Fawcett, 2006]").
    flat = squash(book_text)
    assert "Fawcett (2006)" in flat and "(Efron and Tibshirani, 1993)" in flat
    assert not re.search(r"\[[A-Z][A-Za-z-]+(?: et al\.| and [A-Z][A-Za-z-]+)?,? \[?\d{4}\]", flat)


# ---------------------------------------------------------------- a handout

HANDOUT = ["roc-auc", "calibration"]
HANDOUT_TITLE = "Ranking and calibration: a course handout"


@pytest.fixture(scope="module")
def handout_pdf(handout) -> Path:
    return handout(HANDOUT, HANDOUT_TITLE)


def test_handout_has_its_title_and_only_its_chapters(handout_pdf, built_pdf):
    info = pdf_info(handout_pdf)
    assert info["Title"] == HANDOUT_TITLE
    text = pdf_text(handout_pdf)
    assert HANDOUT_TITLE.lower() in squash(text).lower()
    for page, title in chapter_titles(HANDOUT).items():
        assert squash(title).lower() in squash(text).lower(), page
    assert int(info["Pages"]) < int(pdf_info(built_pdf)["Pages"])


def test_handout_shows_the_worked_examples(handout_pdf):
    text = pdf_text(handout_pdf)
    for page in HANDOUT:
        for number in WORKED_EXAMPLE[page]:
            assert number in text, f"{page}: {number} not in the handout"
    assert "??" not in text


def test_handout_latex_log_is_clean(handout_pdf):
    log = handout_pdf.parent / "-".join(HANDOUT) / "_build" / "latex" / "handout.log"
    assert latex_problems(log) == []
    assert raster_figures(log.with_suffix(".tex")) == []
