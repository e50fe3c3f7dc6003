"""Tests of evalmetrics.averaging: the graded parts, scikit-learn, identities, bad input.

"Handbook" below means the Evaluation Metrics Handbook (this book), section
"Worked example", subsection "Three classes" (seventy graded parts), and the
pitfall "Two macro F1 scores".
"""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import precision_recall_fscore_support

from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.averaging import AveragedScores, ClassScores, averaged_scores, f1_of_macro_averages, per_class_scores
from evalmetrics.rates import accuracy, balanced_accuracy
from evalmetrics.worked_example import graded_parts
from helpers import assert_close, assert_readable

EXACT = 1e-15


@pytest.fixture(params=["labels", "matrix"])
def parts_args(request):
    parts = graded_parts()
    if request.param == "labels":
        return (parts.y_true, parts.y_pred), {}
    return (), {"counts": parts.matrix, "labels": list(parts.labels)}


def test_per_class_scores_of_graded_parts(parts_args):
    # Handbook: good 46/52, 46/50, 92/102; rework 9/14, 9/15, 18/29; scrap 2/4, 2/5, 4/9;
    # supports 50, 15, 5.
    args, kwargs = parts_args
    scores = per_class_scores(*args, **kwargs)
    assert isinstance(scores, ClassScores)
    assert list(scores.labels) == ["good", "rework", "scrap"]
    expected = {
        "precision": ([0.8846, 0.6429, 0.5], [Fraction(46, 52), Fraction(9, 14), Fraction(2, 4)]),
        "recall": ([0.92, 0.6, 0.4], [Fraction(46, 50), Fraction(9, 15), Fraction(2, 5)]),
        "f_score": ([0.902, 0.6207, 0.4444], [Fraction(92, 102), Fraction(18, 29), Fraction(4, 9)]),
    }
    for field, (printed, fractions) in expected.items():
        values = getattr(scores, field)
        assert [round(v, 4) for v in values] == printed
        np.testing.assert_allclose(values, [float(f) for f in fractions], rtol=0, atol=EXACT)
    assert scores.support.tolist() == [50, 15, 5]


def test_averages_of_graded_parts(parts_args):
    args, kwargs = parts_args
    # Handbook: macro 0.6758 / 0.6400 / 0.6557; weighted 0.8053 / 0.8143 / 0.8090;
    # micro precision = recall = F1 = accuracy = 57/70 = 0.8143.
    macro = averaged_scores(*args, **kwargs, average="macro")
    weighted = averaged_scores(*args, **kwargs, average="weighted")
    micro = averaged_scores(*args, **kwargs, average="micro")
    assert isinstance(macro, AveragedScores)
    assert [round(v, 4) for v in macro] == [0.6758, 0.64, 0.6557]
    assert [round(v, 4) for v in weighted] == [0.8053, 0.8143, 0.809]
    assert [round(v, 4) for v in micro] == [0.8143] * 3
    for value in micro:
        assert value == pytest.approx(57 / 70, abs=EXACT)
    # Exact forms: macro precision (46/52 + 9/14 + 2/4) / 3, macro F1 (92/102 + 18/29 + 4/9) / 3.
    assert macro.precision == pytest.approx(float((Fraction(46, 52) + Fraction(9, 14) + Fraction(1, 2)) / 3), abs=EXACT)
    assert macro.f_score == pytest.approx(float((Fraction(92, 102) + Fraction(18, 29) + Fraction(4, 9)) / 3), abs=EXACT)
    # Weighted F1 (50 * 92/102 + 15 * 18/29 + 5 * 4/9) / 70.
    weighted_f1 = (50 * Fraction(92, 102) + 15 * Fraction(18, 29) + 5 * Fraction(4, 9)) / 70
    assert weighted.f_score == pytest.approx(float(weighted_f1), abs=EXACT)
    assert weighted.recall == pytest.approx(57 / 70, abs=EXACT)


def test_the_other_macro_f1(parts_args):
    # Handbook: the harmonic mean of macro precision 0.6758 and macro recall 0.6400 is 0.6574,
    # against scikit-learn's macro F1 of 0.6557.
    args, kwargs = parts_args
    other = f1_of_macro_averages(*args, **kwargs)
    assert round(other, 4) == 0.6574
    macro = averaged_scores(*args, **kwargs)
    assert other == pytest.approx(2 * macro.precision * macro.recall / (macro.precision + macro.recall), abs=EXACT)
    assert other > macro.f_score


