"""The explorers of ``evalmetrics.plotting.explorers``: their data are the package's
numbers (checked against scikit-learn), their specifications are valid Vega-Lite 5
whose expressions only look rows up, and bad input gets a clear error.

What a reader sees when moving the sliders on the website is checked in the browser
(``tests/browser/test_book_explorers.py``).
"""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest

from evalmetrics import BinaryCounts, binary_counts, binned_brier_decomposition, brier_decomposition
from evalmetrics.handbook.plotting import binormal_explorer
from evalmetrics.plotting.explorers import (
    Explorer,
    binning_explorer,
    prevalence_explorer,
    threshold_explorer,
    threshold_explorer_grid,
)
from evalmetrics.plotting.explorers._vegalite import MIME_TYPE, number, rate
from evalmetrics.worked_example import twelve_units
from helpers import assert_close

UNITS = twelve_units()


def tied_data(seed=0, n=80):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 1)  # heavy ties
    return y, s


@functools.cache
def all_explorers():
    y, s = tied_data()
    return {
        "threshold": threshold_explorer(y, s),
        "costs": threshold_explorer(UNITS.y_true, UNITS.y_score, costs=(1, 10)),
        "grid": binormal_explorer(n=200),
        "prevalence": prevalence_explorer(y, s >= 0.5),
        "binning": binning_explorer(y, s, n_bins=5),
    }


# ------------------------------------------------------------------ the numbers


def test_threshold_explorer_rows_are_scikit_learn_s_numbers():
    from sklearn.metrics import accuracy_score, confusion_matrix, f1_score, precision_score, recall_score

    y, s = tied_data(1)
    explorer = threshold_explorer(y, s)
    states = explorer.spec["datasets"]["states"]
    assert [row["threshold"] for row in states] == pytest.approx(np.linspace(0, 1, 21), abs=1e-12)
    for row in states:
        pred = (s >= row["threshold"]).astype(int)
        tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
        assert (row["TP"], row["FP"], row["FN"], row["TN"]) == tuple(map(str, (tp, fp, fn, tn)))
        assert row["n"] == str(tp + fp)
        assert row["acc"] == rate(accuracy_score(y, pred))
        assert row["ppv"] == rate(precision_score(y, pred, zero_division=np.nan))
        assert row["tpr"] == rate(recall_score(y, pred))
        assert row["tnr"] == rate(recall_score(1 - y, 1 - pred))
        assert row["f1"] == rate(f1_score(y, pred, zero_division=np.nan))
        assert_close(row["fpr"], round(fp / (fp + tn), 4))


def test_precision_with_nothing_flagged_reads_undefined():
    explorer = threshold_explorer(UNITS.y_true, UNITS.y_score)
    top = explorer.spec["datasets"]["states"][-1]  # threshold 1: nothing flagged
    assert top["threshold"] == 1 and top["n"] == "0" and top["ppv"] == "undefined"


def test_costs_are_cost_at_threshold_for_every_pair_and_bayes_threshold_marked():
    from evalmetrics import bayes_threshold, cost_at_threshold

    explorer = threshold_explorer(UNITS.y_true, UNITS.y_score, costs=(1, 10))
    for row in explorer.spec["datasets"]["states"]:
        for cfp in range(1, 11):
            for cfn in range(1, 11):
                total = cost_at_threshold(UNITS.y_true, UNITS.y_score, row["threshold"],
                                          false_positive_cost=cfp, false_negative_cost=cfn)
                assert row[f"c{cfp}_{cfn}"] == number(total)
    # The handbook's example: 13 at threshold 0.5 with cFP = 1, cFN = 10; Bayes threshold 1/11.
    at_half = next(r for r in explorer.spec["datasets"]["states"] if r["threshold"] == 0.5)
    assert at_half["c1_10"] == "13"
    bayes = {(r["cost_fp"], r["cost_fn"]): r for r in explorer.spec["datasets"]["bayes"]}
    assert bayes[1, 10]["text"] == "0.0909"
    assert_close(bayes[3, 7]["bayes"], round(bayes_threshold(false_positive_cost=3,
                                                             false_negative_cost=7), 4))


def test_grid_explorer_computes_every_point_of_the_grid():
    calls = []

    def sample(separation, prevalence):
        calls.append((separation, prevalence))
        n_pos = round(100 * prevalence)
        return np.r_[np.zeros(100 - n_pos), np.ones(n_pos)], np.r_[np.zeros(100 - n_pos),
                                                                     np.full(n_pos, separation)]

    explorer = threshold_explorer_grid(sample, {"separation": [1, 2], "prevalence": [0.1, 0.2, 0.3]},
                                       thresholds=[0, 0.5, 1, 1.5, 2])
    assert sorted(calls) == [(a, b) for a in (1, 2) for b in (0.1, 0.2, 0.3)]
    states = explorer.spec["datasets"]["states"]
    assert len(states) == 6 * 5
    row = next(r for r in states if r["separation"] == 2 and r["prevalence"] == 0.3
               and r["threshold"] == 1.5)
    assert (row["TP"], row["FP"]) == ("30", "0")
    # Histogram bars between thresholds: every example of every sample counted once.
    bars = explorer.spec["datasets"]["bars"]
    assert sum(abs(b["height"]) for b in bars) == 6 * 100


