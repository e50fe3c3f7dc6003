"""The bootstrap of the AUC without refitting: counts over cells of tied scores.

:func:`evalmetrics.intervals.bootstrap_interval` and ``bootstrap_difference``
hand the work to this module when the metric carries it as its
``bootstrap_engine`` (the package's AUC functions carry :func:`auc_engine`)
and no groups are given.  The resamples are the
very same row draws as the generic path (and as
``scipy.stats.bootstrap(paired=True)``); only the arithmetic changes.

The rows are sorted once and split into *cells*: the positives of one
score, and the negatives pooled between two consecutive positive scores
(or tied with one).  A resample is then nothing but a count per cell (a
``bincount`` of the drawn rows' cells), and its AUC follows from those
counts in exact integers.  With ``c`` the counts, cells in increasing order
of score and, for a positive cell ``k``, ``below_k`` the negatives drawn at
a score at most its own and ``tied_k`` those at its score exactly::

    2 U = sum_k c_k (2 below_k - tied_k),   AUC = 2 U / (2 P N).

This is the integer :func:`evalmetrics.roc_auc` divides, so every replicate
equals the generic one to the last bit.  Draws are made in chunks of about a
million elements (the generator yields the same stream in pieces as at
once), which bounds the extra memory whatever the number of resamples.

With ``draws="counts"`` and few cells (heavily tied scores), the rows are
not drawn at all: the counts of a resample over the cells follow a
multinomial distribution with ``n`` trials and the cells' shares of the
rows as probabilities, and are drawn as such.  That is the same bootstrap
distribution from other random numbers, at a cost that grows with the
number of cells instead of ``n``.  For two score vectors the cells are
those of the pairs (cell of a, cell of b) that occur.

The jackknife needs no refits either: leaving out a positive removes its
``2 below + tied`` from ``2 U`` and one positive from ``P``; likewise for a
negative, with the positives above it.
"""

from __future__ import annotations

import numpy as np

from .. import arrays
from .auc import auc_from_twice_u
from .sorting import integer_ranks

# Elements drawn per chunk: about 8 MB of int64 indices, a few such arrays alive at once.
_CHUNK = 1 << 20
# One multinomial count costs numpy about as much as drawing and counting 15-30
# rows (binomial draws of 40-130 ns against 3-6 ns a row here), so cell counts
# are drawn only when there are at least this many rows per cell.
_ROWS_PER_CELL = 32


