#!/usr/bin/env python
"""Wall time of the book builds (and optionally the test suite) against issue 5's targets.

The repository is copied to a temporary folder (without ``_build``, ``.git``
and caches; the virtualenv is linked, not copied), so the build is cold and
nobody's working copy is touched; the copy's own package is put first on
``PYTHONPATH`` so the pages and tests run exactly the snapshot that was copied.  Then, with the virtualenv's
``jupyter-book``:

1. cold HTML build, every page executed (``jupyter-book build -n -W --keep-going``,
   the gate of ``make book``);
2. rebuild with nothing changed (for reference);
3. rebuild after a prose-only edit: one sentence appended to a chapter's
   markdown text, outside any code cell;
4. PDF build (``jupyter-book build --builder pdflatex``), or "TeX not installed";
5. with ``--tests``: the full test suite (``python -m pytest``), wall time.

    python benchmarks/book_build.py                 # steps 1-4
    python benchmarks/book_build.py --tests         # and the test suite
    python benchmarks/book_build.py --markdown      # table for benchmarks/README.md
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"
# Issue 5: cold HTML build <= 90 s, rebuild after a prose edit <= 5 s, tests <= 4 min.
TARGETS = {"cold": 90.0, "prose": 5.0, "tests": 240.0}
SKIP = {"_build", ".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ipynb_checkpoints",
        ".jupyter_cache", ".mypy_cache", ".ruff_cache"}
SENTENCE = "\n\nThis sentence was appended by benchmarks/book_build.py to time a rebuild after a prose edit.\n"


def copy_repository(destination):
    def ignore(folder, names):
        return [name for name in names if name in SKIP or name.endswith(".egg-info")]
    shutil.copytree(REPO, destination, ignore=ignore, symlinks=True)
    # The tests call `make book` etc., which need .venv: link the existing one.  make
    # reinstalls when pyproject.toml is newer than the venv's stamp, and a reinstall from
    # the copy would repoint the shared editable install at it, so the copy's
    # pyproject.toml is dated before the stamp.
    (destination / ".venv").symlink_to(REPO / ".venv", target_is_directory=True)
    stamp = REPO / ".venv" / ".installed"
    if stamp.exists():
        pyproject = destination / "pyproject.toml"
        before = min(pyproject.stat().st_mtime, stamp.stat().st_mtime - 60)
        os.utime(pyproject, (before, before))


def environment(root):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PATH"] = str(VENV_BIN) + os.pathsep + env.get("PATH", "")
    # Plots render headless; nothing tries to open a window.  The book's kernels draw
    # inline whatever this says (tools/ipython_startup.py), as for a reader whose machine
    # sets MPLBACKEND=Agg.
    env.setdefault("MPLBACKEND", "Agg")
    return env


def run(command, root, log_name, timeout):
    """Run ``command`` in ``root``; return (seconds, exit code, log path)."""
    log = root / "_benchmark_logs" / log_name
    log.parent.mkdir(exist_ok=True)
    start = time.perf_counter()
    with open(log, "w") as handle:
        try:
            code = subprocess.run(command, cwd=root, env=environment(root), stdout=handle,
                                  stderr=subprocess.STDOUT, timeout=timeout, check=False).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
    return time.perf_counter() - start, code, log


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def log_lines(log):
    return [ANSI.sub("", line) for line in log.read_text(errors="replace").splitlines()]


def sphinx_problems(log):
    """Sphinx warnings and errors of a build log (the kernels' own TCP notices are not counted)."""
    return [line.strip() for line in log_lines(log)
            if ("WARNING:" in line or "ERROR:" in line or "Error" in line or "error:" in line)
            and "[IPKernelApp]" not in line]


def executed_pages(log):
    return sum(1 for line in log_lines(log) if "Executing notebook" in line)


def execution_split(log):
    """(pages run by the parallel pre-execution, pages run by myst-nb while reading);
    after a pre-execution myst-nb should find every page in the cache."""
    lines = log_lines(log)
    before = sum(1 for line in lines if "Executing notebook" in line and "(pre-execution)" in line)
    reading = sum(1 for line in lines if "Executing notebook using" in line)
    return before, reading


def execution_seconds(root):
    """{page: seconds} from the execution cache myst-nb keeps (jupyter-cache's sqlite file)."""
    import json
    import sqlite3
    database = root / "_build" / ".jupyter_cache" / "global.db"
    if not database.exists():
        return {}
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute("select uri, data from nbcache").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        connection.close()
    seconds = {}
    for uri, data in rows:
        try:
            seconds[Path(uri).stem] = float(json.loads(data)["execution_seconds"])
        except (KeyError, TypeError, ValueError):
            continue
    return seconds


def failure_note(code, log):
    root = str(log.parents[1]) + os.sep
    problems = [line.replace(root, "") for line in sphinx_problems(log)]
    first = problems[0][-160:] if problems else next(
        (line for line in reversed(log_lines(log)) if line.strip()), "")
    return f"exit {code}: {len(problems)} warning/error line(s), first: {first}"


def prose_chapter(root, preferred):
    """A chapter whose code fences are balanced, so appended text lands outside any cell."""
    toc = (root / "_toc.yml").read_text()
    names = [preferred] + re.findall(r"file:\s*book/([\w-]+)", toc)
    for name in names:
        page = root / "book" / f"{name}.md"
        if not page.exists():
            continue
        fences = sum(1 for line in page.read_text().splitlines() if line.lstrip().startswith(("```", ":::")))
        if fences % 2 == 0:
            return page
    raise SystemExit("no chapter with balanced code fences to edit")


def build_command(root, *extra):
    return [str(VENV_BIN / "jupyter-book"), "build", "-n", "-W", "--keep-going", *extra, str(root)]


def verdict(seconds, target):
    if target is None or seconds is None:
        return "", ""
    return f"<= {target:g} s", "PASS" if seconds <= target else "FAIL"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", action="store_true", help="also time the full test suite")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF build")
    parser.add_argument("--chapter", default="notation", help="chapter to edit (book/<name>.md)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy (its path is printed)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds allowed per step")
    options = parser.parse_args(argv)

    if not (VENV_BIN / "jupyter-book").exists():
        raise SystemExit(f"{VENV_BIN / 'jupyter-book'} not found: run `make venv` first")
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# book build timings, {datetime.datetime.now().isoformat(timespec='seconds')}, "
          f"{os.cpu_count()} cores, load average {load}, pre-execution workers "
          f"{os.environ.get('EVALMETRICS_BOOK_WORKERS', '2 (default)')}", file=sys.stderr)
    workspace = Path(tempfile.mkdtemp(prefix="evalmetrics-book-"))
    root = workspace / "repo"
    rows = []
    try:
        copy_repository(root)
        print(f"# copied {REPO} -> {root}", file=sys.stderr)

        def step(label, key, command, log_name, note_of=None):
            print(f"  {label} ...", file=sys.stderr, flush=True)
            seconds, code, log = run(command, root, log_name, options.timeout)
            target, result = verdict(seconds, TARGETS.get(key))
            note = failure_note(code, log) if code != 0 else "exit 0"
            if note_of:
                note = f"{note_of(log)}; {note}"
            rows.append((label, f"{seconds:.1f} s", target, result, note))
            print(f"    {seconds:.1f} s  exit {code}", file=sys.stderr, flush=True)
            return code

        def pages_note(log):
            before, reading = execution_split(log)
            note = f"{executed_pages(log)} page(s) executed"
            return note + (f" ({before} in parallel before reading, {reading} by myst-nb)" if before else "")

        def cold_note(log):
            seconds = execution_seconds(root)
            slowest = sorted(seconds.items(), key=lambda item: -item[1])
            for page, spent in slowest:
                print(f"    executing {page}: {spent:.1f} s", file=sys.stderr)
            top = ", ".join(f"{page} {spent:.1f} s" for page, spent in slowest[:3])
            return (f"{pages_note(log)}, {sum(seconds.values()):.0f} s in kernels"
                    + (f" (slowest: {top})" if top else ""))
        step("cold HTML build, every page executed", "cold", build_command(root), "cold.log", cold_note)
        step("rebuild, nothing changed", None, build_command(root), "noop.log", pages_note)
        page = prose_chapter(root, options.chapter)
        with open(page, "a") as handle:
            handle.write(SENTENCE)
        def prose_note(log):
            html = root / "_build" / "html" / page.relative_to(root).with_suffix(".html")
            seen = html.exists() and "appended by benchmarks/book_build.py" in html.read_text(errors="replace")
            return f"{pages_note(log)}, edit {'in' if seen else 'NOT in'} the HTML"
        step(f"rebuild after a prose edit of {page.relative_to(root)}", "prose", build_command(root), "prose.log",
             prose_note)

        if options.no_pdf:
            rows.append(("PDF build", "-", "", "", "skipped (--no-pdf)"))
        elif not (shutil.which("xelatex") and shutil.which("latexmk")):
            rows.append(("PDF build", "-", "", "", "TeX not installed (xelatex / latexmk not found)"))
        else:
            def pdf_note(log):
                pdfs = sorted((root / "_build" / "latex").glob("*.pdf"))
                return f"{pdfs[0].name}, {pdfs[0].stat().st_size / 1e6:.1f} MB" if pdfs else "no PDF written"
            step("PDF build (--builder pdflatex)", None,
                 [str(VENV_BIN / "jupyter-book"), "build", "--builder", "pdflatex", str(root)], "pdf.log", pdf_note)

        if options.tests:
            def tests_note(log):
                lines = [line for line in log_lines(log) if line.strip()]
                # pytest's --durations table: "12.34s call     tests/test_x.py::test_y"
                slowest = [line.split(None, 2) for line in lines
                           if re.match(r"^\d+\.\d+s (call|setup|teardown) ", line)]
                for seconds, phase, test in slowest:
                    print(f"    {seconds:>8s} {phase:8s} {test}", file=sys.stderr)
                top = ", ".join(f"{test.split('::')[-1][:40]} {seconds}" for seconds, _, test in slowest[:3])
                return (lines[-1].strip("= ") if lines else "no output") + (f" (slowest: {top})" if top else "")
            step("full test suite (pytest)", "tests",
                 [str(VENV_BIN / "python"), "-m", "pytest", "-q", "--durations=10"], "tests.log", tests_note)
    finally:
        if options.keep:
            print(f"# kept {root} (logs in _benchmark_logs/)", file=sys.stderr)
        else:
            shutil.rmtree(workspace, ignore_errors=True)

    headers = ("step", "wall time", "target", "result", "note")
    if options.markdown:
        print("| " + " | ".join(headers) + " |")
        print("|" + "|".join(" --- " for _ in headers) + "|")
        for row in rows:
            print("| " + " | ".join(cell.replace("|", "/") for cell in row) + " |")
    else:
        widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(4)]
        for k, row in enumerate((headers, *rows)):
            print("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4])
            if k == 0:
                print("  ".join("-" * w for w in widths) + "  ----")
    return 0


if __name__ == "__main__":
    sys.exit(main())
