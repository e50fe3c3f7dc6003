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
    "imbalance": ["0.3536", "0.6875", "5.3030"],  # MCC, balanced accuracy of the twelve units; binormal LR+
    "roc-auc": ["0.7969", "0.78125", "0.9140"],  # AUC of the twelve units, 25.5/32; strictly outscoring,
    # 25/32; Hand and Till's M of the three classes (roc_auc(multi_class="ovo"))
    "precision-recall": ["0.6917", "0.6947"],  # average precision, 83/120; COCO's 101-point AP, 421/606
    "costs": ["0.0909", "0.3218"],  # Bayes threshold c_FP / (c_FP + c_FN); recall at a budget of 1 %
    "calibration": ["0.2583", "0.196875"],  # lower bin's mean score, Brier score
    "brier-decomposition": ["0.196875"],  # the twelve units' Brier score
    "regression": ["3.0822", "56.8889"],  # RMSE of the six households, best MSE constant
    "cross-validation": ["0.4583"],  # mean precision over the four folds
    "intervals": ["0.3906", "0.8619", "0.3489", "0.9008"],  # Wilson and Clopper-Pearson intervals for 8 of 12
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
    log = handout_pdf.parent / handout_pdf.stem / "_build" / "latex" / "handout.log"
    assert latex_problems(log) == []
    assert raster_figures(log.with_suffix(".tex")) == []


# ------------------------------------------------- the two editions of a handout


def _phrases(text: str) -> list[str]:
    """Runs of six or more plain words of a block's prose: text that pdftotext gives
    back as written (no math, no roles, no code)."""
    from test_exercises import prose

    plain = re.sub(r"\$[^$]*\$", " | ", prose(text))
    plain = re.sub(r"[*_>#]", " ", plain)
    runs = re.findall(r"(?:\b[A-Za-z][a-z]+\b[ ,;]+){5,}\b[A-Za-z][a-z]+\b", plain)
    return [squash(run).lower() for run in runs]


def plain_text(pdf: Path) -> str:
    """The PDF's text in reading order, lower case, words hyphenated at a line end
    joined again, ligatures undone, whitespace squashed."""
    import unicodedata

    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    text = unicodedata.normalize("NFKC", text)
    return squash(re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", text)).lower()


@pytest.fixture(scope="module")
def instructor_pdf(handout) -> Path:
    return handout(HANDOUT, HANDOUT_TITLE, solutions=True)


def test_student_edition_has_the_exercises_and_no_solution(handout_pdf):
    from test_exercises import exercises, solutions

    text = plain_text(handout_pdf)
    assert "solution to exercise" not in text
    for page in HANDOUT:
        assert exercises(page), f"{page}: no exercises"
        for exercise in exercises(page):
            assert any(p in text for p in _phrases(exercise["body"])), \
                f"{page} {exercise['options']['label']}: the exercise is missing"
        for label, solution in solutions(page).items():
            leaked = [p for p in _phrases(solution["body"]) if p in text]
            assert not leaked, f"{page} {label}: solution text in the student edition: {leaked}"


def test_instructor_edition_has_every_solution(instructor_pdf):
    from test_exercises import solutions

    text = plain_text(instructor_pdf)
    count = 0
    for page in HANDOUT:
        for label, solution in solutions(page).items():
            phrases = _phrases(solution["body"])
            assert phrases and any(p in text for p in phrases), \
                f"{page} {label}: the solution is missing from the instructor edition"
            count += 1
    assert text.count("solution to exercise") == count


def test_instructor_edition_answers_each_chapter_before_the_next(instructor_pdf):
    # Each chapter's solutions follow its own exercises, not the last chapter's.
    from test_exercises import exercises, solutions

    text = plain_text(instructor_pdf)

    def first(blocks):
        return min(text.find(p) for b in blocks for p in _phrases(b["body"]) if p in text)

    for page, following in zip(HANDOUT, HANDOUT[1:]):
        assert first(solutions(page).values()) < first(exercises(following)), \
            f"{page}: its solutions come after the exercises of {following}"


def test_book_pdf_has_the_solutions(built_pdf):
    from test_exercises import solutions, teaching_chapters

    text = plain_text(built_pdf)
    total = sum(len(solutions(page)) for page in teaching_chapters())
    assert text.count("solution to exercise") == total


# ------------------------------------------------------ paper ready to hand out

import sys  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import handout as handout_tool  # noqa: E402  (tools/handout.py)
import latex_log  # noqa: E402  (tools/latex_log.py)


def toc_parts() -> list[str]:
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [part["caption"] for part in toc["parts"] if part.get("caption")]


def theorem_numbers(page: str) -> list[str]:
    """The book's numbers of a chapter's theorems, in order: "6.1", "6.2", ...
    (the chapter's place in _toc.yml, then the theorem's place in the chapter: the
    numbering Sphinx gives the website with numfig_secnum_depth = 1)."""
    chapter = handout_tool.book_numbers()[page]
    count = (BOOK / f"{page}.md").read_text(encoding="utf-8").count("{prf:theorem}")
    return [f"{chapter}.{k}" for k in range(1, count + 1)]


def page_png(pdf: Path, page: int, out: Path) -> Path:
    """One page rendered at 40 dpi (pdftoppm), cheap enough for a test."""
    prefix = out.with_suffix("")
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-singlefile", "-f", str(page),
                    "-l", str(page), str(pdf), str(prefix)], check=True)
    return prefix.with_suffix(".png")


