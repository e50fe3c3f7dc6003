"""The downloadable notebooks: conversion rules on small inputs, then every built one.

The built notebooks (``_build/html/_sources/book/<page>.ipynb``) must be the
executed chapter (outputs and figures), read right in plain Jupyter (no raw
MyST), and run in a clean kernel where only ``evalmetrics[ml,plot]`` and
ipykernel are installed.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import notebooks  # noqa: E402
from notebooks import Book, Citation, convert_markdown, convert_notebook, leftover_myst  # noqa: E402

sys.path.insert(0, str(ROOT))
from conftest import build_lock, toc_chapters  # noqa: E402

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n fake").decode()


@pytest.fixture
def book() -> Book:
    return Book(
        targets={"notation": ("book/notation", "Notation"),
                 "fig-roc": ("book/roc-auc", "The ROC curve"),
                 "thm-auc": ("book/roc-auc", "Theorem 1")},
        numbers={"fig-roc": ("figure", "2"), "tab-counts": ("table", "1"),
                 "eq-auc": ("equation", "3"), "thm-auc": ("theorem", "1")},
        titles={"book/notation": "Notation"},
        citations={"fawcett2006": Citation("Fawcett", "2006", "Tom Fawcett (2006). ROC."),
                   "davis2006": Citation("Davis and Goadrich", "2006", "J. Davis (2006). PR.")},
        numfig_format={"figure": "Figure %s", "table": "Table %s"},
        macros={"AUC": "\\operatorname{AUC}"},
    )


GLUE = {"auc": {"text/plain": "0.796875"}, "frac": {"text/plain": "'83/120'"},
        "n": {"text/plain": "12"}, "fig": {"image/png": PNG, "text/plain": "<Figure>"},
        "tab": {"text/markdown": "| a |\n| --- |\n| 1 |", "text/plain": "<Markdown>"},
        "np": {"text/plain": "np.float64(0.5)"}}


def convert(text, book, glue=GLUE):
    out, attachments, problems = convert_markdown(text, book, glue=glue, docname="book/x")
    return out, attachments, problems


# ---------------------------------------------------------------- conversion


def test_glue_text_is_formatted_like_myst_nb(book):
    out, _, problems = convert("AUC {glue:text}`auc:.4f`, {glue:text}`frac`, "
                               "n = {glue:text}`n`, {glue:text}`auc`.", book)
    # 0.796875 = 51/64, the worked example's AUC (handbook, ROC chapter)
    assert out == "AUC 0.7969, 83/120, n = 12, 0.796875."
    assert problems == []


def test_glue_problems_are_reported_not_hidden(book):
    out, _, problems = convert("{glue:text}`missing:.2f` and {glue:text}`np:.2f`", book)
    assert "missing" in problems[0] and "np" in problems[1]
    assert leftover_myst(out) == []


def test_citations_read_as_author_year(book):
    out, _, _ = convert("See {cite}`fawcett2006`, {cite:t}`davis2006` and "
                        "{cite}`fawcett2006,davis2006`.", book)
    assert out == ("See (Fawcett, 2006), Davis and Goadrich (2006) and "
                   "(Fawcett, 2006; Davis and Goadrich, 2006).")


def test_citations_without_brackets_inside_parentheses(book):
    # {cite:alp}: parenthetical text without its own brackets, for "(see ...; Author, year)".
    out, _, _ = convert("(the costs page; {cite:alp}`fawcett2006,davis2006`)", book)
    assert out == "(the costs page; Fawcett, 2006; Davis and Goadrich, 2006)"


def test_references_become_titles_and_numbers(book):
    out, _, problems = convert(
        "{ref}`notation`, {ref}`the symbols <notation>`, {numref}`fig-roc`, "
        "{numref}`Figure %s shows it <fig-roc>`, {eq}`eq-auc`, {prf:ref}`thm-auc`, "
        "[link](#notation), [web](https://example.org)", book)
    # another page's target links to that page's notebook (a sibling file)
    assert out == ("[Notation](notation.ipynb), [the symbols](notation.ipynb), Figure 2, "
                   "Figure 2 shows it, (3), Theorem 1, [link](notation.ipynb), "
                   "[web](https://example.org)")
    assert problems == []


@pytest.mark.parametrize("role", ["any", "cite:p", "math", "glue:math", "term", "kbd"])
def test_a_role_the_book_does_not_use_fails_loudly(book, role):
    with pytest.raises(ValueError, match=rf"^book/x: role \{{{role}\}} is not one the book uses"):
        convert(f"text {{{role}}}`x` text", book)


def test_every_role_of_the_pages_has_a_conversion():
    code_cell = re.compile(r"^```\{code-cell\}.*?^```", re.S | re.M)
    used = {name for page in toc_chapters() for name in
            re.findall(r"\{([a-zA-Z][\w:+-]*)\}`", code_cell.sub("", page.read_text(encoding="utf-8")))}
    assert used and used <= set(notebooks._ROLES)


def test_math_directive_and_labelled_dollar_math_get_tags(book):
    out, _, _ = convert("```{math}\n:label: eq-auc\n\\AUC = 1\n```\n\n$$\na = b \\\\\nc = d\n$$ (eq-auc)",
                        book)
    assert out.splitlines() == ["$$", "\\operatorname{AUC} = 1", "\\tag{3}", "$$", "", "$$", "a = b \\\\",
                                "c = d", "\\tag{3}", "$$"]


def test_theorem_proof_and_admonitions_are_plain_markdown(book):
    text = ("````{prf:theorem} AUC is a probability\n:label: thm-auc\n\nThe AUC is "
            "{glue:text}`auc:.4f`.\n````\n\n```{prf:proof}\nCount pairs.\n```\n\n"
            ":::{note}\nA note.\n:::\n\n:::{admonition} Why\n:class: tip\nBecause.\n:::\n\n"
            "```{warning} Inline body.\n```")
    out, _, _ = convert(text, book)
    # A rule, the title in bold, the text, a rule: never a quoted block (next test).
    assert "---\n\n**Theorem 1 (AUC is a probability).**\n\nThe AUC is 0.7969.\n\n---" in out
    assert "*Proof.* Count pairs. ∎" in out
    assert "---\n\n**Note.**\n\nA note.\n\n---" in out
    assert "**Why.**\n\nBecause." in out
    assert "**Warning.**\n\nInline body." in out
    assert leftover_myst(out) == [] and quoted_math(out) == []


def quoted_math(markdown: str) -> list[str]:
    """What JupyterLab renders wrong (jupyterlab/jupyterlab#16755): display math inside
    a quoted block (``> $$``), or a line inside display math or an environment that
    starts with ``>`` (a quote's marker, kept inside the equation)."""
    text = re.sub(r"^(\s*)(`{3,}|~{3,}).*?^\s*\2\s*$", "", markdown,
                  flags=re.MULTILINE | re.DOTALL)  # code may show anything
    bad = [line for line in text.splitlines()
           if re.match(r"^\s*>", line) and ("$$" in line or "\\begin{" in line)]
    for block in re.findall(r"\$\$.*?\$\$|\\begin\{(?:\w+\*?)\}.*?\\end\{\w+\*?\}", text,
                            flags=re.DOTALL):
        bad += [line for line in block.splitlines()[1:] if line.lstrip().startswith(">")]
    return bad


def test_display_math_is_never_quoted(book):
    # As the MCC theorem of the imbalance chapter: display math over several lines in
    # a theorem, an exercise and a note, and inline math over two lines.
    math = "$$\n\\text{MCC} = \\frac{a}\n{b}\n$$"
    text = (f"````{{prf:theorem}} The MCC\n:label: thm-auc\n\nIt is\n\n{math}\n````\n\n"
            f"```{{exercise}}\n:label: ex-1\n\nShow\n\n{math}\n\nand $a +\nb$.\n```\n\n"
            f":::{{note}}\n{math}\n:::")
    out, _, _ = convert(text, book)
    assert quoted_math(out) == []
    assert not re.search(r"^\s*>", out, re.MULTILINE)
    # the check catches both forms
    assert quoted_math("> $$\n> a\n> $$")
    assert quoted_math("$$\n\\begin{aligned}\n> a\n\\end{aligned}\n$$")


def test_glued_figure_becomes_an_attachment_with_numbered_caption(book):
    out, attachments, _ = convert("```{glue:figure} fig\n:name: fig-roc\n\nThe ROC curve.\n```",
                                  book)
    assert "![fig](attachment:fig.png)" in out
    assert "*Figure 2: The ROC curve.*" in out
    assert attachments == {"fig.png": {"image/png": PNG}}


def test_glued_markdown_table_is_pasted(book):
    out, _, _ = convert("```{glue:} tab\n```\n\n{glue:md}`tab`", book)
    assert out.startswith("| a |\n| --- |\n| 1 |")


def test_labels_comments_and_toc_directives_disappear(book):
    out, _, _ = convert("(sec-x)=\n## Section\n% a comment\n```{toctree}\nx\n```\ntext", book)
    assert out == "## Section\ntext"


def test_code_may_show_myst_syntax(book):
    text = "Write ``{glue:text}`name:.4f` `` in prose.\n\n```md\n:::{note}\nx\n:::\n```"
    out, _, _ = convert(text, book)
    assert out == text
    assert leftover_myst(out) == []


def test_list_table_becomes_a_pipe_table(book):
    out, _, _ = convert("```{list-table} Counts\n:header-rows: 1\n:name: tab-counts\n\n"
                        "* - a\n  - b\n* - 1\n  - 2\n```", book)
    assert "*Table 1: Counts*" in out
    assert "| a | b |\n| --- | --- |\n| 1 | 2 |" in out


@pytest.mark.parametrize("raw", ["{glue:text}`x`", "{cite}`k`", "{prf:ref}`t`",
                                 ":::{note}\nx\n:::", "```{math}\nx\n```", "{ref}`a`",
                                 "(label)=", "{eq}`e`"])
def test_leftover_scan_catches_raw_myst(raw):
    assert leftover_myst(raw)


def test_notebook_conversion_keeps_outputs_and_runs_without_myst_nb(book):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3",
                                                          "display_name": "Python 3"}})
    hidden = nbformat.v4.new_code_cell("from myst_nb import glue\nglue('auc', 0.5, display=False)",
                                       metadata={"tags": ["remove-cell"]})
    hidden.outputs = [nbformat.v4.new_output(
        "display_data", data={"application/papermill.record/text/plain": "0.5"},
        metadata={"scrapbook": {"name": "auc", "mime_prefix": "application/papermill.record/"}})]
    shown = nbformat.v4.new_code_cell("fig")
    shown.outputs = [nbformat.v4.new_output(
        "display_data", data={"image/png": PNG, "application/pdf": "JVBE", "text/plain": "F"})]
    nb.cells = [nbformat.v4.new_markdown_cell("# Title"), hidden,
                nbformat.v4.new_markdown_cell("AUC {glue:text}`auc:.2f` {cite}`fawcett2006`"),
                shown]
    out, problems = convert_notebook(nb, book, docname="book/x")
    assert problems == []
    assert [c.metadata.get("tags") for c in out.cells[:2]] == [["notebook-header"], ["install"]]
    out.cells = out.cells[2:]  # the header (tested below)
    kinds = [c.cell_type for c in out.cells]
    assert kinds == ["markdown", "markdown", "code", "markdown", "markdown", "code"]
    assert "newcommand" not in "".join(c.source for c in out.cells)
    assert out.cells[1].source == "AUC 0.50 (Fawcett, 2006)"
    assert list(out.cells[2].outputs[0]["data"]) == ["image/png", "text/plain"]
    assert out.cells[3].source == "## References\n\n* Tom Fawcett (2006). ROC."
    # the hidden cell, last: the checks, folded, with the glue stand-in (only they glue)
    assert out.cells[4].source.startswith("## Checks")
    checks = out.cells[5]
    assert checks.source.startswith(notebooks.GLUE_STAND_IN)
    assert "\nfrom myst_nb import glue\n" not in checks.source.replace(notebooks.GLUE_STAND_IN, "")
    assert "glue('auc'" in checks.source
    assert checks.outputs == []  # glue records: nothing Jupyter could show
    # folded; its output, the report of the checks, shows once it runs
    assert checks.metadata["jupyter"] == {"source_hidden": True}
    nbformat.validate(out)
    # the stand-in works without myst_nb
    namespace: dict = {}
    exec(notebooks.GLUE_STAND_IN.replace("from myst_nb import glue", "raise ImportError"),
         namespace)
    namespace["glue"]("x", 1, display=False)


