"""Input validation, called once at each public entry point.

Every public function of the package turns its raw arguments into clean
NumPy arrays here, so the computing code can assume one-dimensional arrays
of equal length, finite scores and a known positive class.  Error messages
name the argument and say what was wrong with it.

The helpers return plain arrays, never copies the caller can observe: the
package never modifies its inputs.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np

__all__ = [
    "UndefinedMetricWarning",
    "ratio",
]


class UndefinedMetricWarning(RuntimeWarning):
    """A metric was undefined (for example a zero denominator) and was replaced.

    The replacement is the documented value: ``zero_division`` for ratios of
    counts, NaN for metrics of scores when only one class is present.
    """


# ---------------------------------------------------------------------------
# ratio with a chosen value for 0/0
# ---------------------------------------------------------------------------

def check_zero_division(zero_division):
    """Validate a ``zero_division`` option: ``"warn"``, 0, 1 or NaN."""
    if isinstance(zero_division, str):
        if zero_division != "warn":
            raise ValueError(
                f'zero_division must be "warn", 0, 1 or np.nan, got {zero_division!r}'
            )
        return zero_division
    if isinstance(zero_division, bool) or not isinstance(zero_division, numbers.Real):
        raise TypeError(
            f'zero_division must be "warn", 0, 1 or np.nan, got {type(zero_division).__name__}'
        )
    value = float(zero_division)
    if not (np.isnan(value) or value in (0.0, 1.0)):
        raise ValueError(f'zero_division must be "warn", 0, 1 or np.nan, got {zero_division!r}')
    return value


def ratio(numerator, denominator, *, zero_division="warn", what="ratio"):
    """Divide, replacing 0/0 (or x/0) by ``zero_division``.

    Parameters
    ----------
    numerator, denominator : float or array_like
        Counts (or weighted counts).  Arrays divide element-wise.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value used where the denominator is zero.  ``"warn"`` uses 0 and
        emits an :class:`UndefinedMetricWarning`, as scikit-learn does.
    what : str
        Name of the quantity, used in the warning.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> ratio(3, 6)
    0.5
    >>> ratio(0, 0, zero_division=1)
    1.0
    """
    zero_division = check_zero_division(zero_division)
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    undefined = denominator == 0
    if np.any(undefined):
        if zero_division == "warn":
            warnings.warn(
                f"{what} is ill-defined (zero denominator) and is set to 0; "
                "pass zero_division to choose the value and silence this warning",
                UndefinedMetricWarning,
                stacklevel=3,
            )
            fill = 0.0
        else:
            fill = zero_division
        with np.errstate(divide="ignore", invalid="ignore"):
            result = np.where(undefined, fill, numerator / np.where(undefined, 1.0, denominator))
    else:
        result = numerator / denominator
    if result.ndim == 0:
        return float(result)
    return result


# ---------------------------------------------------------------------------
# one-dimensional arrays
# ---------------------------------------------------------------------------

def column(values, name, *, allow_empty=False):
    """Return ``values`` as a 1-D NumPy array, or raise naming ``name``.

    Lists, tuples, pandas Series and column vectors of shape (n, 1) are
    accepted; anything else with more than one dimension is refused, because
    silently flattening a (n, 2) array of probabilities is a classic bug.
    """
    if values is None:
        raise TypeError(f"{name} is required, got None")
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be array-like, got a string")
    array = np.asarray(values)
    if array.dtype == object and array.ndim == 1:
        # Mixed objects are fine for labels (e.g. strings); numbers are converted later.
        pass
    if array.ndim == 0:
        raise ValueError(f"{name} must be a 1-D array, got a scalar")
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array, got shape {array.shape}")
    if array.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty")
    return array


def same_length(**arrays):
    """Raise if the named arrays do not all have the same length."""
    lengths = {name: len(a) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name} has {length}" for name, length in lengths.items())
        raise ValueError(f"inconsistent lengths: {described}")


def real_column(values, name, *, allow_empty=False, finite=True):
    """A 1-D float64 array of real numbers; NaN and infinity refused by default."""
    array = column(values, name, allow_empty=allow_empty)
    if array.dtype.kind == "b":
        array = array.astype(float)
    elif array.dtype.kind not in "iuf":
        try:
            array = array.astype(float)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must contain numbers, got dtype {array.dtype}") from None
    array = np.asarray(array, dtype=np.float64)
    # A finite sum proves every value finite (NaN and infinities propagate);
    # only an overflowing sum needs the element-wise check.
    if finite:
        with np.errstate(over="ignore", invalid="ignore"):
            all_finite = bool(np.isfinite(np.add.reduce(array))) or bool(np.all(np.isfinite(array)))
    if finite and not all_finite:
        bad = int(np.count_nonzero(~np.isfinite(array)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s)")
    return array


def scores(values, name="y_score", **kwargs):
    """Scores: finite real numbers, 1-D."""
    return real_column(values, name, **kwargs)


def probabilities(values, name="y_prob", **kwargs):
    """Probabilities: finite numbers in the closed interval [0, 1]."""
    finite = kwargs.pop("finite", True)
    array = real_column(values, name, finite=False, **kwargs)
    if not array.size:
        return array
    # NaN propagates through min and max, so bounds inside [0, 1] also prove
    # every value finite: two reductions instead of an isfinite pass.
    low, high = array.min(), array.max()
    if 0.0 <= low and high <= 1.0:
        return array
    if finite and not np.all(np.isfinite(array)):
        bad = int(np.count_nonzero(~np.isfinite(array)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s)")
    if array.min() < 0.0 or array.max() > 1.0:
        raise ValueError(
            f"{name} must be probabilities in [0, 1], got values from {array.min():g} to {array.max():g}"
        )
    return array


def sample_weights(values, n, name="sample_weight"):
    """``None`` or non-negative finite weights, one per row."""
    if values is None:
        return None
    weights = real_column(values, name)
    if len(weights) != n:
        raise ValueError(f"{name} has {len(weights)} entries, expected {n} (one per row)")
    if np.any(weights < 0):
        raise ValueError(f"{name} must be non-negative")
    return weights


def non_negative(value, name):
    """A finite non-negative real number (a cost, for example)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite non-negative number, got {value}")
    return value


