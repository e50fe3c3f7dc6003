"""Tests of evalmetrics.handbook.studies and of the figures drawn from its results.

The studies are random, so the handbook's printed numbers (from its own
generator) are not asserted digit for digit; what is asserted are the
deterministic values (theoretical AUCs, the precision formula, the silent
classifier) and the conclusions the handbook draws from the simulations.
"""

import math

import matplotlib
import numpy as np
import pytest
from scipy.stats import norm
from sklearn import metrics as skm
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB

from evalmetrics.datasets import gaussian_classes
from evalmetrics.handbook import studies

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def imbalance():
    return studies.imbalance_study()


@pytest.fixture(scope="module")
def ab():
    return studies.ab_comparison()


@pytest.fixture(scope="module")
def three():
    return studies.three_class_run()


# ---------------------------------------------------------------------------
# determinism
# ---------------------------------------------------------------------------

def test_imbalance_study_is_deterministic(imbalance):
    again = studies.imbalance_study()
    assert again == imbalance
    for run, other in zip(imbalance.runs, again.runs):
        np.testing.assert_array_equal(run.y_score, other.y_score)


def test_imbalance_study_depends_on_the_seed(imbalance):
    assert studies.imbalance_study(seed=1).runs[0].auc != imbalance.runs[0].auc


def test_ab_comparison_is_deterministic(ab):
    again = studies.ab_comparison()
    assert again == ab
    np.testing.assert_array_equal(again.b.y_score, ab.b.y_score)
    assert studies.ab_comparison(seed=1).a.auc != ab.a.auc


def test_three_class_run_is_deterministic(three):
    again = studies.three_class_run()
    assert again == three
    np.testing.assert_array_equal(again.all_classes.y_pred, three.all_classes.y_pred)
    assert studies.three_class_run(seed=1).all_classes.accuracy != three.all_classes.accuracy


def test_same_negatives_at_every_prevalence(imbalance):
    # The design: one seed, so the negatives are shared and the rarer positives nested.
    first = imbalance.runs[0]
    for run in imbalance.runs[1:]:
        np.testing.assert_array_equal(run.y_score[run.y_true == 0], first.y_score[first.y_true == 0])
        positives = first.y_score[first.y_true == 1]
        np.testing.assert_array_equal(run.y_score[run.y_true == 1], positives[:run.n_positive])


# ---------------------------------------------------------------------------
# the imbalance study: what moves and what does not
# ---------------------------------------------------------------------------

def test_imbalance_sizes(imbalance):
    # Handbook: 20,000 negatives; 20,000, 2,222 and 202 positives.
    assert [run.n_negative for run in imbalance.runs] == [20_000] * 3
    assert [run.n_positive for run in imbalance.runs] == [20_000, 2_222, 202]


def test_theoretical_auc_is_phi_sqrt_2(imbalance):
    # Handbook: Phi(sqrt 2) = 0.9214 at every prevalence.
    assert round(imbalance.theoretical_auc, 4) == 0.9214
    assert imbalance.theoretical_auc == pytest.approx(norm.cdf(math.sqrt(2.0)), abs=1e-15)


def test_estimated_auc_stays_near_the_theory(imbalance):
    # Handbook conclusion: the ROC area does not move with the prevalence.
    for run in imbalance.runs:
        assert abs(run.auc - imbalance.theoretical_auc) < 0.01


def test_average_precision_falls_with_the_prevalence(imbalance):
    # Handbook: AP falls from 0.92 to 0.30; below 0.4 at 1 %.
    aps = [run.average_precision for run in imbalance.runs]
    assert aps[0] > aps[1] > aps[2]
    assert aps[0] > 0.9 and aps[2] < 0.4


def test_model_rates(imbalance):
    # The model flags s >= 1: recall Phi(1) = 0.8413 and FPR 1 - Phi(1) = 0.1587 in theory.
    assert imbalance.model_tpr == pytest.approx(norm.cdf(1.0), abs=1e-15)
    assert imbalance.model_fpr == pytest.approx(norm.sf(1.0), abs=1e-15)
    for run in imbalance.runs:
        assert abs(run.model.recall - imbalance.model_tpr) < 0.05
        assert abs(run.model.balanced_accuracy - imbalance.model_tpr) < 0.03
        assert abs(run.model.accuracy - imbalance.model_tpr) < 0.01


def test_precision_follows_the_formula(imbalance):
    # Handbook: precision 0.8413, 0.3708 and 0.0508 from Bayes' rule.
    assert [round(run.expected_precision, 4) for run in imbalance.runs] == [0.8413, 0.3708, 0.0508]
    for run in imbalance.runs:
        assert abs(run.model.precision - run.expected_precision) < 0.01


