"""The command line: ``evalmetrics report`` (also ``python -m evalmetrics report``).

Exit status 0 on success; 2 for a usage error or bad input (argparse uses 2
as well), with a one-line message on stderr and no report written; 128 +
the signal's number when a signal stops it (130 for Ctrl-C, 143 for
SIGTERM, 129 for SIGHUP), also with one line, and no temporary folder left.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import signal
import sys

from .report.data import parse_number

__all__ = ["build_parser", "main"]

DEFAULT_OUT = "evalmetrics-report"

_EXAMPLES = """\
examples:
  evalmetrics report --demo breast-cancer
  evalmetrics report --demo breast-cancer --false-negative-cost 50 --seed 3 --figures figs
  evalmetrics report scores.csv --label y --score model_a --score model_b
  evalmetrics report scores.csv --label diagnosis --pos-label malignant --score p \\
      --false-positive-cost 1 --false-negative-cost 20 --validation validation.csv --group patient

The report goes to --out (default ./evalmetrics-report): report.html (one self-contained
page), report.md with the figures as PNG files beside it, and report.json with every number.
"""


# Integers as a person writes them: Python's int() also takes "1_0" (ten) and " 1".
_INTEGER = re.compile(r"[+-]?[0-9]+")


def _int(text):
    if not _INTEGER.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _type(convert, check, message):
    def parse(text):
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{message}, got {text!r}") from None
        if not check(value):
            raise argparse.ArgumentTypeError(f"{message}, got {text!r}")
        return value
    parse.__name__ = message  # argparse shows the name in "invalid <name> value"
    return parse


# Bounds, each with its reason in the message: 10 resamples are the fewest whose
# percentile interval means anything, 100,000 far more than a 95 % interval needs
# (the bootstrap's time grows with them); only the ratio of the costs matters, and
# beyond 1e12 a total over millions of rows loses the precision that ranks thresholds.
MAX_RESAMPLES = 100_000
MAX_COST = 1e12
MAX_BINS = 1000
MAX_SCORES = 50
MAX_FOLDS = 20
_resamples = _type(_int, lambda v: 10 <= v <= MAX_RESAMPLES,
                   f"an integer from 10 (fewer make no interval) to {MAX_RESAMPLES:,} (more only take longer)")
_bins = _type(_int, lambda v: 1 <= v <= MAX_BINS, f"an integer from 1 to {MAX_BINS} (bins of the calibration error)")
_seed = _type(_int, lambda v: 0 <= v < 2 ** 64, "a non-negative integer below 2**64")
_folds = _type(_int, lambda v: 2 <= v <= MAX_FOLDS, f"an integer from 2 to {MAX_FOLDS}")
_cost = _type(parse_number, lambda v: 0 <= v <= MAX_COST,
              f"a number from 0 to {MAX_COST:g} (only the ratio of the two costs matters: rescale them)")
_penalty = _type(parse_number, lambda v: 0 <= v <= 1e6, "a number from 0 to 1e6")
_finite = _type(parse_number, math.isfinite, "a finite number")
_confidence = _type(parse_number, lambda v: 0 < v < 1, "a number strictly between 0 and 1")


class _OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line on stderr, exit status 2; --help still prints the full text."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser():
    """The argument parser of ``evalmetrics`` and its ``report`` command.

    Examples
    --------
    >>> args = build_parser().parse_args(["report", "--demo", "breast-cancer", "--resamples", "200"])
    >>> args.demo, args.resamples, args.out
    ('breast-cancer', 200, 'evalmetrics-report')
    """
    from . import __version__

    parser = _OneLineParser(
        prog="evalmetrics", description="Evaluation metrics from scratch in NumPy: honest evaluation reports.")
    parser.add_argument("--version", action="version", version=f"evalmetrics {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    report = commands.add_parser(
        "report", help="write an evaluation report of labels and scores (or run the screening demo)",
        description="Write an evaluation report: the confusion matrix at a threshold, rates with Wilson or "
                    "bootstrap intervals, ROC AUC (bootstrap and DeLong) and average precision, calibration, "
                    "costs, paired differences between score columns, and plain-language warnings.",
        epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("data", nargs="?", metavar="DATA.csv", help="CSV file with a header line")
    from .report.commands import report_demos

    # The demos installed packages register (the handbook: breast-cancer); never imported here.
    report.add_argument("--demo", choices=sorted(report_demos()),
                        help="run a demo instead of reading a file: breast-cancer is the handbook's "
                             "screening project")

    columns = report.add_argument_group("columns of DATA.csv")
    columns.add_argument("--label", metavar="COLUMN", help="the true labels")
    columns.add_argument("--score", metavar="COLUMN", action="append", default=[],
                         help="a score column, larger meaning more likely positive (repeat for several models)")
    columns.add_argument("--pos-label", metavar="VALUE",
                         help="the positive class (needed unless the labels are 0/1, -1/1 or true/false)")
    columns.add_argument("--group", metavar="COLUMN",
                         help="group identifiers (patients, sites...): the bootstrap resamples whole groups")
    columns.add_argument("--delimiter", default=",", metavar="CHAR", help="field separator (default ',')")

    decisions = report.add_argument_group("threshold and costs")
    decisions.add_argument("--threshold", type=_finite, metavar="T",
                           help="flag scores at least T (default: chosen by cost if costs are given, else 0.5)")
    decisions.add_argument("--false-positive-cost", type=_cost, metavar="C",
                           help="cost of a false alarm (demo default 1)")
    decisions.add_argument("--false-negative-cost", type=_cost, metavar="C",
                           help="cost of a missed positive (demo default 20)")
    decisions.add_argument("--validation", metavar="DATA2.csv",
                           help="choose the cost-based threshold on this file instead of on DATA.csv")

    demo = report.add_argument_group("demo only")
    demo.add_argument("--folds", type=_folds, metavar="K", help="development folds (default 5)")
    demo.add_argument("--penalty", type=_penalty, metavar="L", help="L2 penalty of the logistic regression (default 1)")

    common = report.add_argument_group("intervals and output")
    common.add_argument("--resamples", type=_resamples, default=2000, metavar="B",
                        help="bootstrap resamples (default 2000)")
    common.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    common.add_argument("--confidence", type=_confidence, default=0.95, help="interval level (default 0.95)")
    common.add_argument("--bins", type=_bins, default=10, metavar="K",
                        help="uniform bins of the calibration error (default 10)")
    common.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"folder of the report (default ./{DEFAULT_OUT})")
    common.add_argument("--figures", metavar="DIR", help="folder of the PNG figures (default: the --out folder)")
    common.add_argument("--no-progress", action="store_true", help="never show the progress bar")
    parser.set_defaults(report_parser=report)
    return parser


_CSV_ONLY = ("label", "pos_label", "group", "threshold", "validation")
_DEMO_ONLY = ("folds", "penalty")


def _check(parser, args):
    """Option combinations argparse cannot express; parser.error exits with status 2."""
    def flag(name):
        return "--" + name.replace("_", "-")

    if args.demo and args.data:
        parser.error(f"give either DATA.csv or --demo, not both (got {args.data!r} and --demo)")
    if not args.demo and not args.data:
        parser.error("give a CSV file (DATA.csv --label COLUMN --score COLUMN) or --demo breast-cancer")
    if args.demo:
        used = [flag(n) for n in _CSV_ONLY if getattr(args, n) is not None] + (["--score"] if args.score else [])
        if used:
            parser.error(f"options for a CSV file, not for --demo: {', '.join(used)}")
    else:
        used = [flag(n) for n in _DEMO_ONLY if getattr(args, n) is not None]
        if used:
            parser.error(f"options for --demo only: {', '.join(used)}")
        if not args.label:
            parser.error("--label COLUMN is required with a CSV file")
        if not args.score:
            parser.error("at least one --score COLUMN is required with a CSV file")
        if len(args.score) > MAX_SCORES:
            parser.error(f"{len(args.score)} --score columns; at most {MAX_SCORES}, since every pair of them "
                         "is compared (split them over several reports)")
        if len(args.delimiter) != 1:
            parser.error(f"--delimiter must be one character, got {args.delimiter!r}")
        if args.validation and args.threshold is not None:
            parser.error("--validation chooses the threshold by cost; it has no use with --threshold")
        if args.validation and args.false_positive_cost is None and args.false_negative_cost is None:
            parser.error("--validation chooses a threshold by cost: give --false-positive-cost and/or "
                         "--false-negative-cost")
    if args.false_positive_cost == 0 and args.false_negative_cost == 0:
        parser.error("--false-positive-cost and --false-negative-cost cannot both be 0")


def _headless_matplotlib():
    # A command line draws into files only: no window, no GUI toolkit needed.
    if "matplotlib.pyplot" not in sys.modules:
        os.environ.setdefault("MPLBACKEND", "Agg")


def _stopped(stop):
    signum = getattr(stop, "signum", None)
    if signum is None or signum == signal.SIGINT:
        return "interrupted"
    return f"stopped by {getattr(signum, 'name', f'signal {int(signum)}')}"


def _status(stop):
    """128 + the signal's number, the shells' convention (130 for an interrupt)."""
    signum = getattr(stop, "signum", None)
    return 128 + int(signal.SIGINT if signum is None else signum)


def _run(args, command, progress):
    """The report the arguments ask for; the text to print."""
    if args.demo:
        from .report.commands import demo_report

        return demo_report(
            args.demo, command=command, out=args.out, figures_dir=args.figures, seed=args.seed,
            folds=5 if args.folds is None else args.folds,
            penalty=1.0 if args.penalty is None else args.penalty,
            false_positive_cost=1.0 if args.false_positive_cost is None else args.false_positive_cost,
            false_negative_cost=20.0 if args.false_negative_cost is None else args.false_negative_cost,
            resamples=args.resamples, progress=progress)
    from .report.commands import csv_report

    return csv_report(
        args.data, label=args.label, scores=args.score, command=command, out=args.out,
        pos_label=args.pos_label, group=args.group, threshold=args.threshold,
        false_positive_cost=args.false_positive_cost, false_negative_cost=args.false_negative_cost,
        validation=args.validation, resamples=args.resamples, seed=args.seed,
        confidence=args.confidence, n_bins=args.bins, delimiter=args.delimiter,
        figures_dir=args.figures, progress=progress)


def main(argv=None):
    """Run the command line; returns the exit status (0 success, 2 usage or input error).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int

    Examples
    --------
    >>> main(["report", "no-such-file.csv", "--label", "y", "--score", "p"])  # message on stderr
    2
    """
    from .report.data import ReportError
    from .report.signals import Interrupted, catching_signals

    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    _check(args.report_parser, args)
    _headless_matplotlib()
    command = shlex.join(["evalmetrics"] + argv)
    progress = not args.no_progress
    try:
        # Every stopping signal (SIGTERM, SIGHUP, ...) ends the command as an interrupt does:
        # no temporary folder left, one line, exit status 128 + its number.
        with catching_signals():
            text = _run(args, command, progress)
    except ReportError as error:
        print(f"evalmetrics report: error: {error}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        print(f"evalmetrics report: {_stopped(stop)}, after the report was written to {args.out}",
              file=sys.stderr)
        return _status(stop)
    except KeyboardInterrupt as stop:
        print(f"evalmetrics report: {_stopped(stop)}; no report written, the folders are as they were",
              file=sys.stderr)
        return _status(stop)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