def test_latex_log_reads_overfull_boxes():
    # The form of LaTeX's report, as in the log of a build of this book.
    log = ("Overfull \\hbox (17.27687pt too wide) in paragraph at lines 394--394\n"
           "Overfull \\hbox (0.5pt too wide) in paragraph at lines 400--400\n"
           "Overfull \\hbox (1010.0pt too wide) in alignment at lines 10576--10597\n")
    tex = "\n" * 300 + "\\chapter{Notation}\n" + "\n" * 9000 + "\\chapter{Checked}\n"
    boxes = latex_log.overfull_boxes(log, tex)
    assert [(b.width_pt, b.first_line, b.last_line, b.chapter) for b in boxes] == [
        (17.27687, 394, 394, "Notation"), (1010.0, 10576, 10597, "Checked")]
    assert "17.3 pt" in str(boxes[0]) and "Notation" in str(boxes[0])
    # a page whose text runs into the footer: more than 3 pt
    log = ("Overfull \\vbox (42.1598pt too high) detected at line 8295\n"
           "Overfull \\vbox (1.7pt too high) detected at line 7042\n"
           "Overfull \\vbox (5.0pt too high) has occurred while \\output is active\n")
    boxes = latex_log.overfull_boxes(log, tex)
    assert [(b.width_pt, b.first_line, b.direction) for b in boxes] == [
        (42.1598, 8295, "high"), (5.0, 0, "high")]
    assert str(boxes[0]).endswith("42.2 pt too high")


def test_latex_log_reads_page_fills():
    # As the preamble's hook of \@outputpage writes them (a line may wrap in the log).
    log = ("evalmetrics-page 1 (i): 40.0pt of 650.43001pt opens\n"
           "evalmetrics-page 2 (ii): 600.0pt of 650.43001pt\n"
           "evalmetrics-page 3 (1): 620.0pt of 650.43001pt opens\n"
           "evalmetrics-page 4 (2): 58.0pt of\n650.43001pt\n"
           "evalmetrics-page 5 (3): 600.0pt of 650.43001pt\n"
           "evalmetrics-page 6 (4): 30.0pt of 650.43001pt\n"
           "evalmetrics-page 7 (5): 500.0pt of 650.43001pt opens\n"
           "evalmetrics-page 8 (6): 12.0pt of 650.43001pt\n")
    pages = latex_log.page_fills(log)
    assert [(p.page, p.printed, p.opens) for p in pages][:4] == [
        (1, "i", True), (2, "ii", False), (3, "1", True), (4, "2", False)]
    # page 4 is nearly empty inside its chapter; page 6 ends one, page 8 ends the book,
    # page 1 (the title page) is followed by a page that opens nothing either
    assert [p.page for p in latex_log.near_empty_pages(pages)] == [1, 4]
    assert str(pages[3]) == "page 4 (printed 2): 9% full (58 pt of 650 pt)"


def test_book_pdf_has_no_near_empty_page(built_pdf):
    # A page less than a quarter full that ends no chapter or part: a block kept whole
    # (a code cell and its figure) moved to the next page and left this one empty.
    pages = latex_log.page_fills(built_pdf.with_suffix(".log").read_text(
        encoding="utf-8", errors="replace"))
    assert len(pages) == int(pdf_info(built_pdf)["Pages"])  # every page is measured
    assert [str(p) for p in latex_log.near_empty_pages(pages)] == []
    # what the gate measures is what pdftotext sees: the fullest pages hold text to
    # their foot, the least full ones stop near their top
    texts = pdf_text(built_pdf).split("\f")
    full = max(pages[20:-20], key=lambda p: p.fill)
    assert full.fill > 0.9 and len(texts[full.page - 1].strip().splitlines()) > 30


