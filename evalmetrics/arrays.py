"""Input validation, called once at each public entry point.

Every public function of the package turns its raw arguments into clean
NumPy arrays here, so the computing code can assume one-dimensional arrays
of equal length, finite scores and a known positive class.  Error messages
name the argument and say what was wrong with it.

The helpers return plain arrays, never copies the caller can observe: the
package never modifies its inputs.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from ._typing import ArrayLike, ZeroDivision

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


def ratio(numerator: ArrayLike, denominator: ArrayLike, *, zero_division: ZeroDivision = "warn",
          what: str = "ratio") -> float | np.ndarray:
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

def _refuse_containers(values, name):
    """Refuse what NumPy would wrap as a 0-d object array or read wrongly."""
    if values is None:
        raise TypeError(f"{name} is required, got None")
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be array-like, got a string")
    if isinstance(values, (set, frozenset)):
        raise TypeError(f"{name} must be an ordered array-like, got a {type(values).__name__} (its order is arbitrary)")
    if isinstance(values, Mapping):
        raise TypeError(f"{name} must be array-like, got a {type(values).__name__}; pass its values as a list")
    if isinstance(values, Iterator):
        raise TypeError(f"{name} must be array-like, got an iterator ({type(values).__name__}); pass list(...) of it")
    if isinstance(values, np.ma.MaskedArray):
        masked = int(np.ma.count_masked(values))
        if masked:
            raise ValueError(
                f"{name} is a masked array with {masked} masked value(s); drop them (np.ma.compressed) "
                "or fill them (.filled) first"
            )
        return np.ma.getdata(values)
    return values


def _mixed_sequence(values, array, name):
    """A list mixing strings and numbers becomes an array of strings in NumPy
    (``np.asarray(["a", 1])`` is ``['a', '1']``): find that before it is lost."""
    if array.dtype.kind not in "US" or isinstance(values, np.ndarray) or not array.size:
        return
    kinds = set(map(type, np.asarray(values, dtype=object).ravel().tolist()))
    strings = str if array.dtype.kind == "U" else bytes
    others = sorted(k.__name__ for k in kinds if not issubclass(k, strings))
    if others:
        raise TypeError(f"{name} mixes strings with {', '.join(others)} values; pass all strings or all numbers")


def column(values, name, *, allow_empty=False):
    """Return ``values`` as a 1-D NumPy array, or raise naming ``name``.

    Lists, tuples, pandas Series and column vectors of shape (n, 1) are
    accepted; anything else with more than one dimension is refused, because
    silently flattening a (n, 2) array of probabilities is a classic bug.
    Sets, dicts and iterators are refused (NumPy would wrap them as one
    object), masked arrays only when no value is masked, complex numbers
    always, and a list that mixes strings with numbers.
    """
    values = _refuse_containers(values, name)
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as error:  # ragged nested lists
        raise ValueError(f"{name} could not be read as a 1-D array: {error}") from None
    if array.dtype.kind == "c":
        raise TypeError(f"{name} must contain real numbers, got complex dtype {array.dtype}")
    if array.ndim == 0:
        raise ValueError(f"{name} must be a 1-D array, got a scalar")
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array, got shape {array.shape}")
    if array.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty")
    _mixed_sequence(values, array, name)
    return array


def same_length(**arrays):
    """Raise if the named arrays do not all have the same length."""
    lengths = {name: len(a) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        described = ", ".join(f"{name} has {length}" for name, length in lengths.items())
        raise ValueError(f"inconsistent lengths: {described}")


def _refuse_strings(array, name):
    # Strings that look like numbers ("0.5") are not numbers: NumPy would parse them.
    if array.dtype.kind in "US" or (
        array.dtype.kind == "O" and any(isinstance(v, (str, bytes)) for v in array.ravel().tolist())
    ):
        raise TypeError(f"{name} must contain numbers, got strings")


def real_array(values, name):
    """Real numbers of any shape (a feature matrix, rates that broadcast), as float64.

    The same refusals as :func:`column` (containers, masked values, complex
    numbers) and strings; the caller checks the shape and the range.
    """
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a number or an array of numbers, got a string")
    array = np.asarray(_refuse_containers(values, name))
    if array.dtype.kind == "c":
        raise TypeError(f"{name} must contain real numbers, got complex dtype {array.dtype}")
    if array.dtype.kind not in "biuf":
        _refuse_strings(array, name)
    try:
        return array.astype(np.float64, copy=False)
    except OverflowError:
        raise ValueError(f"{name} contains an integer beyond the largest float") from None
    except (TypeError, ValueError):
        raise TypeError(f"{name} must contain numbers, got dtype {array.dtype}") from None


def real_column(values, name, *, allow_empty=False, finite=True):
    """A 1-D float64 array of real numbers; NaN and infinity refused by default."""
    array = column(values, name, allow_empty=allow_empty)
    if array.dtype.kind == "b":
        array = array.astype(float)
    elif array.dtype.kind not in "iuf":
        _refuse_strings(array, name)
        try:
            array = array.astype(float)
        except OverflowError:
            raise ValueError(f"{name} contains an integer beyond the largest float") from None
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
    outside = (array < 0.0) | (array > 1.0)
    if np.any(outside):
        # repr, not :g: 1 + 2**-52 must not read as 1.
        row = int(np.argmax(outside))
        raise ValueError(
            f"{name} must be probabilities in [0, 1]: {int(np.count_nonzero(outside))} value(s) lie outside, "
            f"the first {array[row].item()!r} (row {row}); the smallest is {array.min().item()!r}, "
            f"the largest {array.max().item()!r}"
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


# ---------------------------------------------------------------------------
# scalar options: one check per kind, used by every public function
# ---------------------------------------------------------------------------

def boolean(value, name):
    """A flag: ``True`` or ``False`` (a NumPy bool too), nothing else.

    Strings are refused rather than read by truthiness (``"no"`` would be
    true), and so are 0 and 1, which usually mean a misplaced argument.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r}")