def test_an_output_made_for_the_book_gives_way_to_its_jupyter_form(book):
    # An explorer in the build: the website's element and a still picture, with what a
    # reader's kernel outputs (Vega-Lite) in the HTML's metadata (tools/ipython_startup.py).
    jupyter = {"data": {"application/vnd.vegalite.v5+json": {"mark": "point"}, "text/plain": "chart"},
               "metadata": {"application/vnd.vegalite.v5+json": {"embed_options": {"renderer": "svg"}}}}
    cell = nbformat.v4.new_code_cell("explorer")
    cell.outputs = [nbformat.v4.new_output(
        "execute_result", execution_count=1,
        data={"text/html": "<div></div>", "image/png": "iVBO", "application/pdf": "JVBE",
              "text/plain": "chart"},
        metadata={"text/html": {"jupyter": jupyter}})]
    nb = nbformat.v4.new_notebook(cells=[cell])
    converted, problems = notebooks.convert_notebook(nb, book, docname="book/x", srcdir=ROOT)
    assert problems == []
    output = [c for c in converted.cells if c.cell_type == "code"][-1].outputs[0]
    assert output["data"] == jupyter["data"] and output["metadata"] == jupyter["metadata"]


def test_every_notebook_starts_with_its_chapter_version_page_and_install(book):
    book.titles["book/roc-auc"] = "ROC curves"
    book.chapters, book.version = {"book/roc-auc": "6"}, "0.1.0"
    book.wheel = "evalmetrics-0.1.0-py3-none-any.whl"
    header, install = notebooks.notebook_header(book, "book/roc-auc")
    assert header.source.startswith("**The evalmetrics handbook, version 0.1.0.** "
                                    "The notebook of *Chapter 6: ROC curves*.")
    assert "`book/roc-auc.html` in the book's website" in header.source  # no address known
    assert "evalmetrics-notebooks.zip" in header.source
    assert '%pip install "evalmetrics-0.1.0-py3-none-any.whl[ml,plot]"' in install.source
    book.website = "https://example.org/evalmetrics/"
    header, _ = notebooks.notebook_header(book, "book/roc-auc", solutions=True)
    assert "[https://example.org/evalmetrics/book/roc-auc.html]" \
           "(https://example.org/evalmetrics/book/roc-auc.html)" in header.source
    assert "worked solutions" in header.source
    assert leftover_myst(header.source) == []


