"""Build a PDF handout of chosen chapters.

    python tools/handout.py [--title T] [--solutions yes|no] [--paper a4|letter] PAGE...

PAGE is a chapter's file name without ``.md`` (``roc-auc``, ``calibration``).  The
handout is the book's landing page, the chosen chapters in the order given and
the bibliography, with its own title.  ``--solutions no`` (the default) makes
the student edition, whose exercises have no solutions; ``--solutions yes`` the
instructor edition, with the solutions of each chapter after its exercises; the
title page and the running head of every page say which edition it is.
``--paper a4`` or ``letter`` chooses the paper (default: the book's).  It is built
by Jupyter Book from a second table of contents (``--toc``) and a
copy of ``_config.yml`` with the handout's title and file name (``--config``),
in its own build folder
``_build/handout/<pages>-<edition>/``; the PDF is copied to
``_build/handout/<pages>-<edition>.pdf`` (edition ``student`` or ``instructor``).

The handout is numbered as the full book: its chapters, and the equations,
figures, tables and theorems in them, keep their numbers ("Theorem 6.1" is the
same theorem in the handout, the book's PDF and on the website).  Its first page
is its own (the chapters it holds and where the full book is), and its
bibliography lists only the works it cites (``_ext/evalmetrics_latex.py``).

A cross-reference into a chapter that is not part of the handout prints as that
chapter's number and title in the full book ("Chapter 14, *Pitfalls*, in the full
book").  Any warning Sphinx still gives about such a reference is expected and
filtered; any other warning fails the build (as ``-W`` does for the whole book),
and so does what the layout gate finds in the LaTeX log (``tools/latex_log.py``: an
overfull box wider than 1 pt, a page nearly empty).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import latex_log  # noqa: E402  (tools/latex_log.py)

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
OUT = ROOT / "_build" / "handout"

# The warnings a reference into a left-out chapter produces, with the target's name.
_FOREIGN = [
    re.compile(r"undefined label: '([^']+)'"),
    re.compile(r"unknown document: '?([^'\s]+)'?"),
    re.compile(r"label '([^']+)' not found"),
    re.compile(r"equation not found: ([\w:.-]+)"),
    re.compile(r"Failed to create a cross reference\. A title or caption not found: '([^']+)'"),
    re.compile(r"py:\w+ reference target not found: ([\w.]+)"),
]
_WARNING = re.compile(r"(WARNING|ERROR|CRITICAL):")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Logged by a kernel whose control socket is already closed when the execution client
# shuts it down (ipykernel's ZMQ stream, through tornado's logger; seen under load):
# the notebook's outputs are complete by then, so it says nothing about the handout.
_KERNEL_SHUTDOWN_NOISE = "ERROR:tornado.general:Uncaught exception in ZMQStream callback"


def page_title(page: str) -> str:
    """The first ``#`` heading of a page."""
    for line in (BOOK / f"{page}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page


def labels_of(page: str) -> set[str]:
    """Every target a page defines: ``(label)=``, ``:label:`` and ``:name:`` options."""
    text = (BOOK / f"{page}.md").read_text(encoding="utf-8")
    found = set(re.findall(r"^\(([\w:.-]+)\)=\s*$", text, re.MULTILINE))
    found |= set(re.findall(r"^\s*:(?:label|name):\s*(\S+)", text, re.MULTILINE))
    found |= set(re.findall(r"\$\$\s*\(([\w:.-]+)\)\s*$", text, re.MULTILINE))
    return found | {page, f"book/{page}"}


def reference_entries() -> set[str]:
    """The names the book's reference documents (it is never part of a handout)."""
    sys.path.insert(0, str(ROOT / "_ext"))
    import evalmetrics_api

    return {name for name, _ in evalmetrics_api.public_objects()}


def chapters() -> list[str]:
    """The chapters of the book, in the order of ``_toc.yml``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc.get("parts", [toc]) for c in part.get("chapters", [])]
    return [Path(f).name for f in files]


def book_numbers() -> dict[str, int]:
    """Each numbered chapter's number in the full book (the toc numbers them through its
    numbered parts; the bibliography, back matter, has none)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    numbered = [Path(c["file"]).name for part in toc.get("parts", [toc]) if part.get("numbered")
                for c in part.get("chapters", [])]
    return {page: number for number, page in enumerate(numbered, start=1)}


