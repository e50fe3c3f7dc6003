"""The hard random data of the comparisons, and the families of checks built on them (private).

Six binary sets (labels {0, 1}, {-1, 1} and strings with ``pos_label``,
scores and probabilities rounded to one or two decimals, weights with
zeros), six sets of two, three and five classes, two regression sets and
features on mixed scales, each drawn from the ``rng`` a check is given.
:func:`binary_sets` is public: the book shows what these data look like.
``_binary_check``, ``_rate`` and ``_classes`` register a check that runs
one comparison over every binary or every class set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._core import METRIC_TOLERANCE, _check, _load, _worst

# ---------------------------------------------------------------------------
# hard random data
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BinarySet:
    """One binary data set of the comparisons (see :func:`binary_sets`)."""

    y_true: np.ndarray
    y_pred: np.ndarray
    y_score: np.ndarray  # real scores with ties
    y_prob: np.ndarray  # probabilities with ties, exact 0 and 1 included
    pos_label: object  # what evalmetrics gets (None for {0, 1} and {-1, 1})
    negative: object
    sample_weight: np.ndarray | None

    @property
    def label(self):  # the positive label, given explicitly to scikit-learn
        return 1 if self.pos_label is None else self.pos_label

    def ours(self):
        return dict(pos_label=self.pos_label, sample_weight=self.sample_weight)

    def theirs(self):
        return dict(pos_label=self.label, sample_weight=self.sample_weight)


_BINARY_DATA = "6 binary sets: 0/1, ±1, strings; tied scores; weights with zeros"
_CLASSES_DATA = "6 sets of 2, 3, 5 classes (ints, strings), half weighted"
_REGRESSION_DATA = "2 sets of tied positive targets, one weighted"
_MATRIX_DATA = "4 sets of 3 and 5 classes (ints, strings), probabilities in tenths (ties), half weighted"


def binary_sets(rng, n):
    """The six hard binary data sets that every binary check runs on.

    Labels {0, 1}, {-1, 1} and ("ok", "faulty") with ``pos_label="faulty"``,
    each once unweighted with scores rounded to one decimal and once with
    weights (three of them zero) and scores rounded to two decimals; the
    probabilities include exact 0 and 1.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Rows per set.

    Returns
    -------
    list of BinarySet

    Examples
    --------
    >>> import numpy as np
    >>> sets = binary_sets(np.random.default_rng(0), 200)
    >>> len(sets), len(np.unique(sets[0].y_score)) < 60
    (6, True)
    """
    sets = []
    for (negative, positive), pos_label in (((0, 1), None), ((-1, 1), None), (("ok", "faulty"), "faulty")):
        for weighted, decimals in ((False, 1), (True, 2)):
            is_positive = rng.random(n) < rng.uniform(0.2, 0.5)
            is_positive[:2] = True, False
            score = np.round(rng.normal(size=n) + 1.3 * is_positive, decimals)
            prob = np.round(1.0 / (1.0 + np.exp(0.5 - 1.5 * score)), decimals)
            prob[rng.choice(n, 4, replace=False)] = 0.0, 0.0, 1.0, 1.0
            weights = None
            if weighted:
                weights = np.round(rng.uniform(0.0, 3.0, n), 1)
                weights[rng.choice(np.arange(2, n), 3, replace=False)] = 0.0
            y_true = np.where(is_positive, positive, negative)
            y_pred = np.where(score >= np.median(score), positive, negative)
            sets.append(BinarySet(y_true, y_pred, score, prob, pos_label, negative, weights))
    return sets


def _class_sets(rng, n, sizes=(2, 3, 5)):
    """(y_true, y_pred, sample_weight) triples; every class occurs in y_true."""
    sets = []
    for k in sizes:
        names = np.arange(k) if k != 5 else np.array(["a", "b", "c", "d", "e"])
        for weighted in (False, True):
            codes = rng.integers(0, k, n)
            codes[:k] = np.arange(k)
            guess = np.where(rng.random(n) < 0.6, codes, rng.integers(0, k, n))
            sets.append((names[codes], names[guess], np.round(rng.uniform(0, 3, n), 1) if weighted else None))
    return sets


def _score_matrix_sets(rng, n, sizes=(3, 5)):
    """(y_true, y_score, sample_weight) triples: every class occurs in y_true, and each
    row of y_score is probabilities in tenths (heavy ties, rows summing to 1, as
    scikit-learn's multiclass AUC requires), leaning towards the row's class."""
    sets = []
    for k in sizes:
        names = np.arange(k) if k != 5 else np.array(["a", "b", "c", "d", "e"])
        for weighted in (False, True):
            codes = rng.integers(0, k, n)
            codes[:k] = np.arange(k)
            lean = 0.5 * rng.dirichlet(np.ones(k), n) + 0.5 * np.eye(k)[codes] * rng.random((n, 1))
            counts = np.array([rng.multinomial(10, row / row.sum()) for row in lean])
            sets.append((names[codes], counts / 10.0, np.round(rng.uniform(0, 3, n), 1) if weighted else None))
    return sets


def _regression_sets(rng, n):
    sets = []
    for weighted in (False, True):
        y = np.round(rng.gamma(3.0, 5.0, n), 1) + 0.5
        y_hat = np.round(y + rng.normal(scale=4.0, size=n), 1)
        sets.append((y, y_hat, np.round(rng.uniform(0.0, 3.0, n), 1) if weighted else None))
    return sets


def _features(rng, n, p=4):
    """Features on very different scales, so standardization matters."""
    y = (rng.random(n) < 0.4).astype(int)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 10.0, p) + rng.normal(scale=5.0, size=p)
    X[:, : p // 2] += 0.9 * y[:, None] * X[:, : p // 2].std(axis=0)
    return X, y


# ---------------------------------------------------------------------------
# families of checks
# ---------------------------------------------------------------------------

def _binary_check(function, counterpart, compute, data=_BINARY_DATA, tolerance=METRIC_TOLERANCE, kind="metric"):
    """``compute(d)`` returns (ours, theirs) pairs for one binary data set."""
    _check(function, counterpart, data, tolerance, kind)(
        lambda rng, n: _worst(pair for d in binary_sets(rng, n) for pair in compute(d)))


def _rate(function, ours, theirs, counterpart=None, on_negative=False, complement=False, **options):
    def compute(d):
        label = d.negative if on_negative else d.label
        value = _load(theirs)(d.y_true, d.y_pred, pos_label=label, zero_division=0, sample_weight=d.sample_weight,
                              **options)
        return [(ours(d.y_true, d.y_pred, zero_division=0, **d.ours()), 1.0 - value if complement else value)]
    _binary_check(function, counterpart or theirs, compute)


def _classes(function, ours, theirs, counterpart=None, **options):
    _check(function, counterpart or theirs, _CLASSES_DATA)(
        lambda rng, n: _worst((ours(y, y_hat, sample_weight=w, **options),
                               _load(theirs)(y, y_hat, sample_weight=w, **options))
                              for y, y_hat, w in _class_sets(rng, n)))