def test_silent_classifier(imbalance):
    # Handbook: accuracy 0.5000, 0.9000, 0.9900; MCC and kappa 0 throughout.
    assert [round(run.silent.accuracy, 4) for run in imbalance.runs] == [0.5, 0.9, 0.99]
    for run in imbalance.runs:
        assert run.silent.accuracy == run.n_negative / (run.n_negative + run.n_positive)
        assert run.silent.mcc == 0.0 and run.silent.kappa == 0.0
        assert run.silent.balanced_accuracy == 0.5
        assert run.silent.recall == 0.0 and run.silent.precision == 0.0
    # The silent classifier beats the model on accuracy at 10 % and 1 %.
    assert imbalance.runs[0].silent.accuracy < imbalance.runs[0].model.accuracy
    for run in imbalance.runs[1:]:
        assert run.silent.accuracy > run.model.accuracy


def test_prevalence_run_agrees_with_sklearn(imbalance):
    for run in imbalance.runs:
        y, s = run.y_true, run.y_score
        flagged = (s >= imbalance.threshold).astype(int)
        expected = {
            "auc": skm.roc_auc_score(y, s),
            "average_precision": skm.average_precision_score(y, s),
        }
        for name, value in expected.items():
            assert abs(getattr(run, name) - value) <= 1e-12
        m = run.model
        assert abs(m.accuracy - skm.accuracy_score(y, flagged)) <= 1e-12
        assert abs(m.balanced_accuracy - skm.balanced_accuracy_score(y, flagged)) <= 1e-12
        assert abs(m.precision - skm.precision_score(y, flagged)) <= 1e-12
        assert abs(m.recall - skm.recall_score(y, flagged)) <= 1e-12
        assert abs(m.f1 - skm.f1_score(y, flagged)) <= 1e-12
        assert abs(m.mcc - skm.matthews_corrcoef(y, flagged)) <= 1e-12
        assert abs(m.kappa - skm.cohen_kappa_score(y, flagged)) <= 1e-12


# ---------------------------------------------------------------------------
# A/B comparison
# ---------------------------------------------------------------------------

def test_ab_theory(ab):
    # Handbook: Phi(2.6 / sqrt 5) = 0.8775 against Phi(sqrt 2) = 0.9214.
    assert round(ab.b.theoretical_auc, 4) == 0.8775
    assert ab.b.theoretical_auc == pytest.approx(norm.cdf(2.6 / math.sqrt(5.0)), abs=1e-15)
    assert round(ab.a.theoretical_auc, 4) == 0.9214
    # Exact operating points from the normal tails.
    t = norm.isf(0.01)
    assert ab.a.theoretical_recall_at_fpr == pytest.approx(norm.sf(t, loc=2.0), abs=1e-12)
    assert ab.b.theoretical_recall_at_fpr == pytest.approx(norm.sf(t, loc=2.6, scale=2.0), abs=1e-12)
    t_b = norm.isf(0.5, loc=2.6, scale=2.0)
    fpr = norm.sf(t_b)
    assert ab.b.theoretical_precision_at_recall == pytest.approx(
        0.5 * 0.01 / (0.5 * 0.01 + fpr * 0.99), abs=1e-12)


def test_ab_sizes(ab):
    # Handbook: 200 positives among 20,000, 1 % prevalence.
    assert (ab.n_positive, ab.n_negative, ab.prevalence) == (200, 19_800, 0.01)


def test_ab_conclusions(ab):
    # Handbook: the AUC prefers A; AP, recall at 1 % FPR and precision at 50 % recall prefer B.
    assert ab.a.auc > ab.b.auc
    assert ab.b.average_precision > ab.a.average_precision
    assert ab.b.recall_at_fpr > ab.a.recall_at_fpr
    assert ab.b.precision_at_recall > ab.a.precision_at_recall
    # Same comparisons in theory.
    assert ab.a.theoretical_auc > ab.b.theoretical_auc
    assert ab.b.theoretical_recall_at_fpr > ab.a.theoretical_recall_at_fpr
    assert ab.b.theoretical_precision_at_recall > ab.a.theoretical_precision_at_recall


def test_ab_models_share_the_negatives(ab):
    np.testing.assert_array_equal(ab.a.y_score[ab.a.y_true == 0], ab.b.y_score[ab.b.y_true == 0])


def test_ab_agrees_with_sklearn(ab):
    for model in (ab.a, ab.b):
        y, s = model.y_true, model.y_score
        assert abs(model.auc - skm.roc_auc_score(y, s)) <= 1e-12
        assert abs(model.average_precision - skm.average_precision_score(y, s)) <= 1e-12
        fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
        assert model.recall_at_fpr == tpr[fpr <= 0.01].max()
        precision, recall, _ = skm.precision_recall_curve(y, s)
        # sklearn orders by increasing threshold: the last point reaching recall 0.5.
        reached = np.flatnonzero(recall[:-1] >= 0.5)
        assert model.precision_at_recall == precision[reached[-1]]


