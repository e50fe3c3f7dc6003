#!/usr/bin/env python
"""Speed and memory of ``evalmetrics report`` on 1e4, 1e5 and 1e6 rows (two score columns).

For each size the script writes a CSV file into a temporary folder (labels,
two probability columns with six decimals, 30 % positives), then measures:

* **report**: the command line itself, ``python -m evalmetrics report data.csv
  --label y --score a --score b --resamples B``, in a child process under
  ``/usr/bin/time -v`` (wall time and peak memory, reading the CSV, the
  figures and the files included); its stderr is a pipe, so the progress
  lines it writes off a terminal are counted too;
* **generic**: the bootstrap the report made before, one
  :func:`evalmetrics.intervals.bootstrap_interval` per bootstrapped number
  and ``bootstrap_difference`` per paired difference, each metric recomputed
  from the resampled rows (its bootstrap part only);
* **scikit-learn loop**: the same numbers from scikit-learn's functions in a
  loop over the same resamples (bootstrap part only).

The two baselines take minutes per hundred resamples at 1e6 rows, so they run
``--baseline-resamples`` resamples (default: 200 at 1e4, 20 at 1e5, 4 at 1e6)
and their time is scaled linearly to B (marked "~").  One run each, no
medians: on a shared machine quote the figures with the load average printed
above the table.

    python benchmarks/report.py                     # 1e4, 1e5, 1e6 rows, B = 2000
    python benchmarks/report.py --sizes 1e4 --markdown
    python benchmarks/report.py --memory 5e6        # peak memory against the columns' size

``--memory N`` measures only the peak memory of the report on N rows (with
``--resamples``, 20 by default there: the peak does not grow with B), next
to the size of the columns the report uses (the label and the two scores,
as float64), and the goal: a peak under 4 times that size.  The file also
holds ten columns the report does not use, which must cost nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def write_csv(path, n, seed=0, unused=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    a = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.5 * y - 1.0)))
    b = 1 / (1 + np.exp(-(rng.normal(0, 1.3, n) + 1.2 * y - 1.0)))
    with open(path, "w") as handle:
        handle.write(",".join(["y", "a", "b"] + [f"x{k}" for k in range(unused)]) + "\n")
        for start in range(0, n, 100_000):
            stop = min(n, start + 100_000)
            block = np.column_stack([y[start:stop].astype(int), a[start:stop], b[start:stop]]
                                    + [np.round(rng.random(stop - start), 3) for _ in range(unused)])
            np.savetxt(handle, block, fmt=["%d", "%.6f", "%.6f"] + ["%.3f"] * unused, delimiter=",")
    return y, np.round(a, 6), np.round(b, 6)


def run_report(csv, out, resamples):
    """(wall seconds, peak MiB, progress lines) of the command line in a child process."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "evalmetrics", "report", str(csv), "--label", "y",
               "--score", "a", "--score", "b", "--resamples", str(resamples), "--out", str(out)]
    environment = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"the report failed:\n{done.stderr}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    hours, minutes, seconds = (float(g) if g else 0.0 for g in wall.groups())
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) / 1024
    lines = [line for line in done.stderr.splitlines() if line.startswith("progress: ")]
    return 3600 * hours + 60 * minutes + seconds, peak, len(lines)


def generic(y, a, b, resamples):
    """Seconds of the former report bootstrap: one generic bootstrap per number."""
    from evalmetrics.calibration import _brier
    from evalmetrics.counts import _binary_counts_from_masks
    from evalmetrics.curves import _average_precision, _roc_auc, _threshold_table
    from evalmetrics.intervals import bootstrap_difference, bootstrap_interval
    from evalmetrics.rates import balanced_accuracy, f1, matthews_correlation

    def at_half(compute):
        def metric(yy, s):
            c = _binary_counts_from_masks(yy, s >= 0.5)
            return math.nan if c.positives == 0 or c.negatives == 0 else compute(c)
        return metric

    ranking = [lambda yy, s: _roc_auc(yy, s), lambda yy, s: _average_precision(_threshold_table(yy, s)),
               lambda yy, s: _brier(yy.astype(float), s)]
    threshold = [at_half(lambda c: f1(counts=c, zero_division=math.nan)),
                 at_half(lambda c: balanced_accuracy(counts=c, zero_division=math.nan)),
                 at_half(matthews_correlation)]
    start = time.perf_counter()
    for s in (a, b):
        for metric in threshold + ranking:
            bootstrap_interval(metric, y, s, n_resamples=resamples, seed=0)
    for metric in ranking:
        bootstrap_difference(metric, y, a, b, n_resamples=resamples, seed=0)
    return time.perf_counter() - start