def test_grader_that_calls_every_part_good():
    # Handbook: weighted F1 0.5952 (the good class's F1 0.8333 times 50/70), macro F1 0.2778.
    parts = graded_parts()
    everything_good = np.full(70, "good")
    scores = per_class_scores(parts.y_true, everything_good, zero_division=0)
    assert scores.f_score[0] == pytest.approx(100 / 120, abs=EXACT)
    assert round(scores.f_score[0], 4) == 0.8333
    weighted = averaged_scores(parts.y_true, everything_good, average="weighted", zero_division=0)
    macro = averaged_scores(parts.y_true, everything_good, average="macro", zero_division=0)
    assert round(weighted.f_score, 4) == 0.5952
    assert weighted.f_score == pytest.approx(float(Fraction(5, 6) * Fraction(50, 70)), abs=EXACT)
    assert round(macro.f_score, 4) == 0.2778
    assert macro.f_score == pytest.approx(float(Fraction(5, 6) / 3), abs=EXACT)
    assert weighted.f_score > 2 * macro.f_score


def test_undefined_precision_warns_and_f_does_not():
    # A class never predicted: its precision is 0/0, its F is 0 / (support) = 0, defined.
    parts = graded_parts()
    with pytest.warns(UndefinedMetricWarning, match="precision"):
        scores = per_class_scores(parts.y_true, np.full(70, "good"))
    assert scores.f_score.tolist()[1:] == [0.0, 0.0]


# ---------------------------------------------------------------------------
# against scikit-learn
# ---------------------------------------------------------------------------

def random_labels(rng, n_classes, n=250):
    y_true = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < 0.5, y_true, rng.integers(0, n_classes, n))
    return y_true, y_pred