class _Cells:
    """The rows of one score vector grouped into cells whose counts fix the AUC.

    A positive cell holds the positives of one score.  Negatives need less
    detail: all that matters about a negative is which positive cells lie
    below it and whether one shares its score.  So negatives are pooled into
    *blocks* -- those between two consecutive positive scores, and those tied
    with a positive score -- which, for continuous scores, cuts the columns
    of the count matrix from n to about twice the number of positives.
    """

    def __init__(self, is_positive, values):
        # Built for memory as much as for time: every n-long temporary is freed as
        # soon as it is used, so the set-up stays under 64 MiB at n = 1e6.
        n = len(values)
        # The one sort.  np.unique(values, return_inverse=True) gives the same ranks
        # but holds five n-long arrays at its peak; this holds three.
        order = np.argsort(values)
        ordered = values[order]
        new_score = np.empty(n, dtype=bool)
        new_score[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=new_score[1:])
        del ordered
        rank = np.cumsum(new_score)
        n_distinct = int(rank[-1]) if n else 0
        # code = 2 x (rank of the score among the distinct scores) + label: the
        # (score, class) pairs in increasing order of score, negatives first.
        rank -= 1
        rank *= 2
        code = np.empty(n, dtype=np.intp)
        code[order] = rank
        del order, rank, new_score
        code += is_positive
        sizes = np.bincount(code, minlength=2 * n_distinct)
        negative_sizes, positive_sizes = sizes[0::2], sizes[1::2]
        positive_present = positive_sizes > 0
        positive_groups = np.flatnonzero(positive_present)
        negative_groups = np.flatnonzero(negative_sizes > 0)
        tied = negative_sizes[positive_groups] > 0
        self.positive_sizes = positive_sizes[positive_groups]
        negatives_per_group = negative_sizes[negative_groups]
        del sizes, negative_sizes, positive_sizes
        # Block key of a score: 2 x (positive cells below it) + (a positive cell at it);
        # it never decreases with the score, and equal keys pool into one block.
        key = np.cumsum(positive_present)
        key -= positive_present
        key *= 2
        key += positive_present
        key = key[negative_groups]
        new_block = np.ones(len(key), dtype=bool)
        np.not_equal(key[1:], key[:-1], out=new_block[1:])
        block_of_group = np.cumsum(new_block)
        block_of_group -= 1
        block_keys = key[new_block]
        del key, new_block, positive_present
        n_blocks = len(block_keys)
        self.negative_sizes = np.bincount(block_of_group, weights=negatives_per_group,
                                          minlength=n_blocks).astype(np.int64)
        del negatives_per_group
        # Cell of each (score, class) code, then of each row.
        renumber = np.zeros(2 * n_distinct, dtype=np.intp)
        renumber[2 * negative_groups] = block_of_group
        del negative_groups, block_of_group
        renumber[2 * positive_groups + 1] = n_blocks + np.arange(len(positive_groups))
        self.cell_of_row = renumber[code]
        del renumber, code
        self.n = n
        self.n_cells = n_blocks + len(positive_groups)
        self.n_negative_cells = n_blocks
        self.is_positive = is_positive
        # For each positive cell k (key 2k + 1 when tied): the blocks at or below
        # its score, the last of them tied with it when one shares its score.
        self.negative_cells_upto = np.searchsorted(block_keys, 2 * np.arange(len(positive_groups)) + 1, "right")
        self.tied_positive = np.flatnonzero(tied)
        self.tied_negative = self.negative_cells_upto[tied] - 1
        # For each block (for the jackknife): positive cells at or below its scores.
        self.positive_cells_upto = (block_keys + 1) // 2
        self.negative_tied_with = np.flatnonzero(block_keys % 2 == 1)
        self.positives = int(self.positive_sizes.sum())
        self.negatives = n - self.positives

    # -- counts to AUCs ---------------------------------------------------------

    def twice_u(self, counts):
        """``2 U`` (int64) of each row of a (resamples, cells) count matrix."""
        negative = counts[:, :self.n_negative_cells]
        positive = counts[:, self.n_negative_cells:]
        below = np.zeros((len(counts), self.n_negative_cells + 1), dtype=np.int64)
        np.cumsum(negative, axis=1, out=below[:, 1:])
        twice = 2 * np.einsum("ij,ij->i", positive, below[:, self.negative_cells_upto])
        if len(self.tied_positive):
            twice -= np.einsum("ij,ij->i", positive[:, self.tied_positive], negative[:, self.tied_negative])
        return twice, below[:, -1]

    def auc_of_counts(self, counts):
        twice, negatives = self.twice_u(counts)
        positives = self.n - negatives
        with np.errstate(divide="ignore", invalid="ignore"):
            # 0 / 0 (a resample with one class) is NaN, as the metric returns.
            return auc_from_twice_u(twice, positives, negatives)

    def estimate(self):
        twice, _ = self.twice_u(np.concatenate([self.negative_sizes, self.positive_sizes])[None, :])
        if self.positives == 0 or self.negatives == 0:
            return float("nan")
        return auc_from_twice_u(int(twice[0]), self.positives, self.negatives)

    def jackknife(self):
        """The AUC with each row left out, in row order (NaN when a class empties)."""
        sizes = np.concatenate([self.negative_sizes, self.positive_sizes])
        twice = int(self.twice_u(sizes[None, :])[0][0])
        p, q = self.positives, self.negatives
        # A positive cell: 2 x negatives below + negatives tied.
        negatives_upto = np.r_[0, np.cumsum(self.negative_sizes)]
        lost_positive = 2 * negatives_upto[self.negative_cells_upto]
        lost_positive[self.tied_positive] -= self.negative_sizes[self.tied_negative]
        # A negative cell: 2 x positives above + positives tied.
        positives_upto = np.r_[0, np.cumsum(self.positive_sizes)]
        lost_negative = 2 * (p - positives_upto[self.positive_cells_upto])
        lost_negative[self.negative_tied_with] += self.positive_sizes[
            self.positive_cells_upto[self.negative_tied_with] - 1]
        lost = np.concatenate([lost_negative, lost_positive])[self.cell_of_row]
        left = np.subtract(twice, lost, out=lost).astype(np.float64)  # 2 U without the row
        del lost
        # Divided in place, one class at a time: no n-long array of denominators.
        with np.errstate(divide="ignore", invalid="ignore"):
            np.divide(left, 2 * (p - 1) * q, out=left, where=self.is_positive)
            np.divide(left, 2 * p * (q - 1), out=left, where=~self.is_positive)
        return left


