"""Properties every metric must have, run over a registry of all of them.

Modelled on scikit-learn's ``sklearn/metrics/tests/test_common.py``: instead
of one test per metric and property, two registries -- binary metrics of
``(y_true, y_pred)`` and metrics of ``(y_true, y_score)`` -- and one test per
property, parametrized over every entry that has it.  Adding a metric to a
registry subjects it to every property.

Properties: invariance to the order of the rows; the same result for lists,
arrays and string labels with ``pos_label``; symmetric metrics unchanged
when the classes swap; ranking metrics unchanged by strictly increasing
transforms of the scores; ``sample_weight`` of ones the same as none and
integer weights the same as repeated rows; bad input refused with a
ValueError; undefined score metrics NaN with an UndefinedMetricWarning.
Then the identities that tie metrics together (three AUCs, micro averages
and accuracy, the Brier decomposition, the binary and the one-vs-rest AUC).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalmetrics as em
from evalmetrics.arrays import UndefinedMetricWarning
from helpers import TOL, assert_close, flat


def assert_same(a, b, tol=TOL):
    """Equal results: NaN where the other is NaN, otherwise within ``tol`` (relative for big counts)."""
    assert_close(flat(a), flat(b), tol=tol, relative=True)


# ---------------------------------------------------------------------------
# the registries
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Metric:
    """A registry entry: ``call(y_true, second, **options)``, and which properties apply."""

    name: str
    call: Callable
    pos_label: bool = True  # takes pos_label (otherwise the labels only need to sort alike)
    weights: bool = True  # takes sample_weight
    symmetric: bool = False  # unchanged when the two classes swap
    ranking: bool = False  # depends on the scores only through their order
    probabilities: bool = False  # the second argument must lie in [0, 1]
    undefined: tuple = field(default=())  # one-class cases that give NaN: "positives", "negatives"

    def __str__(self):
        return self.name


def _counts(function):
    return lambda *args, **kwargs: function(*args, **kwargs).ravel()


def _likelihood_ratios(y_true, y_pred, **options):
    # Random data often have no false positive or no true negative: NaN, as in scikit-learn.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return tuple(em.likelihood_ratios(y_true, y_pred, **options))


LABEL_METRICS = [
    Metric("precision", partial(em.precision, zero_division=0)),
    Metric("recall", partial(em.recall, zero_division=0)),
    Metric("specificity", partial(em.specificity, zero_division=0)),
    Metric("false_positive_rate", partial(em.false_positive_rate, zero_division=0)),
    Metric("negative_predictive_value", partial(em.negative_predictive_value, zero_division=0)),
    Metric("f1", partial(em.f1, zero_division=0)),
    Metric("f_beta", partial(em.f_beta, beta=2.0, zero_division=0)),
    Metric("binary_counts", _counts(em.binary_counts)),
    Metric("likelihood_ratios", _likelihood_ratios),
    Metric("accuracy", em.accuracy, pos_label=False, symmetric=True),
    Metric("balanced_accuracy", partial(em.balanced_accuracy, zero_division=0), pos_label=False, symmetric=True),
    Metric("matthews_correlation", em.matthews_correlation, pos_label=False, symmetric=True),
    Metric("cohen_kappa", partial(em.cohen_kappa, zero_division=0), pos_label=False, symmetric=True),
    Metric("cohen_kappa_quadratic", partial(em.cohen_kappa, weights="quadratic", zero_division=0),
           pos_label=False, symmetric=True),
]


def _table_counts(y_true, y_score, **options):
    table = em.threshold_table(y_true, y_score, **options)
    return table.true_positives, table.false_positives


def _roc_rates(y_true, y_score, **options):
    return tuple(em.roc_curve(y_true, y_score, **options)[:2])


def _pr_points(y_true, y_score, **options):
    return tuple(em.precision_recall_curve(y_true, y_score, **options)[:2])


def _cost_curve(y_true, y_score, **options):
    return em.cost_curve(y_true, y_score, false_positive_cost=1.0, false_negative_cost=4.0, **options).total_cost


def _best_cost(y_true, y_score, **options):
    best = em.best_threshold(y_true, y_score, false_positive_cost=1.0, false_negative_cost=4.0, **options)
    return best.cost, best.false_positives, best.false_negatives


def _youden(y_true, y_score, **options):
    return tuple(em.youden_index(y_true, y_score, **options)[1:])


def _det_rates(y_true, y_score, **options):
    return tuple(em.det_curve(y_true, y_score, **options)[:2])


def _gain(y_true, y_score, **options):
    return tuple(em.gain_curve(y_true, y_score, **options)[:2])


def _lift(y_true, y_score, **options):
    return tuple(em.lift_curve(y_true, y_score, **options)[:2])


def _decomposition(y_true, y_prob, **options):
    d = em.brier_decomposition(y_true, y_prob, **options)
    return d.reliability, d.resolution, d.uncertainty, d.brier_score


def _corp(y_true, y_prob, **options):
    c = em.corp_reliability(y_true, y_prob, **options)
    return c.miscalibration, c.discrimination, c.uncertainty, c.brier_score


def _delong(y_true, y_score, **options):
    result = em.delong_interval(y_true, y_score, **options)
    return result.estimate, result.standard_error, result.low, result.high


def _reliability(y_true, y_prob, **options):
    return tuple(em.reliability_curve(y_true, y_prob, n_bins=4, **options))


SCORE_METRICS = [
    Metric("roc_auc", em.roc_auc, ranking=True, undefined=("positives", "negatives")),
    Metric("pairwise_auc", em.pairwise_auc, ranking=True, undefined=("positives", "negatives")),
    Metric("rank_auc", em.rank_auc, weights=False, ranking=True, undefined=("positives", "negatives")),
    Metric("average_precision", em.average_precision, ranking=True, undefined=("positives",)),
    Metric("average_precision_interpolated", partial(em.average_precision, method="interpolated"), ranking=True,
           undefined=("positives",)),
    Metric("average_precision_11_point", partial(em.average_precision, method="11-point"), ranking=True,
           undefined=("positives",)),
    Metric("average_precision_101_point", partial(em.average_precision, method="101-point"), ranking=True,
           undefined=("positives",)),
    Metric("roc_auc_max_fpr", partial(em.roc_auc, max_fpr=0.3), ranking=True, undefined=("positives", "negatives")),
    Metric("det_curve", _det_rates, ranking=True, undefined=("positives", "negatives")),
    Metric("precision_at_k", partial(em.precision_at_k, k=3), weights=False, ranking=True),
    Metric("recall_at_k", partial(em.recall_at_k, k=3), weights=False, ranking=True, undefined=("positives",)),
    Metric("gain_curve", _gain, ranking=True, undefined=("positives",)),
    Metric("lift_curve", _lift, ranking=True, undefined=("positives",)),
    Metric("threshold_counts", _table_counts, ranking=True),
    Metric("roc_curve", _roc_rates, ranking=True, undefined=("positives", "negatives")),
    Metric("precision_recall_curve", _pr_points, ranking=True, undefined=("positives",)),
    Metric("precision_at_recall", partial(em.precision_at_recall, recall=0.5), ranking=True,
           undefined=("positives",)),
    Metric("recall_at_false_positive_rate", partial(em.recall_at_false_positive_rate, false_positive_rate=0.2),
           ranking=True, undefined=("positives", "negatives")),
    Metric("delong_interval", _delong, weights=False, ranking=True, undefined=("positives", "negatives")),
    Metric("cost_curve", _cost_curve, ranking=True),
    Metric("best_threshold", _best_cost, ranking=True),
    Metric("youden_index", _youden, ranking=True, undefined=("positives", "negatives")),
    Metric("counts_at_threshold", _counts(partial(em.counts_at_threshold, threshold=0.5))),
    Metric("cost_at_threshold", partial(em.cost_at_threshold, threshold=0.5, false_positive_cost=1.0,
                                        false_negative_cost=4.0)),
    Metric("brier_score", em.brier_score, probabilities=True),
    Metric("log_loss", em.log_loss, probabilities=True),
    Metric("brier_decomposition", _decomposition, probabilities=True),
    Metric("expected_calibration_error", partial(em.expected_calibration_error, n_bins=4), probabilities=True),
    Metric("expected_calibration_error_quantile", partial(em.expected_calibration_error, n_bins=4,
                                                          strategy="quantile"), probabilities=True),
    Metric("reliability_curve", _reliability, probabilities=True),
    Metric("reliability_curve_quantile", partial(_reliability, strategy="quantile"), probabilities=True),
    Metric("corp_reliability", _corp, probabilities=True),
]

ALL_METRICS = LABEL_METRICS + SCORE_METRICS


def variant_of(name):
    """The function an entry calls: "cohen_kappa_quadratic" is cohen_kappa with an option."""
    return re.sub(r"_(quadratic|quantile)$", "", name)


def having(registry, attribute):
    return [m for m in registry if getattr(m, attribute)]


# ---------------------------------------------------------------------------
# random problems (hypothesis): few distinct scores, so ties are everywhere
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    y_true: np.ndarray  # 0/1, at least two of each class (DeLong's variance needs two)
    y_pred: np.ndarray  # 0/1
    y_score: np.ndarray  # real scores, few distinct values
    y_prob: np.ndarray  # probabilities in [0, 1], few distinct values
    weights: np.ndarray  # integers 0..3; rows 0 to 3 (two of each class) at least 1

    def second(self, metric):
        if metric in LABEL_METRICS:
            return self.y_pred
        return self.y_prob if metric.probabilities else self.y_score


@st.composite
def problems(draw, min_size=4, max_size=40):
    n = draw(st.integers(min_size, max_size))
    ints = partial(st.lists, min_size=n, max_size=n)
    y_true = np.array(draw(ints(st.integers(0, 1))))
    y_true[:4] = 1, 0, 1, 0
    levels = draw(st.integers(2, 9))
    codes = np.array(draw(ints(st.integers(0, levels - 1))))
    weights = np.array(draw(ints(st.integers(0, 3))))
    weights[:4] = np.maximum(weights[:4], 1)
    return Problem(y_true, np.array(draw(ints(st.integers(0, 1)))), np.round(codes * 0.7 - 2.0, 2),
                   np.round(codes / (levels - 1), 2), weights)


common = settings(max_examples=25, deadline=None)


def value(metric, y_true, second, **options):
    return metric.call(y_true, second, **options)


# ---------------------------------------------------------------------------
# invariances
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
@common
@given(problem=problems(), seed=st.integers(0, 2**32 - 1))
def test_invariant_to_the_order_of_the_rows(metric, problem, seed):
    order = np.random.default_rng(seed).permutation(len(problem.y_true))
    second = problem.second(metric)
    options = lambda w: dict(sample_weight=w) if metric.weights else {}  # noqa: E731
    assert_same(value(metric, problem.y_true[order], second[order], **options(problem.weights[order])),
                value(metric, problem.y_true, second, **options(problem.weights)))


@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
@common
@given(problem=problems())
def test_lists_arrays_and_string_labels_agree(metric, problem):
    second = problem.second(metric)
    expected = value(metric, problem.y_true, second)
    assert_same(value(metric, problem.y_true.tolist(), second.tolist()), expected)
    # "no" < "yes" sort like 0 < 1, so metrics without pos_label see the same classes.
    words = np.array(["no", "yes"])
    text_second = words[second] if metric in LABEL_METRICS else second
    options = dict(pos_label="yes") if metric.pos_label else {}
    assert_same(value(metric, words[problem.y_true], text_second, **options), expected)
    assert_same(value(metric, list(words[problem.y_true]), list(text_second), **options), expected)


@pytest.mark.parametrize("metric", having(LABEL_METRICS, "symmetric"), ids=str)
@common
@given(problem=problems())
def test_symmetric_metrics_ignore_which_class_is_positive(metric, problem):
    swapped = value(metric, 1 - problem.y_true, 1 - problem.y_pred, sample_weight=problem.weights)
    assert_same(swapped, value(metric, problem.y_true, problem.y_pred, sample_weight=problem.weights))


INCREASING = {
    "affine": lambda s: 3.0 * s + 7.0,
    "exp": np.exp,
    "cubic": lambda s: s**3 + s,
    "logistic": lambda s: 1.0 / (1.0 + np.exp(-s)),
}


@pytest.mark.parametrize("transform", INCREASING.values(), ids=INCREASING.keys())
@pytest.mark.parametrize("metric", having(SCORE_METRICS, "ranking"), ids=str)
@common
@given(problem=problems())
def test_ranking_metrics_ignore_increasing_transforms(metric, transform, problem):
    options = dict(sample_weight=problem.weights) if metric.weights else {}
    assert_same(value(metric, problem.y_true, transform(problem.y_score), **options),
                value(metric, problem.y_true, problem.y_score, **options))


def test_a_calibration_metric_does_change_under_a_transform():
    # The transform property is a real restriction: the Brier score is not a ranking metric.
    units = em.twelve_units()
    assert em.brier_score(units.y_true, units.y_score) != pytest.approx(em.brier_score(units.y_true, units.y_score**2))


@pytest.mark.parametrize("metric", having(ALL_METRICS, "weights"), ids=str)
@common
@given(problem=problems())
def test_weights_of_one_are_no_weights(metric, problem):
    second = problem.second(metric)
    ones = np.ones(len(second))
    assert_same(value(metric, problem.y_true, second, sample_weight=ones), value(metric, problem.y_true, second))


@pytest.mark.parametrize("metric", having(ALL_METRICS, "weights"), ids=str)
@common
@given(problem=problems())
def test_integer_weights_repeat_rows(metric, problem):
    second = problem.second(metric)
    repeated = np.repeat(np.arange(len(second)), problem.weights)
    assert_same(value(metric, problem.y_true, second, sample_weight=problem.weights),
                value(metric, problem.y_true[repeated], second[repeated]))


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

Y = np.array([1, 0, 1, 0, 0, 1, 0, 0])
SCORES = np.array([0.9, 0.1, 0.6, 0.6, 0.3, 0.8, 0.2, 0.4])
PREDICTIONS = (SCORES >= 0.5).astype(int)


def second_of(metric):
    return PREDICTIONS if metric in LABEL_METRICS else SCORES


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("metric", SCORE_METRICS, ids=str)
def test_non_finite_scores_are_refused(metric, bad):
    scores = SCORES.copy()
    scores[2] = bad
    with pytest.raises(ValueError, match="NaN or infinite"):
        value(metric, Y, scores)


@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
def test_inconsistent_lengths_are_refused(metric):
    with pytest.raises(ValueError, match="inconsistent lengths"):
        value(metric, Y, second_of(metric)[:-1])


@pytest.mark.parametrize("metric", having(ALL_METRICS, "weights"), ids=str)
def test_weights_of_the_wrong_length_are_refused(metric):
    with pytest.raises(ValueError, match="sample_weight"):
        value(metric, Y, second_of(metric), sample_weight=np.ones(len(Y) + 1))


@pytest.mark.parametrize("metric", having(ALL_METRICS, "weights"), ids=str)
def test_negative_weights_are_refused(metric):
    weights = np.ones(len(Y))
    weights[3] = -1.0
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        value(metric, Y, second_of(metric), sample_weight=weights)


@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
def test_empty_input_is_refused(metric):
    with pytest.raises(ValueError, match="empty"):
        value(metric, np.array([], dtype=int), np.array([], dtype=float))


@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
def test_two_dimensional_labels_are_refused(metric):
    with pytest.raises(ValueError, match="1-D"):
        value(metric, np.column_stack([Y, 1 - Y]), second_of(metric))


@pytest.mark.parametrize("metric", ALL_METRICS, ids=str)
def test_two_dimensional_predictions_or_scores_are_refused(metric):
    second = second_of(metric)
    with pytest.raises(ValueError, match="1-D"):
        value(metric, Y, np.column_stack([second, second]))


@pytest.mark.parametrize("metric", having(SCORE_METRICS, "probabilities"), ids=str)
def test_probabilities_outside_the_unit_interval_are_refused(metric):
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        value(metric, Y, SCORES + 0.5)


# ---------------------------------------------------------------------------
# one class present
# ---------------------------------------------------------------------------

ONE_CLASS = {"positives": np.zeros(len(Y), dtype=int), "negatives": np.ones(len(Y), dtype=int)}


@pytest.mark.parametrize("missing, metric",
                         [(missing, m) for m in SCORE_METRICS for missing in m.undefined],
                         ids=lambda x: str(x) if isinstance(x, Metric) else f"no-{x}")
def test_undefined_score_metrics_are_nan_with_a_warning(metric, missing):
    with pytest.warns(UndefinedMetricWarning, match="(?i)undefined"):
        result = flat(value(metric, ONE_CLASS[missing], SCORES))
    assert np.any(np.isnan(result))


@pytest.mark.parametrize("missing, metric",
                         [(missing, m) for m in SCORE_METRICS for missing in ONE_CLASS if missing not in m.undefined],
                         ids=lambda x: str(x) if isinstance(x, Metric) else f"no-{x}")
def test_score_metrics_defined_for_one_class_stay_finite_and_quiet(metric, missing):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        result = flat(value(metric, ONE_CLASS[missing], SCORES))
    assert np.all(np.isfinite(result))


# ---------------------------------------------------------------------------
# identities between metrics
# ---------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(problem=problems(max_size=80))
def test_three_routes_to_the_auc_agree(problem):
    auc = em.roc_auc(problem.y_true, problem.y_score)
    assert auc == pytest.approx(em.pairwise_auc(problem.y_true, problem.y_score), abs=1e-12)
    assert auc == pytest.approx(em.rank_auc(problem.y_true, problem.y_score), abs=1e-12)
    weighted = em.roc_auc(problem.y_true, problem.y_score, sample_weight=problem.weights)
    assert weighted == pytest.approx(em.pairwise_auc(problem.y_true, problem.y_score, sample_weight=problem.weights),
                                     abs=1e-12)


@common
@given(problem=problems())
def test_the_auc_flips_with_the_classes_and_with_the_scores(problem):
    auc = em.roc_auc(problem.y_true, problem.y_score, sample_weight=problem.weights)
    assert em.roc_auc(1 - problem.y_true, problem.y_score, sample_weight=problem.weights) == pytest.approx(1 - auc,
                                                                                                             abs=1e-12)
    assert em.roc_auc(problem.y_true, -problem.y_score, sample_weight=problem.weights) == pytest.approx(1 - auc,
                                                                                                          abs=1e-12)


classes = st.tuples(st.integers(1, 60), st.integers(2, 5)).flatmap(
    lambda nk: st.tuples(*[st.lists(st.integers(0, nk[1] - 1), min_size=nk[0], max_size=nk[0])] * 2,
                         st.lists(st.integers(0, 3), min_size=nk[0], max_size=nk[0]).filter(any)))


@settings(max_examples=100, deadline=None)
@given(classes)
def test_micro_precision_recall_and_f1_equal_accuracy(pair):
    y_true, y_pred, weights = (np.array(v) for v in pair)
    accuracy = em.accuracy(y_true, y_pred, sample_weight=weights)
    micro = em.averaged_scores(y_true, y_pred, average="micro", zero_division=0, sample_weight=weights)
    assert_same(micro, (accuracy, accuracy, accuracy))


@settings(max_examples=100, deadline=None)
@given(classes)
def test_weighted_recall_equals_accuracy(pair):
    y_true, y_pred, weights = (np.array(v) for v in pair)
    weighted = em.averaged_scores(y_true, y_pred, average="weighted", zero_division=0, sample_weight=weights)
    assert weighted.recall == pytest.approx(em.accuracy(y_true, y_pred, sample_weight=weights), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(classes)
def test_macro_recall_equals_balanced_accuracy(pair):
    # A class that is only predicted has no recall; zero_division=nan leaves it out
    # of the macro average, as balanced accuracy leaves out classes absent from y_true.
    y_true, y_pred, weights = (np.array(v) for v in pair)
    macro = em.averaged_scores(y_true, y_pred, average="macro", zero_division=np.nan, sample_weight=weights)
    assert macro.recall == pytest.approx(em.balanced_accuracy(y_true, y_pred, zero_division=np.nan,
                                                              sample_weight=weights), abs=1e-12, nan_ok=True)


@settings(max_examples=100, deadline=None)
@given(problem=problems(max_size=80))
def test_brier_decomposition_is_exact(problem):
    d = em.brier_decomposition(problem.y_true, problem.y_prob)
    brier = em.brier_score(problem.y_true, problem.y_prob)
    assert d.brier_score == pytest.approx(brier, abs=1e-15)
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(brier, abs=1e-12)
    corp = em.corp_reliability(problem.y_true, problem.y_prob)
    assert corp.miscalibration - corp.discrimination + corp.uncertainty == pytest.approx(brier, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(problem=problems(max_size=80))
def test_resolution_lies_between_zero_and_uncertainty(problem):
    d = em.brier_decomposition(problem.y_true, problem.y_prob)
    assert d.reliability >= 0
    assert 0 <= d.resolution <= d.uncertainty + 1e-15
    corp = em.corp_reliability(problem.y_true, problem.y_prob)
    assert corp.miscalibration >= -1e-15
    assert -1e-15 <= corp.discrimination <= corp.uncertainty + 1e-15


def test_registries_name_every_public_metric_of_labels_and_scores():
    # A new metric must join a registry (or be named here as not a metric of
    # one label array and one prediction or score array).
    others = {"confusion_matrix", "one_vs_rest", "counts_from_matrix", "precision_at_prevalence",
              "per_class_scores", "averaged_scores", "f1_of_macro_averages", "binned_brier_decomposition",
              "midranks", "delong_test", "classwise_ece", "top_label_ece",
              "top_k_accuracy"}  # a score matrix: attacked by test_validation's MATRIX_METRICS
    registered = {variant_of(m.name) for m in ALL_METRICS} | {"threshold_table"}
    for module in (em.rates, em.counts, em.averaging, em.curves, em.ranking, em.costs, em.budgets, em.calibration,
                   em.delong):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type) and name not in others | {"bayes_threshold",
                                                                                     "iso_cost_slope"}:
                assert name in registered, f"{module.__name__}.{name} is in no registry"


@common
@given(problem=problems())
def test_a_two_column_matrix_gives_the_binary_auc(problem):
    # Columns 1 - s and s: each class's column ranks it exactly as s ranks the positives, so
    # every one-vs-rest and one-vs-one average is the binary AUC.
    matrix = np.column_stack([-problem.y_score, problem.y_score])
    auc = em.roc_auc(problem.y_true, problem.y_score)
    for multi_class in ("ovr", "ovo"):
        assert em.roc_auc(problem.y_true, matrix, multi_class=multi_class) == pytest.approx(auc, abs=1e-12)
    weighted = em.roc_auc(problem.y_true, problem.y_score, sample_weight=problem.weights)
    assert em.roc_auc(problem.y_true, matrix, multi_class="ovr", average="weighted",
                      sample_weight=problem.weights) == pytest.approx(weighted, abs=1e-12)