def real(value, name, *, low=-math.inf, high=math.inf, low_open=False, high_open=False, infinite=False):
    """A finite real number in the interval from ``low`` to ``high``.

    The bounds are included unless ``low_open`` / ``high_open``.  Booleans
    and strings are refused with a TypeError, NaN, infinities and values out
    of range with a ValueError; the message names ``name`` and the interval.
    ``infinite=True`` admits -inf and inf (a threshold that flags every row
    or none); NaN is always refused.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    try:
        value = float(value)
    except OverflowError:  # an integer beyond the largest float
        raise ValueError(f"{name} must be {_described(low, high, low_open, high_open)}, got {value}") from None
    if infinite and math.isinf(value):
        return value
    if infinite and math.isnan(value):
        raise ValueError(f"{name} must be a number, got NaN")
    too_low = value <= low if low_open else value < low
    too_high = value >= high if high_open else value > high
    if not math.isfinite(value) or too_low or too_high:
        raise ValueError(f"{name} must be {_described(low, high, low_open, high_open)}, got {value!r}")
    return value


def threshold(value, name="threshold"):
    """A threshold to compare scores with: any real number, +-inf included, kept exact.

    Unlike :func:`real`, the value is not rounded to a float: an integer of
    any size, a float, a NumPy scalar (``np.longdouble`` too) or a Fraction
    comes back as a number that compares exactly with the scores
    (``_kernels.sorting.at_least``).  NaN, booleans and strings are refused.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if value != value:
        raise ValueError(f"{name} must be a number, got NaN")
    return float(value) if isinstance(value, (float, np.float64, np.float32, np.float16)) else value


def _described(low, high, low_open, high_open):
    if low == -math.inf and high == math.inf:
        return "finite"
    if high == math.inf and low == 0:
        return "a finite positive number" if low_open else "a finite non-negative number"
    if low_open and high_open:
        return f"strictly between {low:g} and {high:g}"
    if not (low_open or high_open or math.isinf(low) or math.isinf(high)):
        return f"between {low:g} and {high:g}"
    return f"a finite number in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"


def non_negative(value, name):
    """A finite non-negative real number (a cost, for example)."""
    return real(value, name, low=0.0)


def probability(value, name, *, open_interval=True):
    """A number strictly between 0 and 1 (a confidence level, a prevalence), or in [0, 1]."""
    return real(value, name, low=0.0, high=1.0, low_open=open_interval, high_open=open_interval)


