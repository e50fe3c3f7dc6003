"""The simulation studies of the chapter "In practice".

* :func:`imbalance_study` -- one binormal scoring model at several
  prevalences: what moves (precision, AP, accuracy, MCC, kappa) and what
  does not (ROC AUC, recall, balanced accuracy), next to a silent
  classifier that never flags anything.
* :func:`ab_comparison` -- two binormal models at 1 % prevalence whose ROC
  AUC and precision-recall summaries rank them in opposite orders.
* :func:`three_class_run` -- Gaussian naive Bayes on three classes of very
  different sizes, and the same model forbidden to predict the rare class.
* :func:`binormal_curve` -- the exact ROC and precision-recall curves of
  the binormal model, to draw next to the estimated ones.

Every study is deterministic given its ``seed`` (NumPy's PCG64 generator,
the same stream on every platform) and returns a frozen dataclass; the
arrays behind each number are kept in fields that are not part of the
``repr``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import arrays
from .averaging import ClassScores, averaged_scores, per_class_scores
from .counts import BinaryCounts, _matrix_from_codes, counts_at_threshold
from .cross_validation import stratified_k_fold
from .curves import average_precision, precision_at_recall, recall_at_false_positive_rate, roc_auc
from .datasets import binormal_auc, binormal_scores, gaussian_classes
from .intervals import normal_quantile
from .rates import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    f1,
    matthews_correlation,
    precision,
    precision_at_prevalence,
    recall,
)

__all__ = [
    "ABComparison",
    "BinormalCurve",
    "ClassRun",
    "DecisionMetrics",
    "ImbalanceStudy",
    "PrevalenceRun",
    "ScoredModel",
    "ThreeClassRun",
    "ab_comparison",
    "binormal_curve",
    "imbalance_study",
    "three_class_run",
]


def _phi(x):
    """Standard normal distribution function, elementwise (erfc keeps the tails accurate)."""
    return np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)), otypes=[float])(x)


def _positive_real(value, name):
    value = arrays.non_negative(value, name)
    if value == 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def _seed(seed):
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an integer or None, got {type(seed).__name__}")
    return seed


# ---------------------------------------------------------------------------
# the exact binormal curves
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BinormalCurve:
    """Exact operating points of the binormal model at a grid of thresholds.

    Attributes
    ----------
    thresholds : ndarray, decreasing
    false_positive_rate, true_positive_rate : ndarray
        ``1 - Phi(t)`` and ``1 - Phi((t - mean) / sd)``.
    precision : ndarray or None
        Precision at ``prevalence`` by Bayes' rule; None without a prevalence.
    """

    thresholds: np.ndarray = field(repr=False)
    false_positive_rate: np.ndarray = field(repr=False)
    true_positive_rate: np.ndarray = field(repr=False)
    precision: np.ndarray | None = field(repr=False)
    mean: float
    sd: float
    prevalence: float | None


def binormal_curve(*, mean=2.0, sd=1.0, prevalence=None, n_points=801):
    """The exact ROC (and precision-recall) curve of the binormal model.

    Negatives score N(0, 1) and positives N(``mean``, ``sd``^2).  At a
    threshold t the rates are ``FPR = 1 - Phi(t)`` and ``TPR = 1 -
    Phi((t - mean) / sd)``; precision at prevalence pi follows from Bayes'
    rule, ``TPR pi / (TPR pi + FPR (1 - pi))``.  The thresholds run from far
    above to far below both distributions, so the curves reach (0, 0) and
    (1, 1) to plotting accuracy.

    Parameters
    ----------
    mean, sd : float
        The positives' distribution (``sd`` > 0).
    prevalence : float in (0, 1), optional
        Also compute the precision at this share of positives.
    n_points : int, default 801

    Returns
    -------
    BinormalCurve

    Examples
    --------
    The middle of three thresholds is 1, the imbalance study's operating
    point: recall Phi(1), false positive rate 1 - Phi(1), precision 0.0508
    at 1 % prevalence.

    >>> curve = binormal_curve(prevalence=0.01, n_points=3)
    >>> curve.thresholds.tolist()
    [10.0, 1.0, -8.0]
    >>> print(curve.true_positive_rate.round(4), curve.false_positive_rate.round(4), curve.precision.round(4))
    [0.     0.8413 1.    ] [0.     0.1587 1.    ] [1.     0.0508 0.01  ]
    """
    mean = float(mean)
    if not math.isfinite(mean):
        raise ValueError(f"mean must be finite, got {mean}")
    sd = _positive_real(sd, "sd")
    if prevalence is not None:
        prevalence = float(prevalence)
        if not 0.0 < prevalence < 1.0:
            raise ValueError(f"prevalence must lie strictly between 0 and 1, got {prevalence}")
    n_points = arrays.positive_int(n_points, "n_points", minimum=2)
    # Eight standard deviations beyond either distribution: the rates are 0 or 1
    # there to about 1e-15.
    high = max(8.0, mean + 8.0 * sd)
    low = min(-8.0, mean - 8.0 * sd)
    thresholds = np.linspace(high, low, n_points)
    fpr = _phi(-thresholds)
    tpr = _phi((mean - thresholds) / sd)
    precision_ = None
    if prevalence is not None:
        precision_ = precision_at_prevalence(tpr, fpr, prevalence, zero_division=np.nan)
    return BinormalCurve(thresholds, fpr, tpr, precision_, mean, sd, prevalence)


# ---------------------------------------------------------------------------
# imbalance: one model, three prevalences
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DecisionMetrics:
    """The measures of one set of hard decisions (binary counts)."""

    counts: BinaryCounts
    accuracy: float
    balanced_accuracy: float
    precision: float
    recall: float
    f1: float
    mcc: float
    kappa: float

    @classmethod
    def from_counts(cls, counts):
        """All measures of ``counts``; undefined ratios (nothing flagged) are 0."""
        return cls(
            counts=counts, accuracy=float(accuracy(counts, zero_division=0)),
            balanced_accuracy=float(balanced_accuracy(counts, zero_division=0)),
            precision=float(precision(counts, zero_division=0)),
            recall=float(recall(counts, zero_division=0)),
            f1=float(f1(counts, zero_division=0)), mcc=float(matthews_correlation(counts)),
            kappa=float(cohen_kappa(counts, zero_division=0)),
        )


@dataclass(frozen=True)
class PrevalenceRun:
    """The study at one prevalence.

    ``model`` flags the scores of at least the threshold, ``silent`` never
    flags anything.  ``expected_precision`` is the model's precision by
    Bayes' rule from its exact rates, the value the estimate should be near.
    """

    target_prevalence: float
    n_positive: int
    n_negative: int
    auc: float
    average_precision: float
    model: DecisionMetrics
    silent: DecisionMetrics
    expected_precision: float
    y_true: np.ndarray = field(repr=False, compare=False)
    y_score: np.ndarray = field(repr=False, compare=False)

    @property
    def prevalence(self):
        """The realised share of positives, ``P / n``."""
        return self.n_positive / (self.n_positive + self.n_negative)


@dataclass(frozen=True)
class ImbalanceStudy:
    """Result of :func:`imbalance_study`: the exact values and one run per prevalence."""

    mean: float
    sd: float
    threshold: float
    theoretical_auc: float
    model_tpr: float
    model_fpr: float
    runs: tuple[PrevalenceRun, ...]
    seed: int | None


def imbalance_study(*, prevalences=(0.5, 0.1, 0.01), n_negative=20_000, mean=2.0, sd=1.0,
                    threshold=1.0, seed=0):
    """One scoring model evaluated at several prevalences.

    Negatives score N(0, 1) and positives N(``mean``, ``sd``^2)
    (:func:`~evalmetrics.datasets.binormal_scores`).  For prevalence pi the
    data hold ``n_negative`` negatives and ``round(n_negative pi / (1 - pi))``
    positives.  Every run draws with the same ``seed``, so the negatives are
    the same at every prevalence and the positives of a rarer run are the
    first ones of a more common run: only the number of positives changes,
    which is the cleanest form of the experiment.

    Parameters
    ----------
    prevalences : sequence of float in (0, 1), default (0.5, 0.1, 0.01)
    n_negative : int, default 20000
    mean, sd : float, default 2 and 1
    threshold : float, default 1.0
        The model flags every score of at least this value.
    seed : int, default 0

    Returns
    -------
    ImbalanceStudy

    Examples
    --------
    >>> study = imbalance_study(prevalences=(0.5, 0.1), n_negative=900, seed=0)
    >>> [run.n_positive for run in study.runs], round(study.theoretical_auc, 4)
    ([900, 100], 0.9214)
    >>> [round(run.silent.accuracy, 2) for run in study.runs]
    [0.5, 0.9]
    """
    n_negative = arrays.positive_int(n_negative, "n_negative")
    sd = _positive_real(sd, "sd")
    threshold = float(threshold)
    seed = _seed(seed)
    checked = []
    for pi in prevalences:
        pi = float(pi)
        if not 0.0 < pi < 1.0:
            raise ValueError(f"prevalences must lie strictly between 0 and 1, got {pi}")
        checked.append(pi)
    if not checked:
        raise ValueError("prevalences is empty")
    tpr = float(_phi((mean - threshold) / sd))
    fpr = float(_phi(-threshold))
    runs = []
    for pi in checked:
        n_positive = max(1, round(n_negative * pi / (1.0 - pi)))
        y_true, y_score = binormal_scores(n_negative, n_positive, mean=mean, sd=sd, seed=seed)
        runs.append(PrevalenceRun(
            target_prevalence=pi, n_positive=n_positive, n_negative=n_negative,
            auc=float(roc_auc(y_true, y_score)), average_precision=float(average_precision(y_true, y_score)),
            model=DecisionMetrics.from_counts(counts_at_threshold(y_true, y_score, threshold)),
            silent=DecisionMetrics.from_counts(BinaryCounts(tp=0, fp=0, fn=n_positive, tn=n_negative)),
            expected_precision=float(precision_at_prevalence(tpr, fpr, pi)), y_true=y_true, y_score=y_score,
        ))
    return ImbalanceStudy(mean=float(mean), sd=sd, threshold=threshold,
                          theoretical_auc=binormal_auc(mean, sd=sd), model_tpr=tpr, model_fpr=fpr,
                          runs=tuple(runs), seed=seed)


# ---------------------------------------------------------------------------
# A/B: the ROC area and the precision-recall curve disagree
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoredModel:
    """One binormal model of :func:`ab_comparison`, estimated and in theory."""

    name: str
    mean: float
    sd: float
    auc: float
    average_precision: float
    recall_at_fpr: float
    precision_at_recall: float
    theoretical_auc: float
    theoretical_recall_at_fpr: float
    theoretical_precision_at_recall: float
    y_true: np.ndarray = field(repr=False, compare=False)
    y_score: np.ndarray = field(repr=False, compare=False)


@dataclass(frozen=True)
class ABComparison:
    """Result of :func:`ab_comparison`."""

    a: ScoredModel
    b: ScoredModel
    false_positive_rate: float
    recall: float
    n_positive: int
    n_negative: int
    seed: int | None

    @property
    def prevalence(self):
        return self.n_positive / (self.n_positive + self.n_negative)


def _scored_model(name, mean, sd, n_negative, n_positive, fpr, target_recall, seed):
    y_true, y_score = binormal_scores(n_negative, n_positive, mean=mean, sd=sd, seed=seed)
    pi = n_positive / (n_negative + n_positive)
    # Exact operating points: the threshold at which the negatives' (or the
    # positives') normal tail has the required size.
    t_fpr = -normal_quantile(fpr) if 0.0 < fpr < 1.0 else (math.inf if fpr == 0 else -math.inf)
    t_recall = mean - sd * normal_quantile(target_recall) if 0.0 < target_recall < 1.0 else None
    theory_recall = float(_phi((mean - t_fpr) / sd)) if math.isfinite(t_fpr) else float(fpr >= 1)
    if t_recall is None:
        theory_precision = float("nan")
    else:
        theory_precision = float(precision_at_prevalence(target_recall, float(_phi(-t_recall)), pi))
    return ScoredModel(
        name=name, mean=float(mean), sd=float(sd),
        auc=float(roc_auc(y_true, y_score)),
        average_precision=float(average_precision(y_true, y_score)),
        recall_at_fpr=recall_at_false_positive_rate(y_true, y_score, fpr),
        precision_at_recall=precision_at_recall(y_true, y_score, target_recall),
        theoretical_auc=binormal_auc(mean, sd=sd),
        theoretical_recall_at_fpr=theory_recall,
        theoretical_precision_at_recall=theory_precision,
        y_true=y_true, y_score=y_score,
    )


def ab_comparison(*, n_negative=19_800, n_positive=200, model_a=(2.0, 1.0), model_b=(2.6, 2.0),
                  false_positive_rate=0.01, recall=0.5, seed=0):
    """Two binormal models on rare positives: the AUC prefers A, the PR view B.

    Each model scores ``n_negative`` negatives from N(0, 1) and
    ``n_positive`` positives from N(mean, sd^2), ``model_a`` and ``model_b``
    giving (mean, sd).  Both draw with the same ``seed``, so they score the
    same negatives and their positives come from the same standard normal
    draws (common random numbers): the comparison isolates the positives'
    distribution.  The default B spreads its positives widely, above every
    negative and among them: lower AUC, better everywhere a rare-positive
    application operates.

    Parameters
    ----------
    n_negative, n_positive : int, default 19800 and 200 (1 % prevalence)
    model_a, model_b : (float, float)
        (mean, sd) of each model's positive scores.
    false_positive_rate : float, default 0.01
        Operating point for the recall comparison.
    recall : float, default 0.5
        Operating point for the precision comparison.
    seed : int, default 0

    Returns
    -------
    ABComparison

    Examples
    --------
    >>> ab = ab_comparison(seed=0)
    >>> round(ab.a.theoretical_auc, 4), round(ab.b.theoretical_auc, 4)
    (0.9214, 0.8775)
    >>> ab.a.auc > ab.b.auc and ab.b.average_precision > ab.a.average_precision
    True
    """
    n_negative = arrays.positive_int(n_negative, "n_negative")
    n_positive = arrays.positive_int(n_positive, "n_positive")
    seed = _seed(seed)
    models = []
    for name, spec in (("A", model_a), ("B", model_b)):
        try:
            mean, sd = (float(v) for v in spec)
        except (TypeError, ValueError):
            raise TypeError(f"model_{name.lower()} must be a (mean, sd) pair of numbers") from None
        sd = _positive_real(sd, f"model_{name.lower()} sd")
        models.append((name, mean, sd))
    fpr = float(false_positive_rate)
    target = float(recall)
    for name, value in (("false_positive_rate", fpr), ("recall", target)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must lie between 0 and 1, got {value}")
    a, b = (_scored_model(name, mean, sd, n_negative, n_positive, fpr, target, seed)
            for name, mean, sd in models)
    return ABComparison(a=a, b=b, false_positive_rate=fpr, recall=target,
                        n_positive=n_positive, n_negative=n_negative, seed=seed)


# ---------------------------------------------------------------------------
# three classes, and the same model forbidden the rare one
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassRun:
    """Out-of-fold predictions of three classes and their summary measures."""

    accuracy: float
    macro_f1: float
    weighted_f1: float
    balanced_accuracy: float
    mcc: float
    kappa: float
    rare_recall: float
    per_class: ClassScores = field(repr=False, compare=False)
    matrix: np.ndarray = field(repr=False, compare=False)
    y_pred: np.ndarray = field(repr=False, compare=False)


@dataclass(frozen=True)
class ThreeClassRun:
    """Result of :func:`three_class_run`: every class allowed, and the rare one forbidden."""

    sizes: tuple[int, ...]
    rare_class: int
    all_classes: ClassRun
    without_rare: ClassRun
    y_true: np.ndarray = field(repr=False, compare=False)
    seed: int | None = None


def _naive_bayes_log_joint(X_train, y_train, X_test, n_classes):
    """Log prior plus Gaussian naive Bayes log-likelihood of every test row and class.

    A private multiclass stand-in: :class:`evalmetrics.models.GaussianNaiveBayes`
    handles two classes.  The variance smoothing is scikit-learn's GaussianNB
    default (1e-9 times the largest feature variance), so the predictions agree.
    """
    epsilon = 1e-9 * np.var(X_train, axis=0).max()
    columns = []
    for k in range(n_classes):
        rows = X_train[y_train == k]
        mean = rows.mean(axis=0)
        var = rows.var(axis=0) + epsilon
        log_prior = math.log(len(rows) / len(y_train))
        columns.append(log_prior - 0.5 * np.sum(np.log(2.0 * np.pi * var))
                       - 0.5 * np.sum((X_test - mean) ** 2 / var, axis=1))
    return np.column_stack(columns)


def _class_run(y, y_pred, n_classes, rare):
    labels = np.arange(n_classes)
    per_class = per_class_scores(y, y_pred, labels=labels, zero_division=0)
    return ClassRun(
        accuracy=float(accuracy(y, y_pred)),
        macro_f1=averaged_scores(y, y_pred, average="macro", labels=labels, zero_division=0).f_score,
        weighted_f1=averaged_scores(y, y_pred, average="weighted", labels=labels, zero_division=0).f_score,
        balanced_accuracy=float(balanced_accuracy(y, y_pred, zero_division=0)),
        mcc=float(matthews_correlation(y, y_pred)),
        kappa=float(cohen_kappa(y, y_pred, labels=labels, zero_division=0)),
        rare_recall=float(per_class.recall[rare]), per_class=per_class,
        matrix=_matrix_from_codes(y, y_pred, n_classes), y_pred=y_pred,
    )


def three_class_run(*, sizes=(1500, 400, 100), n_splits=5, separation=1.35, seed=0):
    """Gaussian naive Bayes on classes of unequal size, with and without the rare class.

    The data come from :func:`~evalmetrics.datasets.gaussian_classes`;
    stratified ``n_splits``-fold cross-validation (shuffled with ``seed``)
    gives every row one out-of-fold log-posterior per class.  The model
    predicts the most probable class; the "forbidden" model predicts the
    most probable class other than the smallest one, so it never names the
    rare class and its recall there is 0.

    Parameters
    ----------
    sizes : sequence of int, default (1500, 400, 100)
    n_splits : int, default 5
    separation : float, default 1.35
    seed : int, default 0
        Seeds both the data and the fold shuffle.

    Returns
    -------
    ThreeClassRun

    Examples
    --------
    >>> run = three_class_run(seed=0)
    >>> run.without_rare.rare_recall, run.all_classes.rare_recall > 0
    (0.0, True)
    """
    seed = _seed(seed)
    X, y = gaussian_classes(sizes, separation=separation, seed=seed)
    n_classes = len(sizes)
    folds = stratified_k_fold(y, n_splits=n_splits, shuffle=True, seed=seed)
    log_joint = np.empty((len(y), n_classes))
    for train, test in folds:
        log_joint[test] = _naive_bayes_log_joint(X[train], y[train], X[test], n_classes)
    rare = int(np.argmin(sizes))
    allowed = np.delete(np.arange(n_classes), rare)
    forbidden_pred = allowed[np.argmax(log_joint[:, allowed], axis=1)]
    return ThreeClassRun(
        sizes=tuple(int(s) for s in sizes), rare_class=rare,
        all_classes=_class_run(y, np.argmax(log_joint, axis=1), n_classes, rare),
        without_rare=_class_run(y, forbidden_pred, n_classes, rare), y_true=y, seed=seed,
    )