#: The editions, as the title page and the running head name them.
EDITIONS = {False: "Student edition", True: "Instructor edition (with solutions)"}
#: ``--paper``: LaTeX's name of each size (_ext/evalmetrics_latex.py reads the book's).
PAPER_SIZES = {"a4": "a4paper", "letter": "letterpaper"}


def write_inputs(pages: list[str], title: str, folder: Path,
                 solutions: bool = False, paper: str = "",
                 back_matter: tuple[str, ...] = ("bibliography",),
                 options: dict | None = None, targetname: str = "handout.tex") -> tuple[Path, Path]:
    """The handout's table of contents and configuration files.

    ``back_matter``: the unnumbered pages after the chapters (the bibliography, and
    the glossary in a translated edition's PDF); ``options``: Sphinx configuration on
    top of the handout's own (a translated edition's language and print words).
    """
    folder.mkdir(parents=True, exist_ok=True)
    # The bibliography page closes every handout: citations resolve only to a
    # {bibliography} directive that is part of the build.
    # It is back matter, unnumbered, as in the book.
    back_matter = tuple(back_matter)
    if "bibliography" not in back_matter:
        back_matter = ("bibliography", *back_matter)
    numbered = [page for page in pages if page not in back_matter]
    chosen = numbered + list(back_matter)
    toc = {"format": "jb-book", "root": "book/index",
           "parts": [{"numbered": 1, "chapters": [{"file": f"book/{page}"} for page in numbered]},
                     {"chapters": [{"file": f"book/{page}"} for page in back_matter]}]}
    toc_path = folder / "_toc.yml"
    toc_path.write_text("# Generated by tools/handout.py\n" + yaml.safe_dump(toc, sort_keys=False),
                        encoding="utf-8")
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    book_title = config.get("title", "")
    config["title"] = title
    # Only the chosen pages: the book's own build finds its pages by the exclusions
    # of _config.yml (every page is in its table of contents), a handout's are fewer.
    config["only_build_toc_files"] = True
    latex = config.setdefault("latex", {})
    latex.setdefault("latex_documents", {})
    latex["latex_documents"]["targetname"] = targetname
    latex["latex_documents"]["title"] = title
    # Paths in a configuration file are relative to the file: make them absolute.
    sphinx = config.setdefault("sphinx", {})
    # The edition (_ext/evalmetrics_exercises.py): solutions kept or removed.
    sphinx.setdefault("config", {})["evalmetrics_solutions"] = solutions
    if paper:
        elements = sphinx["config"].setdefault("latex_elements", {})
        elements["papersize"] = PAPER_SIZES[paper]
    sphinx["local_extensions"] = {name: str((ROOT / path).resolve())
                                  for name, path in sphinx.get("local_extensions", {}).items()}
    config["bibtex_bibfiles"] = [str((ROOT / path).resolve())
                                 for path in config.get("bibtex_bibfiles", [])]
    # The handout's numbers, titles and the labels of the chapters it leaves out
    # (_ext/evalmetrics_latex.py reads them).
    numbers = book_numbers()
    titles = {page: page_title(page) for page in chapters()}
    foreign = {}
    # Every chapter left out, numbered or back matter (the glossary); the bibliography is
    # in every handout.
    for page in set(chapters()) - set(chosen):
        for label in labels_of(page):
            foreign.setdefault(label.split(":")[-1], page)
    sphinx_config = sphinx.setdefault("config", {})
    sphinx_config.update({
        "evalmetrics_handout": True,
        "evalmetrics_book_title": book_title,
        "evalmetrics_preface_title": "About this handout",
        "evalmetrics_edition": EDITIONS[solutions],
        "evalmetrics_chapter_numbers": {page: numbers[page] for page in chosen if page in numbers},
        "evalmetrics_chapter_titles": {page: titles[page] for page in chosen},
        "evalmetrics_book_chapters": numbers,
        "evalmetrics_book_titles": titles,
        "evalmetrics_foreign_labels": foreign,
    })
    sphinx_config.update(options or {})
    config_path = folder / "_config.yml"
    config_path.write_text("# Generated by tools/handout.py\n"
                           + yaml.safe_dump(config, sort_keys=False, allow_unicode=True),
                           encoding="utf-8")
    return toc_path, config_path