def sklearn_loop(y, a, b, resamples):
    """Seconds of the same numbers from scikit-learn in a loop over the resamples."""
    from sklearn import metrics

    rng = np.random.default_rng(0)
    n = len(y)
    start = time.perf_counter()
    for _ in range(resamples):
        rows = rng.integers(0, n, n)
        yy = y[rows]
        for s in (a[rows], b[rows]):
            flagged = s >= 0.5
            metrics.roc_auc_score(yy, s)
            metrics.average_precision_score(yy, s)
            metrics.brier_score_loss(yy, s)
            metrics.f1_score(yy, flagged)
            metrics.balanced_accuracy_score(yy, flagged)
            metrics.matthews_corrcoef(yy, flagged)
    return time.perf_counter() - start


def memory(n, resamples):
    """The peak memory of the report on ``n`` rows against the size of the columns it uses."""
    with tempfile.TemporaryDirectory() as folder:
        csv = Path(folder) / "rows.csv"
        write_csv(csv, n, unused=10)
        wall, peak, _ = run_report(csv, Path(folder) / "report", resamples)
        size = csv.stat().st_size / 2 ** 20
    columns = 3 * n * 8 / 2 ** 20  # label, a, b as float64
    load = os.getloadavg()
    print(f"`evalmetrics report` on {n:,} rows (file {size:.0f} MiB: the label, two scores and ten unused "
          f"columns), B = {resamples}, load average {load[0]:.1f}\n\n"
          "| rows | used columns as float64 (MiB) | goal: 4 x (MiB) | peak memory (MiB) | peak / columns | wall (s) |\n"
          "| ---: | ---: | ---: | ---: | ---: | ---: |\n"
          f"| {n:,} | {columns:.0f} | {4 * columns:.0f} | {peak:.0f} | {peak / columns:.2f} | {wall:.0f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6")
    parser.add_argument("--memory", type=float, metavar="N", help="only the peak memory on N rows")
    parser.add_argument("--resamples", type=int, default=None, help="resamples (default 2000; 20 with --memory)")
    parser.add_argument("--baseline-resamples", default="200,20,4",
                        help="resamples of the two baselines at each size (scaled to --resamples)")
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    if args.memory:
        memory(int(args.memory), args.resamples or 20)
        return
    args.resamples = args.resamples or 2000
    sizes = [int(float(x)) for x in args.sizes.split(",")]
    baseline = [int(x) for x in args.baseline_resamples.split(",")]
    baseline += [baseline[-1]] * (len(sizes) - len(baseline))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n, small in zip(sizes, baseline):
            csv = Path(folder) / f"rows-{n}.csv"
            y, a, b = write_csv(csv, n)
            wall, peak, lines = run_report(csv, Path(folder) / f"report-{n}", args.resamples)
            row = {"n": n, "report": wall, "peak": peak, "lines": lines}
            if not args.no_baselines:
                small = min(small, args.resamples)
                scale = args.resamples / small
                row["generic"] = generic(y, a, b, small) * scale
                row["sklearn"] = sklearn_loop(y, a, b, small) * scale
                row["scaled"] = scale != 1
            rows.append(row)
            print(f"n = {n:,}: {row}", file=sys.stderr, flush=True)
    load = os.getloadavg()
    header = (f"`evalmetrics report`, 2 score columns, B = {args.resamples}, {os.cpu_count()} cores, "
              f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end")
    table = ["| rows | report (s) | peak memory (MiB) | progress lines | generic path (s) | scikit-learn loop (s) |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        mark = "~" if row.get("scaled") else ""
        generic_time = f"{mark}{row['generic']:.0f}" if "generic" in row else "-"
        sklearn_time = f"{mark}{row['sklearn']:.0f}" if "sklearn" in row else "-"
        table.append(f"| {row['n']:,} | {row['report']:.1f} | {row['peak']:.0f} | {row['lines']} | "
                     f"{generic_time} | {sklearn_time} |")
    print(header + "\n\n" + "\n".join(table) if args.markdown else header + "\n" + "\n".join(table))


if __name__ == "__main__":
    main()