def _chunks(n, n_resamples):
    per_chunk = max(1, _CHUNK // n)
    for start in range(0, n_resamples, per_chunk):
        yield min(per_chunk, n_resamples - start)


def _cell_counts(cells, rows):
    """(resamples, cells) counts of a (resamples, n) block of drawn rows.

    One bincount per resample: its bins stay in cache even when nearly every
    row is its own cell, and no pass is spent offsetting the codes.
    """
    counts = np.empty((len(rows), cells.n_cells), dtype=np.int64)
    table, n_cells = cells.cell_of_row, cells.n_cells
    for j, drawn in enumerate(rows):
        counts[j] = np.bincount(np.take(table, drawn), minlength=n_cells)
    return counts


class AucEngine:
    """Replicates and jackknife of one AUC, or of the difference of two."""

    def __init__(self, is_positive, values, other_values=None):
        self.cells = [_Cells(is_positive, values)]
        if other_values is not None:
            self.cells.append(_Cells(is_positive, other_values))
        self.n = len(values)

    def _combine(self, parts):
        return parts[0] if len(parts) == 1 else parts[0] - parts[1]

    def estimate(self):
        values = [c.estimate() for c in self.cells]
        return float(values[0]) if len(values) == 1 else float(values[0] - values[1])

    def replicates(self, rng, n_resamples, draws="rows"):
        """The AUC (or difference) on each of ``n_resamples`` resamples.

        ``draws="rows"`` draws the rows as ``scipy.stats.bootstrap`` does;
        ``draws="counts"`` draws the cell counts directly when the cells are
        few (see the module's docstring), else the rows as well.
        """
        if draws == "counts":
            sizes, to_cells = self._joint_cells()
            if len(sizes) * _ROWS_PER_CELL <= self.n:
                return self._count_replicates(rng, n_resamples, sizes, to_cells)
        out = np.empty(n_resamples)
        start = 0
        for k in _chunks(self.n, n_resamples):
            rows = rng.integers(0, self.n, (k, self.n))
            out[start:start + k] = self._combine([c.auc_of_counts(_cell_counts(c, rows)) for c in self.cells])
            start += k
        return out

    def _joint_cells(self):
        """Sizes of the joint cells and, per score vector, how to sum their
        counts into its own cells: None (they are its cells) or a pair
        (column order, first column of each cell) for ``np.add.reduceat``."""
        if len(self.cells) == 1:
            cells = self.cells[0]
            return np.concatenate([cells.negative_sizes, cells.positive_sizes]), [None]
        a, b = self.cells
        joint, sizes = np.unique(a.cell_of_row * b.n_cells + b.cell_of_row, return_counts=True)
        to_cells = []
        for own in (joint // b.n_cells, joint % b.n_cells):
            order = np.argsort(own, kind="stable")
            # Every cell holds at least one row, so each starts a run in the sorted list.
            starts = np.flatnonzero(np.diff(own[order], prepend=-1))
            to_cells.append((order, starts))
        return sizes, to_cells

    def _count_replicates(self, rng, n_resamples, sizes, to_cells):
        shares = sizes / self.n
        out = np.empty(n_resamples)
        start = 0
        for k in _chunks(len(sizes), n_resamples):
            counts = rng.multinomial(self.n, shares, size=k)
            parts = []
            for cells, mapping in zip(self.cells, to_cells):
                own = counts if mapping is None else np.add.reduceat(counts[:, mapping[0]], mapping[1], axis=1)
                parts.append(cells.auc_of_counts(own))
            out[start:start + k] = self._combine(parts)
            start += k
        return out

    def jackknife(self):
        return self._combine([c.jackknife() for c in self.cells])


def auc_engine(y_true, y_score, other_score=None):
    """An :class:`AucEngine` for the unweighted AUC of ``y_score`` (or of
    ``y_score`` minus that of ``other_score``): the ``bootstrap_engine`` the
    package's AUC functions carry.

    Validation is the metric's own, run once on all rows: a resample holds a
    subset of the labels, so it passes whenever the full data do.
    """
    # Integer scores beyond 2**53 by their exact ranks: only the order counts.
    is_positive, values, _ = arrays.binary_scores(y_true, integer_ranks(y_score)[0])
    other = None
    if other_score is not None:
        other = arrays.scores(integer_ranks(other_score)[0], "y_score")
        arrays.same_length(y_true=is_positive, y_score=other)
    return AucEngine(is_positive, values, other)


def engine_for(metric, *columns, engine="auto"):
    """The engine for a bootstrap of ``metric`` on ``columns``, or None (call the metric).

    ``engine="auto"`` takes the ``bootstrap_engine`` attribute the metric
    carries (``functools.wraps`` copies it to a wrapper), None never uses one,
    and a callable is used as the factory itself: ``engine(*columns)``.
    """
    factory = getattr(metric, "bootstrap_engine", None) if engine == "auto" else engine
    return None if factory is None else factory(*columns)
