"""The explorers on the built website, moved in a real browser.

Each page's explorer is drawn from the site's own scripts (no request leaves the
machine), then every slider is moved over all its positions, the others at their
default, and every number the explorer shows (SVG text) is compared with the value
this test computes with the package.  The threshold slider of the confusion-matrix
chapter is moved with the keyboard (Home, then the right arrow), the others by
setting the input.  At 390 px and at 1280 px the explorer fits the column and the
page does not scroll sideways.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalmetrics import (
    BinaryCounts,
    accuracy,
    balanced_accuracy,
    bayes_threshold,
    binned_brier_decomposition,
    brier_decomposition,
    cohen_kappa,
    cost_at_threshold,
    counts_at_threshold,
    f1,
    matthews_correlation,
    precision,
    recall,
    specificity,
)
from evalmetrics.datasets import binormal_scores
from evalmetrics.worked_example import twelve_units
from site_check import Visit  # fixtures: the site_check plugin

pytestmark = pytest.mark.book

UNITS = twelve_units()
PHONE = {"width": 390, "height": 844}


def count(value) -> str:
    """A count or a total as the explorers print it."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.4f}"


def text(value) -> str:
    """A rate or a score as the explorers print it."""
    value = float(value)
    return "undefined" if math.isnan(value) else f"{value:.4f}"


def steps(first, last, step):
    return [round(first + k * step, 10) for k in range(round((last - first) / step) + 1)]


def threshold_numbers(y, s, t) -> dict:
    c = counts_at_threshold(y, s, t)
    nan = dict(zero_division=np.nan)
    return {
        "readout": [("flagged", count(c.tp + c.fp)), ("accuracy", text(accuracy(counts=c))),
                    ("precision", text(precision(counts=c, **nan))), ("recall", text(recall(counts=c, **nan))),
                    ("specificity", text(specificity(counts=c, **nan))), ("F1", text(f1(counts=c, **nan)))],
        "matrix": [f"TP {c.tp}", f"FN {c.fn}", f"FP {c.fp}", f"TN {c.tn}"],
    }


def cost_numbers(y, s, t, cfp, cfn) -> dict:
    total = cost_at_threshold(y, s, t, false_positive_cost=cfp, false_negative_cost=cfn)
    bayes = bayes_threshold(false_positive_cost=cfp, false_negative_cost=cfn)
    return {**threshold_numbers(y, s, t), "cost": [("total cost", count(total))],
            "bayes": [("Bayes threshold", text(bayes))]}


def binormal(separation, prevalence, n=1000):
    n_positive = round(n * prevalence)
    return binormal_scores(n - n_positive, n_positive, mean=separation, seed=0)


PREVALENCE_MEASURES = (("accuracy", accuracy), ("balanced accuracy", balanced_accuracy),
                       ("recall (TPR)", recall), ("specificity", specificity),
                       ("precision", precision), ("F1", f1), ("MCC", matthews_correlation),
                       ("Cohen's kappa", cohen_kappa))


def prevalence_numbers(prevalence) -> dict:
    pi = prevalence
    c = counts_at_threshold(UNITS.y_true, UNITS.y_score, 0.5)
    tpr, fpr = c.tp / c.positives, c.fp / c.negatives
    expected = BinaryCounts(tp=tpr * pi, fp=fpr * (1 - pi), fn=(1 - tpr) * pi,
                            tn=(1 - fpr) * (1 - pi))
    rows = [(name, text(measure(counts=expected))) for name, measure in PREVALENCE_MEASURES]
    return {"measures": rows + [("accuracy, flagging nothing", text(1 - pi))]}


def binning_numbers(bins) -> dict:
    k = bins
    b = binned_brier_decomposition(UNITS.y_true, UNITS.y_score, n_bins=k)
    e = brier_decomposition(UNITS.y_true, UNITS.y_score)
    return {
        "binned": [("reliability", text(b.reliability)), ("resolution", text(b.resolution)),
                   ("uncertainty", text(b.uncertainty)),
                   ("Brier score of the bin means", text(b.binned_brier_score)),
                   ("within-bin variance", text(b.within_bin_variance)),
                   ("within-bin covariance", text(b.within_bin_covariance)),
                   ("Brier score (original)", text(b.brier_score))],
        "exact": [("reliability", text(e.reliability)), ("resolution", text(e.resolution)),
                  ("uncertainty", text(e.uncertainty)), ("Brier score", text(e.brier_score))],
    }


Y, S = UNITS.y_true, UNITS.y_score
THRESHOLDS = steps(0, 1, 0.05)
BINORMAL = {"separation": (steps(0.5, 3, 0.5), 2), "prevalence": (steps(0.1, 0.5, 0.1), 0.3),
            "threshold": (steps(-2, 5, 0.25), 1)}


def binormal_numbers(separation, prevalence, threshold):
    return threshold_numbers(*binormal(separation, prevalence), threshold)


# page -> sliders {name: (positions, default)} and the numbers at a setting.
EXPLORERS = {
    "confusion-matrix": ({"threshold": (THRESHOLDS, 0.5)},
                         lambda threshold: threshold_numbers(Y, S, threshold)),
    "costs": ({"threshold": (THRESHOLDS, 0.5), "cost_fp": (steps(1, 10, 1), 1),
               "cost_fn": (steps(1, 10, 1), 10)},
              lambda threshold, cost_fp, cost_fn: cost_numbers(Y, S, threshold, cost_fp, cost_fn)),
    "roc-auc": (BINORMAL, binormal_numbers),
    "precision-recall": (BINORMAL, binormal_numbers),
    "imbalance": ({"prevalence": (steps(0.01, 0.99, 0.01), 0.33)}, prevalence_numbers),
    "brier-decomposition": ({"bins": (steps(1, 20, 1), 2)}, binning_numbers),
}