def positive_int(value, name, minimum=1):
    """An integer at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


# ---------------------------------------------------------------------------
# labels
# ---------------------------------------------------------------------------

def _sorted_unique(*columns_):
    values = np.concatenate([np.asarray(c) for c in columns_]) if len(columns_) > 1 else columns_[0]
    try:
        return np.unique(values)
    except TypeError:
        raise TypeError("labels must be mutually comparable (do not mix numbers and strings)") from None


def _is_default_binary(labels):
    """True when the labels are a subset of {0, 1}, {-1, 1} or {False, True}."""
    if labels.dtype.kind == "b":
        return True
    if labels.dtype.kind not in "iuf":
        return False
    values = set(labels.tolist())
    return values <= {0, 1} or values <= {-1, 1}


def _default_binary_masks(arrays_):
    """Masks of the class 1 (True) when the numeric labels are a subset of
    {0, 1}, {-1, 1} or {False, True}; None when that needs np.unique to tell.

    A min and a max per array replace the sort of np.unique: for integers,
    bounds in [0, 1] or [-1, 1] without a 0 pin the label set down.
    """
    if all(a.dtype.kind == "b" for a in arrays_):
        return [a.copy() for a in arrays_]
    if not all(a.dtype.kind in "biuf" for a in arrays_):
        return None
    low = min(a.min() for a in arrays_)
    high = max(a.max() for a in arrays_)
    if not (low in (0, -1) and high in (0, 1, -1) and low <= high):  # also refuses NaN
        return None
    masks = [a == 1 for a in arrays_]
    for a, mask in zip(arrays_, masks):
        if a.dtype.kind == "f":
            # Floats may hold 0.5 between the bounds: every value must be a bound.
            if np.count_nonzero(mask) + np.count_nonzero(a == low) != len(a):
                return None
        elif low == -1 and np.any(a == 0):
            return None  # {-1, 0, 1}: not binary
    return masks


def _masks_of(arrays_, pos_label):
    """Masks of a given ``pos_label`` without np.unique, or None when it does
    not occur (the slow path then raises) or the labels may not be comparable."""
    kinds = {a.dtype.kind for a in arrays_}
    # Object arrays may mix numbers and strings, which np.unique must refuse.
    if not (kinds <= set("biuf") or kinds <= set("US")):
        return None
    masks = [np.asarray(a == pos_label) for a in arrays_]
    if any(mask.shape != a.shape for mask, a in zip(masks, arrays_)):
        return None
    return masks if any(mask.any() for mask in masks) else None


def positive_mask(y_true, *, pos_label=None, name="y_true", others=()):
    """Boolean array, True where ``y_true`` equals the positive class.

    Parameters
    ----------
    y_true : ndarray
        A 1-D label array (already passed through :func:`column`).
    pos_label : label or None
        The positive class.  ``None`` is allowed only for the labels
        {0, 1}, {-1, 1} or {False, True}, whose positive class is 1 (True).
    others : sequence of (name, ndarray)
        Further label arrays that must use the same label set (``y_pred``);
        masks for them are returned too.

    Returns
    -------
    list of ndarray of bool
        The mask of ``y_true`` followed by one mask per array in ``others``.
    """
    arrays = [y_true] + [a for _, a in others]
    # Fast paths for the common cases; anything unusual (and every error)
    # goes through np.unique below, which names the labels it found.
    fast = _default_binary_masks(arrays) if pos_label is None else _masks_of(arrays, pos_label)
    if fast is not None:
        return fast
    labels = _sorted_unique(*arrays)
    if len(labels) > 2 and pos_label is None:
        shown = ", ".join(repr(x) for x in labels[:5].tolist())
        raise ValueError(
            f"{name} is not binary: found {len(labels)} labels ({shown}{', ...' if len(labels) > 5 else ''}); "
            "pass pos_label to choose the positive class"
        )
    if pos_label is None:
        if not _is_default_binary(labels):
            shown = ", ".join(repr(x) for x in labels.tolist())
            raise ValueError(
                f"{name} has labels ({shown}); pass pos_label to say which is positive"
            )
        pos_label = True if labels.dtype.kind == "b" else 1
    else:
        if not np.any(labels == pos_label):
            shown = ", ".join(repr(x) for x in labels[:5].tolist())
            raise ValueError(f"pos_label={pos_label!r} does not occur in {name} (labels: {shown})")
    return [np.asarray(a == pos_label) for a in arrays]


def binary_labels(y_true, *, pos_label=None, name="y_true"):
    """Validate binary ``y_true`` and return the boolean positive mask."""
    y_true = column(y_true, name)
    if y_true.dtype.kind == "f" and not np.all(np.isfinite(y_true)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return positive_mask(y_true, pos_label=pos_label, name=name)[0]


def binary_pair(y_true, y_pred, *, pos_label=None, sample_weight=None):
    """Validate binary ``y_true`` and ``y_pred``; return their masks and weights."""
    y_true = column(y_true, "y_true")
    y_pred = column(y_pred, "y_pred")
    same_length(y_true=y_true, y_pred=y_pred)
    for name, a in (("y_true", y_true), ("y_pred", y_pred)):
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or infinite values")
    is_positive, is_flagged = positive_mask(
        y_true, pos_label=pos_label, name="y_true", others=[("y_pred", y_pred)]
    )
    weights = sample_weights(sample_weight, len(y_true))
    return is_positive, is_flagged, weights


def binary_scores(y_true, y_score, *, pos_label=None, sample_weight=None, score_name="y_score",
                  probability=False):
    """Validate binary ``y_true`` and real scores; return mask, scores, weights."""
    is_positive = binary_labels(y_true, pos_label=pos_label)
    check = probabilities if probability else scores
    values = check(y_score, score_name)
    same_length(y_true=is_positive, **{score_name: values})
    weights = sample_weights(sample_weight, len(values))
    return is_positive, values, weights


def narrow_codes(values, n_codes):
    """Non-negative codes below ``n_codes`` in the narrowest integer type:
    comparing one byte per row is eight times less memory traffic than int64."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if n_codes <= np.iinfo(dtype).max:
            return values.astype(dtype, copy=False)
    return values.astype(np.intp, copy=False)


