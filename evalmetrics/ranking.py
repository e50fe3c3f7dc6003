"""The AUC as a probability: explicit pairs, rank sums, and the exact sort behind both.

Three routes to one number.  :func:`pairwise_auc` compares every positive
with every negative (P x N comparisons, ties one half): slow, obviously
right, the oracle of the tests.  :func:`rank_auc` is the Mann-Whitney form,
``(R+ - P(P + 1)/2) / (P N)`` with midranks for ties.  And
:func:`evalmetrics.curves.roc_auc` reads the same count off one integer
sort, with the private machinery of this module, which also builds the
unweighted :func:`evalmetrics.curves.threshold_table`.

The exact AUC of normal scores is :func:`evalmetrics.datasets.binormal_auc`.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from . import arrays
from .arrays import UndefinedMetricWarning

__all__ = [
    "midranks",
    "pairwise_auc",
    "rank_auc",
]


# The unweighted paths avoid argsort.  Each score becomes an integer key that
# sorts like the score; the label goes into the lowest bit, so one (SIMD)
# integer sort orders the scores and carries the labels along: no argsort,
# no gather.  Inside a tie the negatives (label 0) come first.

_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)
_LARGEST = int(np.iinfo(np.int64).max)


def _bits(value):
    return int(np.float64(value).view(np.int64)) & _LARGEST


# Elements per chunk of the key passes: 64 KB of int64 stays in the L2 cache, so the
# few operations a key needs run from cache and the keys are written to memory once.
# Whole-array passes would also allocate temporaries of n elements each, and on this
# kind of machine the page faults of a fresh array cost more than the arithmetic.
_KEY_CHUNK = 8192


def _order_keys(values, is_positive=None):
    """Order-preserving int64 keys in [0, 2**63) and their inverse, or None.

    The IEEE bits of |x| read as an integer sort like |x|; flipping the
    magnitude bits of negative numbers gives a signed key that sorts like x
    (after ``+ 0.0`` has turned -0.0 into +0.0).  Mixed signs can span up to
    2**64 keys, so the empty stretch between the largest score at or below
    zero and the smallest positive score is cut out.  None when even then
    the keys need 64 bits (magnitudes from 1e-300 to 1e300 on both sides).
    With ``is_positive``, the keys come back as uint64 ``2 * key + label``.
    The decoder takes ``descending=True`` for keys in decreasing order (a
    cheaper path when the cut was needed).
    Only branch-free SIMD passes, chunk by chunk: masked ufuncs and np.where
    are slower here.
    """
    n = len(values)
    low, high = values.min(), values.max()
    keys = np.empty(n, dtype=np.int64)
    chunks = [(keys[i:i + _KEY_CHUNK], values[i:i + _KEY_CHUNK].view(np.int64), i)
              for i in range(0, n, _KEY_CHUNK)]

    def pack(key, start):
        if is_positive is not None:
            key = key.view(np.uint64)
            key <<= np.uint64(1)  # exact: every key is below 2**63
            np.bitwise_or(key, is_positive[start:start + len(key)], out=key, casting="unsafe")

    if low >= 0:
        smallest = _bits(low)
        for key, bits, start in chunks:
            np.bitwise_and(bits, _MAGNITUDE, out=key)  # also maps -0.0 to 0
            key -= smallest
            pack(key, start)
        return _packed(keys, is_positive), lambda k, descending=False: (k + smallest).view(np.float64)
    if high <= 0:
        largest = _bits(low)
        for key, bits, start in chunks:
            np.bitwise_and(bits, _MAGNITUDE, out=key)
            np.subtract(largest, key, out=key)
            pack(key, start)
        return _packed(keys, is_positive), lambda k, descending=False: 0.0 - (largest - k).view(np.float64)
    lowest, highest = _signed_key(low), _signed_key(high)
    fits = highest - lowest < 2**63  # |scores| below 2, say: one shift, no cut
    work = np.empty(min(n, _KEY_CHUNK), dtype=np.int64)
    smallest_positive, largest_other = 2**64, 0
    for key, bits, start in chunks:
        flip = work[:len(key)]
        np.add(bits.view(np.float64), 0.0, out=key.view(np.float64))
        np.right_shift(key, 63, out=flip)  # -1 where the score is negative
        np.right_shift(flip.view(np.uint64), np.uint64(1), out=flip.view(np.uint64))
        key ^= flip  # now a signed key: x <= 0 gives keys <= 0
        if fits:
            key -= lowest
            pack(key, start)
        else:
            # Viewed unsigned, non-negative keys come first and negative keys last, so
            # the minimum and the maximum are the two keys on either side of the gap.
            unsigned = key.view(np.uint64)
            smallest_positive = min(smallest_positive, int(unsigned.min()))
            largest_other = max(largest_other, int(unsigned.max()))
    if fits:
        def decode_small(k, descending=False):
            return _unflip(k + lowest)

        return _packed(keys, is_positive), decode_small
    largest_other -= 2**64
    cut = smallest_positive - largest_other - 1
    if highest - cut - lowest >= 2**63:
        return None
    # The cut can exceed 2**63 (scores -5 and 5, say); int64 arithmetic wraps
    # modulo 2**64, and the final keys lie in [0, 2**63), so they come out right.
    wrapped_cut, offset = _wrapped(cut), _wrapped(lowest + cut)
    for key, _, start in chunks:
        flip = work[:len(key)]
        np.right_shift(key, 63, out=flip)  # -1 exactly where the score is negative
        flip &= wrapped_cut
        key += flip
        key -= offset
        pack(key, start)

    def decode(k, descending=False):
        signed = k + lowest
        if descending:
            # The keys of positive scores, which the cut moved down, form a prefix.
            shifted = len(signed) - int(np.searchsorted(signed[::-1], largest_other, side="right"))
            signed[:shifted] += wrapped_cut
        else:
            signed += np.where(signed > largest_other, wrapped_cut, 0)
        return _unflip(signed)

    return _packed(keys, is_positive), decode


def _unflip(signed):
    """Float64 view of signed keys, turned back into IEEE bits in place, chunk by chunk."""
    work = np.empty(min(len(signed), _KEY_CHUNK), dtype=np.int64)
    for start in range(0, len(signed), _KEY_CHUNK):
        key = signed[start:start + _KEY_CHUNK]
        flip = work[:len(key)]
        np.right_shift(key, 63, out=flip)
        flip &= _MAGNITUDE
        key ^= flip
    return signed.view(np.float64)


def _packed(keys, is_positive):
    return keys if is_positive is None else keys.view(np.uint64)


def _wrapped(value):
    """A Python int as the int64 it equals modulo 2**64."""
    return np.int64((value + 2**63) % 2**64 - 2**63)


def _signed_key(value):
    bits = int(np.float64(value + 0.0).view(np.int64))
    return bits if bits >= 0 else -1 - (bits & _LARGEST)


def _sorted_keys(values, is_positive):
    """Sorted uint64 keys ``2 * key + label`` and the key decoder, or None."""
    ordered = _order_keys(values, is_positive)
    if ordered is None:
        return None
    keys, decode = ordered
    keys.sort()
    return keys, decode


def _labels_of(keys):
    """The packed label bits as uint8, read from the low byte of each key."""
    low_byte = 0 if sys.byteorder == "little" else 7
    return keys.view(np.uint8)[low_byte::8] & np.uint8(1)


def _by_sign(values, is_positive, combine, compute):
    """Fallback for extreme ranges: each sign alone always fits in 63 bits."""
    above = values > 0
    return combine(compute(values[above], is_positive[above]),
                   compute(values[~above], is_positive[~above]))


def _score_table(values, is_positive):
    """Distinct scores in decreasing order with cumulative TP and FP (int64).

    Everything after the sort reads the keys backwards through views (free)
    and writes contiguous outputs, in as few passes as NumPy allows: these
    curves are n long when the scores are continuous.
    """
    packed = _sorted_keys(values, is_positive)
    if packed is None:
        return _by_sign(values, is_positive, _stack_tables, _score_table)
    keys, decode = packed
    n = len(keys)
    down = keys[::-1]
    # Label bits as int64, in decreasing order, summed in place: NumPy's cumsum is
    # several times slower when it has to convert a uint8 or a reversed input.
    flagged_positives = (down & np.uint64(1)).view(np.int64)
    np.cumsum(flagged_positives, out=flagged_positives)
    keys >>= np.uint64(1)
    last_of_group = np.empty(n, dtype=bool)
    np.not_equal(down[1:], down[:-1], out=last_of_group[:-1])
    last_of_group[-1] = True
    if last_of_group.all():  # no ties: every row is a threshold, no gathers needed
        tp, fp = flagged_positives, np.arange(1, n + 1, dtype=np.int64)
    else:
        ends = np.flatnonzero(last_of_group)
        tp, fp = flagged_positives[ends], ends + 1
        down = down[ends]
    fp -= tp  # flagged minus true positives
    return decode(down.view(np.int64), descending=True), tp, fp


def _stack_tables(higher, lower):
    """One table from the tables of the higher and the lower scores."""
    return (np.concatenate([higher[0], lower[0]]),
            np.concatenate([higher[1], higher[1][-1] + lower[1]]),
            np.concatenate([higher[2], higher[2][-1] + lower[2]]))


def _twice_u(values, is_positive):
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
    packed = _sorted_keys(values, is_positive)
    if packed is None:
        return _by_sign(values, is_positive, _add_u, _twice_u)
    keys, _ = packed
    positions = np.flatnonzero(_labels_of(keys))
    positives = len(positions)
    twice_u = 2 * int(positions.sum()) - positives * (positives - 1)
    # A tied group starts at a positive whose predecessor is the negative key of
    # the same score (key - 1): two gathers over the positives, not a pass over all keys.
    inner = positions[positions > 0]
    first_of_tie = inner[keys[inner - 1] == keys[inner] - np.uint64(1)]
    if len(first_of_tie):
        positive_key = keys[first_of_tie]
        start = np.searchsorted(keys, positive_key - np.uint64(1), side="left")
        stop = np.searchsorted(keys, positive_key, side="right")
        twice_u -= int(np.dot(first_of_tie - start, stop - first_of_tie))
    return twice_u, positives, len(keys) - positives


def _unweighted_average_precision(values, is_positive):
    """Average precision read off the positions of the positives in the one
    sort, or None when the scores need the sign split.

    Only thresholds where recall grows add to the sum, so only the distinct
    scores holding positives are visited, in decreasing order: each adds
    (its positives / P) x (positives at or above it / rows at or above it),
    the terms of the threshold table's sum (the others are 0).
    """
    packed = _sorted_keys(values, is_positive)
    if packed is None:
        return None
    keys, _ = packed
    n = len(keys)
    positions = np.flatnonzero(_labels_of(keys))
    if len(positions) == 0:
        return _one_class_nan("average precision (no positives)")
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
    return float(np.sum(in_group / len(positions) * (true_positives / flagged)))


def _add_u(higher, lower):
    # Every positive of the higher scores outranks every negative of the lower.
    return higher[0] + lower[0] + 2 * higher[1] * lower[2], higher[1] + lower[1], higher[2] + lower[2]


# ---------------------------------------------------------------------------
# ranks and pairs (clean input assumed)
# ---------------------------------------------------------------------------

def _doubled_midranks(values):
    """Twice the midranks (1-based), as exact int64: ``first + last`` of each tie."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first_of_run = np.r_[True, ordered[1:] != ordered[:-1]]
    run = np.cumsum(first_of_run) - 1
    starts = np.flatnonzero(first_of_run)
    stops = np.r_[starts[1:], len(values)]  # one past the last position of each run
    doubled = np.empty(len(values), dtype=np.int64)
    doubled[order] = (starts + 1 + stops)[run]
    return doubled