def test_the_install_cell_installs_only_where_evalmetrics_is_missing(book):
    from IPython.core.inputtransformer2 import TransformerManager

    book.wheel = "evalmetrics-0.1.0-py3-none-any.whl"
    python = TransformerManager().transform_cell(notebooks.install_source(book))
    calls = []
    namespace = {"get_ipython": lambda: type("Shell", (), {
        "run_line_magic": lambda self, name, line, *a: calls.append((name, line))})()}
    exec(python, namespace)  # evalmetrics is importable here: nothing to install
    assert calls == []
    exec(python.replace('find_spec("evalmetrics")', 'find_spec("no_such_package_x")'), namespace)
    assert calls == [("pip", 'install "evalmetrics-0.1.0-py3-none-any.whl[ml,plot]"')]


def test_bibtex_entries_become_citations():
    citations = notebooks.citations_from_bibtex([ROOT / "book" / "references.bib"])
    assert citations["fawcett2006"].authors == "Fawcett"
    assert citations["fawcett2006"].year == "2006"
    assert citations["hanley1982"].authors == "Hanley and McNeil"
    assert "{" not in "".join(c.reference for c in citations.values())
    # TeX's quotes become typographic ones: Markdown would show ``exact'' as typed
    assert "better than \u201cexact\u201d for interval" in citations["agresti1998"].reference
    assert [leftover_myst(c.reference) for c in citations.values()] == [[]] * len(citations)


@pytest.mark.parametrize("raw", ["than ``exact'' for", "an \\emph{idea}", "Sch\\\"olkopf",
                                 "pages 12--15", "Fig.~3"])
def test_leftover_scan_catches_latex_outside_math(raw):
    assert leftover_myst(raw)


@pytest.mark.parametrize("fine", ["$f''(x)$ and $\\frac{a}{b}$", "$$\n\\text{``a''}\n$$",
                                  "so $a = \\frac{1}{2}\n   + b$ holds",
                                  "`--toc` and `a~b`", "a well-known fact -- or not",
                                  "| a | --- |", "---"])
def test_leftover_scan_leaves_math_code_and_rules_alone(fine):
    assert leftover_myst(fine) == []


# ------------------------------------------------------------ built notebooks


def chapter_pages() -> list[str]:
    return [p.stem for p in toc_chapters()]


