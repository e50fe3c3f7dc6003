"""The bootstrap of the AUC without refitting: counts over cells of tied scores.

:func:`evalmetrics.intervals.bootstrap_interval` and ``bootstrap_difference``
hand the work to this module when the metric carries it as its
``bootstrap_engine`` (the package's AUC functions carry :func:`auc_engine`)
and it passes the bootstrap's check (its estimate and its value on two
resamples equal the metric's own).  The resamples are the very same draws as
the plain path's (:mod:`.resampling`, those of
``scipy.stats.bootstrap(paired=True)``); only the arithmetic changes.

The rows are sorted once and split into *cells*: the positives of one
score, and the negatives pooled between two consecutive positive scores
(or tied with one).  A resample is then nothing but a count per cell (a
``bincount`` of the drawn rows' cells), and its AUC follows from those
counts in exact integers (:func:`.auc.twice_u_of_counts`): each positive
cell earns the negatives drawn below its score twice and those tied with it
once, and ``AUC = 2 U / (2 P N)``.

This is the integer :func:`evalmetrics.roc_auc` divides, so every replicate
equals the plain one to the last bit.  Draws are made in chunks of about a
million elements, which bounds the extra memory whatever the number of
resamples.  With groups, a resample draws whole groups: the count of a cell
is then the sum, over the drawn groups, of the group's rows in that cell.

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
from .auc import auc_from_twice_u, twice_u_of_counts
from .resampling import chunks as _chunks
from .resampling import group_blocks, row_blocks
from .sorting import integer_ranks

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
        # ... and the blocks strictly below it (one fewer when a block is tied with it).
        self.negative_cells_below = None
        if len(self.tied_positive):
            self.negative_cells_below = self.negative_cells_upto - tied
        # For each block (for the jackknife): positive cells at or below its scores.
        self.positive_cells_upto = (block_keys + 1) // 2
        self.negative_tied_with = np.flatnonzero(block_keys % 2 == 1)
        self.positives = int(self.positive_sizes.sum())
        self.negatives = n - self.positives

    # -- counts to AUCs ---------------------------------------------------------

    def twice_u(self, counts):
        """``2 U`` (int64) and the negatives of each row of a (resamples, cells) count matrix."""
        positive = counts[:, self.n_negative_cells:]
        below = np.zeros((len(counts), self.n_negative_cells + 1), dtype=np.int64)
        np.cumsum(counts[:, :self.n_negative_cells], axis=1, out=below[:, 1:])
        return twice_u_of_counts(positive, below, self.negative_cells_upto, self.negative_cells_below), below[:, -1]

    def auc_of_counts(self, counts):
        twice, negatives = self.twice_u(counts)
        positives = counts[:, self.n_negative_cells:].sum(axis=1)
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

    def at(self, rows):
        """The AUC (or difference) on the resample holding ``rows`` (row numbers, repeats counted)."""
        return float(self._combine([c.auc_of_counts(_cell_counts(c, rows[None, :]))[0] for c in self.cells]))

    def replicates(self, rng, n_resamples, draws="rows", groups=None):
        """The AUC (or difference) on each of ``n_resamples`` resamples.

        ``draws="rows"`` draws the rows as ``scipy.stats.bootstrap`` does;
        ``draws="counts"`` draws the cell counts directly when the cells are
        few (see the module's docstring), else the rows as well.  With
        ``groups`` (codes 0 .. G - 1), whole groups are drawn.
        """
        if groups is not None:
            return self._group_replicates(rng, n_resamples, groups)
        if draws == "counts":
            sizes, to_cells = self._joint_cells()
            if len(sizes) * _ROWS_PER_CELL <= self.n:
                return self._count_replicates(rng, n_resamples, sizes, to_cells)
        out = np.empty(n_resamples)
        start = 0
        for rows in row_blocks(rng, self.n, n_resamples):
            k = len(rows)
            out[start:start + k] = self._combine([c.auc_of_counts(_cell_counts(c, rows)) for c in self.cells])
            start += k
        return out

    def _group_replicates(self, rng, n_resamples, groups):
        """Whole groups drawn (the plain path's draws); a group's rows are counted per cell once."""
        n_groups = int(groups.max()) + 1
        layouts = []
        for cells in self.cells:
            # The (group, cell) pairs that occur and their sizes: a resample's cell counts
            # are those sizes times how often each group was drawn.
            pairs, sizes = np.unique(groups * cells.n_cells + cells.cell_of_row, return_counts=True)
            layouts.append((cells, pairs // cells.n_cells, pairs % cells.n_cells, sizes))
        out = np.empty(n_resamples)
        start = 0
        for block in group_blocks(rng, n_groups, n_resamples):
            k = len(block)
            parts = []
            for cells, group, cell, sizes in layouts:
                counts = np.empty((k, cells.n_cells), dtype=np.int64)
                for j, chosen in enumerate(block):
                    times = np.bincount(chosen, minlength=n_groups)
                    # Float sums of whole numbers below 2**53: exact.
                    counts[j] = np.bincount(cell, weights=times[group] * sizes, minlength=cells.n_cells)
                parts.append(cells.auc_of_counts(counts))
            out[start:start + k] = self._combine(parts)
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

