"""Every figure of the package can be read: no text on data or on text, no bar left undrawn.

The checker is ``evalmetrics.plotting._layout.layout_faults`` (its module says
what it measures).  First, figures built to break each rule, and their
repaired twins, show that it fails where it should and only there.  Then
every plotting function of :mod:`evalmetrics.plotting` and
:mod:`evalmetrics.handbook.plotting` draws its docstring example and the
figures the book draws with it (the same calls, on the same data), under the
handbook's style (``_style.RC``), and each must be free of faults.  The book's
build applies the same check to every figure a page draws
(``tools/ipython_startup.py``), the report's tests to the report's figures.
"""

from __future__ import annotations

import doctest
import os

import numpy as np
import pytest

pytest.importorskip("matplotlib")  # the plot extra; CI installs it

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evalmetrics import plotting  # noqa: E402
from evalmetrics.handbook import plotting as companion  # noqa: E402
from evalmetrics.plotting import _style  # noqa: E402
from evalmetrics.plotting._layout import layout_faults  # noqa: E402
from helpers import assert_readable  # noqa: E402

LIBRARY = sorted(name for name in dir(plotting) if name.startswith("plot_"))
# Figures only: an explorer (a Vega-Lite chart) is checked by tests/test_explorers.py.
COMPANION = sorted(name for name in companion.__all__ if name.startswith("plot_"))


@pytest.fixture(autouse=True)
def handbook_style():
    plt.close("all")
    with plt.rc_context(_style.RC):
        yield
    plt.close("all")


def kinds(fig):
    return sorted({fault.kind for fault in layout_faults(fig)})


# ---------------------------------------------------------------- the checker fails


def test_a_legend_on_a_line_is_found_and_one_beside_it_is_not():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1], label="diagonal")
    ax.legend(loc="center", frameon=False)
    (fault,) = layout_faults(fig)
    assert fault.kind == "overlap" and "legend entry 'diagonal'" in str(fault)
    ax.legend(loc="upper left", frameon=False)
    assert layout_faults(fig) == []


def test_a_reference_line_through_a_legend_is_found():
    # Figure 15.4 as it was: a vertical line ran through every legend entry.
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [1, 0.8], label="cost")
    ax.axvline(0.1, color="red", label="chosen")
    ax.set_xlim(0, 1), ax.set_ylim(0, 1.1)
    ax.legend(loc="lower left", frameon=False)
    found = [str(f) for f in layout_faults(fig)]
    assert any("legend entry 'cost'" in f and "line 'chosen'" in f for f in found)
    ax.legend(loc="lower right", frameon=False)
    assert layout_faults(fig) == []


def test_markers_bars_and_opaque_fills_are_data():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0.5], [0.5], "o", markersize=12)
    ax.set_xlim(0, 1), ax.set_ylim(0, 1)
    ax.text(0.5, 0.5, "on the dot", ha="center", va="center")
    assert kinds(fig) == ["overlap"]
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([0, 1], [1.0, 0.5], width=0.5)
    ax.text(0.25, 0.5, "half on a bar", va="center")
    assert kinds(fig) == ["overlap"]
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.hist(np.linspace(0, 1, 50), bins=10, alpha=0.45)
    ax.text(0.1, 2.0, "inside the histogram")
    assert kinds(fig) == ["overlap"]


def test_shades_images_and_text_inside_a_patch_are_not_faults():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.fill_between([0, 1], [0, 1], alpha=0.15)  # the area under a curve
    ax.axhspan(0.8, 1.0, color="grey", alpha=0.15)
    ax.text(0.7, 0.2, "on a shade")
    ax.text(0.2, 0.9, "on a band")
    ax.set_xlim(0, 1), ax.set_ylim(0, 1)
    assert layout_faults(fig) == []
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.imshow(np.eye(2))
    ax.text(0, 0, "46", ha="center", va="center")
    ax.bar([2.5], [1.5], width=1.0, bottom=-0.5)
    ax.text(2.5, 0.2, "0.9", ha="center")  # a value written inside its bar
    assert layout_faults(fig) == []


def test_text_on_text_and_colliding_ticks_are_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.text(0.2, 0.5, "first annotation")
    ax.text(0.3, 0.5, "second annotation")
    assert kinds(fig) == ["overlap"]
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.bar(range(3), [1, 2, 3])
    ax.set_xticks(range(3), ["a long class name", "another long name", "third"])
    assert kinds(fig) == ["tick labels collide"]
    ax.set_xticks(range(3), ["a", "b", "c"])
    assert layout_faults(fig) == []