def short_range_codes(values):
    """Integer labels in a short range, encoded by one bincount instead of np.unique's sort.

    Returns ``(unique, table, shifted, sizes)``: the sorted distinct labels,
    a lookup table such that ``table[shifted]`` are the codes np.unique(...,
    return_inverse=True) would give, the labels minus the smallest one, and
    the rows per label.  None for other labels or a wide range.  Callers
    compose their own renumbering into the small table and gather once.
    """
    if values.dtype.kind not in "iu" or len(values) == 0:
        return None
    low, high = int(values.min()), int(values.max())
    if high - low > 2 * len(values) + 1024:
        return None
    # In int64, whose arithmetic wraps: narrow types would overflow, bincount
    # refuses uint64, and a uint64 above 2**63 still subtracts right modulo 2**64.
    wide = values if values.dtype == np.intp else values.astype(np.intp)
    shifted = wide - np.intp((low + 2**63) % 2**64 - 2**63) if low else wide
    counts = np.bincount(shifted, minlength=high - low + 1)
    present = counts > 0
    table = np.cumsum(present) - 1  # the smallest label is present, so no entry is -1
    # Offsets plus the smallest label in the labels' own dtype (wrapping arithmetic, exact).
    unique = np.flatnonzero(present).astype(values.dtype) + values.dtype.type(low)
    return unique, table, shifted, counts[present]