#: The largest count option (bins, resamples, rows to draw) the package
#: accepts: beyond it the arrays it implies would not fit in memory, and a
#: clear ValueError is better than a MemoryError deep in NumPy.
MAX_COUNT = 10**8

#: The most bins a calibration summary accepts: each bin costs a few
#: counters, and more bins than this cannot hold a useful number of rows.
MAX_BINS = 10**6


def positive_int(value, name, minimum=1, maximum=MAX_COUNT):
    """An integer from ``minimum`` to ``maximum`` (a count of bins, folds, rows...)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum} (more would not fit in memory), got {value}")
    return int(value)


def seed(value, name="seed", *, maximum=None, concrete=False):
    """A source of randomness: ``None``, a non-negative integer or a NumPy ``Generator``.

    The one rule of the package, SciPy's rule for ``rng``: ``None`` means
    fresh entropy from the operating system (results then differ from run
    to run); an integer gives the same numbers on every run; a
    ``numpy.random.Generator`` is drawn from as it is, so its state moves on
    (two calls with one generator give two different draws, and the caller's
    seeding of the generator reproduces both).  ``maximum`` bounds the
    integer where a generator needs it (``np.random.RandomState``, which the
    splitters use to match scikit-learn, takes seeds below 2**32).
    ``concrete=True`` is for functions that derive further seeds
    (``seed + 1``) or use one seed twice: ``None`` is then replaced by one
    integer drawn from fresh entropy, so it still means "a different run
    each time", and a Generator by one integer drawn from it.  Booleans,
    floats and the legacy ``RandomState`` are refused.
    """
    if isinstance(value, np.random.Generator):
        # Below 2**31, so that derived seeds stay within RandomState's bound.
        return int(value.integers(2**31)) if concrete else value
    if value is None:
        if not concrete:
            return None
        return int(np.random.SeedSequence().generate_state(1, np.uint32)[0] >> 1)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        hint = "; pass np.random.default_rng(...) in place of a RandomState" if isinstance(
            value, np.random.RandomState) else ""
        raise TypeError(f"{name} must be an integer, a numpy.random.Generator or None, got "
                        f"{type(value).__name__}{hint}")
    if value < 0:
        raise ValueError(f"{name} must be a non-negative integer, a numpy.random.Generator or None, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return int(value)


# ---------------------------------------------------------------------------
# labels
# ---------------------------------------------------------------------------

def _object_labels(array, name):
    """Labels held as Python objects: all strings (kept as they are) or all
    numbers (converted to a numeric array); None, NaN and mixtures refused."""
    values = array.tolist()
    missing = sum(v is None for v in values)
    if missing:
        raise ValueError(f"{name} contains {missing} missing value(s) (None)")
    strings = sum(isinstance(v, (str, bytes)) for v in values)
    if strings == len(values):
        return array
    if strings:
        raise TypeError(f"{name} mixes strings and numbers; labels must be all strings or all numbers")
    if not all(isinstance(v, numbers.Number) for v in values):
        kinds = sorted({type(v).__name__ for v in values if not isinstance(v, numbers.Number)})
        raise TypeError(f"{name} must hold numbers, strings or booleans as labels, got {', '.join(kinds)}")
    # Only now may NumPy pick a dtype: the numbers become one numeric array.
    converted = column(values, name)
    if converted.dtype.kind == "O":  # else it would pass for an array of strings
        raise TypeError(f"{name} holds numbers of no common NumPy type (integers beyond 64 bits?)")
    return converted


def class_labels(values, name="y_true", *, allow_empty=False, whole=True):
    """Class labels: a 1-D array of integers, booleans or strings.

    Float labels must be finite whole numbers (``1.0`` is the class 1; ``0.3``
    is a score passed where a label belongs, refused as scikit-learn refuses
    continuous targets).  ``whole=False`` admits any finite float, for
    identifiers that are not classes (``groups``).  Object arrays must hold
    only strings or only numbers; None and NaN are refused as missing values.
    """
    array = column(values, name, allow_empty=allow_empty)
    if array.dtype.kind == "O":
        array = _object_labels(array, name)
    kind = array.dtype.kind
    if kind == "f":
        bad = int(np.count_nonzero(~np.isfinite(array)))
        if bad:
            raise ValueError(f"{name} contains {bad} NaN or infinite value(s)")
        fractional = array[array != np.round(array)] if whole else array[:0]
        if fractional.size:
            raise ValueError(
                f"{name} must hold class labels, got non-integer numbers such as {fractional[0].item()!r} "
                "(continuous values: scores or probabilities in place of labels?)"
            )
    elif kind not in "biuUSO":  # "O": all strings, checked above
        raise TypeError(f"{name} must hold numbers, strings or booleans as labels, got dtype {array.dtype}")
    return array


def _label_kind(array):
    return "strings" if array.dtype.kind in "USO" else "numbers"


def same_label_kind(**arrays_):
    """The label arrays, of one kind and, for numbers, of one exact type.

    Raise if some hold strings and others numbers: NumPy would turn the
    numbers into strings when comparing them, and a string label never
    equals a number, so every row would silently count as an error.  Numbers
    come back in a type that holds all of them exactly, because NumPy
    compares int64 with uint64, and integers with floats, in float64, which
    merges labels beyond 2**53 (2**63 - 1 and 2**63 would be one class);
    where no 64-bit type holds them all, a ValueError names the arrays.
    """
    kinds = {name: _label_kind(a) for name, a in arrays_.items()}
    if len(set(kinds.values())) > 1:
        groups = {}
        for name, kind in kinds.items():
            groups.setdefault(kind, []).append(name)
        described = " and ".join(f"{' and '.join(names)} {'holds' if len(names) == 1 else 'hold'} {kind}"
                                 for kind, names in groups.items())
        raise TypeError(f"{described}; the labels of {'both' if len(kinds) == 2 else 'all'} must be of one kind")
    return _exact_common_type(arrays_)


_INT64, _UINT64 = np.iinfo(np.int64), np.iinfo(np.uint64)


def _exact_common_type(named):
    """Numeric label arrays in one type that compares them exactly (see same_label_kind)."""
    arrays_ = list(named.values())
    if not all(a.dtype.kind in "biuf" for a in arrays_):
        return arrays_
    wide = {name: a for name, a in named.items() if a.dtype.kind in "iu" and a.dtype.itemsize == 8 and a.size}
    floats = any(a.dtype.kind == "f" for a in arrays_)
    unsigned = any(a.dtype.kind == "u" for a in wide.values())
    signed = any(a.dtype.kind == "i" for a in arrays_)
    if not wide or (not floats and not (unsigned and signed)):
        return arrays_
    values = [a for a in arrays_ if a.size]
    low = min(int(a.min()) if a.dtype.kind != "f" else a.min() for a in values)
    high = max(int(a.max()) if a.dtype.kind != "f" else a.max() for a in values)
    exact = max(abs(int(low)), abs(int(high))) <= 2**53
    if floats and exact and not (unsigned and signed):
        return arrays_  # float64 holds every one of these integers
    for target in (np.int64, np.uint64):
        info = _INT64 if target is np.int64 else _UINT64
        if info.min <= low and high <= info.max:
            return [a if a.dtype.kind == "b" else a.astype(target) for a in arrays_]
    described = " and ".join(named)
    raise ValueError(
        f"{described} hold integers from {int(low)} to {int(high)}: no 64-bit integer type holds them all, and "
        "NumPy would compare them as floats, merging labels beyond 2**53; give the classes smaller codes"
    )


def label_pair(y_true, y_pred):
    """Validated label arrays ``y_true`` and ``y_pred`` of equal length and one kind."""
    y_true = class_labels(y_true, "y_true")
    y_pred = class_labels(y_pred, "y_pred")
    same_length(y_true=y_true, y_pred=y_pred)
    return tuple(same_label_kind(y_true=y_true, y_pred=y_pred))


def _sorted_unique(*columns_, names=("labels",)):
    values = np.concatenate([np.asarray(c) for c in columns_]) if len(columns_) > 1 else columns_[0]
    try:
        return np.unique(values)
    except TypeError:
        # Only object arrays get here: class_labels has refused mixtures of strings and numbers.
        raise TypeError(f"{' and '.join(names)} must hold mutually comparable labels") from None


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
    not occur, when a third label is present or when the labels may not be
    comparable (the slow path then decides, and names what is wrong)."""
    kinds = {a.dtype.kind for a in arrays_}
    if not (kinds <= set("biuf") or kinds <= set("US")):
        return None
    masks = [np.asarray(a == pos_label) for a in arrays_]
    if any(mask.shape != a.shape for mask, a in zip(masks, arrays_)):
        return None
    if not any(mask.any() for mask in masks):
        return None
    # Binary means one other label at most: every row is the positive label or
    # equals the first other one (two counts, no copy of the other rows).
    other = next((a[np.argmin(mask)] for a, mask in zip(arrays_, masks) if not mask.all()), None)
    if other is not None and any(np.count_nonzero(mask) + np.count_nonzero(a == other) != len(a)
                                 for a, mask in zip(arrays_, masks)):
        return None
    return masks