def _one_class_nan(what):
    warnings.warn(
        f"only one class is present in y_true; {what} is undefined and set to NaN",
        UndefinedMetricWarning, stacklevel=3,
    )
    return float("nan")


def _rank_auc(is_positive, values):
    positives = int(np.count_nonzero(is_positive))
    negatives = len(values) - positives
    if positives == 0 or negatives == 0:
        return _one_class_nan("the rank AUC")
    doubled_rank_sum = int(_doubled_midranks(values)[is_positive].sum())
    return (doubled_rank_sum - positives * (positives + 1)) / (2 * positives * negatives)


# About 4 million comparisons per block keeps the temporary arrays near 4 MB.
_PAIRS_PER_BLOCK = 1 << 22


def _pairwise_auc(is_positive, values, weights=None):
    positive_scores, negative_scores = values[is_positive], values[~is_positive]
    if len(positive_scores) == 0 or len(negative_scores) == 0:
        return _one_class_nan("the pairwise AUC")
    if weights is None:
        positive_weights = negative_weights = None
    else:
        positive_weights, negative_weights = weights[is_positive], weights[~is_positive]
    rows = max(1, _PAIRS_PER_BLOCK // len(negative_scores))
    wins = 0  # twice the wins, so ties (half a win) stay integers when unweighted
    for start in range(0, len(positive_scores), rows):
        block = positive_scores[start:start + rows, None]
        doubled = 2 * (block > negative_scores) + (block == negative_scores)
        if weights is None:
            wins += int(doubled.sum())
        else:
            wins += float(positive_weights[start:start + rows] @ (doubled @ negative_weights))
    if weights is None:
        return wins / (2 * len(positive_scores) * len(negative_scores))
    return wins / (2 * positive_weights.sum() * negative_weights.sum())


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def midranks(values):
    """Rank from 1 (smallest) to n, tied values sharing the mean of their ranks.

    The same as ``scipy.stats.rankdata(values, method="average")``.

    Parameters
    ----------
    values : array_like of shape (n,)
        Finite real numbers.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> midranks(twelve_units().y_score)[4:10]  # units 7 and 8 share ranks 5 and 6
    array([8. , 7. , 5.5, 5.5, 4. , 3. ])
    """
    values = arrays.scores(values, "values")
    return _doubled_midranks(values) / 2.0


def rank_auc(y_true, y_score, *, pos_label=None):
    """The AUC by the Mann-Whitney rank sum: ``(R+ - P(P + 1)/2) / (P N)``.

    ``R+`` is the sum of the positives' midranks among all n scores.  The
    P(P + 1)/2 removes each positive's comparisons with the positives
    (itself included), which leaves the pairs it wins against negatives,
    ties counted one half.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> rank_auc(units.y_true, units.y_score)  # (35.5 - 10) / 32
    0.796875
    """
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    return _rank_auc(is_positive, values)


def pairwise_auc(y_true, y_score, *, pos_label=None, sample_weight=None):
    """The AUC by explicit pairs: the share of (positive, negative) pairs in order.

    Every positive is compared with every negative; a pair in which the
    positive scores higher counts 1, a tie 1/2.  O(P N) time, so use it to
    check, not to compute; the comparisons run in blocks of about four
    million, so memory stays bounded.  With weights, a pair counts the
    product of its two weights.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores.
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> pairwise_auc(units.y_true, units.y_score)  # 25.5 of 32 pairs
    0.796875
    """
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _pairwise_auc(is_positive, values, weights)