def test_an_inset_and_its_title_on_the_parents_data_are_found():
    # Figure 15.2 as it was: the chance diagonal struck the inset's title.
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.plot([0, 1], [0, 1], color="grey")
    ax.set_xlim(0, 1), ax.set_ylim(0, 1)
    inset = ax.inset_axes([0.45, 0.07, 0.52, 0.4])
    inset.set_title("false positive rate below 0.05", fontsize=10)
    found = [str(f) for f in layout_faults(fig)]
    assert any(f.startswith("text 'false positive rate below 0.05'") for f in found)
    assert any(f.startswith("the inset axes 'false positive rate below 0.05'") for f in found)
    inset.remove()
    ax.inset_axes([0.6, 0.07, 0.37, 0.2]).set_title("false positive rate below 0.05", fontsize=10)
    assert layout_faults(fig) == []


def test_a_zero_bar_needs_a_mark():
    # Figure 4.2 as it was: Exercise 4.2 asked for bars that were not drawn.
    fig, ax = plt.subplots(figsize=(4, 3))
    bars = ax.bar([0, 1, 2], [0.5, 0.0, 0.3], label="recall")
    ax.set_ylim(0, 1)
    (fault,) = layout_faults(fig)
    assert fault.kind == "zero bar" and "'recall' of value 0" in str(fault)
    _style.mark_small_bars(ax, bars)
    assert layout_faults(fig) == []
    # A count too small for its scale is as invisible as a zero.
    fig, ax = plt.subplots(figsize=(4, 1.2))
    bars = ax.bar([0, 1], [900, 1])
    assert kinds(fig) == ["zero bar"]
    _style.mark_small_bars(ax, bars)
    assert layout_faults(fig) == []
    assert [t.get_text() for t in ax.texts] == ["1"]
    # The empty bins of a histogram are gaps on a continuous axis, not missing bars.
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.hist([0.1, 0.2, 0.2, 0.9], bins=10, range=(0, 1))
    assert layout_faults(fig) == []


def test_an_axis_label_set_as_a_line_of_a_word_tick_label_is_found():
    # Figure 2.2 as it was: "Predicted" over the middle class read "Predicted rework".
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.imshow(np.eye(3))
    ax.set_xticks(range(3), ["good", "rework", "scrap"])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("Predicted")
    assert kinds(fig) == ["label reads as a tick label"]
    ax.set_xlabel("Predicted", labelpad=14)
    assert layout_faults(fig) == []
    # Numbers under a label never read on into it.
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_xlabel("Recall")
    assert layout_faults(fig) == []


# ---------------------------------------------------------------- every figure passes


def examples(function, name):
    tests = [t for t in doctest.DocTestFinder().find(function, name) if t.examples]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        # The example's own checks are the doctests' business; here only its figures.
        runner.run(test, out=lambda text: None)
    return tests


@pytest.mark.parametrize("module, name", [(plotting, n) for n in LIBRARY] + [(companion, n) for n in COMPANION])
def test_the_example_figure_is_readable(module, name):
    function = getattr(module, name)
    if not examples(function, name):
        assert name in BOOK_FIGURES_OF, f"{name} has neither an example nor a case in BOOK_CASES"
        return
    figures = [plt.figure(number) for number in plt.get_fignums()]
    assert figures, f"the example of {name} draws no figure"
    for fig in figures:
        assert_readable(fig)


# The figures the book draws, by the same calls on the same data (the build
# checks them in the pages too; here a change to a function is caught at once).


def _binormal_rocs():
    from evalmetrics.datasets import binormal_scores

    labels_a, scores_a = binormal_scores(2000, 2000, mean=2.0, seed=1)
    labels_b, scores_b = binormal_scores(2000, 2000, mean=2.6, sd=2.0, seed=2)
    ax = plotting.plot_roc_curve(labels_a, scores_a, label="mean 2, sd 1", mark_ties=False,
                                 binormal=(2.0, 1.0)).axes[0]
    return plotting.plot_roc_curve(labels_b, scores_b, ax, label="mean 2.6, sd 2", mark_ties=False,
                                   binormal=(2.6, 2.0))


def _twelve_units():
    from evalmetrics.worked_example import twelve_units

    return twelve_units()


