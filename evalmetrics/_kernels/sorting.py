"""Sort keys and the threshold table: the one sort every ranking metric reads.

Contracts (clean input: 1-D float64 scores, finite; a bool mask of positives):

* :func:`order_keys` -- int64 keys in [0, 2**63) that sort like the scores
  (and, with the labels, uint64 ``2 * key + label``), with their decoder.
* :func:`sorted_keys` -- those packed keys sorted, or None when they need 64 bits.
* :func:`labels_of` -- the label bits of packed keys, as uint8.
* :func:`by_sign` -- a kernel run on each sign apart and combined (the 64-bit case).
* :func:`score_table` -- distinct scores (decreasing) with cumulative TP and FP, int64.
* :func:`weighted_score_table` -- the same with weights: float64 sums, zero weights dropped.
* :func:`integer_ranks` -- exact float64 ranks in place of scores float64 would round
  into false ties (integers beyond 2**53, extended precision), and the distinct scores.
* :func:`at_least` -- the mask ``values >= threshold``, exact for any real threshold.
"""

from __future__ import annotations

import math
import numbers
import sys
from fractions import Fraction

import numpy as np

__all__ = ["at_least", "by_sign", "integer_ranks", "labels_of", "matrix_ranks", "order_keys", "score_table",
           "sorted_keys", "weighted_score_table"]


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


def order_keys(values, is_positive=None):
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


def sorted_keys(values, is_positive):
    """Sorted uint64 keys ``2 * key + label`` and the key decoder, or None."""
    ordered = order_keys(values, is_positive)
    if ordered is None:
        return None
    keys, decode = ordered
    keys.sort()
    return keys, decode


def labels_of(keys):
    """The packed label bits as uint8, read from the low byte of each key."""
    low_byte = 0 if sys.byteorder == "little" else 7
    return keys.view(np.uint8)[low_byte::8] & np.uint8(1)


def by_sign(values, is_positive, combine, compute):
    """Fallback for extreme ranges: each sign alone always fits in 63 bits."""
    above = values > 0
    return combine(compute(values[above], is_positive[above]),
                   compute(values[~above], is_positive[~above]))


def score_table(values, is_positive):
    """Distinct scores in decreasing order with cumulative TP and FP (int64).

    Everything after the sort reads the keys backwards through views (free)
    and writes contiguous outputs, in as few passes as NumPy allows: these
    curves are n long when the scores are continuous.
    """
    packed = sorted_keys(values, is_positive)
    if packed is None:
        return by_sign(values, is_positive, _stack_tables, score_table)
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




def weighted_score_table(values, is_positive, weights):
    """Distinct scores (decreasing), weighted class totals per score and cumulative.

    Returns ``(thresholds, positives, negatives, tp, fp)``, float64.  Rows of
    weight zero are dropped first, as scikit-learn does, so they create no
    threshold; at least one weight must be positive.  A stable sort on the
    negated scores gives scikit-learn's summation order, so the float sums
    agree with its own.
    """
    keep = weights != 0
    if not np.all(keep):
        values, is_positive, weights = values[keep], is_positive[keep], weights[keep]
    order = np.argsort(-values, kind="stable")
    values, is_positive, weights = values[order], is_positive[order], weights[order]
    last = np.append(np.flatnonzero(values[1:] != values[:-1]), len(values) - 1)
    # Cumulative sums in float64, then differences, keep the group totals
    # consistent with the cumulative counts the table reports.
    tp = np.cumsum(np.where(is_positive, weights, 0.0))[last]
    fp = np.cumsum(np.where(is_positive, 0.0, weights))[last]
    return values[last] + 0.0, np.diff(tp, prepend=0.0), np.diff(fp, prepend=0.0), tp, fp


# float64 holds every integer up to 2**53 exactly; beyond, distinct integers can round to
# one float (2**53 and 2**53 + 1) and tie falsely, so those scores are replaced by ranks.
# The same holds for Python integers beyond 64 bits (an object array) and for extended
# precision (np.longdouble, 64 bits of mantissa on x86), which float64 rounds.
_EXACT_INTEGERS = 2**53


def matrix_ranks(scores):
    """A score matrix of integers beyond 2**53 as its exact ranks over the whole matrix.

    Every metric of a score matrix depends on the scores only through their
    order, within a column and across the columns of a row, so the ranks
    (float64) give the same values as the integers, which float64 would
    round into false ties.  Anything else comes back as it is.
    """
    if isinstance(scores, np.ndarray) and scores.dtype.kind in "iu" and scores.ndim == 2 and scores.size:
        ranks, distinct = integer_ranks(scores.ravel())
        if distinct is not None:
            return ranks.reshape(scores.shape)
    return scores


