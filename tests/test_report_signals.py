"""Signals while a report is being written (evalmetrics/report/output.py, evalmetrics/__main__.py).

A child process writes a report whose staging step is slowed down by a hook:
it writes one file into the hidden temporary folder, says so on stdout, and
waits; the test then sends a signal, so it always lands in that window.

* ``evalmetrics report``: every stopping signal (``stopping_signals()``: SIGHUP,
  SIGINT, SIGQUIT, SIGTERM, SIGUSR1/2, SIGALRM, the real-time signals, ...)
  ends the command with one line on stderr and status 128 + its number, and
  leaves no hidden folder; an earlier report in the folder stays whole.
* ``publish`` called without handlers of the caller's: the temporary folder is
  removed and the signal delivered again, so the process ends by it.
* The handlers in place before are in place after, whether the run succeeded
  or was stopped.
"""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
import sys
import textwrap

import pytest

from evalmetrics.report.output import MARKER, publish
from evalmetrics.report.signals import catching_signals, stopping_signals

ROWS = "y,p\n" + "".join(f"{i % 2},{(i + 1) / 14:.3f}\n" for i in range(12))

# The child: run the report once per signal named on its command line, each time
# waiting inside the staging step for the test to send that signal.
CHILD = textwrap.dedent("""
    import sys, time
    import evalmetrics.report.figures as figures
    import evalmetrics.report.output as output
    from evalmetrics.__main__ import main

    real_stage = output._stage
    figures.matplotlib_available = lambda: False  # no figures: the runs are about the files

    def slow_stage(temporary, contents):
        name, payload = next(iter(contents.items()))
        (temporary / name).write_bytes(payload)
        print("staging", flush=True)
        time.sleep(120)
        real_stage(temporary, contents)

    output._stage = slow_stage
    csv, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for _ in range(runs):
        status = main(["report", csv, "--label", "y", "--score", "p", "--out", out, "--resamples", "10",
                       "--no-progress"])
        print("status", status, flush=True)
""")

LIBRARY_CHILD = textwrap.dedent("""
    import sys, time
    import evalmetrics.report.output as output

    def slow_stage(temporary, contents):
        print("staging", flush=True)
        time.sleep(120)

    output._stage = slow_stage
    output.publish({sys.argv[1]: {"report.md": b"text"}})
""")


# The signals the tests send or expect.  A shell that runs the suite in the
# background (`cmd &` ignores SIGINT and SIGQUIT) or under `nohup` (SIGHUP) passes
# the ignoring on to every child; the report rightly leaves an ignored signal alone,
# so the tests give their subjects the default dispositions of a terminal's process.
SENT = ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM")
RESET = [getattr(signal, name) for name in SENT] + list(range(signal.SIGRTMIN, signal.SIGRTMAX + 1))


def no_core_files():
    # (a child: every signal of RESET at its default; Python then installs its own
    # SIGINT handler, as for a process started from a terminal)
    for number in RESET:
        signal.signal(number, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGQUIT's default dumps core


@pytest.fixture
def terminal_dispositions():
    """The test process's own signals at their defaults while a test runs, then restored."""
    saved = {number: signal.getsignal(number) for number in RESET}
    try:
        for number in RESET:
            # (SIGINT: Python's own handler, as a process started from a terminal has)
            signal.signal(number, signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL)
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def read_line(child, timeout=60):
    ready, _, _ = select.select([child.stdout], [], [], timeout)
    assert ready, "the child said nothing"
    return child.stdout.readline().strip()


def hidden(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def run_with_signals(tmp_path, signals, existing_report=False):
    csv = tmp_path / "scores.csv"
    csv.write_text(ROWS, encoding="utf-8")
    out = tmp_path / "out"
    if existing_report:
        publish({out: {"report.md": b"the old report"}})
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(csv), str(out), str(len(signals))],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             preexec_fn=no_core_files, env=dict(os.environ, MPLBACKEND="Agg"))
    statuses = []
    try:
        for number in signals:
            assert read_line(child) == "staging"
            assert len(hidden(tmp_path)) == 1  # the window: the hidden folder exists
            child.send_signal(number)
            line = read_line(child)
            statuses.append(int(line.split()[1]))
            assert hidden(tmp_path) == []  # gone before the next run starts
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0
    return statuses, err.splitlines()


