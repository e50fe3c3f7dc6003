"""The exercises of the book: enough of them, each with a worked solution whose
numbers are computed, and each product showing them as it should.

The source checks read the pages (``book/*.md``); the built checks read the
website, the downloaded notebooks and the two editions of a handout (the PDF
checks are in ``tests/test_book_pdf.py``).
"""

from __future__ import annotations

import re
import sys

import nbformat
import pytest

from conftest import ROOT, toc_chapters

sys.path.insert(0, str(ROOT / "tools"))

from notebooks import EXERCISE_KINDS, EXERCISE_LEVELS, leftover_myst  # noqa: E402

# Pages that teach nothing to practise: the landing page, the notation, the
# bibliography, the table of checks against scikit-learn and the API reference
# (book/api*.md).
NOT_TEACHING = {"index", "notation", "bibliography", "checked-against-scikit-learn", "glossary"}
FEWEST, MOST = 4, 8

FENCE = re.compile(r"^(`{3,}|:{3,})\{(exercise|solution|solution-start|solution-end)\}\s*(.*)$")


def teaching_chapters() -> list[str]:
    return [p.stem for p in toc_chapters()
            if p.stem not in NOT_TEACHING and not p.stem.startswith("api")]


def blocks(page: str) -> list[dict]:
    """The exercise and solution blocks of a page, in order: kind, argument, options,
    body (gated solutions: every line between their gates, code cells included)."""
    lines = (ROOT / "book" / f"{page}.md").read_text(encoding="utf-8").split("\n")
    found, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        marks, kind, argument = fence.groups()
        closer = re.compile(rf"^{re.escape(marks[0])}{{{len(marks)},}}\s*$")
        end = i + 1
        while end < len(lines) and not closer.match(lines[end]):
            end += 1
        body = lines[i + 1:end]
        options = {}
        while body and re.match(r"^:[\w-]+:", body[0]):
            key, value = re.match(r"^:([\w-]+):\s*(.*)$", body[0]).groups()
            options[key] = value.strip()
            body = body[1:]
        if kind == "solution-start":  # the gated solution runs to its solution-end
            stop = next(j for j in range(end + 1, len(lines))
                        if FENCE.match(lines[j]) and FENCE.match(lines[j]).group(2) == "solution-end")
            body = body + lines[end + 1:stop]
            kind = "solution"
        if kind != "solution-end":
            found.append({"kind": kind, "argument": argument.strip(), "options": options,
                          "body": "\n".join(body)})
        i = end + 1
    return found


def exercises(page: str) -> list[dict]:
    return [b for b in blocks(page) if b["kind"] == "exercise"]


def solutions(page: str) -> dict[str, dict]:
    return {b["argument"]: b for b in blocks(page) if b["kind"] == "solution"}


def prose(text: str) -> str:
    """A solution's prose: without code cells and code blocks, inline code, roles
    that name targets or glued values, and labels."""
    text = re.sub(r"^(`{3,})[^\n]*\n.*?^\1\s*$", "", text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"\{[\w:+-]+\}`[^`]*`", "", text)  # {glue:text}`key:.4f`, {numref}`...`
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"^\([\w:.-]+\)=\s*$", "", text, flags=re.MULTILINE)
    return text


# A typed result: a decimal, a fraction, a percentage, or an integer of two digits
# or more.  One-digit integers are the structure of an argument ("two classes",
# "step 3"); numbers given in the exercise's statement are its data.  Two forms
# are names, not results: ``0/0``, the undefined ratio a convention fills, and the
# level of an interval ("a 95 % Wilson interval", "at the 95 % level"), which
# names the kind of interval as "Wilson" does.
TYPED = re.compile(r"(?<![\w.\\])(?!0/0(?!\w))(?!\d+\s*%\s+(?:[A-Z]\w+\s+)?(?:interval|level)\b)"
                   r"(\d+\.\d+|\d+/\d+|\d+\s*%|\d{2,})(?![\w])")


# ------------------------------------------------------------------ sources


def test_there_are_teaching_chapters():
    chapters = teaching_chapters()
    assert {"confusion-matrix", "roc-auc", "reporting"} <= set(chapters)
    assert not set(chapters) & NOT_TEACHING


@pytest.mark.parametrize("page", teaching_chapters())
def test_every_teaching_chapter_has_four_to_eight_exercises(page):
    count = len(exercises(page))
    assert FEWEST <= count <= MOST, f"{page}: {count} exercises"


@pytest.mark.parametrize("page", teaching_chapters())
def test_every_exercise_has_one_solution_after_it(page):
    order = blocks(page)
    labels = [b["options"].get("label") for b in order if b["kind"] == "exercise"]
    assert all(labels), f"{page}: an exercise without a :label:"
    assert len(set(labels)) == len(labels), f"{page}: duplicate exercise labels"
    targets = [b["argument"] for b in order if b["kind"] == "solution"]
    assert sorted(targets) == sorted(labels), f"{page}: exercises {labels}, solutions {targets}"
    for label in labels:
        at_exercise = next(i for i, b in enumerate(order) if b["options"].get("label") == label)
        at_solution = next(i for i, b in enumerate(order)
                           if b["kind"] == "solution" and b["argument"] == label)
        assert at_solution > at_exercise, f"{page}: the solution to {label} comes first"