def test_book_pdf_has_no_overfull_box(built_pdf):
    boxes = latex_log.overfull_boxes(
        built_pdf.with_suffix(".log").read_text(encoding="utf-8", errors="replace"),
        built_pdf.with_suffix(".tex").read_text(encoding="utf-8"))
    assert [str(b) for b in boxes] == []


def test_book_pdf_has_parts_contents_and_a_preface(built_pdf, book_text):
    info = pdf_info(built_pdf)
    # Every chapter and part starts a page; the book is far from a pamphlet and from
    # a table running over hundreds of pages.
    assert 100 <= int(info["Pages"]) <= 400
    toc = built_pdf.with_suffix(".toc").read_text(encoding="utf-8")
    parts = re.findall(r"\\contentsline \{part\}\{(?:\\numberline \{)?([IVX]+)\}?\\hspace \{1em\}([^}]*)\}",
                       toc)
    assert [title for _, title in parts] == toc_parts()
    assert [number for number, _ in parts] == ["I", "II", "III", "IV", "V", "VI"][:len(parts)]
    # The contents page is titled "Contents", not with the first part's caption.
    first_pages = pdf_text_pages(built_pdf, 1, 8)
    # (The page style sets the title in capitals.)
    assert re.search(r"^\s*Contents\s*$", first_pages, re.MULTILINE | re.IGNORECASE)
    assert "Decisions at one threshold" not in first_pages.split("Preface")[0]
    assert "Proof Index" not in book_text
    # The preface is unnumbered, chapter 1 is the first chapter of the toc.
    chapters = re.findall(r"\\contentsline \{chapter\}\{\\numberline \{(\d+)\}", toc)
    assert chapters[:3] == ["1", "2", "3"]
    assert re.search(r"\\contentsline \{chapter\}\{Preface\}", toc)
    # One bibliography, back matter after the reference: a chapter without a number.
    assert re.findall(r"\\contentsline \{chapter\}\{[^\n]*Bibliography", toc) == [
        "\\contentsline {chapter}{Bibliography"]
    lines = toc.splitlines()
    last_numbered = max(i for i, line in enumerate(lines) if "{chapter}{\\numberline" in line)
    # The back matter: the bibliography, then the glossary (then the index).
    back = [line for line in lines[last_numbered + 1:] if line.startswith("\\contentsline {chapter}")]
    assert back[0].startswith("\\contentsline {chapter}{Bibliography}"), back
    assert back[1].startswith("\\contentsline {chapter}{Glossary"), back
    assert not re.search(r"Chapter \d+\s+Bibliography|\d+\.\s+Bibliography", book_text)
    # A reader of paper is told where the website and the notebooks are, and which version.
    assert "download button at the top" not in book_text
    assert "About this edition" in book_text and "version" in squash(book_text)


def pdf_text_pages(pdf: Path, first: int, last: int) -> str:
    return subprocess.run(["pdftotext", "-layout", "-f", str(first), "-l", str(last), str(pdf),
                           "-"], capture_output=True, text=True, check=True).stdout


def test_book_pdf_bibliography_matches_the_citations(built_pdf, book_text):
    tex = built_pdf.with_suffix(".tex").read_text(encoding="utf-8")
    assert tex.count("\\begin{sphinxthebibliography}") == 1
    flat = squash(book_text)
    # No alphabetic labels ("[Faw06]") the author-year citations never show.
    assert not re.search(r"\[[A-Z][A-Za-z+]{1,4}\d{2}\]", flat)
    assert "Fawcett (2006)" in flat


def test_book_pdf_proofs_have_titles(built_pdf):
    tex = built_pdf.with_suffix(".tex").read_text(encoding="utf-8")
    sources = " ".join(p.read_text(encoding="utf-8") for p in BOOK.glob("*.md"))
    assert tex.count("\\begin{sphinxadmonition}{note}{Proof}") == sources.count("{prf:proof}")


def test_book_pdf_theorems_are_numbered_by_chapter(book_text):
    flat = squash(book_text)
    for page in ("roc-auc", "brier-decomposition"):
        for number in theorem_numbers(page):
            assert f"Theorem {number}" in flat, (page, number)