def unexpected_warnings(log: str, pages: list[str]) -> list[str]:
    """The warnings of a handout build that a left-out chapter does not explain."""
    # A chapter's link to a function's reference entry is printed as its name.
    foreign: set[str] = reference_entries()
    for page in set(chapters()) - set(pages) - {"index", "bibliography"}:
        if (BOOK / f"{page}.md").is_file():
            foreign |= labels_of(page)
    bad = []
    for line in _ANSI.sub("", log).splitlines():
        if not _WARNING.search(line) or line.strip() == _KERNEL_SHUTDOWN_NOISE:
            continue
        targets = [m.group(1) for pattern in _FOREIGN for m in pattern.finditer(line)]
        if targets and all(t.split(":")[-1] in foreign or t in foreign for t in targets):
            continue
        bad.append(line.strip())
    return bad


def build(pages: list[str], toc_path: Path, config_path: Path, folder: Path) -> Path | None:
    """Build the handout that ``write_inputs`` described, in ``folder``: its PDF, or
    None when the build failed, warned of more than a left-out chapter, or did not
    pass the layout gate (each fault printed)."""
    command = [str(ROOT / ".venv" / "bin" / "jupyter-book"), "build", "-n", "--keep-going",
               "--builder", "pdflatex", "--toc", str(toc_path), "--config", str(config_path),
               "--path-output", str(folder), str(ROOT)]
    print(" ".join(command), flush=True)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    log = result.stdout + result.stderr
    (folder / "build.log").write_text(log, encoding="utf-8")
    target = yaml.safe_load(config_path.read_text(encoding="utf-8"))["latex"]["latex_documents"]["targetname"]
    pdf = folder / "_build" / "latex" / Path(target).with_suffix(".pdf").name
    bad = unexpected_warnings(log, pages)
    if result.returncode != 0 or bad or not pdf.is_file():
        print(log[-6000:] if result.returncode != 0 or not pdf.is_file() else "", file=sys.stderr)
        for line in bad:
            print(line, file=sys.stderr)
        print(f"handout build failed (log: {folder / 'build.log'})", file=sys.stderr)
        return None
    if latex_log.problems(pdf.with_suffix(".log")):  # (printed, one line each)
        return None
    return pdf


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", help="chapter file names without .md")
    parser.add_argument("--title", default="", help="title of the handout")
    parser.add_argument("--solutions", choices=("yes", "no"), default="no",
                        help="yes: instructor edition, with the solutions; "
                             "no (default): student edition, exercises only")
    parser.add_argument("--paper", choices=("", *PAPER_SIZES), default="",
                        help="a4 or letter (default: the book's, _config.yml)")
    args = parser.parse_args(argv)
    known = chapters()
    unknown = [p for p in args.pages if p not in known]
    if unknown:
        print(f"not chapters of the book: {' '.join(unknown)}\nchapters: {' '.join(known)}",
              file=sys.stderr)
        return 2
    book_title = yaml.safe_load((ROOT / "_config.yml").read_text())["title"]
    title = args.title or f"{book_title}: " + "; ".join(page_title(p) for p in args.pages)
    solutions = args.solutions == "yes"
    edition = "instructor" if solutions else "student"
    slug = "-".join(args.pages) + f"-{edition}"
    folder = OUT / slug
    toc_path, config_path = write_inputs(args.pages, title, folder, solutions, args.paper)
    pdf = build(args.pages, toc_path, config_path, folder)
    if pdf is None:
        return 1
    target = OUT / f"{slug}.pdf"
    shutil.copyfile(pdf, target)
    print(f"Handout: {target.relative_to(ROOT)}  ({title}, {EDITIONS[solutions].lower()})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