@pytest.fixture(scope="session")
def downloads(built_site) -> dict[str, Path]:
    return {page: built_site / "_sources" / "book" / f"{page}.ipynb" for page in chapter_pages()}


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_every_page_has_a_notebook_that_reads_right(downloads, page):
    path = downloads[page]
    assert path.is_file(), f"no downloadable notebook for {page}"
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    solutions = path.with_name(f"{page}-solutions.ipynb")
    for name, cells in [(page, nb.cells)] + ([(solutions.stem, nbformat.read(
            solutions, as_version=4).cells)] if solutions.is_file() else []):
        for index, cell in enumerate(cells):
            if cell.cell_type == "markdown":
                # no raw MyST, no LaTeX-only markup (``quotes''), no math inside a quote
                assert leftover_myst(cell.source) == [], f"{name} cell {index}:\n{cell.source}"
                assert quoted_math(cell.source) == [], f"{name} cell {index}:\n{cell.source}"
                for key in cell.get("attachments", {}):
                    assert f"attachment:{key}" in cell.source
    # what the build parsed (the source may have changed since)
    parsed = ROOT / "_build" / "jupyter_execute" / "book" / f"{page}.ipynb"
    if parsed.is_file() and any(c.cell_type == "code"
                                for c in nbformat.read(parsed, as_version=4).cells):
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code, f"{page}: code cells lost"
        # executed (except the cells the conversion adds: the glue stand-in, the install
        # cell, the empty cells for the reader's work on the exercises)
        assert all(c.execution_count for c in code if not
                   {"glue-stand-in", "install", "exercise-work"} &
                   set(c.metadata.get("tags", []))), f"{page}: the notebook was not executed"
        for cell in code:
            for out in cell.outputs:
                assert out.get("output_type") != "error"
                assert not any(k.startswith("application/papermill") for k in out.get("data", {}))


def plotting_functions() -> set[str]:
    import evalmetrics.handbook.plotting
    import evalmetrics.plotting

    return {name for module in (evalmetrics.plotting, evalmetrics.handbook.plotting)
            for name in dir(module) if name.startswith("plot_")}


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_every_figure_is_drawn_by_a_visible_cell(built_site, downloads, page):
    # A reader changes a seed or a parameter and re-runs the cell: the figure is that
    # cell's output, drawn by a plotting function of the package, its caption below it;
    # never an image pasted into the text.
    html = (built_site / "book" / f"{page}.html").read_text(encoding="utf-8")
    figures_in_page = re.findall(r'<figure[^>]*\bid="([^"]+)"', html)
    nb = nbformat.read(downloads[page], as_version=4)
    assert not [k for c in nb.cells for k in c.get("attachments", {})], \
        f"{page}: an image pasted into the text instead of drawn by a cell"
    drawn, plotting = [], plotting_functions()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not any("image/png" in o.get("data", {})
                                               for o in cell.outputs):
            continue
        assert not cell.metadata.get("jupyter", {}).get("source_hidden"), \
            f"{page} cell {index}: a figure drawn by a hidden cell"
        called = set(re.findall(r"\b(plot_\w+)\(", cell.source))
        assert called & plotting, f"{page} cell {index}: no plotting function of the package"
        figure = notebooks.figure_options(cell)
        assert figure and figure.get("name"), f"{page} cell {index}: a figure without a name"
        caption = nb.cells[index + 1]
        assert caption.metadata.get("tags") == ["figure-caption"]
        assert caption.source.startswith("*Figure ") and len(caption.source) > 30
        drawn.append(figure["name"])
    assert drawn == figures_in_page, f"{page}: figures on the page {figures_in_page}, " \
                                     f"drawn by cells of the notebook {drawn}"


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_no_hidden_cell_among_the_reader_s_cells(downloads, page):
    # The checks of the text's numbers are gathered at the end; a hidden cell left in
    # place would hold state the reader's cells use without the reader seeing it.
    nb = nbformat.read(downloads[page], as_version=4)
    tags = [set(c.metadata.get("tags", [])) for c in nb.cells]
    end = next((i for i, t in enumerate(tags) if "checks" in t), len(nb.cells))
    hidden = [i for i, cell in enumerate(nb.cells[:end]) if cell.cell_type == "code"
              and cell.metadata.get("jupyter", {}).get("source_hidden")
              and not {"glue-stand-in", "install"} & tags[i]]
    assert hidden == [], f"{page}: hidden cells {hidden} stay among the reader's cells"


@pytest.mark.book
def test_the_bibliography_is_back_matter_without_a_number(built_site, downloads):
    # Unnumbered on the website (its title and the menu), in the notebooks (the header)
    # and in the zip's list; the PDF: tests/test_book_pdf.py.
    page = (built_site / "book" / "bibliography.html").read_text(encoding="utf-8")
    title = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    assert "Bibliography" in title and "section-number" not in title
    menu = (built_site / "book" / "costs.html").read_text(encoding="utf-8")
    assert re.findall(r'href="bibliography.html">\s*([^<]*?)\s*<', menu)[0] == "Bibliography"
    assert re.search(r'href="roc-auc.html">\s*\d+\.', menu)  # while the chapters have one
    header = nbformat.read(downloads["bibliography"], as_version=4).cells[0].source
    assert "*Bibliography*" in header and "Chapter" not in header
    with zipfile.ZipFile(built_site / "evalmetrics-notebooks.zip") as archive:
        readme = archive.read("evalmetrics-notebooks/README.md").decode("utf-8")
    assert "* Bibliography: `bibliography.ipynb`" in readme
    assert not re.search(r"^\d+\. Bibliography", readme, re.MULTILINE)


# ------------------------------------------------ the zip of every notebook