def _graded_parts():
    from evalmetrics.worked_example import graded_parts

    return graded_parts()


def _six_households():
    from evalmetrics.worked_example import six_households

    return six_households()


def _lazy_grader():
    from evalmetrics import per_class_scores

    parts = _graded_parts()
    everything_good = np.full(len(parts.y_true), "good")
    return plotting.plot_class_scores(per_class_scores(parts.y_true, everything_good, zero_division=0))


def _costs(function, **options):
    units = _twelve_units()
    return function(units.y_true, units.y_score, false_positive_cost=1, false_negative_cost=10, **options)


@pytest.fixture(scope="module")
def screening():
    from evalmetrics.handbook import run_screening

    return run_screening(seed=0, folds=5, penalty=1.0, false_positive_cost=1.0,
                         false_negative_cost=20.0, resamples=200)


def _studies(name):
    from evalmetrics.handbook import studies

    if name == "imbalance":
        return studies.imbalance_study(prevalences=(0.5, 0.1, 0.01), n_negative=20_000, threshold=1.0,
                                       seed=0)
    return studies.ab_comparison(model_a=(2.0, 1.0), model_b=(2.6, 2.0), false_positive_rate=0.01,
                                 recall=0.5, seed=0)


# By the figure's name in the book (its number changes when a chapter moves).
BOOK_CASES = {
    "fig-cm-graded-parts": lambda _: plotting.plot_confusion_matrix(
        _graded_parts().matrix, labels=_graded_parts().labels, scale="separate"),
    "fig-avg-everything-good": lambda _: _lazy_grader(),
    "fig-roc-binormal": lambda _: _binormal_rocs(),
    "fig-cost-iso-lines": lambda _: _costs(plotting.plot_iso_cost_lines),
    "fig-cost-staircase": lambda _: _costs(plotting.plot_cost_curve, mark_thresholds=[0.5]),
    "fig-reg-best-constants": lambda _: plotting.plot_best_constants(_six_households().y_true),
    "fig-ip-imbalance": lambda _: companion.plot_imbalance_curves(_studies("imbalance")),
    "fig-ip-ab": lambda _: companion.plot_ab_comparison(_studies("ab")),
    "fig-ip-reliability": lambda r: companion.plot_screening_reliability(r),
    "fig-ip-costs": lambda r: companion.plot_screening_costs(r),
    "fig-ip-bootstrap": lambda r: companion.plot_screening_bootstrap(r),
}
SCREENING = {"fig-ip-reliability", "fig-ip-costs", "fig-ip-bootstrap"}
# The functions without an example, and the case that draws each.
BOOK_FIGURES_OF = {
    "plot_imbalance_curves": "fig-ip-imbalance",
    "plot_ab_comparison": "fig-ip-ab",
    "plot_screening_reliability": "fig-ip-reliability",
    "plot_screening_costs": "fig-ip-costs",
    "plot_screening_bootstrap": "fig-ip-bootstrap",
}


@pytest.mark.parametrize("case", sorted(BOOK_CASES))
def test_the_book_figure_is_readable(case, request):
    result = request.getfixturevalue("screening") if case in SCREENING else None
    assert_readable(BOOK_CASES[case](result))


def test_every_function_without_an_example_has_its_case():
    assert set(BOOK_FIGURES_OF.values()) <= set(BOOK_CASES)
    assert set(BOOK_FIGURES_OF) <= set(COMPANION) | set(LIBRARY)


def test_the_book_kernels_report_a_fault_to_the_build(tmp_path):
    # The start-up file of the book's kernels checks each figure saved as PNG and
    # writes its faults to the log the build turns into warnings (-W: a failure).
    import subprocess
    import sys
    from pathlib import Path

    log = tmp_path / "figure-text.log"
    startup = Path(__file__).resolve().parents[1] / "tools" / "ipython_startup.py"
    script = (f"exec(open({str(startup)!r}).read())\n"
              "import matplotlib.pyplot as plt\n"
              "for where in ('center', 'upper left'):\n"
              "    fig, ax = plt.subplots(figsize=(4, 3))\n"
              "    ax.plot([0, 1], [0, 1], label='diagonal')\n"
              "    ax.legend(loc=where)\n"
              f"    fig.savefig({str(tmp_path / 'f.png')!r}, format='png')\n")
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "EVALMETRICS_FIGURE_LOG": str(log),
                                                               "MPLBACKEND": "Agg"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (line,) = log.read_text(encoding="utf-8").splitlines()  # the centred legend only
    assert line.startswith("figure layout (overlap)") and "legend entry 'diagonal'" in line