# ---------------------------------------------------------------------------
# three classes
# ---------------------------------------------------------------------------

def test_three_class_sizes(three):
    # Handbook: classes of 1,500, 400 and 100.
    assert three.sizes == (1500, 400, 100)
    assert np.bincount(three.y_true).tolist() == [1500, 400, 100]
    assert three.rare_class == 2


def test_three_class_conclusions(three):
    full, forbidden = three.all_classes, three.without_rare
    # Handbook: rare-class recall 0.41 with every class, 0 without.
    assert forbidden.rare_recall == 0.0 and 0.2 < full.rare_recall < 0.6
    assert not np.any(forbidden.y_pred == 2)
    macro_loss = full.macro_f1 - forbidden.macro_f1
    weighted_loss = full.weighted_f1 - forbidden.weighted_f1
    # Handbook: 0.18 of macro F1 against 0.03 of weighted F1.
    assert macro_loss > 0.1 and 0 < weighted_loss < 0.06
    assert macro_loss > 3 * weighted_loss
    assert full.balanced_accuracy - forbidden.balanced_accuracy > 0.1
    assert 0 < full.accuracy - forbidden.accuracy < 0.03
    # Handbook: accuracy 0.8725 with every class.
    assert abs(full.accuracy - 0.8725) < 0.02


def test_three_class_predictions_match_sklearn(three):
    X, y = gaussian_classes(seed=0)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    expected = cross_val_predict(GaussianNB(), X, y, cv=folds)
    np.testing.assert_array_equal(three.all_classes.y_pred, expected)


def test_three_class_metrics_match_sklearn(three):
    y = three.y_true
    for run in (three.all_classes, three.without_rare):
        p = run.y_pred
        assert abs(run.accuracy - skm.accuracy_score(y, p)) <= 1e-12
        assert abs(run.macro_f1 - skm.f1_score(y, p, average="macro", labels=[0, 1, 2],
                                               zero_division=0)) <= 1e-12
        assert abs(run.weighted_f1 - skm.f1_score(y, p, average="weighted", labels=[0, 1, 2],
                                                  zero_division=0)) <= 1e-12
        assert abs(run.balanced_accuracy - skm.balanced_accuracy_score(y, p)) <= 1e-12
        assert abs(run.mcc - skm.matthews_corrcoef(y, p)) <= 1e-12
        assert abs(run.kappa - skm.cohen_kappa_score(y, p)) <= 1e-12
        np.testing.assert_array_equal(run.matrix, skm.confusion_matrix(y, p, labels=[0, 1, 2]))


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_prevalence_out_of_range():
    with pytest.raises(ValueError, match="prevalences"):
        studies.imbalance_study(prevalences=(0.5, 1.0))


def test_no_prevalences():
    with pytest.raises(ValueError, match="prevalences is empty"):
        studies.imbalance_study(prevalences=())


def test_zero_negatives():
    with pytest.raises(ValueError, match="n_negative"):
        studies.imbalance_study(n_negative=0)


def test_zero_sd():
    with pytest.raises(ValueError, match="sd"):
        studies.imbalance_study(sd=0.0)


def test_seed_must_be_an_integer():
    with pytest.raises(TypeError, match="seed"):
        studies.imbalance_study(seed="0")


def test_ab_model_must_be_a_pair():
    with pytest.raises(TypeError, match="model_b"):
        studies.ab_comparison(model_b=2.6)


def test_ab_recall_out_of_range():
    with pytest.raises(ValueError, match="recall"):
        studies.ab_comparison(recall=1.5)


def test_ab_fpr_out_of_range():
    with pytest.raises(ValueError, match="false_positive_rate"):
        studies.ab_comparison(false_positive_rate=-0.1)


def test_three_class_fold_count():
    with pytest.raises(ValueError, match="n_splits"):
        studies.three_class_run(n_splits=1)


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------

def test_imbalance_figure(imbalance):
    import matplotlib.pyplot as plt

    from evalmetrics.handbook.plotting.studies import plot_imbalance_curves

    fig = plot_imbalance_curves(imbalance)
    roc_ax, pr_ax = fig.axes
    assert roc_ax.get_xlabel() == "false positive rate" and pr_ax.get_xlabel() == "recall"
    # Three estimated curves and one exact curve (plus the diagonal) in the ROC panel.
    assert len(roc_ax.get_lines()) == 5
    plt.close(fig)


def test_ab_figure(ab):
    import matplotlib.pyplot as plt

    from evalmetrics.handbook.plotting.studies import plot_ab_comparison

    fig = plot_ab_comparison(ab)
    roc_ax, pr_ax = fig.axes
    assert len(roc_ax.child_axes) == 1  # the inset of small false positive rates
    assert pr_ax.get_ylabel() == "precision"
    plt.close(fig)