def test_website_theorems_carry_the_same_numbers(built_site):
    html = (built_site / "book" / "roc-auc.html").read_text(encoding="utf-8")
    for number in theorem_numbers("roc-auc"):
        assert f"Theorem {number}" in html


def website_figures(built_site) -> list[tuple[str, str, str]]:
    """``(page, number, first words of the caption)`` of every figure of the website."""
    from conftest import toc_chapters

    found = []
    for page in (p.stem for p in toc_chapters()):
        html = (built_site / "book" / f"{page}.html").read_text(encoding="utf-8")
        for number, caption in re.findall(
                r'<span class="caption-number">Figure ([\d.]+) </span>'
                r'<span class="caption-text">(.*?)</span>', html, flags=re.S):
            # the words before any math (MathJax's TeX is not the PDF's text)
            words = []
            for word in re.sub(r"<[^>]+>", "", caption).split()[:4]:
                if "\\" in word or "$" in word:
                    break
                words.append(word)
            found.append((page, number, " ".join(words)))
    return found


def test_figures_carry_one_number_in_every_product(built_site, book_text):
    # "Figure 6.1" is the same figure on the website, in the PDF and in the notebook.
    import nbformat

    figures = website_figures(built_site)
    assert len(figures) >= 25
    flat = squash(book_text)
    for page, number, words in figures:
        assert f"Figure {number}: {words}" in flat, (page, number, words)
        notebook = nbformat.read(built_site / "_sources" / "book" / f"{page}.ipynb", as_version=4)
        captions = [c.source for c in notebook.cells
                    if "figure-caption" in c.metadata.get("tags", [])]
        assert any(squash(c).startswith(f"*Figure {number}: {words}") for c in captions), \
            (page, number, words)


def test_book_pdf_prints_each_figure_on_the_page_of_its_code(book_text):
    # A figure is the output of the cell above it: a page that ends with the code and
    # a next page that opens with its figure would part them.
    figures = apart = 0
    for page in book_text.split("\f"):
        for _ in re.finditer(r"^\s*Figure \d+(?:\.\d+)?: ", page, flags=re.MULTILINE):
            figures += 1
            apart += "plot_" not in page
    assert figures >= 25 and apart == 0, f"{apart} of {figures} figures apart from their code"


def test_book_pdf_ends_no_page_with_a_solution_heading(book_text):
    # nor with the title bar of a box (a theorem, a proof, an exercise, a note) whose
    # text starts on the next page
    ends = []
    for number, page in enumerate(book_text.split("\f"), start=1):
        lines = [line.strip() for line in page.splitlines() if line.strip()]
        if len(lines) > 2 and (lines[-2] in ("Solutions", "Proof", "Note", "Warning") or
                               re.match(r"(Solution to Exercise|Exercise|Theorem|Lemma|"
                                        r"Definition|Corollary) \d+\.\d+", lines[-2])):
            ends.append((number, lines[-2]))  # (the last line is the page's footer)
    assert ends == []


def test_book_pdf_figures_use_truetype_fonts(built_pdf):
    fonts = subprocess.run(["pdffonts", str(built_pdf)], capture_output=True, text=True,
                           check=True).stdout
    assert "Type 3" not in fonts