def test_prevalence_explorer_uses_expected_counts_at_each_prevalence():
    from evalmetrics import cohen_kappa, matthews_correlation, precision

    explorer = prevalence_explorer(UNITS.y_true, UNITS.y_score >= 0.5)
    rows = explorer.spec["datasets"]["rates"]
    assert len(rows) == 99 and explorer.spec["params"][0]["value"] == 0.33
    tpr, fpr = 3 / 4, 3 / 8
    labels = {r["key"]: r["label"] for r in _lookup(explorer)}
    for row in rows:
        pi = row["prevalence"]
        c = BinaryCounts(tp=tpr * pi, fp=fpr * (1 - pi), fn=(1 - tpr) * pi, tn=(1 - fpr) * (1 - pi))
        by_label = {labels[k]: v for k, v in row.items() if k in labels}
        assert by_label["recall (TPR)"] == "0.7500" and by_label["specificity"] == "0.6250"
        assert by_label["precision"] == rate(precision(counts=c))
        assert by_label["MCC"] == rate(matthews_correlation(counts=c))
        assert by_label["Cohen's kappa"] == rate(cohen_kappa(counts=c))
        assert by_label["accuracy, flagging nothing"] == rate(1 - pi)
    moves = {r["label"]: r["moves"] for r in _lookup(explorer)}
    assert moves["recall (TPR)"] == moves["balanced accuracy"] == "does not move"
    assert moves["precision"] == moves["MCC"] == moves["accuracy"] == "moves with the prevalence"


def _lookup(explorer):
    for view in [explorer.spec]:
        for step in view["transform"]:
            if "lookup" in step:
                return step["from"]["data"]["values"]
    raise AssertionError("no lookup table")


def test_prevalence_explorer_accepts_counts_alone():
    counts = BinaryCounts(tp=0.8413, fp=0.1587, fn=0.1587, tn=0.8413)
    explorer = prevalence_explorer(counts=counts)
    assert explorer.spec["params"][0]["value"] == 0.5


def test_binning_explorer_rows_are_the_binned_decomposition():
    y, s = tied_data(2)
    explorer = binning_explorer(y, s, bins=range(1, 13), n_bins=4, strategy="quantile")
    terms = explorer.spec["datasets"]["terms"]
    assert [t["bins"] for t in terms] == list(range(1, 13))
    for row in terms:
        b = binned_brier_decomposition(y, s, n_bins=row["bins"], strategy="quantile")
        for field in ("reliability", "resolution", "uncertainty", "binned_brier_score",
                      "within_bin_variance", "within_bin_covariance", "brier_score"):
            assert row[field] == rate(getattr(b, field)), field
    exact = brier_decomposition(y, s)
    assert explorer.spec["datasets"]["exact"][0]["reliability"] == rate(exact.reliability)


def test_counts_print_as_integers_rates_with_four_decimals():
    assert (number(3), number(3.0), number(2.5), number(float("nan"))) == \
        ("3", "3", "2.5000", "undefined")
    assert (rate(1), rate(2 / 3), rate(float("nan"))) == ("1.0000", "0.6667", "undefined")


# ------------------------------------------------------------ the specification


@pytest.mark.parametrize("name", ["threshold", "costs", "grid", "prevalence", "binning"])
def test_specification_compiles_as_vega_lite_5(name):
    import vl_convert

    explorer = all_explorers()[name]
    vega = vl_convert.vegalite_to_vega(explorer.spec, vl_version="5.8")
    assert vega["$schema"].endswith("vega/v5.json")
    json.loads(explorer.to_json())  # valid JSON: no NaN


# Every expression of a specification: a filter to the sliders' values, a parse of
# printed numbers, a field picked by the sliders' values, a label.  Nothing else.
ALLOWED = [
    r"(abs\(datum\['\w+'\] - \w+\) < [\d.]+)( && abs\(datum\['\w+'\] - \w+\) < [\d.]+)*",
    r"true", r"threshold", r"toNumber\(datum\.\w+\)", r"isFinite\(datum\.\w+\)",
    r"datum\['c' \+ cost_fp \+ '_' \+ cost_fn\]", r"datum\.key \+ ' ' \+ datum\.count",
    r"datum\.low \+ [\d.]+", r"cost_fp == datum\.cost_fp && cost_fn == datum\.cost_fn",
    r"abs\(datum\.value\)",
]


