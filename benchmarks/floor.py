#!/usr/bin/env python
"""Where the time of the rank metrics and of the tied bootstrap goes, against issue 5's budgets.

``run.py`` says whether a target is met; this script says what it would take.
Same data as ``run.py`` (binormal scores, 10 % positives, ``tied`` rounded to 2
decimals), same process, interleaved rounds, medians.  It times the pieces
every exact implementation of the rank metrics must pay for (or the cheapest
alternative to each), as multiples of one ``np.sort`` of the scores:

* ``validate``: the package's input checks (labels binary, scores finite);
* ``keys``: order-preserving integer keys of the scores (see
  ``evalmetrics._kernels.sorting``), the price of carrying the labels through one sort;
* ``int sort``: ``np.sort`` of those packed int64 keys (the one sort);
* ``split``: the alternative to keys, splitting the scores by class
  (``s[y == 1]``, ``s[y == 0]``), then ``sort both`` and ``searchsorted``
  (the positives among the sorted negatives);
* ``roc_auc``: the whole public call.

"floor" adds the parts no design with one sort avoids (validate + int sort;
for the split design: validate + split + sort both + one searchsorted).

For the bootstrap with heavy ties it times, at n = 1e4, the draw of SciPy's
2000 x n row indices alone, the count draw (multinomial over the cells) and the
loop it is compared with (``roc_auc_score`` on resampled rows).

    .venv/bin/python benchmarks/floor.py              # n = 1e5, 1e6, 1e7 and the bootstrap
    .venv/bin/python benchmarks/floor.py --max-n 1e6
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import run  # noqa: E402  (benchmarks/run.py: the same data)

import evalmetrics as em  # noqa: E402
from evalmetrics import arrays  # noqa: E402
from evalmetrics._kernels import bootstrap_auc as _bootstrap_auc  # noqa: E402
from evalmetrics._kernels import sorting  # noqa: E402
from evalmetrics._kernels.resampling import row_blocks  # noqa: E402


def medians(functions, rounds):
    """Median seconds of each function, called in interleaved rounds."""
    times = {name: [] for name in functions}
    for function in functions.values():
        function()  # warm-up
    for _ in range(rounds):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) for name, t in times.items()}


def rank_rows(sizes):
    print("roc_auc: pieces as multiples of one np.sort of the scores (target: the whole call <= 1.5)")
    header = f"{'data':>14} {'np.sort':>9} {'validate':>9} {'keys':>6} {'int sort':>9} {'floor':>6} " \
             f"{'split':>6} {'sort both':>10} {'search':>7} {'floor':>6} {'roc_auc':>8}"
    print(header)
    for n in sizes:
        for tied in (False, True):
            d = run.binary_data(n, tied)
            is_positive, values, _ = arrays.binary_scores(d.y, d.score)
            keys, _ = sorting.order_keys(values)
            positives, negatives = np.sort(values[is_positive]), np.sort(values[~is_positive])
            t = medians({
                "sort": lambda: np.sort(values),
                "validate": lambda: arrays.binary_scores(d.y, d.score),
                "keys": lambda: sorting.order_keys(values),
                "int sort": lambda: np.sort(keys),
                "split": lambda: (values[is_positive], values[~is_positive]),
                "sort both": lambda: (np.sort(values[is_positive]), np.sort(values[~is_positive])),
                "search": lambda: np.searchsorted(negatives, positives, "right"),
                "roc_auc": lambda: em.roc_auc(d.y, d.score),
            }, rounds=15 if n <= 1_000_000 else 5)
            r = {k: v / t["sort"] for k, v in t.items()}
            # "sort both" includes its own split; the floor counts the split once.
            one_sort = r["validate"] + r["int sort"]
            split = r["validate"] + r["sort both"] + r["search"]
            label = f"{'tied' if tied else 'continuous'} {n:.0e}"
            print(f"{label:>14} {t['sort'] * 1e3:7.2f}ms {r['validate']:9.2f} {r['keys']:6.2f} {r['int sort']:9.2f} "
                  f"{one_sort:6.2f} {r['split']:6.2f} {r['sort both']:10.2f} {r['search']:7.2f} {split:6.2f} "
                  f"{r['roc_auc']:8.2f}")


def bootstrap_rows(n, n_resamples=2000, loop_resamples=50):
    from sklearn.metrics import roc_auc_score

    d = run.binary_data(n, True)
    is_positive, values, _ = arrays.binary_scores(d.y, d.score)
    cells = _bootstrap_auc._Cells(is_positive, values)
    shares = np.concatenate([cells.negative_sizes, cells.positive_sizes]) / n
    rng = np.random.default_rng(0)

    def loop():
        for _ in range(loop_resamples):
            rows = rng.integers(0, n, n)
            roc_auc_score(d.y[rows], d.score[rows])

    def draw_rows():
        for _ in row_blocks(rng, n, n_resamples):
            pass

    t = medians({
        "loop": loop,
        "draw rows": draw_rows,
        "multinomial": lambda: rng.multinomial(n, shares, size=n_resamples),
        "rows": lambda: em.bootstrap_interval(em.roc_auc, d.y, d.score, n_resamples=n_resamples, seed=0),
        "counts": lambda: em.bootstrap_interval(em.roc_auc, d.y, d.score, n_resamples=n_resamples, seed=0,
                                                draws="counts"),
    }, rounds=5)
    loop_time = t["loop"] * n_resamples / loop_resamples
    budget = loop_time / 100
    print(f"\nbootstrap of the AUC, tied scores, n = {n:.0e}, B = {n_resamples}, {cells.n_cells} cells "
          f"(target: 100x faster than the loop)")
    print(f"  loop of roc_auc_score (scaled from {loop_resamples}): {loop_time:8.2f} s   "
          f"budget: {budget * 1e3:7.1f} ms")
    print(f"  drawing SciPy's {n_resamples} x n row indices alone:  {t['draw rows'] * 1e3:7.1f} ms "
          f"({t['draw rows'] / (n_resamples * n) * 1e9:.1f} ns a row)")
    print(f"  multinomial counts over the cells alone:          {t['multinomial'] * 1e3:7.1f} ms "
          f"({t['multinomial'] / (n_resamples * cells.n_cells) * 1e9:.0f} ns a cell)")
    print(f"  bootstrap_interval, draws='rows' (SciPy's draws): {t['rows'] * 1e3:7.1f} ms  "
          f"{loop_time / t['rows']:5.0f}x faster than the loop")
    print(f"  bootstrap_interval, draws='counts':               {t['counts'] * 1e3:7.1f} ms  "
          f"{loop_time / t['counts']:5.0f}x faster than the loop")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-n", type=float, default=1e7, help="largest n of the roc_auc rows")
    parser.add_argument("--no-bootstrap", action="store_true", help="skip the bootstrap rows")
    options = parser.parse_args(argv)
    rank_rows([n for n in (100_000, 1_000_000, 10_000_000) if n <= options.max_n])
    if not options.no_bootstrap:
        bootstrap_rows(10_000)
        bootstrap_rows(100_000, loop_resamples=20)


if __name__ == "__main__":
    main()
