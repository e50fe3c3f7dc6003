"""Tests of where ``evalmetrics report`` writes (evalmetrics/report/output.py).

* A file the tool did not write is never touched: the user's own
  ``report.md``, read-only files, the input CSV itself; a folder holding
  one stops the run with exit 2, one line, before any computation, and its
  files are compared byte for byte (and by mode and modification time).
* A folder that holds a previous report (its marker lists every file) is
  replaced as a whole.
* Publishing is one rename: an interrupt or a failure at any step leaves
  the complete old report or the complete new one, and no temporary folder.
* Two runs racing for one new folder: the first wins, the second says so.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from evalmetrics.report import ReportError, output, signals
from evalmetrics.report.output import MARKER, check_target, publish
from helpers import run_cli


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", os.environ.get("MPLBACKEND", "Agg"))
    return tmp_path


CSV = "y,p\n" + "".join(f"{i % 2},{(i * 7 % 20) / 20:.2f}\n" for i in range(30))


def arguments(data="scores.csv", out="out"):
    return ["report", data, "--label", "y", "--score", "p", "--resamples", "20", "--out", out]


def snapshot(root):
    """Every path under ``root`` with its bytes, mode and modification time."""
    out = {}
    for path in sorted(Path(root).rglob("*")):
        info = path.lstat()
        out[path.relative_to(root).as_posix()] = (
            None if path.is_dir() else path.read_bytes(), stat.S_IMODE(info.st_mode), info.st_mtime_ns)
    return out


def no_computation(monkeypatch):
    """Make any computation fail loudly: the checks must come first."""
    def forbidden(*args, **kwargs):
        raise AssertionError("the report was computed although its folder was refused")
    monkeypatch.setattr("evalmetrics.report.model.build_report", forbidden)
    monkeypatch.setattr("evalmetrics.report.reading.read_dataset", forbidden)
    monkeypatch.setattr("evalmetrics.report.commands.read_dataset", forbidden)


# ---------------------------------------------------------------------------
# files of the user
# ---------------------------------------------------------------------------

USER_FOLDERS = {
    "own report.md": {"report.md": b"# my notes\n"},
    "own figure": {"curves.png": b"\x89PNG my drawing"},
    "read-only report.html": {"report.html": b"<p>mine</p>"},
    "input csv named report.md": {"report.md": CSV.encode()},
    "unrelated file": {"notes.txt": b"keep me"},
    "empty subfolder": {"sub/": None},
}


@pytest.mark.parametrize("case", USER_FOLDERS, ids=list(USER_FOLDERS))
def test_a_folder_of_the_user_is_refused_before_computing_and_left_byte_for_byte(case, folder, capsys,
                                                                                monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    out = folder / "out"
    out.mkdir()
    for name, payload in USER_FOLDERS[case].items():
        if payload is None:
            (out / name).mkdir()
        else:
            (out / name).write_bytes(payload)
    if case.startswith("read-only"):
        (out / "report.html").chmod(0o444)
    data = "out/report.md" if case.startswith("input csv") else "scores.csv"
    before = snapshot(folder)
    no_computation(monkeypatch)
    status, stdout, err = run_cli(arguments(data), capsys)
    assert status == 2 and stdout == ""
    assert err.count("\n") == 1 and "which no evalmetrics report wrote" in err
    assert snapshot(folder) == before


def test_a_marker_does_not_license_files_it_does_not_list(folder, capsys):
    (folder / "scores.csv").write_text(CSV)
    assert run_cli(arguments(), capsys)[0] == 0
    marker = json.loads((folder / "out" / MARKER).read_text())
    assert sorted(marker["files"]) == sorted(p.name for p in (folder / "out").iterdir() if p.name != MARKER)
    (folder / "out" / "extra.csv").write_text("mine")
    before = snapshot(folder)
    status, _, err = run_cli(arguments(), capsys)
    assert status == 2 and "'extra.csv'" in err and snapshot(folder) == before


def test_the_current_folder_is_refused(folder, capsys, monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    before = snapshot(folder)
    no_computation(monkeypatch)
    for out in (".", str(folder), ".."):
        status, _, err = run_cli(arguments(out=out), capsys)
        assert status == 2 and err.count("\n") == 1 and "is the current folder or contains it" in err
    assert snapshot(folder) == before


@pytest.mark.parametrize("what", ["folder", "file in it"])
def test_a_read_only_report_folder_fails_before_computing(what, folder, capsys, monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    assert run_cli(arguments(), capsys)[0] == 0
    locked = folder / "out" / "report.md" if what == "file in it" else folder / "out"
    locked.chmod(0o444 if what == "file in it" else 0o555)
    before = snapshot(folder)
    no_computation(monkeypatch)
    status, _, err = run_cli(arguments(), capsys)
    after = snapshot(folder)
    (folder / "out").chmod(0o755)
    assert status == 2 and err.count("\n") == 1 and "is read-only; nothing was changed" in err
    assert after == before


def test_a_read_only_parent_fails_before_computing(folder, capsys, monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    (folder / "locked").mkdir()
    (folder / "locked").chmod(0o555)
    no_computation(monkeypatch)
    status, _, err = run_cli(arguments(out="locked/out"), capsys)
    (folder / "locked").chmod(0o755)
    assert status == 2 and err.count("\n") == 1 and "is not writable" in err
    assert list((folder / "locked").iterdir()) == []


def test_a_previous_report_is_replaced_as_a_whole(folder, capsys):
    (folder / "scores.csv").write_text(CSV)
    assert run_cli(arguments() + ["--figures", "out/figs"], capsys)[0] == 0
    assert (folder / "out" / "figs" / "curves.png").exists()
    assert run_cli(arguments() + ["--figures", "out/figs", "--threshold", "0.3"], capsys)[0] == 0
    assert '"threshold": 0.3' in (folder / "out" / "report.json").read_text()
    (folder / "out" / "figs" / "mine.txt").write_text("mine")
    status, _, err = run_cli(arguments() + ["--figures", "out/figs"], capsys)
    assert status == 2 and "--out out: holds 'figs/mine.txt'" in err
    (folder / "out" / "figs" / "mine.txt").unlink()
    assert run_cli(arguments(), capsys)[0] == 0
    # The figures now sit beside the Markdown; the old figures folder went with the old report.
    assert sorted(p.name for p in (folder / "out").iterdir()) == [
        MARKER, "curves.png", "reliability.png", "report.html", "report.json", "report.md"]
    assert sorted(p.name for p in folder.iterdir()) == ["out", "scores.csv"]


# ---------------------------------------------------------------------------
# one rename: interrupts and failures
# ---------------------------------------------------------------------------

OLD = {"report.md": b"old md", "report.html": b"old html", "report.json": b"{}"}
NEW = {"report.md": b"new md", "report.html": b"new html", "report.json": b"[]", "curves.png": b"png"}


def old_report(root):
    out = root / "out"
    publish({out: OLD}, existed={out: check_target(out, "--out")})
    return out


def contents(out):
    return {p.name: p.read_bytes() for p in out.iterdir() if p.name != MARKER}


def trip(function, at, error=KeyboardInterrupt):
    """``function`` that raises ``error`` on its call number ``at`` (a function, so it binds as a method)."""
    calls = []

    def tripped(*args, **kwargs):
        calls.append(None)
        if len(calls) == at:
            raise error()
        return function(*args, **kwargs)
    return tripped


STEPS = [(step, exchange) for step in ("write 1", "write 3", "marker", "swap", "second rename", "cleanup")
         for exchange in (True, False) if not (exchange and step == "second rename")]


@pytest.mark.parametrize("step, exchange", STEPS, ids=[f"{s}, {'renameat2' if e else 'two renames'}"
                                                        for s, e in STEPS])
@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_an_interrupt_or_failure_leaves_the_old_or_the_new_report_complete(step, exchange, error, tmp_path,
                                                                         monkeypatch):
    out = old_report(tmp_path)
    if not exchange:
        monkeypatch.setattr(output, "_exchange", lambda first, second: False)
    if step.startswith("write"):
        monkeypatch.setattr(Path, "write_bytes", trip(Path.write_bytes, int(step[-1]), error))
    elif step == "marker":
        monkeypatch.setattr(Path, "write_text", trip(Path.write_text, 1, error))
    elif step == "swap":
        monkeypatch.setattr(output, "_put_in_place", trip(output._put_in_place, 1, error))
    elif step == "second rename":
        monkeypatch.setattr(output.os, "rename", trip(os.rename, 2, error))
    else:
        monkeypatch.setattr(output, "_remove", trip(output._remove, 1, error))
    if step == "cleanup" and error is OSError:
        publish({out: NEW}, existed={out: True})  # the report is complete; the cleanup is retried
    else:
        expected = (signals.Interrupted if step == "cleanup"
                    else KeyboardInterrupt if error is KeyboardInterrupt else ReportError)
        with pytest.raises(expected):
            publish({out: NEW}, existed={out: True})
    assert contents(out) == (NEW if step == "cleanup" else OLD)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temporary folder left


def test_an_interrupt_while_computing_says_nothing_was_written(folder, capsys, monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    monkeypatch.setattr("evalmetrics.report.model.build_report", trip(None, 1))
    status, _, err = run_cli(arguments(), capsys)
    assert status == 130 and "no report written" in err and list(folder.iterdir()) == [folder / "scores.csv"]


def test_a_failure_on_a_new_folder_leaves_nothing(tmp_path):
    out = tmp_path / "new" / "out"
    with pytest.raises(TypeError):
        publish({out: {"report.md": b"fine", "report.html": "not bytes"}}, existed={out: False})
    assert list((tmp_path / "new").iterdir()) == []


def test_two_runs_racing_for_one_new_folder(tmp_path, monkeypatch):
    out = tmp_path / "out"
    first = {out: check_target(out, "--out")}
    second = {out: check_target(out, "--out")}
    assert first == second == {out: False}
    stage = output._stage

    def other_run_finishes_first(temporary, files):
        stage(temporary, files)
        monkeypatch.setattr(output, "_stage", stage)
        publish({out: NEW}, existed=second)

    monkeypatch.setattr(output, "_stage", other_run_finishes_first)
    with pytest.raises(ReportError, match="another run wrote a report there meanwhile"):
        publish({out: OLD}, existed=first)
    assert contents(out) == NEW
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_run_that_finds_its_new_folder_taken_says_so(folder, capsys, monkeypatch):
    (folder / "scores.csv").write_text(CSV)
    publish_now = output.publish

    def another_run_first(files, *, existed=None):
        publish_now({folder / "out": NEW}, existed={folder / "out": False})
        return publish_now(files, existed=existed)

    monkeypatch.setattr(output, "publish", another_run_first)
    status, _, err = run_cli(arguments(), capsys)
    assert status == 2 and err.count("\n") == 1 and "another run wrote a report there meanwhile" in err
    assert contents(folder / "out") == NEW
    assert sorted(p.name for p in folder.iterdir()) == ["out", "scores.csv"]


def test_two_real_processes_writing_one_new_folder(folder):
    import subprocess
    import sys

    (folder / "scores.csv").write_text(CSV)
    command = [sys.executable, "-m", "evalmetrics"] + arguments()
    environment = dict(os.environ, MPLBACKEND="Agg")
    runs = [subprocess.Popen(command, cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    results = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    # Overlapping, the second says the first took the folder; one after the other, the second
    # replaces the first's report. Never a traceback, never a mixed or partial folder.
    assert 0 in [status for status, _ in results]
    for status, err in results:
        assert "Traceback" not in err
        assert status == 0 or (status == 2 and err.count("\n") == 1 and "another run wrote a report" in err)
    files = {p.name for p in (folder / "out").iterdir()}
    marker = json.loads((folder / "out" / MARKER).read_text())
    assert files == set(marker["files"]) | {MARKER} and "report.md" in files
    assert sorted(p.name for p in folder.iterdir()) == ["out", "scores.csv"]


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two renames"])
@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_a_failure_at_the_second_folder_puts_the_first_back(exchange, error, tmp_path, monkeypatch):
    out, figures = tmp_path / "out", tmp_path / "figs"
    existed = {out: check_target(out, "--out"), figures: check_target(figures, "--figures")}
    publish({out: OLD, figures: {"curves.png": b"old png"}}, existed=existed)
    if not exchange:
        monkeypatch.setattr(output, "_exchange", lambda first, second: False)
    monkeypatch.setattr(output, "_put_in_place", trip(output._put_in_place, 2, error))
    with pytest.raises(KeyboardInterrupt if error is KeyboardInterrupt else ReportError):
        publish({out: NEW, figures: {"curves.png": b"new png"}}, existed={out: True, figures: True})
    assert contents(out) == OLD and contents(figures) == {"curves.png": b"old png"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs", "out"]


def test_a_second_folder_taken_meanwhile_puts_the_first_back(tmp_path):
    out, figures = tmp_path / "out", tmp_path / "figs"
    existed = {out: check_target(out, "--out"), figures: check_target(figures, "--figures")}
    publish({figures: {"curves.png": b"theirs"}}, existed={figures: False})  # another run, first
    with pytest.raises(ReportError, match="another run wrote a report there meanwhile"):
        publish({out: NEW, figures: {"curves.png": b"mine"}}, existed=existed)
    assert not out.exists() and contents(figures) == {"curves.png": b"theirs"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs"]
