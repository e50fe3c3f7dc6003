"""The AUC and the average precision read off the one sort: one count, one division.

Contracts (clean input: 1-D float64 scores, finite; a bool mask of positives;
optional non-negative float64 weights, at least one positive):

* :func:`twice_u` -- ``(2 U, P, N)`` as exact integers, U the Mann-Whitney count
  (pairs in order, ties one half), from the packed sort keys.
* :func:`auc_from_twice_u` -- ``2 U / (2 P N)``: the division every unweighted AUC
  ends with (curves, DeLong, the bootstrap), so they agree to the bit.
* :func:`roc_auc` -- the AUC, weighted or not (the same for weights at any scale);
  NaN (no warning) when a class is empty.
* :func:`average_precision` -- the unweighted average precision from the positions
  of the positives in the one sort (None when the scores need the sign split).
* :func:`twice_u_of_counts` -- ``2 U`` of resamples given as counts over the rows
  (or cells of rows) in increasing order of score: the bootstrap engines' count.
* :func:`average_precision_of_counts` -- the average precision's sum, from the
  positives gained at each positive score and the rows flagged there.

The slow, obviously right versions (all pairs, rank sums) stay in
:mod:`evalmetrics.ranking` as the oracles of the tests.
"""

from __future__ import annotations

import numpy as np

from .sorting import by_sign, labels_of, sorted_keys, weighted_score_table
from .weights import scale_free

__all__ = ["auc_from_twice_u", "average_precision", "average_precision_of_counts", "roc_auc", "twice_u",
           "twice_u_of_counts"]


def twice_u(values, is_positive):
    """2 U, P and N, exact integers, U = #(pos > neg) + #(pos == neg) / 2.

    With the negatives first inside every tie, the sorted position of a
    positive is its rank among the positives plus the negatives at or below
    it.  The positions therefore count the pairs with ties counted whole;
    each tied group with a positives and b negatives then gives back a b / 2.
    Such a group shows in the sorted keys as ``2v`` directly followed by
    ``2v + 1``.
    """
    if len(values) == 0:
        return 0, 0, 0
    packed = sorted_keys(values, is_positive)
    if packed is None:
        return by_sign(values, is_positive, _add_u, twice_u)
    keys, _ = packed
    positions = np.flatnonzero(labels_of(keys))
    positives = len(positions)
    doubled = 2 * int(positions.sum()) - positives * (positives - 1)
    # A tied group starts at a positive whose predecessor is the negative key of
    # the same score (key - 1): two gathers over the positives, not a pass over all keys.
    inner = positions[positions > 0]
    first_of_tie = inner[keys[inner - 1] == keys[inner] - np.uint64(1)]
    if len(first_of_tie):
        positive_key = keys[first_of_tie]
        start = np.searchsorted(keys, positive_key - np.uint64(1), side="left")
        stop = np.searchsorted(keys, positive_key, side="right")
        doubled -= int(np.dot(first_of_tie - start, stop - first_of_tie))
    return doubled, positives, len(keys) - positives


def average_precision(values, is_positive):
    """Average precision read off the positions of the positives in the one
    sort; NaN without positives, None when the scores need the sign split.

    Only thresholds where recall grows add to the sum, so only the distinct
    scores holding positives are visited, in decreasing order: each adds
    (its positives / P) x (positives at or above it / rows at or above it),
    the terms of the threshold table's sum (the others are 0).
    """
    packed = sorted_keys(values, is_positive)
    if packed is None:
        return None
    keys, _ = packed
    n = len(keys)
    positions = np.flatnonzero(labels_of(keys))
    if len(positions) == 0:
        return float("nan")
    score_key = keys[positions] >> np.uint64(1)
    first = np.flatnonzero(np.r_[True, score_key[1:] != score_key[:-1]])
    starts = positions[first]
    # A group also starts earlier when negatives share its score (they sort first).
    inner = starts > 0
    tied = np.zeros(len(starts), dtype=bool)
    tied[inner] = (keys[starts[inner] - 1] >> np.uint64(1)) == score_key[first][inner]
    if np.any(tied):
        starts[tied] = np.searchsorted(keys, score_key[first][tied] << np.uint64(1), side="left")
    in_group = np.diff(np.r_[first, len(positions)])[::-1]
    true_positives, flagged = (len(positions) - first)[::-1], (n - starts)[::-1]
    return average_precision_of_counts(in_group, true_positives, flagged, len(positions))


def average_precision_of_counts(gained, true_positives, flagged, positives):
    """``sum(gained x true_positives / flagged) / positives``: the average precision.

    One term per distinct score holding positives: the positives at that score
    (``gained``), and the positives and rows at or above it.  Summed without
    BLAS: a BLAS dot may start threads, and from the report's worker threads
    they wait on each other.
    """
    return float(np.einsum("i,i->", gained, true_positives / flagged)) / positives


def twice_u_of_counts(positive, negatives_upto, at_most, below=None):
    """``2 U`` (int64) of resamples given as counts in increasing order of score.

    ``positive`` holds the counts of the positive rows or cells (last axis),
    ``negatives_upto`` the cumulative counts of the negatives with a leading
    0; for each positive, ``at_most`` and ``below`` index ``negatives_upto``
    at the negatives scored at most and strictly below its score (``below``
    None: no negative ties a positive).  Each positive earns the negatives
    below it twice and those tied with it once.  Works on one resample (1-D)
    or a block of them (2-D, one resample per row); the counts may be 32-bit
    while twice the rows drawn fit.
    """
    earned = np.take(negatives_upto, at_most, axis=-1)
    if below is None:
        earned *= 2
    else:
        earned += np.take(negatives_upto, below, axis=-1)
    # Summed in 64 bits whatever the counts' type (32-bit counts keep memory low).
    return np.einsum("...i,...i->...", positive, earned, dtype=np.int64)


def _add_u(higher, lower):
    # Every positive of the higher scores outranks every negative of the lower.
    return higher[0] + lower[0] + 2 * higher[1] * lower[2], higher[1] + lower[1], higher[2] + lower[2]




def auc_from_twice_u(doubled, positives, negatives):
    """``2 U / (2 P N)``; scalars or arrays (0 / 0 is NaN under the caller's errstate)."""
    return doubled / (2 * positives * negatives)


def roc_auc(is_positive, values, weights=None):
    """The AUC, ties one half, weighted or not; NaN when a class is empty (no warning)."""
    if weights is None:
        doubled, positives, negatives = twice_u(values, is_positive)
        if positives == 0 or negatives == 0:
            return float("nan")
        return auc_from_twice_u(doubled, positives, negatives)
    # Every negative earns the positive weight above it, ties half.  At the scale of
    # scale_free the product of the two class totals can neither overflow nor underflow.
    _, pos, neg, tp, fp = weighted_score_table(values, is_positive, scale_free(weights))
    if tp[-1] == 0 or fp[-1] == 0:
        return float("nan")
    above = tp - pos
    return float(np.dot(neg, above + 0.5 * pos) / (tp[-1] * fp[-1]))