@pytest.mark.parametrize("page", teaching_chapters())
def test_exercises_are_marked_and_graded(page):
    levels = []
    kinds = set()
    for exercise in exercises(page):
        classes = exercise["options"].get("class", "").split()
        level = [c for c in classes if c in EXERCISE_LEVELS]
        kind = [c for c in classes if c in EXERCISE_KINDS]
        label = exercise["options"].get("label")
        assert len(level) == 1 and len(kind) == 1, f"{page} {label}: classes {classes}"
        levels.append(int(level[0][-1]))
        kinds.add(kind[0])
    assert levels == sorted(levels), f"{page}: not graded from quick to hard: {levels}"
    assert len(kinds) >= 3, f"{page}: only {sorted(kinds)}"


@pytest.mark.parametrize("page", teaching_chapters())
def test_solutions_are_worked_and_their_numbers_glued(page):
    source = (ROOT / "book" / f"{page}.md").read_text(encoding="utf-8")
    for label, solution in solutions(page).items():
        exercise = next(e for e in exercises(page) if e["options"].get("label") == label)
        text = prose(solution["body"])
        assert len(text.split()) >= 25, f"{page} {label}: the solution gives no reasoning"
        given = set(TYPED.findall(prose(exercise["body"])))
        typed = [n for n in TYPED.findall(text) if n not in given]
        assert not typed, f"{page} {label}: typed numbers {typed}; glue them"
        for key in re.findall(r"\{glue:(?:text|md)\}`([^`:]+)", solution["body"]):
            # glued by a call in a code cell of the page (keep(...) asserts it)
            assert any(template.fullmatch(key) for template in glued_keys(source)), \
                f"{page} {label}: glue key {key!r} is never computed"


def glued_keys(source: str) -> list[re.Pattern]:
    """The keys a page's code can glue: its string literals, and its f-strings as
    patterns (``f"ex-{tag}-cost"`` stands for every key a loop builds from it)."""
    templates = []
    for prefix, _, text in re.findall(r"""(?<!\w)(f?)(["'])(.*?)\2""", source):
        if prefix and "{" in text:
            parts = re.split(r"\{[^{}]*\}", text)
            templates.append(re.compile(r"[\w.-]+".join(re.escape(p) for p in parts)))
        else:
            templates.append(re.compile(re.escape(text)))
    return templates


def test_glued_keys_reads_literals_and_f_strings():
    keys = glued_keys("""keep("ex-a", 1)\nfor t in x:\n    keep(f"ex-b-{t}-cost", 2)""")
    assert any(k.fullmatch("ex-a") for k in keys)
    assert any(k.fullmatch("ex-b-095-cost") for k in keys)
    assert not any(k.fullmatch("ex-c") or k.fullmatch("ex-b-095-sum") for k in keys)


def test_the_typed_number_check_can_fail():
    assert TYPED.findall(prose("The AUC is 0.7969, so 83/120 of 12 pairs, or 75 %.")) == \
        ["0.7969", "83/120", "12", "75 %"]
    assert TYPED.findall(prose("It is {glue:text}`ex-auc:.4f` (see `x = 0.5`) in step 3.")) == []
    # the undefined ratio and an interval's level are names; a result next to them is not
    assert TYPED.findall(prose("Precision 0/0 is set to 0; a 95 % Wilson interval, at the 90 % level.")) == []
    assert TYPED.findall(prose("Precision 0/0 or 10/20 is 95 % of the interval, 0/1 or 0/00.")) == \
        ["10/20", "95 %", "0/1", "0/00"]


# --------------------------------------------------------------- notebooks


@pytest.mark.book
@pytest.mark.parametrize("page", teaching_chapters())
def test_notebooks_have_room_for_work_and_solutions_apart(built_site, page):
    folder = built_site / "_sources" / "book"
    nb = nbformat.read(folder / f"{page}.ipynb", as_version=4)
    work = [c for c in nb.cells if "exercise-work" in c.metadata.get("tags", [])]
    assert len(work) == len(exercises(page))
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "Solution to Exercise" not in text
    solved = nbformat.read(folder / f"{page}-solutions.ipynb", as_version=4)
    text = "\n".join(c.source for c in solved.cells if c.cell_type == "markdown")
    assert text.count("Solution to Exercise") == len(exercises(page))
    assert leftover_myst(text) == []


@pytest.mark.book
@pytest.mark.parametrize("page", teaching_chapters())
def test_website_folds_every_solution(built_site, page):
    html = (built_site / "book" / f"{page}.html").read_text(encoding="utf-8")
    folded = re.findall(r'<div class="[^"]*\bsolution\b[^"]*\bdropdown\b', html)
    assert len(folded) == len(exercises(page)) == len(re.findall(r'class="[^"]*\bsolution\b', html))
    assert 'download-solutions-button' in html


def test_the_environment_keeps_no_page_for_the_exercises(built_site):
    # Every rebuild reads the pickled environment; sphinx-exercise's registry of
    # exercise and solution nodes pulled every page with an exercise into it (6.5 MB,
    # half a second of each rebuild) until _ext/evalmetrics_exercises.py detached them.
    import pickle

    from docutils import nodes

    path = built_site.parent / ".doctrees" / "environment.pickle"
    with open(path, "rb") as handle:
        env = pickle.load(handle)
    registry = env.sphinx_exercise_registry
    assert len(registry) == sum(2 * len(exercises(page)) for page in teaching_chapters())
    attached = [label for label, entry in registry.items()
                for part in entry["node"].findall(nodes.Node) if part.document is not None]
    assert attached == []
    assert all(entry["node"].children for entry in registry.values())  # the title is kept
    assert path.stat().st_size < 1_500_000