def _shown(values, limit=5):
    shown = ", ".join(repr(x) for x in values[:limit].tolist())
    return shown + (", ..." if len(values) > limit else "")


def _not_binary(arrays_, names, labels_, pos_label):
    """The error for more than two labels, blaming the array that brings them."""
    own = _sorted_unique(arrays_[0])
    culprit = names[0]
    found = f"found {len(own)} labels ({_shown(own)})"
    if len(own) <= 2:
        culprit = names[1] if len(names) == 2 else " or ".join(names[1:])
        found = f"{', '.join(names)} together hold {len(labels_)} labels ({_shown(labels_)})"
    if pos_label is None:
        advice = "pass pos_label to choose the positive class"
    else:
        advice = (f"pos_label={pos_label!r} applies to two classes only; for one class against the rest "
                  f"pass the labels compared with it ({names[0]} == {pos_label!r})")
    return ValueError(f"{culprit} is not binary: {found}; {advice}")


def positive_mask(y_true, *, pos_label=None, name="y_true", others=()):
    """Boolean array, True where ``y_true`` equals the positive class.

    Parameters
    ----------
    y_true : ndarray
        A 1-D label array (already passed through :func:`class_labels`).
    pos_label : label or None
        The positive class.  ``None`` is allowed only for the labels
        {0, 1}, {-1, 1} or {False, True}, whose positive class is 1 (True).
        When all the labels are one class and ``pos_label`` is another of
        the same kind, every row is negative (one class present: the metric
        then follows its rule for undefined values, as it does for an
        all-zero ``y_true``).  More than two labels are refused.
    others : sequence of (name, ndarray)
        Further label arrays that must use the same label set (``y_pred``);
        masks for them are returned too.

    Returns
    -------
    list of ndarray of bool
        The mask of ``y_true`` followed by one mask per array in ``others``.
    """
    if pos_label is not None and not isinstance(pos_label, (str, bytes, numbers.Number, np.generic)):
        # A list or an array would be compared element by element (or broadcast) with the labels.
        raise TypeError(f"pos_label must be a single label (a number, a string or a bool), got "
                        f"{type(pos_label).__name__}")
    if isinstance(pos_label, np.generic):
        # As a Python number it compares exactly: np.uint64(2**63) against int64 labels would
        # be compared in float64, where it equals 2**63 - 1.
        pos_label = pos_label.item()
    arrays = [y_true] + [a for _, a in others]
    names = [name] + [n for n, _ in others]
    # Fast paths for the common cases; anything unusual (and every error)
    # goes through np.unique below, which names the labels it found.
    fast = _default_binary_masks(arrays) if pos_label is None else _masks_of(arrays, pos_label)
    if fast is not None:
        return fast
    labels = _sorted_unique(*arrays, names=names)
    if len(labels) > 2:
        raise _not_binary(arrays, names, labels, pos_label)
    if pos_label is None:
        if not _is_default_binary(labels):
            raise ValueError(f"{name} has labels ({_shown(labels)}); pass pos_label to say which is positive")
        pos_label = True if labels.dtype.kind == "b" else 1
    elif not np.any(labels == pos_label):
        same_kind = isinstance(pos_label, (str, bytes)) == (labels.dtype.kind in "USO")
        if len(labels) == 1 and same_kind:
            # One class present, and it is not the positive one (a resample
            # without positives, say): every row is negative.
            return [np.zeros(len(a), dtype=bool) for a in arrays]
        raise ValueError(f"pos_label={pos_label!r} does not occur in {name} (labels: {_shown(labels)})")
    return [np.asarray(a == pos_label) for a in arrays]