def zip_chapters() -> list[str]:
    """The pages the zip has a notebook of: the chapters of ``_toc.yml``, not their sections."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [Path(c["file"]).name for part in toc["parts"] for c in part["chapters"]]


@pytest.fixture(scope="session")
def unzipped(built_site, tmp_path_factory) -> Path:
    """The website's ``evalmetrics-notebooks.zip``, unpacked in an empty folder."""
    folder = tmp_path_factory.mktemp("student")
    with zipfile.ZipFile(built_site / "evalmetrics-notebooks.zip") as archive:
        archive.extractall(folder)
    return folder / "evalmetrics-notebooks"


@pytest.mark.book
def test_the_zip_has_every_chapter_the_wheel_and_a_readme(unzipped):
    names = {p.name for p in unzipped.iterdir()}
    wheels = [n for n in names if n.endswith(".whl")]
    assert wheels == [f"evalmetrics-{notebooks_version()}-py3-none-any.whl"]
    # every page's notebook: the chapters' links reach the reference's pages too
    expected = {f"{page}.ipynb" for page in chapter_pages()}
    expected |= {f"{page}-solutions.ipynb" for page in exercise_pages()}
    assert names == expected | {"README.md", "constraints.txt", wheels[0]}
    readme = (unzipped / "README.md").read_text(encoding="utf-8")
    assert wheels[0] in readme
    # the exact install line, with the lock's versions of what the wheel needs
    assert f'pip install --constraint constraints.txt "{wheels[0]}[ml,plot]"' in readme
    pinned = [line for line in (unzipped / "constraints.txt").read_text().splitlines()
              if line and not line.startswith("#")]
    lock = set((ROOT / "constraints.txt").read_text().splitlines())
    assert set(pinned) <= lock
    assert {line.split("==")[0] for line in pinned} >= {"numpy", "scipy", "scikit-learn",
                                                        "matplotlib"}
    for page in zip_chapters():  # the README lists the chapters, not their sections
        assert f"`{page}.ipynb`" in readme
    # each notebook installs that wheel, from beside it
    for name in expected:
        install = nbformat.read(unzipped / name, as_version=4).cells[1]
        assert install.metadata["tags"] == ["install"]
        assert f'%pip install "{wheels[0]}[ml,plot]"' in install.source