def expressions(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("filter", "calculate", "labelExpr") and isinstance(value, str):
                yield value
            else:
                yield from expressions(value)
    elif isinstance(node, list):
        for item in node:
            yield from expressions(item)


@pytest.mark.parametrize("name", ["threshold", "costs", "grid", "prevalence", "binning"])
def test_the_page_computes_no_metric(name):
    spec = all_explorers()[name].spec
    body = {k: v for k, v in spec.items() if k != "datasets"}
    found = list(expressions(body))
    assert found
    for expression in found:
        assert any(re.fullmatch(pattern, expression) for pattern in ALLOWED), expression


def test_sliders_are_labelled_range_inputs():
    for explorer in all_explorers().values():
        for param in explorer.spec["params"]:
            bind = param["bind"]
            assert bind["input"] == "range" and bind["name"].strip()
            assert bind["min"] <= param["value"] <= bind["max"]


def test_jupyter_gets_vega_lite_drawn_as_svg():
    data, metadata = threshold_explorer(UNITS.y_true, UNITS.y_score)._repr_mimebundle_()
    assert set(data) == {MIME_TYPE, "text/plain"}
    assert metadata[MIME_TYPE]["embed_options"] == {"renderer": "svg", "actions": False}


def test_html_holds_the_specification_and_never_closes_its_script_early():
    explorer = threshold_explorer(UNITS.y_true, UNITS.y_score, class_names=("a</script>", "b"))
    text = explorer.to_html()
    inside = re.search(r'<script type="application/json">(.*)</script></div>$', text, re.S).group(1)
    assert "</" not in inside
    assert json.loads(inside) == json.loads(explorer.to_json())
    assert 'data-embed-options="{&quot;renderer&quot;:&quot;svg&quot;' in text


def test_still_pictures_are_png_and_pdf():
    explorer = binning_explorer(UNITS.y_true, UNITS.y_score, n_bins=2)
    assert explorer.to_png().startswith(b"\x89PNG")
    assert explorer.to_pdf().startswith(b"%PDF")


# -------------------------------------------------------------------- bad input


def test_uneven_thresholds_are_refused():
    with pytest.raises(ValueError, match="thresholds must be increasing and evenly spaced"):
        threshold_explorer(UNITS.y_true, UNITS.y_score, thresholds=[0, 0.1, 0.3])


def test_a_single_threshold_is_refused():
    with pytest.raises(ValueError, match="thresholds needs at least two positions"):
        threshold_explorer(UNITS.y_true, UNITS.y_score, thresholds=[0.5])


def test_a_default_off_the_slider_is_refused():
    with pytest.raises(ValueError, match="threshold=0.52 is not one of the slider's positions"):
        threshold_explorer(UNITS.y_true, UNITS.y_score, thresholds=[0, 0.5, 1], threshold=0.52)


def test_fractional_costs_are_refused():
    with pytest.raises(ValueError, match="cost_range must hold whole, non-negative costs"):
        threshold_explorer(UNITS.y_true, UNITS.y_score, costs=(1, 1), cost_range=[0.5, 1, 1.5])


def test_labels_are_validated_as_everywhere():
    with pytest.raises(ValueError, match="y_score"):
        threshold_explorer(UNITS.y_true, UNITS.y_score[:-1])


def test_grid_sample_must_be_callable_and_names_usable():
    with pytest.raises(TypeError, match="sample must be a callable"):
        threshold_explorer_grid([1, 2], {"a": [1, 2]}, thresholds=[0, 1])
    with pytest.raises(ValueError, match="cannot name a slider"):
        threshold_explorer_grid(lambda threshold: None, {"threshold": [1, 2]}, thresholds=[0, 1])
    with pytest.raises(ValueError, match="setting names no axis"):
        threshold_explorer_grid(lambda a: None, {"a": [1, 2]}, thresholds=[0, 1], setting={"b": 1})


def test_prevalence_explorer_needs_predictions_and_both_classes():
    with pytest.raises(TypeError, match="needs y_true and y_pred, or counts="):
        prevalence_explorer(UNITS.y_true)
    with pytest.raises(TypeError, match="either y_true and y_pred or counts="):
        prevalence_explorer(UNITS.y_true, counts=binary_counts(UNITS.y_true, UNITS.y_score >= 0.5))
    with pytest.raises(TypeError, match="counts must be a BinaryCounts, got tuple"):
        prevalence_explorer(counts=(3, 1, 1, 7))
    with pytest.raises(ValueError, match="needs both classes"):
        prevalence_explorer([1, 1, 1], [1, 0, 1])
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        prevalence_explorer(UNITS.y_true, UNITS.y_score >= 0.5, prevalences=[0, 0.5, 1])


def test_binning_explorer_needs_whole_numbers_of_bins():
    with pytest.raises(ValueError, match="bins must be whole numbers"):
        binning_explorer(UNITS.y_true, UNITS.y_score, bins=[0.5, 1, 1.5], n_bins=1)


def test_explorer_is_a_result_object():
    explorer = threshold_explorer(UNITS.y_true, UNITS.y_score)
    assert isinstance(explorer, Explorer)
    with pytest.raises(AttributeError):
        explorer.spec = {}