@dataclass(frozen=True)
class EncodedLabels:
    """Labels of a multiclass problem encoded as integer codes 0..K-1."""

    labels: np.ndarray
    true_codes: np.ndarray
    pred_codes: np.ndarray
    kept: np.ndarray | None  # rows whose labels are both in ``labels`` (None: all rows)


def encode_labels(y_true, y_pred, *, labels=None):
    """Encode two label arrays against a common, sorted (or given) label list.

    With ``labels=None`` the classes are the sorted union of both arrays, as
    in scikit-learn.  With explicit ``labels``, rows whose true or predicted
    label is not listed are dropped (scikit-learn's confusion_matrix does the
    same), and a listed label may be absent from the data.
    """
    y_true = column(y_true, "y_true")
    y_pred = column(y_pred, "y_pred")
    same_length(y_true=y_true, y_pred=y_pred)
    for name, a in (("y_true", y_true), ("y_pred", y_pred)):
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or infinite values")
    if labels is None:
        classes = _sorted_unique(y_true, y_pred)
        # searchsorted on the sorted classes is exact because every value is present.
        return EncodedLabels(classes, np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred), None)
    classes = column(labels, "labels")
    if len(_sorted_unique(classes)) != len(classes):
        raise ValueError("labels contains duplicates")
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    codes = []
    found = []
    for a in (y_true, y_pred):
        position = np.clip(np.searchsorted(sorted_classes, a), 0, len(classes) - 1)
        hit = sorted_classes[position] == a
        codes.append(order[position])
        found.append(hit)
    kept = found[0] & found[1]
    if not np.any(found[0]):
        raise ValueError("none of the given labels occurs in y_true")
    if np.all(kept):
        return EncodedLabels(classes, codes[0], codes[1], None)
    return EncodedLabels(classes, codes[0][kept], codes[1][kept], kept)
