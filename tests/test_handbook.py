"""The library and its book companion apart, and the helpers of the pages.

* ``import evalmetrics`` exposes the library only: no name of
  ``evalmetrics.handbook`` (pitfalls, studies, screening, comparisons, their
  figures) is reachable from the top-level namespace or from
  ``evalmetrics.plotting``.
* A page imports public names only: no ``from evalmetrics import _x``, no
  ``evalmetrics._module``, no ``em._name``.
* ``keep`` asserts before it glues and says which number failed;
  ``markdown_table`` writes the pipe table the pages glue.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import evalmetrics.handbook
import evalmetrics.handbook.plotting
from evalmetrics.handbook import comparisons, pages

BOOK = Path(__file__).resolve().parent.parent / "book"
COMPANION_MODULES = {"handbook", "pitfalls", "studies", "screening", "comparisons"}


def fresh_public_names(module):
    """Public names of ``module`` in a fresh interpreter (this one has imported the handbook)."""
    code = f"import json, {module} as m; print(json.dumps(sorted(n for n in dir(m) if not n.startswith('_'))))"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(json.loads(output))


# ---------------------------------------------------------------------------
# the namespaces
# ---------------------------------------------------------------------------

def test_top_level_namespace_holds_no_companion_name():
    top = fresh_public_names("evalmetrics")
    companion = set(evalmetrics.handbook.__all__) | set(comparisons.__all__) | set(pages.__all__)
    assert top & (companion | COMPANION_MODULES) == set()
    assert "roc_auc" in top and "twelve_units" in top  # the library is there


def test_library_figures_hold_no_companion_figure():
    figures = fresh_public_names("evalmetrics.plotting")
    assert figures & set(evalmetrics.handbook.plotting.__all__) == set()
    assert "plot_roc_curve" in figures


def test_handbook_exports_what_its_all_lists():
    for module in (evalmetrics.handbook, evalmetrics.handbook.plotting, comparisons, pages):
        assert module.__all__, module.__name__
        for name in module.__all__:
            assert not name.startswith("_") and hasattr(module, name), (module.__name__, name)


# ---------------------------------------------------------------------------
# pages use public names only
# ---------------------------------------------------------------------------

CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


def code_cells(text):
    """The Python source of each code cell of a MyST page (options and magics dropped)."""
    for match in CELL.finditer(text):
        lines = match.group(1).splitlines()
        if lines and lines[0] == "---":  # a YAML block of options
            lines = lines[lines.index("---", 1) + 1:]
        yield "\n".join("" if line.startswith((":", "%", "!")) else line for line in lines)


def private_uses(source):
    """Every private name of evalmetrics that ``source`` imports or reaches by attribute."""
    found, modules = [], set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "evalmetrics":
                    found += [part for part in alias.name.split(".") if part.startswith("_")]
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "evalmetrics":
            found += [part for part in node.module.split(".") if part.startswith("_")]
            found += [alias.name for alias in node.names if alias.name.startswith("_")]
            modules.update(alias.asname or alias.name for alias in node.names)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(node.attr)
    return found


@pytest.mark.parametrize("page", sorted(BOOK.glob("*.md")), ids=lambda p: p.name)
def test_page_imports_public_names_only(page):
    source = "\n".join(code_cells(page.read_text(encoding="utf-8")))
    assert private_uses(source) == []


@pytest.mark.parametrize("source, private", [
    ("from evalmetrics import _bootstrap_auc", ["_bootstrap_auc"]),
    ("from evalmetrics._bootstrap_auc import Cells", ["_bootstrap_auc"]),
    ("from evalmetrics.handbook.comparisons import _binary_sets", ["_binary_sets"]),
    ("import evalmetrics as em\nem._bootstrap_auc._Cells", ["_bootstrap_auc", "_Cells"]),
    ("import evalmetrics.handbook._x", ["_x"]),
    ("from evalmetrics.handbook import pages\npages._plain(1)", ["_plain"]),
    ("import numpy as np\nnp._NoValue\nfrom evalmetrics import roc_auc\nroc_auc.__doc__", []),
])
def test_private_uses_finds_every_form(source, private):
    assert sorted(private_uses(source)) == sorted(private)


def test_code_cells_reads_options_and_magics():
    page = ("text\n```{code-cell} ipython3\n---\ntags: [remove-cell]\n---\n%config X\nx = 1\n```\n"
            "```{code-cell} ipython3\n:tags: [remove-input]\n\ny = 2\n```\n")
    assert [ast.unparse(ast.parse(cell)) for cell in code_cells(page)] == ["x = 1", "y = 2"]


# ---------------------------------------------------------------------------
# the page helpers
# ---------------------------------------------------------------------------

@pytest.fixture
def glued(monkeypatch):
    """What the helpers glue, instead of myst_nb's output: key -> value."""
    import myst_nb

    store = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display=True: store.__setitem__(name, value))
    return store


