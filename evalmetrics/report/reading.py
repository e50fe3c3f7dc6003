"""A CSV file read in bounded chunks, keeping only the columns the report uses.

:func:`read_dataset` reads the file in chunks of :data:`CHUNK_BYTES` and its
rows in batches of :data:`BATCH_ROWS`, with the standard library's ``csv``
module: each score column becomes float64, the label and group columns
small integer codes into their distinct values, and nothing else is kept.
Memory therefore grows with the columns used, not with the file: a wide
file costs no more than its used columns, and whatever is not a table (a
binary file, ``/dev/zero``) is refused within the first chunk, a line
longer than a chunk anywhere.  The checks and their messages are those of
:mod:`evalmetrics.report.data`; a fault in a value is kept until the file
is read, so the message does not depend on where a batch ends.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import itertools
import math
import operator

import numpy as np

from . import data
from .data import Dataset, ReportError

__all__ = ["read_dataset"]

#: Bytes read at a time.
CHUNK_BYTES = 1 << 20
#: Characters a line may hold: beyond, or with a NUL among the first, it is no CSV table.
MAX_LINE = 1 << 20
#: Rows converted to arrays at a time.
BATCH_ROWS = 1 << 14
#: Distinct values a label column may hold: it names classes, not rows.
MAX_LABEL_VALUES = 10_000
# Bytes of a block of a column as it is read: at least glibc's largest mmap threshold
# (32 MiB), so that every block is mapped apart and returned to the system when freed.
_BLOCK_BYTES = 32 << 20


def _open(path):
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReportError(f"{path} is a directory, not a CSV file") from None
    except PermissionError:
        raise ReportError(f"{path}: permission denied") from None
    except OSError as error:
        raise ReportError(f"{path}: cannot read ({error.strerror or error})") from None


# Where str.splitlines() breaks a line: the physical lines the messages count.
_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


class _Lines:
    """The lines of a UTF-8 file, read in chunks of ``CHUNK_BYTES``, with the digest of its bytes.

    What is not a table is refused as soon as it shows: a NUL among the first
    ``MAX_LINE`` characters (a binary file, ``/dev/zero``) or a line longer
    than ``MAX_LINE`` (no line break where a table has many), so memory stays
    bounded whatever the file.
    """

    def __init__(self, handle, path):
        self.handle, self.path = handle, path
        self.digest = hashlib.sha256()
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.offset = 0  # bytes read so far
        self.probed = 0  # characters searched for a NUL so far
        self.started = False  # whether the first character was decoded
        self.line = 0  # lines handed out so far

    def _read(self):
        try:
            raw = self.handle.read(CHUNK_BYTES)
        except OSError as error:
            raise ReportError(f"{self.path}: cannot read ({error.strerror or error})") from None
        self.digest.update(raw)
        pending = len(self.decoder.getstate()[0])
        try:
            text = self.decoder.decode(raw, final=not raw)
        except UnicodeDecodeError as error:
            where = self.offset - pending + error.start
            raise ReportError(f"{self.path} is not UTF-8 text (byte {where}); save it as UTF-8 CSV") from None
        if not self.started and text:
            # The byte-order mark that spreadsheet programs write is not part of the table.
            text, self.started = text.removeprefix("\ufeff"), True
        self.offset += len(raw)
        if self.probed < MAX_LINE:
            if "\x00" in text[:MAX_LINE - self.probed]:
                raise ReportError(f"{self.path} is not a CSV table: it holds NUL bytes (a binary file?)")
            self.probed += len(text)
        return text, not raw

    def _too_long(self):
        raise ReportError(f"{self.path} line {self.line} is longer than {MAX_LINE:,} characters: "
                          "not a CSV table")

    def __iter__(self):
        carry = ""
        while True:
            text, final = self._read()
            text = carry + text
            if final:
                lines, carry = text.splitlines(), ""
            else:
                # Cut after the last line break, but not at a final "\r": it may be half of "\r\n".
                end = len(text) - 1 if text.endswith("\r") else len(text)
                cut = max(text.rfind(c, 0, end) for c in _BREAKS) + 1
                lines, carry = text[:cut].splitlines(), text[cut:]
            for line in lines:
                self.line += 1
                if len(line) > MAX_LINE:
                    self._too_long()
                yield line
            if len(carry) > MAX_LINE:
                self.line += 1
                self._too_long()
            if final:
                return


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


class _Column:
    """One column of the file as it is read, batch by batch; its first fault is kept, not raised.

    The faults are raised once the whole file is read, column after column in
    the order of the checks, so the message does not depend on where a batch ends.
    The values go into blocks of :data:`_BLOCK_BYTES`, large enough that the
    system maps each one apart: a block's unused end costs no memory, and a
    block copied into the final array is given back at once, so the column is
    never held twice (a list of batches and a concatenation would hold it twice,
    an array doubled by ``resize`` fills its new half with zeros).
    """

    dtype = np.float64

    def __init__(self, name, kind, path):
        self.name, self.kind, self.path = name, kind, path
        self.blocks, self.size = [], 0
        self.fault = None  # the message of the first bad value
        self.missing, self.first_missing = 0, None

    def _append(self, batch):
        block_rows = _BLOCK_BYTES // np.dtype(self.dtype).itemsize
        start = 0
        while start < len(batch):
            used = self.size % block_rows
            if used == 0:
                self.blocks.append(np.empty(block_rows, dtype=self.dtype))
            take = min(block_rows - used, len(batch) - start)
            self.blocks[-1][used:used + take] = batch[start:start + take]
            self.size += take
            start += take

    def _count_missing(self, mask, lines):
        count = int(np.count_nonzero(mask))
        if count:
            if self.first_missing is None:
                self.first_missing = lines[int(np.argmax(mask))]
            self.missing += count

    def check(self):
        """Raise the column's first fault, if any."""
        if self.fault is not None:
            raise ReportError(self.fault)
        if self.missing:
            raise ReportError(f"{self.path}: {self.kind} column {self.name!r} has {self.missing} missing value(s), "
                              f"the first on line {self.first_missing}; remove or fill those rows")

    def joined(self):
        """The column as one array; each block is given back once copied."""
        blocks, self.blocks = self.blocks, []
        if len(blocks) == 1:
            return blocks[0][:self.size]
        out = np.empty(self.size, dtype=self.dtype)
        start = 0
        while blocks:
            block = blocks.pop(0)[:min(self.size - start, _BLOCK_BYTES // out.itemsize)]
            out[start:start + len(block)] = block
            start += len(block)
            del block
        return out


class _Scores(_Column):
    def add(self, cells, lines):
        values = _plain_scores(cells)
        if values is None:
            values = np.empty(len(cells))
            missing = np.zeros(len(cells), dtype=bool)
            for i, cell in enumerate(cells):
                text = cell.strip()
                if text.lower() in data.MISSING:
                    missing[i] = True
                    continue
                try:
                    value = data.parse_number(text)
                except ValueError:
                    value, problem = math.nan, "non-numeric"
                else:
                    problem = None if math.isfinite(value) else "infinite"
                if problem is not None and self.fault is None:
                    self.fault = (f"{self.path} line {lines[i]}: score column {self.name!r} has the {problem} "
                                  f"value {text!r}")
                values[i] = value
            self._count_missing(missing, lines)
        self._append(values)


class _Codes(_Column):
    """A label or group column: each row's code into the distinct values, in order of appearance."""

    dtype = np.int32

    def __init__(self, name, kind, path, limit=None):
        super().__init__(name, kind, path)
        self.index, self.missing_codes, self.limit = {}, [], limit

    def add(self, cells, lines):
        texts = [cell.strip() for cell in cells]
        index = self.index
        for text in set(texts).difference(index):
            if text.lower() in data.LABEL_MISSING:
                self.missing_codes.append(len(index))
            index[text] = len(index)
        if self.limit is not None and len(index) > self.limit:
            raise ReportError(f"{self.path}: {self.kind} column {self.name!r} has more than {self.limit:,} "
                              "distinct values; a label column names classes")
        codes = np.fromiter(map(index.__getitem__, texts), dtype=np.int32, count=len(texts))
        if self.missing_codes:
            self._count_missing(np.isin(codes, self.missing_codes), lines)
        self._append(codes)

    def names(self):
        """The distinct values, in the order of their codes."""
        return list(self.index)


def _labels(column, pos_label):
    """(is_positive, positive class, negative classes) of the label column."""
    path, name = column.path, column.name
    column.check()
    canonical, numeric = data._canonical(column.names())
    values = sorted(set(canonical), key=float if numeric else str)
    shown = ", ".join(repr(v) for v in values[:6]) + (", ..." if len(values) > 6 else "")
    if len(values) == 1:
        raise ReportError(f"{path}: label column {name!r} has a single class ({values[0]!r}); "
                          "the report needs positives and negatives")
    if pos_label is None:
        if len(values) > 2:
            raise ReportError(f"{path}: label column {name!r} has {len(values)} values ({shown}); "
                              "pass --pos-label to choose the positive class")
        positive = data._default_positive(values, numeric)
        if positive is None:
            raise ReportError(f"{path}: label column {name!r} has the values {shown}; "
                              "pass --pos-label to say which one is positive")
    else:
        wanted = pos_label.strip()
        if numeric and data._as_number(wanted) is not None:
            # "--pos-label 1" also finds a column written as 1.0.
            wanted = format(data._as_number(wanted), "g")
        if wanted not in values:
            raise ReportError(f"{path}: --pos-label {pos_label!r} does not occur in label column {name!r} "
                              f"(values: {shown})")
        positive = wanted
    is_positive = np.array([v == positive for v in canonical], dtype=bool)[column.joined()]
    return is_positive, positive, tuple(v for v in values if v != positive)


def _groups(column):
    """Each row's group, numbered in the sorted order of the names."""
    column.check()
    names = column.names()
    if len(names) < 2:
        raise ReportError(f"{column.path}: group column {column.name!r} has a single group ({names[0]!r}); "
                          "resampling whole groups needs at least 2")
    rank = np.empty(len(names), dtype=np.int32)
    rank[np.argsort(np.array(names, dtype=object), kind="stable")] = np.arange(len(names), dtype=np.int32)
    return rank[column.joined()]


def _header(reader, path):
    """The header line (its cells stripped) and the reader positioned after it."""
    for row in reader:
        if "".join(row).strip():
            return [cell.strip() for cell in row]
    raise ReportError(f"{path} is empty: expected a header line and data rows")


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
    named = [(label, "--label")] + [(s, "--score") for s in scores] + ([(group, "--group")] if group else [])
    labels = _Codes(label, "label", path, limit=MAX_LABEL_VALUES)
    values = [_Scores(s, "score", path) for s in scores]
    groups = _Codes(group, "group", path) if group else None
    columns = [labels] + values + ([groups] if groups else [])
    n_rows = 0
    with _open(path) as handle:
        lines = _Lines(handle, path)
        reader = csv.reader(lines, delimiter=delimiter, strict=True)
        try:
            header = _header(reader, path)
            data._check_header(header, path)
            seen = {}
            for name, option in named:
                if name in seen:
                    raise ReportError(f"column {name!r} is named twice ({seen[name]} and {option})")
                seen[name] = option
            # The used cells of a row, always as a tuple; the rest of the row is dropped at once.
            used = [data._column_index(header, name, option, path) for name, option in named]
            pick = operator.itemgetter(*used, used[0])
            width = len(header)
            batch, batch_lines = [], []
            for row in itertools.chain(reader, [None]):
                if row is not None:
                    if not "".join(row).strip():
                        continue
                    if len(row) != width:
                        raise ReportError(f"{path} line {reader.line_num}: {len(row)} field(s), but the header has "
                                          f"{width}; check the delimiter and quoting")
                    batch.append(pick(row))
                    batch_lines.append(reader.line_num)
                    if len(batch) < BATCH_ROWS:
                        continue
                for k, column in enumerate(columns):
                    column.add([cells[k] for cells in batch], batch_lines)
                n_rows += len(batch)
                batch, batch_lines = [], []
        except csv.Error as error:
            raise ReportError(f"{path} line {reader.line_num}: malformed CSV ({error})") from None
    if n_rows < min_rows:
        raise ReportError(f"{path} has {n_rows} data row(s); the report needs at least {min_rows}")
    is_positive, positive, negatives = _labels(labels, pos_label)
    for column in values:
        column.check()
    score_values = tuple(column.joined() for column in values)
    return Dataset(path=str(path), sha256=lines.digest.hexdigest(), label=label, positive=positive,
                   negatives=negatives, y_true=is_positive, score_names=tuple(scores), score_values=score_values,
                   group=group, groups=_groups(groups) if groups else None)
