"""What the report reads: a :class:`Dataset`, the rules for its values, and :class:`ReportError`.

:func:`~evalmetrics.report.reading.read_dataset` reads one file and checks
everything the report relies on before any number is computed: the file
exists and is UTF-8 text, every named column exists once, every row has as
many fields as the header, at least ``min_rows`` rows, every score is a finite number, the labels hold two
classes (or more with a positive label named), every row has a group.  Each
problem is a :class:`ReportError` with a one-line message naming the file,
the column and the first offending line, meant to be shown to a person as
it is.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Dataset", "ReportError", "parse_number"]

#: Cells read as "no value" in a score column (compared in lower case).
MISSING = frozenset({"", "na", "n/a", "nan", "null", "none", "-"})
#: ... and in a label or group column, where "none" or "-" may be a real class.
LABEL_MISSING = frozenset({"", "na", "n/a", "nan", "null"})
#: Label pairs whose positive class needs no --pos-label (lower case).
_TRUE_WORDS = {"true": True, "false": False}


# A decimal number as people write it.  Python's float() also takes "1_0" (ten),
# which in a CSV file or on a command line is a typo, not a number.
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_INFINITE = frozenset({"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})


def parse_number(text):
    """The float a decimal number spells (infinities included); ValueError for anything else.

    Examples
    --------
    >>> parse_number("0.25"), parse_number("-1e3")
    (0.25, -1000.0)
    >>> parse_number("1_0")
    Traceback (most recent call last):
    ...
    ValueError: not a decimal number: '1_0'
    """
    if _DECIMAL.fullmatch(text) or text.lower() in _INFINITE:
        return float(text)
    raise ValueError(f"not a decimal number: {text!r}")


class ReportError(ValueError):
    """A problem with the input of a report, in one line a person can act on."""


@dataclass(frozen=True)
class Dataset:
    """Validated columns of one CSV file.

    Attributes
    ----------
    path : str
        The file as given.
    sha256 : str
        Hex digest of the file's bytes, so a report names exactly what it read.
    label : str
        Name of the label column.
    positive : str
        The positive class; numeric labels are compared by value and shown
        in short form ("1.0" and "1" are both "1").
    negatives : tuple of str
        The other label values (one, or several when ``--pos-label`` picks
        one class against the rest).
    y_true : ndarray of bool
        True where the row is positive.
    score_names : tuple of str
    score_values : tuple of ndarray of float64
    group : str or None
        Name of the group column.
    groups : ndarray of int or None
        The group of each row, numbered 0, 1, ... in the sorted order of
        the group names (the order in which the bootstrap draws them).
    """

    path: str
    sha256: str
    label: str
    positive: str
    negatives: tuple
    y_true: np.ndarray = field(repr=False)
    score_names: tuple
    score_values: tuple = field(repr=False)
    group: str | None = None
    groups: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_rows(self):
        return len(self.y_true)

    def score(self, name):
        """The values of score column ``name``."""
        return self.score_values[self.score_names.index(name)]


def _column_index(header, name, option, path):
    if name not in header:
        close = difflib.get_close_matches(name, header, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        shown = ", ".join(repr(h) for h in header[:12]) + (", ..." if len(header) > 12 else "")
        raise ReportError(f"{path}: column {name!r} ({option}) not found; the columns are {shown}{hint}")
    return header.index(name)


def _check_header(header, path):
    seen = set()
    for name in header:
        if name in seen and name:
            raise ReportError(f"{path}: column {name!r} appears twice in the header")
        seen.add(name)


def _as_number(text):
    try:
        value = parse_number(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _canonical(texts):
    """Labels as compared: numbers by value ("1" and "1.0" are one class), else the text."""
    numbers = [_as_number(t) for t in texts]
    if all(x is not None for x in numbers):
        return [format(x, "g") for x in numbers], True
    return list(texts), False


def _default_positive(values, numeric):
    """The positive class of {0, 1}, {-1, 1} or {false, true} labels, else None."""
    if numeric:
        if set(values) <= {"0", "1"} or set(values) <= {"-1", "1"}:
            return "1"
        return None
    if all(v.lower() in _TRUE_WORDS for v in values):
        return next(v for v in values if _TRUE_WORDS[v.lower()])
    return None
