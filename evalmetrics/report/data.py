"""Labels, scores and groups from a CSV file, read with the standard library.

:func:`read_dataset` reads one file and checks everything the report relies
on before any number is computed: the file exists and is UTF-8 text, every
named column exists once, every row has as many fields as the header, at
least ``min_rows`` rows, every score is a finite number, the labels hold two
classes (or more with a positive label named), every row has a group.  Each
problem is a :class:`ReportError` with a one-line message naming the file,
the column and the first offending line, meant to be shown to a person as
it is.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["Dataset", "ReportError", "parse_number", "read_dataset"]

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
    groups : ndarray of str or None
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


def _read_rows(path, delimiter):
    """(header, rows, line numbers, digest) of a CSV file; blank lines are skipped."""
    where = Path(path)
    try:
        raw = where.read_bytes()
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReportError(f"{path} is a directory, not a CSV file") from None
    except PermissionError:
        raise ReportError(f"{path}: permission denied") from None
    except OSError as error:
        raise ReportError(f"{path}: cannot read ({error.strerror or error})") from None
    try:
        # utf-8-sig drops the byte-order mark that spreadsheet programs write.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ReportError(f"{path} is not UTF-8 text (byte {error.start}); save it as UTF-8 CSV") from None
    reader = csv.reader(text.splitlines(), delimiter=delimiter, strict=True)
    header, rows, lines = None, [], []
    try:
        for row in reader:
            if not "".join(row).strip():
                continue
            if header is None:
                header = [cell.strip() for cell in row]
                continue
            rows.append(row)
            lines.append(reader.line_num)
    except csv.Error as error:
        raise ReportError(f"{path} line {reader.line_num}: malformed CSV ({error})") from None
    if header is None:
        raise ReportError(f"{path} is empty: expected a header line and data rows")
    return header, rows, lines, hashlib.sha256(raw).hexdigest()


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


def _check_row_lengths(rows, lines, width, path):
    for row, line in zip(rows, lines):
        if len(row) != width:
            raise ReportError(
                f"{path} line {line}: {len(row)} field(s), but the header has {width}; "
                "check the delimiter and quoting")


def _missing_message(path, kind, name, missing, lines):
    first = lines[missing[0]]
    return (f"{path}: {kind} column {name!r} has {len(missing)} missing value(s), the first on line {first}; "
            "remove or fill those rows")


def _plain_scores(cells):
    """The scores when every cell is a plain finite number (the common case, at C speed), else None."""
    if "_" in "".join(cells):
        return None  # float() reads "1_0" as ten; the careful loop below refuses it
    try:
        values = np.array(cells, dtype=np.float64)
    except ValueError:
        return None
    # NaN and infinities (also spelt "nan", "inf", "infinity") get the loop's messages.
    return values if np.isfinite(values).all() else None


def _scores(cells, lines, name, path):
    values = _plain_scores(cells)
    if values is not None:
        return values
    values = np.empty(len(cells))
    missing = []
    for i, cell in enumerate(cells):
        text = cell.strip()
        if text.lower() in MISSING:
            missing.append(i)
            continue
        try:
            value = parse_number(text)
        except ValueError:
            raise ReportError(
                f"{path} line {lines[i]}: score column {name!r} has the non-numeric value {text!r}") from None
        if not math.isfinite(value):
            raise ReportError(f"{path} line {lines[i]}: score column {name!r} has the infinite value {text!r}")
        values[i] = value
    if missing:
        raise ReportError(_missing_message(path, "score", name, missing, lines))
    return values


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


def _labels(cells, lines, name, pos_label, path):
    """(is_positive, positive class, negative classes) of the label column."""
    texts = [cell.strip() for cell in cells]
    missing = [i for i, t in enumerate(texts) if t.lower() in LABEL_MISSING]
    if missing:
        raise ReportError(_missing_message(path, "label", name, missing, lines))
    texts, numeric = _canonical(texts)
    values = sorted(set(texts), key=float if numeric else str)
    shown = ", ".join(repr(v) for v in values[:6]) + (", ..." if len(values) > 6 else "")
    if len(values) == 1:
        raise ReportError(f"{path}: label column {name!r} has a single class ({values[0]!r}); "
                          "the report needs positives and negatives")
    if pos_label is None:
        if len(values) > 2:
            raise ReportError(f"{path}: label column {name!r} has {len(values)} values ({shown}); "
                              "pass --pos-label to choose the positive class")
        positive = _default_positive(values, numeric)
        if positive is None:
            raise ReportError(f"{path}: label column {name!r} has the values {shown}; "
                              "pass --pos-label to say which one is positive")
    else:
        wanted = pos_label.strip()
        if numeric and _as_number(wanted) is not None:
            # "--pos-label 1" also finds a column written as 1.0.
            wanted = format(_as_number(wanted), "g")
        if wanted not in values:
            raise ReportError(f"{path}: --pos-label {pos_label!r} does not occur in label column {name!r} "
                              f"(values: {shown})")
        positive = wanted
    is_positive = np.array([t == positive for t in texts])
    return is_positive, positive, tuple(v for v in values if v != positive)


def _groups(cells, lines, name, path):
    texts = [cell.strip() for cell in cells]
    missing = [i for i, t in enumerate(texts) if t.lower() in LABEL_MISSING]
    if missing:
        raise ReportError(_missing_message(path, "group", name, missing, lines))
    groups = np.array(texts, dtype=str)
    distinct = np.unique(groups)
    if len(distinct) < 2:
        raise ReportError(f"{path}: group column {name!r} has a single group ({str(distinct[0])!r}); "
                          "resampling whole groups needs at least 2")
    return groups


def read_dataset(path, *, label, scores, pos_label=None, group=None, delimiter=",", min_rows=10):
    """Read and validate the label, score and group columns of a CSV file.

    Parameters
    ----------
    path : str or path-like
    label : str
        Name of the label column.
    scores : sequence of str
        Names of the score columns (one or more), larger meaning more
        likely positive.
    pos_label : str, optional
        The positive class as written in the file (a number matches
        numerically: "1" finds "1.0").  Needed unless the labels are
        {0, 1}, {-1, 1} or {false, true}; with more than two label values
        the positive class is evaluated against all the others.
    group : str, optional
        A column of group identifiers (patients, sites, ...).
    delimiter : str, default ","
    min_rows : int, default 10

    Returns
    -------
    Dataset

    Raises
    ------
    ReportError
        For every problem with the file, with a one-line message.

    Examples
    --------
    >>> import tempfile, os
    >>> rows = "y,p\\n" + "".join(f"{i % 2},{i / 12:.2f}\\n" for i in range(12))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "scores.csv")
    ...     with open(path, "w") as handle:
    ...         _ = handle.write(rows)
    ...     data = read_dataset(path, label="y", scores=["p"])
    >>> data.n_rows, int(data.y_true.sum()), data.positive
    (12, 6, '1')
    """
    scores = list(scores)
    if not scores:
        raise ReportError("name at least one score column (--score COLUMN)")
    header, rows, lines, digest = _read_rows(path, delimiter)
    _check_header(header, path)
    named = [(label, "--label")] + [(s, "--score") for s in scores] + ([(group, "--group")] if group else [])
    seen = {}
    for name, option in named:
        if name in seen:
            raise ReportError(f"column {name!r} is named twice ({seen[name]} and {option})")
        seen[name] = option
    index = {name: _column_index(header, name, option, path) for name, option in named}
    _check_row_lengths(rows, lines, len(header), path)
    if len(rows) < min_rows:
        raise ReportError(f"{path} has {len(rows)} data row(s); the report needs at least {min_rows}")

    def cells(name):
        return [row[index[name]] for row in rows]

    is_positive, positive, negatives = _labels(cells(label), lines, label, pos_label, path)
    values = tuple(_scores(cells(s), lines, s, path) for s in scores)
    groups = _groups(cells(group), lines, group, path) if group else None
    return Dataset(path=str(path), sha256=digest, label=label, positive=positive, negatives=negatives,
                   y_true=is_positive, score_names=tuple(scores), score_values=values,
                   group=group, groups=groups)