def notebooks_version() -> str:
    import evalmetrics

    return evalmetrics.__version__


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_every_page_offers_the_zip(built_site, page):
    html = (built_site / "book" / f"{page}.html").read_text(encoding="utf-8")
    assert 'href="../evalmetrics-notebooks.zip"' in html


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_links_to_other_chapters_reach_their_notebooks(downloads, page):
    nb = nbformat.read(downloads[page], as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for target in re.findall(r"\]\(([^)\s]+\.ipynb)\)", cell.source):
                assert (downloads[page].parent / target).is_file(), f"{page}: {target}"


# ------------------------------------------------------- run in a clean kernel


@pytest.fixture(scope="session")
def clean_kernel(unzipped) -> tuple[str, Path]:
    """A venv with only the zip's wheel (``[ml,plot]``) and ipykernel, installed from the
    unpacked zip alone, under ``_build/clean-venv`` (kept between runs, made again when
    the wheel changes); returns the name and folder of its kernel spec."""
    venv = ROOT / "_build" / "clean-venv"
    stamp = venv / ".fingerprint"
    python = venv / "bin" / "python"
    wheel = next(unzipped.glob("evalmetrics-*.whl"))
    fingerprint = hashlib.sha256(wheel.read_bytes()).hexdigest()
    with build_lock("clean-venv"):  # xdist workers: one builds, the others wait for it
        _make_clean_venv(venv, stamp, python, fingerprint, wheel)
    return "evalmetrics-clean", venv / "share" / "jupyter" / "kernels"


def _make_clean_venv(venv: Path, stamp: Path, python: Path, fingerprint: str,
                     wheel: Path) -> None:
    if not (stamp.is_file() and stamp.read_text() == fingerprint and python.is_file()):
        def run(*cmd):
            # from the unpacked zip: no clone on the path
            result = subprocess.run(cmd, capture_output=True, text=True, cwd=wheel.parent)
            if result.returncode != 0:
                pytest.fail(f"{' '.join(map(str, cmd))} failed:\n{result.stderr[-3000:]}",
                            pytrace=False)
        if venv.exists():
            shutil.rmtree(venv)
        run(sys.executable, "-m", "venv", str(venv))
        run(str(python), "-m", "pip", "install", "--quiet", "--constraint",
            "constraints.txt", f"./{wheel.name}[ml,plot]", "ipykernel")
        run(str(python), "-m", "ipykernel", "install", "--prefix", str(venv),
            "--name", "evalmetrics-clean", "--display-name", "evalmetrics (clean)")
        stamp.write_text(fingerprint)


@pytest.mark.book
def test_clean_kernel_has_no_book_tooling(clean_kernel):
    python = ROOT / "_build" / "clean-venv" / "bin" / "python"
    names = subprocess.run([str(python), "-m", "pip", "list", "--format=json"],
                           capture_output=True, text=True, check=True).stdout
    installed = {p["name"].lower() for p in json.loads(names)}
    assert {"evalmetrics", "numpy", "scikit-learn", "scipy", "matplotlib"} <= installed
    assert not installed & {"myst-nb", "jupyter-book", "sphinx", "jupytext", "pytest"}


def run_in_clean_kernel(nb, clean_kernel, tmp_path, monkeypatch, folder=None) -> list:
    """Execute a notebook as a reader would; returns its error outputs."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    name, kernels = clean_kernel
    # A reader's plain kernel: no start-up files, nothing of the repository on the path,
    # and a folder of its own (the download folder) as working directory.
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.delenv("PYTHONPATH", raising=False)
    manager = KernelManager(kernel_name=name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    NotebookClient(nb, km=manager, timeout=600,
                   resources={"metadata": {"path": str(folder or tmp_path)}}).execute()
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "error"]


def assert_explorers_are_vega_lite(nb, page):
    """An explorer, run where only the wheel is installed, outputs Vega-Lite, which
    JupyterLab and Notebook 7 draw themselves, and nothing they would prefer to it."""
    for cell in nb.cells:
        # A cell that shows an explorer: a bare call at the start of a line (a check that
        # reads an explorer's specification assigns it, and shows nothing).
        if cell.cell_type == "code" and re.search(r"^\w*_explorer\(", cell.source, re.MULTILINE):
            bundles = [o["data"] for o in cell.outputs if "data" in o]
            assert [sorted(b) for b in bundles] == [["application/vnd.vegalite.v5+json",
                                                     "text/plain"]], (page, cell.source)


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_notebook_runs_in_a_clean_kernel(unzipped, clean_kernel, page, tmp_path,
                                         monkeypatch):
    # The zip's copy, run where it was unpacked.
    nb = nbformat.read(unzipped / f"{page}.ipynb", as_version=4)
    if not any(c.cell_type == "code" for c in nb.cells if "install" not in
               c.metadata.get("tags", [])):
        return  # a page of prose: nothing to run
    assert not run_in_clean_kernel(nb, clean_kernel, tmp_path, monkeypatch, folder=unzipped)
    # the checks cell lists failures instead of raising: with the book's own cells,
    # every check holds
    report = checks_report(nb)
    if report is not None:
        assert re.fullmatch(r"All \d+ checks hold: .*\n", report), f"{page}:\n{report}"
    assert_explorers_are_vega_lite(nb, page)


def checks_report(nb) -> str | None:
    """What the checks cell printed, or None for a notebook without one."""
    cell = next((c for c in nb.cells if c.cell_type == "code"
                 and "checks" in c.metadata.get("tags", [])), None)
    if cell is None:
        return None
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.book
@pytest.mark.parametrize("page, old, new", [
    ("calibration", "np.random.default_rng(2024)", "np.random.default_rng(2025)"),
    ("roc-auc", "binormal_scores(20000, 20000, mean=2.0, seed=7)",
     "binormal_scores(20000, 20000, mean=2.5, seed=8)"),
])
def test_checks_after_a_reader_s_change_list_what_fails(unzipped, clean_kernel, page, old, new,
                                                        tmp_path, monkeypatch):
    # A reader changes a seed or a parameter and runs everything: no traceback, the
    # checks cell ends with one short list, and only checks that its note says read
    # the reader's values may fail (those on the book's own data hold).
    nb = nbformat.read(unzipped / f"{page}.ipynb", as_version=4)
    changed = [c for c in nb.cells if c.cell_type == "code" and old in c.source
               and "checks" not in c.metadata.get("tags", [])]
    assert len(changed) == 1, f"{page}: the cell with {old!r} is not one reader's cell"
    changed[0].source = changed[0].source.replace(old, new)
    assert not run_in_clean_kernel(nb, clean_kernel, tmp_path, monkeypatch, folder=unzipped)
    report = checks_report(nb)
    lines = report.strip().splitlines()
    assert lines and re.match(r"^(All \d+ checks hold|\d+ of \d+ checks failed)", lines[0]), report
    failed = [line for line in lines[1:] if not line.startswith("    ")]  # one per check
    assert all(line.startswith("  check ") and "(reads " in line for line in failed), report
    assert all(len(line) < 300 for line in lines) and len(lines) <= 1 + 5 * len(failed), report
    if page == "calibration":  # its numbers follow the data a seed draws
        assert failed, report


def exercise_pages() -> list[str]:
    return [page for page in chapter_pages()
            if "{exercise}" in (ROOT / "book" / f"{page}.md").read_text(encoding="utf-8")]


@pytest.mark.book
@pytest.mark.parametrize("page", exercise_pages())
def test_solutions_notebook_runs_in_a_clean_kernel(unzipped, clean_kernel, page, tmp_path,
                                                   monkeypatch):
    nb = nbformat.read(unzipped / f"{page}-solutions.ipynb", as_version=4)
    nbformat.validate(nb)
    assert not run_in_clean_kernel(nb, clean_kernel, tmp_path, monkeypatch, folder=unzipped)
    assert_explorers_are_vega_lite(nb, page)
    solved = [c for c in nb.cells if c.cell_type == "code" and not
              {"chapter-code", "glue-stand-in", "install"} & set(c.metadata.get("tags", []))]
    assert all(c.outputs for c in solved if c.source.strip()), f"{page}: a solution printed nothing"
    # the chapter's figures are there for the solutions that point at them
    figures = [c for c in nb.cells if "chapter-code" in c.metadata.get("tags", [])
               and notebooks.figure_options(c)]
    assert all(any("image/png" in o.get("data", {}) for o in c.outputs) for c in figures)
    assert all(not c.metadata["jupyter"].get("outputs_hidden") for c in figures)


def test_roles_may_span_lines(book):
    out, _, _ = convert("compare {ref}`the notation\npage <notation>` and {cite:t}`fawcett2006`\n"
                        "today.", book)
    assert out == "compare [the notation\npage](notation.ipynb) and Fawcett (2006)\ntoday."


def test_links_to_the_reference_become_code(book):
    out, _, problems = convert("{py:func}`~evalmetrics.roc_auc` of a {py:class}`evalmetrics.RocCurve`"
                               " by {py:func}`the rank sum <evalmetrics.midranks>`", book)
    assert out == "`roc_auc()` of a `evalmetrics.RocCurve` by `the rank sum`"
    assert problems == []


def test_glued_markdown_is_converted_too(book):
    glue = {"t": {"text/markdown": "```{table} Counts\n:name: tab-counts\n\n| a |\n|---|\n| 1 |\n```"}}
    out, _, problems = convert("```{glue:md} t\n```", book, glue=glue)
    assert out.startswith("*Table 1: Counts*\n\n| a |\n|---|\n| 1 |")
    assert problems == [] and leftover_myst(out) == []


def test_targets_on_other_pages_name_their_page(book):
    book.targets["eq-other"] = ("book/notation", "(7)")
    book.numbers["eq-other"] = ("equation", "7")
    out, _, _ = convert("{eq}`eq-other` and {numref}`fig-roc`", book)
    assert out == "(7) in [*Notation*](notation.ipynb) and Figure 2"


def test_a_page_named_by_the_text_is_not_named_twice(book):
    book.targets["eq-other"] = ("book/notation", "(7)")
    book.numbers["eq-other"] = ("equation", "7")
    out, _, problems = convert("({eq}`eq-other` in {ref}`notation`) and {eq}`eq-other`", book)
    assert out == ("((7) in [Notation](notation.ipynb)) and (7) in "
                   "[*Notation*](notation.ipynb)")
    assert problems == []


def test_a_reference_to_an_exercise_gives_its_number(book):
    book.targets["ex-a"] = ("book/x", "")
    book.numbers["ex-a"] = ("exercise", "5.2")
    book.targets["ex-b"] = ("book/notation", "")
    book.numbers["ex-b"] = ("exercise", "1.3")
    out, _, problems = convert("see {ref}`ex-a`, {ref}`ex-b` and {ref}`that one <ex-a>`", book)
    assert out == ("see Exercise 5.2, Exercise 1.3 in [*Notation*](notation.ipynb) "
                   "and that one")
    assert problems == []


def test_doc_links_become_the_page_title(book):
    out, _, problems = convert("{doc}`notation`, {doc}`the symbols <notation>`", book)
    assert out == "[Notation](notation.ipynb), [the symbols](notation.ipynb)"
    assert problems == []
    _, _, problems = convert("{doc}`no-such-page`", book)
    assert problems == ["document 'no-such-page' not found"]


def test_the_book_s_macros_are_written_out_outside_code(book):
    out, _, _ = convert("$\\AUC$ and $$\\AUCx + a \\\\\\AUC + a\\\\AUC$$, `\\AUC`", book)
    assert out == ("$\\operatorname{AUC}$ and $$\\AUCx + a \\\\\\operatorname{AUC} + "
                   "a\\\\AUC$$, `\\AUC`")
    assert notebooks.expand_macros("$\\cFP_i \\E$", {"cFP": "c_{\\mathrm{FP}}",
                                                      "E": "\\mathbb{E}"}) == \
        "${c_{\\mathrm{FP}}}_i \\mathbb{E}$"


def cells(*specs):
    """Code cells from ``(source, hidden)`` pairs."""
    return [nbformat.v4.new_code_cell(source, metadata={"tags": ["remove-cell"]} if hidden
                                      else {}) for source, hidden in specs]


def test_hidden_cells_move_to_one_checks_cell_at_the_end():
    out, stay = notebooks.gather_checks(cells(("x = 1", False), ("assert x == 1", True),
                                              ("y = x + 1", False), ("for i in range(2):\n    z = i", True),
                                              ("print(y)", False)))
    assert stay == []
    assert [c.source for c in out[:3]] == ["x = 1", "y = x + 1", "print(y)"]
    # each hidden cell a block of the checks cell, which reports at its end
    assert out[-1].source == "\n\n".join([
        notebooks.CHECKS_HEAD.rstrip("\n"),
        'with book_checks.block(1, reads="x"):\n    assert x == 1',
        "with book_checks.block(2):  # the book's own data\n"
        "    for i in range(2):\n        z = i",
        "book_checks.report()"])
    assert out[-1].metadata["tags"] == ["remove-cell", "checks"]
    assert out[-1].metadata["jupyter"] == {"source_hidden": True}  # its report shows
    assert "* Check 1 reads values your cells computed (`x`)" in out[-2].source
    assert "* Check 2 computes from the book's own data" in out[-2].source
    # a function or an import of the reader's cells is no data, even inside a try
    out, _ = notebooks.gather_checks(cells(
        ("try:\n    from myst_nb import glue\nexcept ImportError:\n    def glue(n, v):\n"
         "        pass\nimport numpy as np", False),
        ("glue('x', np.pi)", True)))
    assert "with book_checks.block(1):  # the book's own data" in out[-1].source
    # a check cell of comments only still makes a block Python accepts
    out, _ = notebooks.gather_checks(cells(("x = 1", False), ("# glue: moved", True),
                                           ("", True)))
    compile(out[-1].source, "checks", "exec")
    assert "    # glue: moved\n    pass" in out[-1].source


def test_the_checks_cell_lists_every_failure_and_goes_on(capsys):
    # A reader changed the data: two keeps and an assert fail, the other checks still run.
    import linecache

    out, _ = notebooks.gather_checks(cells(
        ("from evalmetrics.handbook.pages import keep\nx = 2", False),
        ("keep('k-x', x, exact=1)\nkeep('k-two', x + 1, exact=2)\nnoted = 1", True),
        ("assert x == 1\nnever = 1", True),
        ("text = '''a\nb'''\nassert text == 'a\\nb'\nkeep('k-own', 3, exact=3)", True)))
    namespace = {}
    for number, cell in enumerate(c for c in out if c.cell_type == "code"):
        name = f"<cell {number}>"  # (IPython keeps a cell's lines for tracebacks too)
        linecache.cache[name] = (len(cell.source), None, cell.source.splitlines(True), name)
        exec(compile(cell.source, name, "exec"), namespace)
    assert capsys.readouterr().out.splitlines() == [
        "2 of 3 checks failed: the text's numbers no longer hold there.",
        "  check 1 (reads x): 2 failures",
        "    glue key 'k-x': computed 2, expected exactly 1",
        "    glue key 'k-two': computed 3, expected exactly 2",
        "  check 2 (reads x): failed: assert x == 1"]
    assert namespace["noted"] == 1 and "never" not in namespace
    assert namespace["text"] == "a\nb"  # a string of two lines is not indented
    # in the book, outside a block, keep still stops at the first failure
    from evalmetrics.handbook.pages import keep

    with pytest.raises(AssertionError, match="k-x"):
        keep("k-x", 2, exact=1)


def test_hidden_cells_that_visible_ones_need_stay_in_place():
    # "table" is used by the visible cell; the check of "x" would see a later x.
    out, stay = notebooks.gather_checks(cells(("x = 1", False), ("table = x * 2", True),
                                              ("assert x == 1", True), ("print(table)", False),
                                              ("x = 5", False), ("assert x == 5", True)))
    assert stay == [1, 2]
    assert [c.source for c in out[:5]] == ["x = 1", "table = x * 2", "assert x == 1",
                                           "print(table)", "x = 5"]
    assert out[-1].source.endswith('with book_checks.block(1, reads="x"):\n    assert x == 5'
                                   '\n\nbook_checks.report()')
    # a hidden cell another staying hidden cell needs stays too
    _, stay = notebooks.gather_checks(cells(("a = 1", True), ("b = a", True), ("print(b)", False)))
    assert stay == [0, 1]


def test_a_hidden_cell_that_changes_an_object_stays():
    # A draw moves the generator on; appending changes the list the visible cell prints.
    _, stay = notebooks.gather_checks(cells(
        ("import numpy as np\nrng = np.random.default_rng(0)\nrows = []", False),
        ("keep_draw = rng.normal()\nrows.append(1)", True), ("print(rng.normal(), rows)", False),
        ("%matplotlib inline\nassert rows == [1]", True)))
    assert stay == [1]


def test_a_figure_cell_stays_open_and_gets_its_caption(book):
    nb = nbformat.v4.new_notebook()
    figure = nbformat.v4.new_code_cell("plot_roc_curve(y, s);", metadata={
        "tags": ["hide-input"],
        "mystnb": {"figure": {"name": "fig-roc", "caption": "The ROC curve of $\\AUC$ ({numref}`fig-roc`)."}}})
    figure.outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG})]
    nb.cells = [nbformat.v4.new_markdown_cell("# X"), figure]
    out, problems = convert_notebook(nb, book, docname="book/x")
    assert problems == []
    index = next(i for i, c in enumerate(out.cells) if c.source.startswith("plot_roc_curve"))
    assert "source_hidden" not in out.cells[index].metadata.get("jupyter", {})
    assert out.cells[index + 1].source == "*Figure 2: The ROC curve of $\\operatorname{AUC}$ (Figure 2).*"
    # a hidden cell's figure stays hidden (it is no figure of the page)
    figure.metadata["tags"] = ["remove-cell"]
    out, _ = convert_notebook(nb, book, docname="book/x")
    assert not [c for c in out.cells if "figure-caption" in c.metadata.get("tags", [])]


def test_module_functions_and_comprehension_variables_pin_no_cell():
    # np.sort and a fresh generator's draws change nothing a check reads; a
    # comprehension's loop variable is its own; the global generator does change.
    _, stay = notebooks.gather_checks(cells(
        ("import numpy as np\nx = np.arange(3)", False),
        ("assert np.all(x == [f for f in range(3)])", True),
        ("y = np.sort(x)\nz = np.random.default_rng(0).normal()\nf = [f for f in y]", False)))
    assert stay == []
    _, stay = notebooks.gather_checks(cells(
        ("import numpy as np\nx = np.arange(3)", False), ("assert np.all(x >= 0)", True),
        ("np.random.seed(1)", False)))
    assert stay == [1]
    _, stay = notebooks.gather_checks(cells(
        ("rows = [3, 1]", False), ("assert len(rows) == 2", True), ("rows.sort()", False)))
    assert stay == [1]


def test_the_solutions_notebook_starts_with_the_header_too(book):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# X\n\n```{exercise}\n:label: ex-1\n\nWhy?\n```\n\n"
                                              "```{solution} ex-1\nBecause.\n```"),
                nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_code_cell("plot_roc_curve(y, s);", metadata={
                    "mystnb": {"figure": {"name": "fig-roc", "caption": "The curve."}}})]
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text="1")]
    nb.cells[2].outputs = [nbformat.v4.new_output("display_data", data={"image/png": PNG})]
    out, problems = notebooks.solutions_notebook(nb, book, docname="book/x")
    assert problems == []
    # the chapter's code is folded, without its outputs but its figures, which stay
    # under their captions: a solution may say "in Figure 2"
    code = [c for c in out.cells if "chapter-code" in c.metadata.get("tags", [])]
    assert [c.outputs != [] for c in code] == [False, True]
    assert all(c.metadata["jupyter"]["source_hidden"] for c in code)
    assert not code[1].metadata["jupyter"].get("outputs_hidden")
    index = out.cells.index(code[1])
    assert out.cells[index + 1].source == "*Figure 2: The curve.*"
    assert [c.metadata.get("tags") for c in out.cells[:2]] == [["notebook-header"], ["install"]]
    assert "worked solutions" in out.cells[0].source


@pytest.mark.book
@pytest.mark.parametrize("page", chapter_pages())
def test_notebook_math_uses_no_macro_of_the_book(downloads, page):
    # KaTeX front ends (VS Code, Colab) know neither \AUC nor a \newcommand of another cell.
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    macros = config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]
    used = re.compile(r"\\(" + "|".join(macros) + r"|newcommand)(?![A-Za-z])")
    for path in (downloads[page], downloads[page].with_name(f"{page}-solutions.ipynb")):
        if path.is_file():
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type == "markdown":
                    prose = re.sub(r"(`+)[^`].*?\1", "", cell.source, flags=re.S)
                    assert not used.search(prose), f"{path.name}: {used.search(prose).group(0)}"
