"""The breast-cancer screening evaluation of "In practice", as one function.

:func:`run_screening` runs the whole protocol and returns a
:class:`ScreeningResult` holding every number the report prints:

1. **Lock the test set away first**: the first fold of a shuffled,
   stratified four-fold split of the 569 tumours (143 of them, 53 malignant).
2. On the remaining **development set**, stratified ``folds``-fold
   cross-validation gives out-of-fold probabilities for three models:
   logistic regression, Gaussian naive Bayes, and naive Bayes recalibrated
   by Platt scaling fitted on inner three-fold scores.
3. Out-of-fold metrics at threshold 0.5 (accuracy, precision, recall, F1,
   MCC), of the ranking (AUC, AP) and of the probabilities (Brier, ECE).
4. The **threshold** that minimizes ``cFP FP + cFN FN`` on the out-of-fold
   probabilities, next to the Bayes threshold ``cFP / (cFP + cFN)`` and
   the default 0.5.
5. Each model is refitted on the whole development set and scored **once**
   on the test set: the costs at the three thresholds, AUC, AP and Brier
   score with percentile bootstrap intervals, the Brier decompositions, and
   paired bootstrap differences (logistic regression minus naive Bayes) of
   the AUC and the Brier score.

Seeds: ``seed`` shuffles the test split and seeds every bootstrap,
``seed + 1`` the development folds and ``seed + 2`` the inner Platt folds, so
that the three random choices are independent of each other.  Needs
scikit-learn for the data (:func:`evalmetrics.datasets.breast_cancer`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import arrays
from ..calibration import (
    BinnedBrierDecomposition,
    BrierDecomposition,
    CorpReliability,
    binned_brier_decomposition,
    brier_decomposition,
    brier_score,
    corp_reliability,
    expected_calibration_error,
)
from ..costs import bayes_threshold, best_threshold
from ..counts import BinaryCounts, counts_at_threshold
from ..cross_validation import out_of_fold_probabilities, stratified_k_fold
from ..curves import average_precision, roc_auc
from ..datasets import breast_cancer
from ..intervals import BootstrapResult, bootstrap_difference, bootstrap_interval
from ..models import GaussianNaiveBayes, LogisticRegression
from ..rates import accuracy, f1, matthews_correlation, precision, recall
from ..recalibration import PlattCalibrated

__all__ = [
    "DevelopmentMetrics",
    "ModelEvaluation",
    "OperatingPoint",
    "ScreeningResult",
    "run_screening",
]

#: Folds of the outer split; the first one is the test set (a quarter of the rows).
TEST_SPLITS = 4
#: Inner folds on which Platt scaling is fitted.
PLATT_FOLDS = 3
#: Uniform bins of the expected calibration error and the binned decomposition.
CALIBRATION_BINS = 10
#: The three models, in report order: key and display name.
MODELS = (
    ("logistic", "Logistic regression"),
    ("naive_bayes", "Naive Bayes"),
    ("platt", "Naive Bayes + Platt"),
)
#: The three threshold rules, in report order.
RULES = ("default", "chosen", "bayes")


@dataclass(frozen=True)
class DevelopmentMetrics:
    """Out-of-fold metrics on the development set (hard decisions at 0.5)."""

    accuracy: float
    precision: float
    recall: float
    f1: float
    mcc: float
    auc: float
    average_precision: float
    brier: float
    ece: float


@dataclass(frozen=True)
class OperatingPoint:
    """A threshold rule applied to the test probabilities.

    ``counts`` are the test counts of "flag when p >= threshold" and
    ``cost = false_positive_cost * FP + false_negative_cost * FN``.
    """

    rule: str
    threshold: float
    counts: BinaryCounts
    cost: float

    @property
    def missed(self):
        """False negatives: malignant tumours not flagged."""
        return self.counts.fn

    @property
    def false_alarms(self):
        """False positives: benign tumours flagged."""
        return self.counts.fp


@dataclass(frozen=True)
class ModelEvaluation:
    """Everything the report says about one model."""

    key: str
    name: str
    development: DevelopmentMetrics
    chosen_threshold: float
    development_cost: float
    operating_points: tuple[OperatingPoint, ...]
    test_auc: BootstrapResult
    test_average_precision: BootstrapResult
    test_brier: BootstrapResult
    brier_decomposition: BrierDecomposition
    binned_brier_decomposition: BinnedBrierDecomposition
    corp: CorpReliability = field(repr=False, compare=False)
    oof_probabilities: np.ndarray = field(repr=False, compare=False)
    test_probabilities: np.ndarray = field(repr=False, compare=False)
    fitted_model: object = field(repr=False, compare=False)

    def point(self, rule):
        """The :class:`OperatingPoint` of ``rule`` ("default", "chosen" or "bayes")."""
        for point in self.operating_points:
            if point.rule == rule:
                return point
        raise KeyError(f"rule must be one of {RULES}, got {rule!r}")


@dataclass(frozen=True)
class ScreeningResult:
    """Result of :func:`run_screening`: the setup, the data split and each model."""

    seed: int
    folds: int
    penalty: float
    false_positive_cost: float
    false_negative_cost: float
    resamples: int
    n_tumours: int
    n_malignant: int
    n_features: int
    bayes_threshold: float
    models: tuple[ModelEvaluation, ...]
    auc_difference: BootstrapResult
    brier_difference: BootstrapResult
    development_rows: np.ndarray = field(repr=False, compare=False)
    test_rows: np.ndarray = field(repr=False, compare=False)
    y_development: np.ndarray = field(repr=False, compare=False)
    y_test: np.ndarray = field(repr=False, compare=False)

    @property
    def n_test(self):
        return len(self.test_rows)

    @property
    def n_test_malignant(self):
        return int(np.sum(self.y_test))

    @property
    def n_development(self):
        return len(self.development_rows)

    @property
    def prevalence(self):
        """Share of malignant tumours in the whole data set."""
        return self.n_malignant / self.n_tumours

    def model(self, key):
        """The :class:`ModelEvaluation` of ``key``: "logistic", "naive_bayes" or "platt"."""
        for evaluation in self.models:
            if evaluation.key == key:
                return evaluation
        raise KeyError(f"key must be one of {[k for k, _ in MODELS]}, got {key!r}")


# ---------------------------------------------------------------------------
# steps
# ---------------------------------------------------------------------------

def _development_metrics(y, p):
    flagged = (p >= 0.5).astype(int)
    return DevelopmentMetrics(
        accuracy=float(accuracy(y, flagged)),
        precision=float(precision(y, flagged, zero_division=0)),
        recall=float(recall(y, flagged, zero_division=0)),
        f1=float(f1(y, flagged, zero_division=0)),
        mcc=float(matthews_correlation(y, flagged)),
        auc=float(roc_auc(y, p)),
        average_precision=float(average_precision(y, p)),
        brier=float(brier_score(y, p)),
        ece=float(expected_calibration_error(y, p, n_bins=CALIBRATION_BINS)),
    )


def _operating_point(rule, threshold, y, p, false_positive_cost, false_negative_cost):
    counts = counts_at_threshold(y, p, threshold)
    cost = false_positive_cost * counts.fp + false_negative_cost * counts.fn
    return OperatingPoint(rule=rule, threshold=float(threshold), counts=counts, cost=float(cost))


def _check_seed(seed):
    # Concrete: the development and Platt folds use seed + 1 and seed + 2.
    return arrays.seed(seed, concrete=True)


def _models(penalty, seed):
    return {
        "logistic": LogisticRegression(penalty=penalty),
        "naive_bayes": GaussianNaiveBayes(),
        "platt": PlattCalibrated(GaussianNaiveBayes(), n_folds=PLATT_FOLDS, seed=seed + 2),
    }


def run_screening(*, seed=0, folds=5, penalty=1.0, false_positive_cost=1.0, false_negative_cost=20.0,
                  resamples=2000, progress=None):
    """Evaluate three models for breast-cancer screening, test set locked first.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None, default 0
        ``seed`` shuffles the test split and seeds the bootstrap, ``seed + 1``
        the development folds, ``seed + 2`` the inner Platt folds.
    folds : int, default 5
        Stratified folds on the development set.
    penalty : float, default 1.0
        L2 penalty of the logistic regression (scikit-learn's ``1 / C``).
    false_positive_cost, false_negative_cost : float, default 1 and 20
        Cost of a false alarm and of a missed malignant tumour (not both 0).
    resamples : int, default 2000
        Bootstrap resamples of the test set.
    progress : callable, optional
        Called with a short message before each step (for a command line).

    Returns
    -------
    ScreeningResult

    Examples
    --------
    >>> result = run_screening(resamples=20)
    >>> result.n_tumours, result.n_malignant, result.n_test, result.n_test_malignant
    (569, 212, 143, 53)
    >>> round(result.bayes_threshold, 4)  # 1 / 21
    0.0476
    """
    seed = _check_seed(seed)
    folds = arrays.positive_int(folds, "folds", minimum=2)
    penalty = arrays.non_negative(penalty, "penalty")
    # bayes_threshold validates the two costs (non-negative, not both zero).
    bayes = bayes_threshold(false_positive_cost=false_positive_cost, false_negative_cost=false_negative_cost)
    c_fp, c_fn = float(false_positive_cost), float(false_negative_cost)
    resamples = arrays.positive_int(resamples, "resamples")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, got {type(progress).__name__}")

    def say(message):
        if progress is not None:
            progress(message)

    say("loading the breast-cancer data")
    X, y = breast_cancer()
    split = stratified_k_fold(y, n_splits=TEST_SPLITS, shuffle=True, seed=seed)[0]
    dev, test = np.sort(split.train), np.sort(split.test)
    X_dev, y_dev, X_test, y_test = X[dev], y[dev], X[test], y[test]
    dev_folds = stratified_k_fold(y_dev, n_splits=folds, shuffle=True, seed=seed + 1)

    evaluations = []
    for key, name in MODELS:
        model = _models(penalty, seed)[key]
        say(f"{name}: out-of-fold probabilities on {len(dev)} development tumours")
        oof = out_of_fold_probabilities(model, X_dev, y_dev, folds=dev_folds)
        # Ties go to the highest threshold, which flags the fewest tumours.
        best = best_threshold(y_dev, oof, false_positive_cost=c_fp, false_negative_cost=c_fn)
        chosen, dev_cost = best.threshold, best.cost
        say(f"{name}: refitting on the development set and scoring the test set")
        fitted = model.fit(X_dev, y_dev)
        p_test = np.asarray(fitted.predict_proba(X_test), dtype=float)
        points = tuple(
            _operating_point(rule, threshold, y_test, p_test, c_fp, c_fn)
            for rule, threshold in zip(RULES, (0.5, chosen, bayes))
        )
        say(f"{name}: {resamples} bootstrap resamples of the test set")
        intervals = [bootstrap_interval(metric, y_test, p_test, n_resamples=resamples, seed=seed)
                     for metric in (roc_auc, average_precision, brier_score)]
        evaluations.append(ModelEvaluation(
            key=key, name=name,
            development=_development_metrics(y_dev, oof),
            chosen_threshold=chosen, development_cost=dev_cost,
            operating_points=points,
            test_auc=intervals[0], test_average_precision=intervals[1], test_brier=intervals[2],
            brier_decomposition=brier_decomposition(y_test, p_test),
            binned_brier_decomposition=binned_brier_decomposition(y_test, p_test, n_bins=CALIBRATION_BINS),
            corp=corp_reliability(y_test, p_test),
            oof_probabilities=oof, test_probabilities=p_test, fitted_model=fitted,
        ))

    say("paired bootstrap: logistic regression minus naive Bayes")
    logistic, naive = evaluations[0].test_probabilities, evaluations[1].test_probabilities
    auc_difference = bootstrap_difference(roc_auc, y_test, logistic, naive, n_resamples=resamples, seed=seed)
    brier_difference = bootstrap_difference(brier_score, y_test, logistic, naive, n_resamples=resamples,
                                            seed=seed)
    return ScreeningResult(
        seed=seed, folds=folds, penalty=penalty, false_positive_cost=c_fp, false_negative_cost=c_fn,
        resamples=resamples, n_tumours=len(y), n_malignant=int(np.sum(y)), n_features=X.shape[1],
        bayes_threshold=bayes, models=tuple(evaluations),
        auc_difference=auc_difference, brier_difference=brier_difference,
        development_rows=dev, test_rows=test, y_development=y_dev, y_test=y_test,
    )