READ = """box => {
    const read = name => {
        const texts = selector => Array.from(box.querySelectorAll(`g.${name}_${selector}_marks text`))
            .map(t => t.textContent);
        const labels = texts('label'), values = texts('value');
        return labels.map((label, i) => [label, values[i]]);
    };
    const found = {};
    for (const name of ['readout', 'cost', 'bayes', 'measures', 'binned', 'exact']) {
        if (box.querySelector(`g.${name}_label_marks`)) found[name] = read(name);
    }
    const matrix = box.querySelector('g.matrix_text_marks');
    if (matrix) found.matrix = Array.from(matrix.querySelectorAll('text')).map(t => t.textContent);
    return found;
}"""


def as_json(numbers: dict) -> dict:
    return {key: [list(row) if isinstance(row, tuple) else row for row in rows]
            for key, rows in numbers.items()}


def shows(box, expected: dict, what: str) -> None:
    """The explorer shows ``expected`` (Vega redraws asynchronously: wait up to 5 s)."""
    wanted = sorted(as_json(expected).items())
    try:
        box.page.wait_for_function(
            f"([box, wanted]) => {{ const got = ({READ})(box); return JSON.stringify("
            "Object.keys(got).sort().map(k => [k, got[k]])) === JSON.stringify(wanted); }",
            arg=[box.element_handle(), wanted], timeout=5_000, polling=25)
    except Exception:
        assert sorted(box.evaluate(READ).items()) == [tuple(item) for item in wanted], what


@pytest.fixture(scope="module")
def visits(browser, server):
    opened = {}
    yield lambda page: opened.setdefault(page, _open(browser, server, page))
    for visit in opened.values():
        visit.close()


def _open(browser, server, page):
    visit = Visit(browser, f"{server}/book/{page}.html")
    visit.page.wait_for_selector(".evalmetrics-explorer[data-ready]", timeout=30_000)
    return visit


@pytest.mark.parametrize("page", list(EXPLORERS))
def test_every_slider_over_every_position_shows_the_package_s_numbers(visits, page):
    sliders, numbers = EXPLORERS[page]
    visit = visits(page)
    box = visit.page.locator(".evalmetrics-explorer")
    assert box.count() == 1
    defaults = {name: default for name, (_, default) in sliders.items()}
    names = [visit.page.evaluate("el => el.name", el)
             for el in box.locator("input[type=range]").element_handles()]
    assert sorted(names) == sorted(sliders), names
    shows(box, numbers(**defaults), f"{page} at its default setting")
    for name, (positions, default) in sliders.items():
        control = box.locator(f"input[name={name}]")
        assert control.evaluate("el => !!el.closest('label') && "
                                "el.closest('label').textContent.trim().length > 0")
        if page == "confusion-matrix":  # the keyboard: Home, then one step at a time
            control.focus()
            control.press("Home")
            for k, value in enumerate(positions):
                if k:
                    control.press("ArrowRight")
                shows(box, numbers(**{**defaults, name: value}), f"{page}: {name} = {value}")
        else:
            for value in positions:
                control.fill(f"{value:g}")
                shows(box, numbers(**{**defaults, name: value}), f"{page}: {name} = {value}")
        control.fill(f"{default:g}")
    assert visit.external == [] and visit.errors == []


@pytest.mark.parametrize("page", list(EXPLORERS))
def test_the_explorer_fits_a_phone_and_a_desktop(visits, page):
    visit = visits(page)
    for size in (PHONE, {"width": 1280, "height": 800}):
        visit.page.set_viewport_size(size)
        state = visit.page.evaluate("""() => new Promise(done => requestAnimationFrame(() =>
            requestAnimationFrame(() => {
                const article = document.querySelector('article.bd-article').getBoundingClientRect();
                const svg = document.querySelector('.evalmetrics-explorer svg');
                // The chart's own box: on a phone it scrolls sideways inside it.
                const view = document.querySelector('.evalmetrics-explorer-view');
                const box = view.getBoundingClientRect();
                const inputs = Array.from(document.querySelectorAll('.evalmetrics-explorer input'))
                    .map(i => i.getBoundingClientRect().right);
                done({pageWide: document.scrollingElement.scrollWidth - innerWidth,
                      left: box.left - article.left, right: article.right - box.right,
                      shown: svg.getBoundingClientRect().width, natural: +svg.getAttribute('width'),
                      scrolls: getComputedStyle(view).overflowX === 'auto' && view.tabIndex === 0,
                      column: article.width, inputs: Math.max(...inputs) - article.right});
            })))""")
        assert state["pageWide"] <= 0, (size, state)
        assert state["left"] >= -1 and state["right"] >= -1 and state["inputs"] <= 1, (size, state)
        # Full size at both widths, text at least 12 px: on a phone the chart keeps its size
        # and its box scrolls sideways (reachable by the keyboard), as a wide table does.
        assert state["shown"] >= state["natural"] - 1, (size, state)
        if size["width"] < 700:
            assert state["scrolls"], state
