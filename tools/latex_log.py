"""The overfull-box gate of the PDFs:  python tools/latex_log.py FILE.log [--max-pt 1] [--max-page-pt 3]

LaTeX reports a line it could not fit into the text width as ``Overfull \\hbox
(N pt too wide) ... at lines A--B`` and goes on; Sphinx's ``-W`` never sees it, and
the reader gets a table or a formula running off the page.  This lists each box
wider than the limit with the lines of the ``.tex`` file and the chapter they are
in, and exits with 1 if there is any (``make pdf`` and ``make handout`` call it).
It also lists the pages whose text runs past their bottom (``Overfull \\vbox``,
a table or a boxed block that could not split), more than 3 pt.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

_OVERFULL = re.compile(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\) "
                       r"(?:in paragraph|in alignment|detected) at lines? (\d+)(?:--(\d+))?",
                       re.MULTILINE)
# A page whose text runs past its bottom: "Overfull \\vbox (16.8pt too high) detected at line 4440"
# (a box that cannot split at the page's end: a table, a boxed code block).
_OVERFULL_PAGE = re.compile(r"^Overfull \\vbox \((\d+(?:\.\d+)?)pt too high\) "
                            r"(?:has occurred while \\output is active|detected at line (\d+))",
                            re.MULTILINE)
_CHAPTER = re.compile(r"^\\chapter\*?\{(.*)\}", re.MULTILINE)

#: Boxes narrower than this are invisible in print (a point is 0.35 mm).
LIMIT_PT = 1.0
#: Text this far below the last line of a page stays clear of the footer line
#: (about 30 pt further down); more runs into it.
PAGE_LIMIT_PT = 3.0


@dataclass(frozen=True)
class OverfullBox:
    """One overfull box: how far it runs past the margin, where it is in the ``.tex``."""

    width_pt: float
    first_line: int
    last_line: int
    chapter: str
    direction: str = "wide"  # "high": the text of a page runs past its bottom

    def __str__(self) -> str:
        lines = (str(self.first_line) if self.first_line == self.last_line
                 else f"{self.first_line}-{self.last_line}")
        return (f"lines {lines} ({self.chapter or 'front matter'}): "
                f"{self.width_pt:.1f} pt too {self.direction}")


def overfull_boxes(log: str, tex: str = "", *, limit_pt: float = LIMIT_PT,
                   page_limit_pt: float = PAGE_LIMIT_PT) -> list[OverfullBox]:
    """The overfull boxes a LaTeX log reports: lines wider than ``limit_pt`` past the
    margin, pages whose text runs more than ``page_limit_pt`` past their bottom."""
    starts = [(tex.count("\n", 0, m.start()) + 1, m.group(1)) for m in _CHAPTER.finditer(tex)]

    def chapter_at(first: int) -> str:
        chapter = ""
        for line, title in starts:
            if line > first:
                break
            chapter = title.replace("\\sphinxhyphen{}", "-")
        return chapter

    found = []
    for match in _OVERFULL.finditer(log):
        width = float(match.group(1))
        if width <= limit_pt:
            continue
        first = int(match.group(2))
        last = int(match.group(3) or first)
        found.append(OverfullBox(width, first, last, chapter_at(first)))
    for match in _OVERFULL_PAGE.finditer(log):
        height = float(match.group(1))
        if height <= page_limit_pt:
            continue
        line = int(match.group(2) or 0)
        found.append(OverfullBox(height, line, line, chapter_at(line), "high"))
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--max-pt", type=float, default=LIMIT_PT)
    parser.add_argument("--max-page-pt", type=float, default=PAGE_LIMIT_PT)
    args = parser.parse_args(argv)
    tex = args.log.with_suffix(".tex")
    boxes = overfull_boxes(args.log.read_text(encoding="utf-8", errors="replace"),
                           tex.read_text(encoding="utf-8") if tex.is_file() else "",
                           limit_pt=args.max_pt, page_limit_pt=args.max_page_pt)
    for box in boxes:
        print(f"{tex.name}: {box}", file=sys.stderr)
    if boxes:
        print(f"{len(boxes)} overfull box(es) in {args.log}: lines wider than "
              f"{args.max_pt:g} pt or pages {args.max_page_pt:g} pt too high",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