def sklearn_scores(y_true, y_pred, average, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return precision_recall_fscore_support(y_true, y_pred, average=average, **kwargs)[:3]


def ours(y_true, y_pred, average, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if average is None:
            s = per_class_scores(y_true, y_pred, **kwargs)
            return s.precision, s.recall, s.f_score
        return tuple(averaged_scores(y_true, y_pred, average=average, **kwargs))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_classes", [2, 3, 6, 10])
@pytest.mark.parametrize("average", [None, "macro", "micro", "weighted"])
def test_matches_sklearn(seed, n_classes, average):
    rng = np.random.default_rng(100 * seed + n_classes)
    y_true, y_pred = random_labels(rng, n_classes)
    weights = rng.random(len(y_true)) * 2
    for kwargs in ({}, {"sample_weight": weights}, {"beta": 2.0}, {"beta": 0.5, "sample_weight": weights}):
        assert_close(ours(y_true, y_pred, average, **kwargs), sklearn_scores(y_true, y_pred, average, **kwargs))


@pytest.mark.parametrize("average", [None, "macro", "micro", "weighted"])
@pytest.mark.parametrize("zero_division", ["warn", 0, 1, np.nan])
def test_zero_division_matches_sklearn(average, zero_division):
    # Class "c" is never predicted (precision 0/0), class "d" never occurs in y_true
    # (recall 0/0), class "e" neither (F 0/0, listed through labels).
    y_true = np.array(["a", "a", "b", "b", "c", "c", "a", "b"])
    y_pred = np.array(["a", "b", "b", "d", "a", "b", "a", "d"])
    labels = ["a", "b", "c", "d", "e"]
    for kwargs in ({}, {"labels": labels}, {"labels": labels, "beta": 2.0}):
        assert_close(ours(y_true, y_pred, average, zero_division=zero_division, **kwargs),
                     sklearn_scores(y_true, y_pred, average, zero_division=zero_division, **kwargs))


@pytest.mark.parametrize("average", [None, "macro", "micro", "weighted"])
def test_label_subsets_match_sklearn(average):
    # With labels, predictions of a listed class count as flagged even when the true
    # class is not listed (scikit-learn's multilabel_confusion_matrix).
    rng = np.random.default_rng(5)
    names = np.array(["cat", "dog", "emu", "fox", "gnu"])
    y_true, y_pred = (names[v] for v in random_labels(rng, 5))
    for labels in (["fox", "cat"], ["dog"], ["gnu", "emu", "dog", "cat"]):
        assert_close(ours(y_true, y_pred, average, labels=labels),
                     sklearn_scores(y_true, y_pred, average, labels=labels))


# ---------------------------------------------------------------------------
# identities (hypothesis)
# ---------------------------------------------------------------------------

multiclass_pairs = st.tuples(st.integers(1, 80), st.integers(2, 6)).flatmap(
    lambda nk: st.tuples(st.lists(st.integers(0, nk[1] - 1), min_size=nk[0], max_size=nk[0]),
                         st.lists(st.integers(0, nk[1] - 1), min_size=nk[0], max_size=nk[0])))


@settings(max_examples=150, deadline=None)
@given(multiclass_pairs)
def test_micro_scores_equal_accuracy(pair):
    y_true, y_pred = (np.array(v) for v in pair)
    micro = averaged_scores(y_true, y_pred, average="micro", zero_division=0)
    acc = accuracy(y_true, y_pred)
    assert micro.precision == pytest.approx(acc, abs=1e-12)
    assert micro.recall == pytest.approx(acc, abs=1e-12)
    assert micro.f_score == pytest.approx(acc, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(multiclass_pairs)
def test_weighted_recall_equals_accuracy(pair):
    y_true, y_pred = (np.array(v) for v in pair)
    weighted = averaged_scores(y_true, y_pred, average="weighted", zero_division=0)
    assert weighted.recall == pytest.approx(accuracy(y_true, y_pred), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(multiclass_pairs)
def test_macro_recall_equals_balanced_accuracy(pair):
    # Classes only predicted have an undefined recall; zero_division=nan leaves them out
    # of the macro average, as balanced accuracy does.
    y_true, y_pred = (np.array(v) for v in pair)
    macro = averaged_scores(y_true, y_pred, average="macro", zero_division=np.nan)
    assert macro.recall == pytest.approx(balanced_accuracy(y_true, y_pred), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(multiclass_pairs)
def test_f1_of_macro_averages_is_never_smaller(pair):
    y_true, y_pred = (np.array(v) for v in pair)
    mean_of_f1 = averaged_scores(y_true, y_pred, average="macro", zero_division=0).f_score
    assert f1_of_macro_averages(y_true, y_pred, zero_division=0) >= mean_of_f1 - 1e-12


# ---------------------------------------------------------------------------
# bad input: one test per case
# ---------------------------------------------------------------------------

def test_bad_average():
    with pytest.raises(ValueError, match="average must be"):
        averaged_scores([0, 1], [0, 1], average="binary")


def test_bad_zero_division():
    with pytest.raises(ValueError, match="zero_division"):
        per_class_scores([0, 1], [0, 1], zero_division="nan")


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        per_class_scores([0, 1, 2], [0, 1])


def test_empty_input():
    with pytest.raises(ValueError, match="y_true is empty"):
        averaged_scores([], [])


def test_two_dimensional_labels():
    with pytest.raises(ValueError, match="y_pred must be a 1-D array"):
        per_class_scores([0, 1, 1], np.zeros((3, 2)))


def test_non_square_matrix():
    with pytest.raises(ValueError, match="square K x K"):
        averaged_scores(counts=np.ones((3, 2)))


def test_duplicate_labels():
    with pytest.raises(ValueError, match="duplicates"):
        per_class_scores([0, 1], [0, 1], labels=[1, 1])


def test_labels_of_wrong_length_for_matrix():
    with pytest.raises(ValueError, match="labels has 2 names"):
        per_class_scores(counts=graded_parts().matrix, labels=["good", "rework"])


def test_negative_sample_weight():
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        averaged_scores([0, 1], [0, 1], sample_weight=[1.0, -2.0])


def test_bad_beta():
    with pytest.raises(TypeError, match="beta must be a real number"):
        per_class_scores([0, 1], [0, 1], beta="2")


def test_class_scores_figure_hides_no_bar():
    # The graded parts' figure: the legend above the axes, each average's F label
    # over its own group, the title above the legend, each clear of every bar and
    # text (the macro label ran into the weighted bars when it stood over the F bar).
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.counts import plot_class_scores

    parts = graded_parts()
    for title in (None, "graded parts"):
        fig = plot_class_scores(per_class_scores(parts.y_true, parts.y_pred), title=title)
        assert_readable(fig)
        ax = fig.axes[0]
        assert ax.get_legend().get_window_extent().y0 >= ax.bbox.y1
        assert [text.get_text()[:2] for text in ax.texts] == ["F "] * 3
        plt.close(fig)


def test_class_scores_figure_marks_its_zero_bars():
    # A grader that calls every part good scores 0 on the two other grades: six
    # bars of height 0, each with a tick and a "0" (Exercise 4.2 reads them).
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.counts import plot_class_scores

    parts = graded_parts()
    lazy = per_class_scores(parts.y_true, np.full(len(parts.y_true), "good"), zero_division=0)
    fig = plot_class_scores(lazy)
    assert_readable(fig)
    ax = fig.axes[0]
    assert sorted(text.get_text() for text in ax.texts if not text.get_text().startswith("F")) == ["0"] * 6
    assert sum(list(line.get_ydata()) == [0, 0] for line in ax.get_lines()) == 6  # the ticks
    plt.close(fig)