def test_the_stopping_signals_are_the_catchable_ones_that_end_a_process(terminal_dispositions):
    found = set(stopping_signals())
    for name in SENT:
        assert getattr(signal, name) in found
    for name in ("SIGKILL", "SIGSTOP", "SIGCHLD", "SIGSEGV", "SIGWINCH", "SIGPIPE"):
        assert getattr(signal, name) not in found  # uncatchable, harmless, a fault, or ignored by Python
    assert set(range(signal.SIGRTMIN, signal.SIGRTMAX + 1)) <= found


def test_an_ignored_signal_is_left_alone(terminal_dispositions):
    # Under `nohup` SIGHUP is ignored: the report must not start catching it.
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    found = stopping_signals()
    assert signal.SIGHUP not in found and signal.SIGTERM in found
    with catching_signals():
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN


def test_every_stopping_signal_leaves_no_hidden_folder_and_sets_the_status(tmp_path, terminal_dispositions):
    signals = stopping_signals()
    statuses, lines = run_with_signals(tmp_path, signals)
    assert statuses == [128 + int(number) for number in signals]
    assert len(lines) == len(signals)
    for number, line in zip(signals, lines):
        if number == signal.SIGINT:
            assert line == "evalmetrics report: interrupted; no report written, the folders are as they were"
        else:
            name = signal.Signals(number).name if number in {s.value for s in signal.Signals} else \
                f"signal {int(number)}"
            assert line == f"evalmetrics report: stopped by {name}; no report written, the folders are as they were"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv"]  # no report, no temporary folder


def test_a_signal_leaves_the_previous_report_whole(tmp_path):
    signals = [signal.SIGTERM, signal.SIGHUP, signal.SIGINT]
    statuses, _ = run_with_signals(tmp_path, signals, existing_report=True)
    assert statuses == [143, 129, 130]
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "report.md"]
    assert (out / "report.md").read_bytes() == b"the old report"


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGUSR1", "SIGQUIT", "SIGRTMIN"])
def test_without_handlers_of_its_caller_publish_cleans_up_and_lets_the_signal_end_the_process(tmp_path, name):
    number = getattr(signal, name)
    child = subprocess.Popen([sys.executable, "-c", LIBRARY_CHILD, str(tmp_path / "out")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=tmp_path, preexec_fn=no_core_files)
    try:
        assert read_line(child) == "staging"
        assert len(hidden(tmp_path)) == 1
        child.send_signal(number)
        child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == -number  # ended by the signal itself, as without the package
    assert list(tmp_path.iterdir()) == []


def handlers():
    return {number: signal.getsignal(number) for number in signal.valid_signals()
            if number not in (signal.SIGKILL, signal.SIGSTOP)}


def test_the_handlers_before_are_the_handlers_after(tmp_path, capsys):
    from helpers import run_cli

    before = handlers()
    (tmp_path / "scores.csv").write_text(ROWS, encoding="utf-8")
    status, _, _ = run_cli(["report", str(tmp_path / "scores.csv"), "--label", "y", "--score", "p",
                            "--out", str(tmp_path / "out"), "--resamples", "10", "--no-progress"], capsys)
    assert status == 0 and handlers() == before
    publish({tmp_path / "again": {"a.txt": b"a"}})
    assert handlers() == before
    with pytest.raises(KeyboardInterrupt):
        with catching_signals():
            assert signal.getsignal(signal.SIGTERM) is not before[signal.SIGTERM]
            signal.raise_signal(signal.SIGTERM)
    assert handlers() == before