def binary_labels(y_true, *, pos_label=None, name="y_true"):
    """Validate binary ``y_true`` and return the boolean positive mask."""
    return positive_mask(class_labels(y_true, name), pos_label=pos_label, name=name)[0]


def binary_pair(y_true, y_pred, *, pos_label=None, sample_weight=None):
    """Validate binary ``y_true`` and ``y_pred``; return their masks and weights."""
    y_true, y_pred = label_pair(y_true, y_pred)
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
    y_true, y_pred = label_pair(y_true, y_pred)
    if labels is None:
        classes = _sorted_unique(y_true, y_pred, names=("y_true", "y_pred"))
        # searchsorted on the sorted classes is exact because every value is present.
        return EncodedLabels(classes, np.searchsorted(classes, y_true), np.searchsorted(classes, y_pred), None)
    classes = class_labels(labels, "labels")
    y_true, y_pred, classes = same_label_kind(y_true=y_true, y_pred=y_pred, labels=classes)
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


# ---------------------------------------------------------------------------
# score matrices: one column per class
# ---------------------------------------------------------------------------

def score_matrix(values, name="y_score"):
    """Scores of several classes: a finite float64 array of shape (n, n_classes).

    The same refusals as :func:`real_array` (containers, masked values,
    complex numbers, strings).  A 1-D array is refused: it holds the scores of
    one class, and the caller decides whether that is allowed.  Integer scores
    beyond 2**53, which float64 would round into false ties, must first be
    replaced by their exact ranks
    (:func:`evalmetrics._kernels.sorting.matrix_ranks`).
    """
    array = real_array(values, name)
    if array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of shape (n, n_classes), got shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    if array.shape[1] < 2:
        raise ValueError(f"{name} must have one column per class, at least 2, got {array.shape[1]}")
    with np.errstate(over="ignore", invalid="ignore"):
        finite = bool(np.isfinite(np.add.reduce(array, axis=None))) or bool(np.all(np.isfinite(array)))
    if not finite:
        bad = int(np.count_nonzero(~np.isfinite(array)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s)")
    return array


@dataclass(frozen=True)
class ClassColumns:
    """Labels matched to the columns of a score matrix.

    ``codes[i]`` is the column of row ``i``'s class, ``classes[k]`` the class
    of column ``k``.
    """

    classes: np.ndarray
    codes: np.ndarray


def class_columns(y_true, n_columns, *, labels=None, name="y_true"):
    """Validated labels and the column of a score matrix that belongs to each row's class.

    Without ``labels`` the columns belong to the sorted distinct labels of
    ``y_true``, which must be exactly ``n_columns``.  With ``labels`` (unique,
    of the kind of ``y_true``) the columns belong to them in the order given,
    and every label of ``y_true`` must be among them; a listed label may be
    absent from ``y_true``.
    """
    y_true = class_labels(y_true, name)
    if labels is None:
        classes = _sorted_unique(y_true, names=(name,))
        if len(classes) != n_columns:
            raise ValueError(f"{name} has {len(classes)} classes ({_shown(classes)}) but y_score has "
                             f"{n_columns} columns; pass labels to name the class of each column")
        return ClassColumns(classes, np.searchsorted(classes, y_true))
    classes = class_labels(labels, "labels")
    same_label_kind(**{name: y_true, "labels": classes})
    if len(_sorted_unique(classes)) != len(classes):
        raise ValueError("labels contains duplicates")
    if len(classes) != n_columns:
        raise ValueError(f"labels has {len(classes)} entries but y_score has {n_columns} columns; "
                         "name one class per column")
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    position = np.clip(np.searchsorted(sorted_classes, y_true), 0, len(classes) - 1)
    missing = sorted_classes[position] != y_true
    if np.any(missing):
        raise ValueError(f"{name} holds labels that are not in labels: {_shown(_sorted_unique(y_true[missing]))}")
    return ClassColumns(classes, order[position])