@pytest.mark.parametrize("n", [1_000, 200_000])
def test_a_long_line_is_seen_where_it_runs_and_only_there(n):
    # A line of many points (the report's curves of a large file) is checked in display
    # space simplified as Agg draws it, in bounded pieces: the same answers as a short one.
    from matplotlib.transforms import Bbox

    from evalmetrics.plotting import _extents

    fig, ax = plt.subplots(figsize=(4, 4), dpi=100)
    x = np.linspace(0, 1, n)
    (line,) = ax.plot(x, x ** 2)  # the parabola: under the top-left corner, through the middle
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    fig.canvas.draw()
    data = _extents._line_data(line, ax, fig.dpi)
    to_display = ax.transData.transform
    crossed = Bbox([to_display((0.45, 0.15)), to_display((0.55, 0.35))])
    clear = Bbox([to_display((0.05, 0.6)), to_display((0.3, 0.9))])
    assert _extents.hits(data, crossed) and not _extents.hits(data, clear)
    plt.close(fig)


def _reliability_pair(y, s, ax, **kwargs):
    bottom = ax.figure.add_axes((0.1, 0.0, 0.8, 0.1))
    return plotting.plot_reliability_diagram(y, s, axes=(ax, bottom), **kwargs)


@pytest.mark.parametrize("draw", [
    plotting.plot_roc_curve,
    plotting.plot_precision_recall_curve,
    lambda y, s, ax, **k: plotting.plot_cost_curve(y, s, ax, false_positive_cost=1,
                                                   false_negative_cost=4, **k),
    _reliability_pair,
], ids=["roc", "precision-recall", "cost", "reliability"])
def test_legend_false_places_no_legend_and_draws_nothing(draw, monkeypatch):
    # The report places its own legends under the axes: asked for none, a plotting
    # function must not draw the figure to look for a free place (at 5e6 rows each
    # drawing cost tens of MiB) nor leave a legend behind.  With the default it
    # places one, drawing the figure once per place it tries.
    from matplotlib.figure import Figure

    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    draws = []
    original = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda fig, renderer: (draws.append(1), original(fig, renderer))[1])
    for legend, drawn in ((False, False), (True, True)):
        fig, ax = plt.subplots(figsize=(4, 4))
        draws.clear()
        draw(y, s, ax, legend=legend)
        assert (ax.get_legend() is not None) is legend
        assert bool(draws) is drawn, draws
        plt.close(fig)


def test_the_quick_rejection_by_extent_changes_no_answer(monkeypatch):
    # hits() first compares the box with the thing's extent; on lines (NaN gaps, wide
    # and thin), markers, bars, fills and a scatter, and boxes everywhere (touching,
    # thin, inside, outside), every answer equals the full check's.
    from matplotlib.transforms import Bbox

    from evalmetrics.plotting import _extents

    rng = np.random.default_rng(11)
    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    x = np.linspace(0, 1, 40)
    y = np.sin(6 * x)
    y[17] = np.nan
    ax.plot(x, y, linewidth=4)
    ax.plot([0.2, 0.8], [0.5, 0.5], marker="o", linestyle="none", markersize=9)
    ax.bar([0.3, 0.6], [0.4, -0.3], width=0.05)
    ax.fill_between(x, y - 0.2, y + 0.2, alpha=0.6)
    ax.scatter(rng.random(15), rng.random(15) - 0.5, s=30)
    fig.canvas.draw()
    things = _extents.marks(fig)
    assert len(things) >= 5
    boxes = []
    for _ in range(400):
        x0, y0 = rng.uniform(-20, 420), rng.uniform(-20, 320)
        w, h = rng.choice([0.5, 3, 12, 60, 200]), rng.choice([0.5, 3, 12, 60, 200])
        boxes.append(Bbox.from_bounds(x0, y0, w, h))
    quick = [[_extents.hits(thing, box) for box in boxes] for thing in things]
    monkeypatch.setattr(_extents.Marks, "extent", lambda self: None)
    full = [[_extents.hits(thing, box) for box in boxes] for thing in things]
    assert quick == full
    assert 0 < sum(map(sum, full)) < len(things) * len(boxes)  # some hits, some misses
    plt.close(fig)