def test_keep_glues_a_plain_number_that_meets_every_expectation(glued):
    import numpy as np

    assert keep_and_type("n", np.int64(32), exact=32, glued=glued) == (32, int)
    assert keep_and_type("auc", np.float64(51 / 64), printed=0.7969, exact=Fraction(51, 64),
                         glued=glued) == (0.796875, float)
    assert keep_and_type("sim", 0.31, near=(0.3, 0.02), glued=glued) == (0.31, float)
    assert keep_and_type("ap", 83 / 120, printed=0.692, places=3, glued=glued) == (83 / 120, float)


def keep_and_type(name, value, glued, **expected):
    returned = pages.keep(name, value, **expected)
    assert glued[name] == returned
    return returned, type(glued[name])


@pytest.mark.parametrize("expected, message", [
    (dict(printed=0.7968), "glue key 'auc': computed 0.796875, rounds to 0.7969 at 4 places, expected 0.7968"),
    (dict(exact=Fraction(52, 64)), "glue key 'auc': computed 0.796875, expected exactly 13/16"),
    (dict(near=(0.7, 0.05)), "glue key 'auc': computed 0.796875, expected 0.7 within 0.05"),
    (dict(printed=0.7969, exact=0.8), "glue key 'auc': computed 0.796875, expected exactly 0.8"),
])
def test_keep_names_the_key_and_both_values_and_glues_nothing(glued, expected, message):
    with pytest.raises(AssertionError) as failure:
        pages.keep("auc", 51 / 64, **expected)
    assert str(failure.value) == message
    assert glued == {}


def test_keep_fails_on_nan(glued):
    with pytest.raises(AssertionError, match="glue key 'x'"):
        pages.keep("x", float("nan"), exact=0.5)
    with pytest.raises(AssertionError, match="glue key 'x'"):
        pages.keep("x", float("nan"), near=(0.5, 1.0))


def test_keep_without_an_expectation_is_an_error(glued):
    with pytest.raises(TypeError, match=r"keep\('x'\): give the expected value"):
        pages.keep("x", 1.0)


def test_keep_takes_expectations_by_keyword_only(glued):
    with pytest.raises(TypeError):
        pages.keep("x", 0.5, 0.5)


def test_keep_fraction_glues_the_fraction_as_markdown(glued):
    import numpy as np

    assert pages.keep_fraction("auc", np.float64(19 / 24), Fraction(38, 48)) == Fraction(19, 24)
    assert glued["auc"].data == "19/24"
    assert pages.keep_fraction("n", 3, 3) == 3 and glued["n"].data == "3"
    assert pages.keep_fraction("area", 0.8125, Fraction(13, 16), denominator=32) == Fraction(13, 16)
    assert glued["area"].data == "26/32"


def test_keep_fraction_over_a_denominator_that_does_not_divide_is_an_error(glued):
    with pytest.raises(ValueError, match=r"keep_fraction\('x'\): 1/3 is not a whole number of 1/4"):
        pages.keep_fraction("x", 1 / 3, Fraction(1, 3), denominator=4)
    assert glued == {}


def test_keep_fraction_names_the_key_and_both_values_and_glues_nothing(glued):
    with pytest.raises(AssertionError) as failure:
        pages.keep_fraction("auc", 0.79, Fraction(19, 24))
    assert str(failure.value) == "glue key 'auc': computed 0.79, expected exactly 19/24"
    with pytest.raises(AssertionError, match="glue key 'x'"):
        pages.keep_fraction("x", float("nan"), Fraction(1, 2))
    assert glued == {}


def test_glue_number_glues_plain_types(glued):
    import numpy as np

    assert pages.glue_number("k", np.int32(7)) == 7 and type(glued["k"]) is int
    assert pages.glue_number("p", np.float32(0.5)) == 0.5 and type(glued["p"]) is float
    assert type(pages.glue_number("b", True)) is int  # bool is an integer, glued as 1


def test_markdown_table_writes_header_separators_and_rows():
    table = pages.markdown_table(["model", "AUC"], [["a", 0.5], ("b", "0.7969")])
    assert table.data == "| model | AUC |\n|---|---|\n| a | 0.5 |\n| b | 0.7969 |"
    right = pages.markdown_table(["x", "y"], [[1, 2]], align="---:")
    assert right.data.splitlines()[1] == "|---:|---:|"
    mixed = pages.markdown_table(["x", "y"], [], align=[":---", "---:"])
    assert mixed.data == "| x | y |\n|:---|---:|"


@pytest.mark.parametrize("header, rows, align, message", [
    (["x", "y"], [[1]], None, r"every row must have 2 cells, got 1"),
    (["x", "y"], [[1, 2, 3]], None, r"every row must have 2 cells, got 3"),
    (["x", "y"], [], ["---"], r"align must give one separator per column \(2\), got 1"),
])
def test_markdown_table_rejects_ragged_input(header, rows, align, message):
    with pytest.raises(ValueError, match=message):
        pages.markdown_table(header, rows, align=align)