def test_book_pdf_pages_render(built_pdf, tmp_path):
    # The title page and a page of the checked-against-scikit-learn table, as images.
    for page in (1, int(pdf_info(built_pdf)["Pages"]) // 2):
        png = page_png(built_pdf, page, tmp_path / f"page-{page}.png")
        assert png.stat().st_size > 1000


def test_website_offers_the_book_pdf(built_pdf):
    from conftest import BUILD, build_lock, run_make

    # `make book pdf` builds the PDF first; a build of the site after it links it.
    with build_lock("html"):
        run_make("book")
    copy = BUILD / "html" / "evalmetrics.pdf"
    assert copy.read_bytes() == built_pdf.read_bytes()
    html = (BUILD / "html" / "book" / "roc-auc.html").read_text(encoding="utf-8")
    assert 'href="../evalmetrics.pdf"' in html


def test_handout_keeps_the_books_numbers(handout_pdf, book_text):
    text = squash(pdf_text(handout_pdf))
    numbers = handout_tool.book_numbers()
    for page in HANDOUT:
        assert f"{numbers[page]} {chapter_titles([page])[page]}" in text or \
            f"Chapter {numbers[page]}" in text, page
        for number in theorem_numbers(page):
            assert f"Theorem {number}" in text and f"Theorem {number}" in squash(book_text)


def test_handout_has_its_own_title_page_and_bibliography(handout_pdf, built_pdf):
    text = squash(pdf_text(handout_pdf))
    assert "This handout holds" in text and "full book" in text
    assert "The map of the book" not in text  # the book's landing page is not in it
    tex = (handout_pdf.parent / handout_pdf.stem / "_build" / "latex" / "handout.tex")
    cited = tex.read_text(encoding="utf-8").count("\\bibitem")
    assert 0 < cited < built_pdf.with_suffix(".tex").read_text(encoding="utf-8").count("\\bibitem")


def test_handout_prints_no_raw_label_of_a_left_out_chapter(handout_pdf):
    text = squash(pdf_text(handout_pdf))
    numbers = handout_tool.book_numbers()
    sources = " ".join((BOOK / f"{page}.md").read_text(encoding="utf-8") for page in HANDOUT)
    # The student edition prints no solution: its references are not in the handout.
    sources = re.sub(r"```\{solution-start\}.*?```\{solution-end\}", "", sources, flags=re.S)
    for target in set(re.findall(r"\{(?:ref|doc)\}`([\w-]+)`", sources)):
        if target in numbers and target not in HANDOUT + ["bibliography", "index"]:
            title = squash(chapter_titles([target])[target])
            assert f"Chapter {numbers[target]}, {title}, in the full book" in text, target


def test_handout_passes_the_layout_gate(handout_pdf):
    # no overfull box, no page nearly empty
    log = handout_pdf.parent / handout_pdf.stem / "_build" / "latex" / "handout.log"
    assert latex_log.problems(log) == []
    assert latex_log.page_fills(log.read_text(encoding="utf-8", errors="replace"))


# ------------------------------------------------------- editions, paper, index


def running_heads(pdf: Path) -> list[str]:
    """The first line of every page (the running head, or a chapter's title)."""
    return [next((line.strip() for line in page.splitlines() if line.strip()), "")
            for page in pdf_text(pdf).split("\f")]


def test_each_edition_says_which_it_is(built_pdf, handout_pdf, instructor_pdf):
    # the title page and the running head of every page with one
    for pdf, edition in ((handout_pdf, "Student edition"),
                         (instructor_pdf, "Instructor edition (with solutions)")):
        title_page = squash(pdf_text_pages(pdf, 1, 1))
        assert edition in title_page and HANDOUT_TITLE in title_page
        heads = [h for h in running_heads(pdf) if "Release" in h]
        assert len(heads) > 10 and all(squash(h).startswith(edition) for h in heads), heads[:3]
        other = ({"Student edition", "Instructor edition"} - {edition.split(" (")[0]}).pop()
        assert other not in pdf_text(pdf)
        assert edition.split(" (")[0].lower() in squash(pdf_text(pdf)).lower()
    # The book itself is the whole book, solutions included: no edition named.
    text = pdf_text(built_pdf)
    assert "Student edition" not in text and "Instructor edition" not in text


def test_pdfs_are_a4_by_default(built_pdf, handout_pdf):
    # A4 unless PAPER=letter (tests/test_book_config.py checks that switch)
    for pdf in (built_pdf, handout_pdf):
        assert pdf_info(pdf)["Page size"].endswith("(A4)"), pdf


def test_book_pdf_index_reads_cleanly(built_pdf, book_text):
    # The index of the reference's names: short remarks, one entry per module, ragged
    # right (no "(evalmet- rics.GaussianNaiveBayes method)" stretched over a line).
    pages = book_text.split("\f")
    start = max(i for i, page in enumerate(pages) if page.strip().startswith("INDEX"))
    index = "\f".join(pages[start:])
    flat = squash(index)
    assert "accuracy()" in flat and "roc_auc()" in flat
    assert "in module evalmetrics" not in flat and "class in evalmetrics" not in flat
    assert "as_matrix() (BinaryCounts method)" in flat
    assert flat.count("evalmetrics.arrays (module)") == 1 and "module evalmetrics.arrays" not in flat
    assert "evalmet-" not in index and "(in mod-" not in index
    ind = built_pdf.with_suffix(".ind").read_text(encoding="utf-8")
    assert "\\spxextra{in module evalmetrics}" not in ind
