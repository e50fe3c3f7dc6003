"""Figure text is legible where it is read, for every figure the library draws.

Each plotting function of ``evalmetrics.plotting`` draws its docstring example
(the twelve units) under the handbook's style (``_style.RC``, which the book's
kernels apply too); the smallest text of every figure must be at least 9 CSS
pixels on the website at 1280 px and 7 points in the PDF, at the width each
shows it (``_style.text_sizes``).  The browser test confirms the column width
the web rule assumes; the build applies the same rule to every figure a page draws
(``tools/ipython_startup.py``).
"""

from __future__ import annotations

import doctest

import pytest

pytest.importorskip("matplotlib")  # the plot extra; CI installs it

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evalmetrics import plotting  # noqa: E402
from evalmetrics.plotting import _style  # noqa: E402

FUNCTIONS = sorted(name for name in dir(plotting) if name.startswith("plot_"))


def test_the_rule_has_room():
    # The widest figure the rule allows is wider than the text of a page: a figure
    # full-width in the PDF keeps its smallest text at 7 pt or more.
    assert _style.MAX_WIDTH_IN >= _style.PRINT_WIDTH_IN
    assert _style.RC["pdf.fonttype"] == 42


def test_text_sizes_of_a_known_figure():
    with plt.rc_context(_style.RC):
        fig, ax = plt.subplots(figsize=(12.0, 3.0), dpi=100)
        ax.set_xlabel("recall", fontsize=10)
        fig.canvas.draw()
    sizes = _style.text_sizes(fig)
    plt.close(fig)
    # 12 in shown in a 660 px column and printed 6.27 in wide: both scaled down.
    assert sizes.points == 10
    assert sizes.web_px == pytest.approx(10 / 72 * 660 / 12)
    assert sizes.print_pt == pytest.approx(10 * 6.27 / 12)
    assert not sizes.legible


@pytest.mark.parametrize("name", FUNCTIONS)
def test_figure_text_is_legible(name):
    tests = [t for t in doctest.DocTestFinder().find(getattr(plotting, name), name) if t.examples]
    assert tests, f"{name} has no example that draws its figure"
    plt.close("all")
    with plt.rc_context(_style.RC):
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for test in tests:
            # The example's own checks are the doctests' business; here only its figures.
            runner.run(test, out=lambda text: None)
        figures = [plt.figure(number) for number in plt.get_fignums()]
        assert figures, f"the example of {name} draws no figure"
        for fig in figures:
            fig.canvas.draw()
            sizes = _style.text_sizes(fig)
            assert sizes is None or sizes.legible, (name, sizes)
    plt.close("all")