def integer_ranks(scores):
    """``(scores, None)``, or for scores float64 would merge ``(ranks, distinct)``.

    Scores float64 would merge are integers beyond +-2**53 (int64, uint64,
    or Python integers in an object array, with floats among them or not)
    and extended precision (``np.longdouble`` wider than float64).  The
    ranks (float64, 0 for the smallest distinct score) are exact and order
    the rows as the scores do, ties included; ``distinct`` holds the sorted
    distinct scores in their own type (the array's dtype, or Python numbers
    in an object array), so ``distinct[rank]`` is a row's score.  Anything
    else (float64, small integers, arrays that validation will refuse, NaN
    and infinities included) comes back as it is, as an array when it
    converts to one.
    """
    if isinstance(scores, np.ma.MaskedArray) or not isinstance(scores, (np.ndarray, list, tuple)):
        # Strings, scalars, iterators, masked arrays: validation names the problem
        # (np.asarray would drop a mask and wrap an iterator in a 0-d array).
        return scores, None
    try:
        array = np.asarray(scores)
    except (TypeError, ValueError):
        return scores, None  # validation names the problem
    # The array itself goes on, so a list is converted once.
    if array.size == 0 or array.ndim not in (1, 2) or (array.ndim == 2 and array.shape[1] != 1):
        return array, None
    kind = array.dtype.kind
    if kind in "iu":
        if -_EXACT_INTEGERS <= int(array.min()) and int(array.max()) <= _EXACT_INTEGERS:
            return array, None
    elif kind == "f":
        if np.finfo(array.dtype).nmant <= 52 or not np.all(np.isfinite(array)):
            return array, None
    elif kind == "O":
        return _object_ranks(array)
    else:
        return array, None
    distinct, inverse = np.unique(array.ravel(), return_inverse=True)
    return inverse.astype(np.float64), distinct


def _exact(value):
    """A real number as a Python number that compares exactly (int, float or Fraction)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, (float, np.float64, np.float32, np.float16)):
        return float(value)
    return Fraction(*value.as_integer_ratio())  # np.longdouble: wider than a float


def _object_ranks(array):
    """Exact ranks of an object array of real numbers with an integer beyond 2**53, or it as it is."""
    values = array.ravel().tolist()
    if not any(isinstance(v, numbers.Integral) and not -_EXACT_INTEGERS <= v <= _EXACT_INTEGERS
               for v in values):
        return array, None
    if not all(isinstance(v, (numbers.Integral, float, np.floating)) and not isinstance(v, (str, bytes))
               for v in values) or not all(isinstance(v, numbers.Integral) or math.isfinite(v) for v in values):
        return array, None  # validation names the problem (NaN, infinity, text...)
    exact = [_exact(v) for v in values]
    # Python compares integers, floats and fractions exactly, so its sort is the order of the values.
    distinct = sorted(set(exact))
    position = {value: rank for rank, value in enumerate(distinct)}
    ranks = np.fromiter((position[v] for v in exact), dtype=np.float64, count=len(exact))
    table = np.empty(len(distinct), dtype=object)
    table[:] = distinct
    return ranks, table


def at_least(values, threshold):
    """The mask ``values >= threshold``, exact for any real threshold and values.

    ``values`` is a 1-D array of floats, integers or Python numbers (an
    object array); ``threshold`` any real number, +-inf included.  NumPy
    would round one side to the other's type (a float64 threshold against
    int64 scores beyond 2**53, an integer beyond 2**53 against floats);
    here the threshold is first replaced by the smallest value of the
    scores' type at least as large, which flags exactly the same scores.
    """
    kind = values.dtype.kind
    if kind == "O":
        limit = _exact(threshold)
        return np.fromiter((_exact(v) >= limit for v in values.tolist()), dtype=bool, count=len(values))
    if isinstance(threshold, float | np.floating) and math.isinf(threshold):
        return np.full(len(values), threshold < 0)
    limit = _exact(threshold)
    if kind in "iu":
        smallest = math.ceil(limit)
        info = np.iinfo(values.dtype)
        if smallest > info.max or smallest < info.min:
            return np.full(len(values), smallest < info.min)
        return values >= values.dtype.type(smallest)
    rounded = _nearest(values.dtype.type, limit)
    if rounded is None:  # beyond the largest float of the scores' type
        return np.full(len(values), limit < 0)
    up, down = values.dtype.type(np.inf), values.dtype.type(-np.inf)
    # The nearest value may lie on either side of the threshold: step to the smallest one above it.
    while _exact(rounded) < limit:
        rounded = np.nextafter(rounded, up)
    while _exact(np.nextafter(rounded, down)) >= limit:
        rounded = np.nextafter(rounded, down)
    return values >= rounded


def _nearest(to_float, limit):
    """``limit`` (int, float or Fraction) in the float type ``to_float``, to within a few
    units in the last place; None when it is beyond that type's range."""
    try:
        if isinstance(limit, Fraction):
            # Numerator and denominator of a binary fraction: the division rounds once.
            return to_float(limit.numerator) / to_float(limit.denominator)
        nearest = to_float(limit)
    except OverflowError:
        return None
    return None if math.isinf(nearest) else nearest  # the threshold itself is finite here
