"""The layout gate of the PDFs:  python tools/latex_log.py FILE.log [--max-pt 1] [--max-page-pt 3] [--min-fill 0.25]

LaTeX reports a line it could not fit into the text width as ``Overfull \\hbox
(N pt too wide) ... at lines A--B`` and goes on; Sphinx's ``-W`` never sees it, and
the reader gets a table or a formula running off the page.  This lists each box
wider than the limit with the lines of the ``.tex`` file and the chapter they are
in, and exits with 1 if there is any (``make pdf`` and ``make handout`` call it).
It also lists the pages whose text runs past their bottom (``Overfull \\vbox``,
a table or a boxed block that could not split), more than 3 pt, and the pages
less than a quarter full that do not end a chapter or a part (a block kept whole
that left the page before it nearly empty): the preamble of ``_config.yml`` logs
each page's fill as ``evalmetrics-page 47 (40): 58.0pt of 650.43pt``.  And the
characters no font of the PDF has (``Missing character: There is no 分 in font
...``): XeTeX leaves them out of the page, a gap or a box where the reader expected
a word (a Chinese term set in a Latin font, a symbol the font lacks).
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
# "evalmetrics-page 47 (40): 58.0pt of 650.43001pt opens" (the preamble's \wlog; a log
# line may wrap at 79 characters)
_PAGE_FILL = re.compile(r"^evalmetrics-page (\d+)\s+\(([^)]*)\):\s+([\d.]+)pt\s+of\s+([\d.]+)pt"
                        r"(\s+opens)?", re.MULTILINE)

# "Missing character: There is no 分 (U+5206) in font [FreeSerif.otf]/OT:...!"
_MISSING = re.compile(r"^Missing character: There is no (.+?) in font (.+?)!$", re.MULTILINE)

#: Boxes narrower than this are invisible in print (a point is 0.35 mm).
LIMIT_PT = 1.0
#: Text this far below the last line of a page stays clear of the footer line
#: (about 30 pt further down); more runs into it.
PAGE_LIMIT_PT = 3.0
#: A page filled less than this (a share of the text height) is nearly empty, unless
#: it ends a chapter or a part.
MIN_FILL = 0.25


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


@dataclass(frozen=True)
class PageFill:
    """How full one page of the PDF is (the preamble logs it as the page is shipped)."""

    page: int  # in the PDF, from 1
    printed: str  # the number printed on it ("40", "iii")
    height_pt: float  # of its text
    text_height_pt: float  # of the text area
    opens: bool  # it opens a chapter or a part (or is the title page)

    @property
    def fill(self) -> float:
        return self.height_pt / self.text_height_pt if self.text_height_pt else 1.0

    def __str__(self) -> str:
        return (f"page {self.page} (printed {self.printed}): {self.fill:.0%} full "
                f"({self.height_pt:.0f} pt of {self.text_height_pt:.0f} pt)")


def page_fills(log: str) -> list[PageFill]:
    """Every page's fill the log reports, of the last LaTeX run, in page order."""
    found = {}
    for match in _PAGE_FILL.finditer(log):
        page = int(match.group(1))
        found[page] = PageFill(page, match.group(2).strip(), float(match.group(3)),
                               float(match.group(4)), bool(match.group(5)))
    return [found[k] for k in sorted(found)]


def near_empty_pages(pages: list[PageFill], *, min_fill: float = MIN_FILL) -> list[PageFill]:
    """The pages filled less than ``min_fill`` that do not end a chapter or a part:
    the next page opens neither, and it is not the last page."""
    return [page for page, following in zip(pages, pages[1:])
            if page.fill < min_fill and not following.opens]


def missing_characters(log: str) -> list[str]:
    """Each character left out of the PDF for want of a glyph, with its font, once."""
    return sorted({f"{char} in {font}" for char, font in _MISSING.findall(log)})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--max-pt", type=float, default=LIMIT_PT)
    parser.add_argument("--max-page-pt", type=float, default=PAGE_LIMIT_PT)
    parser.add_argument("--min-fill", type=float, default=MIN_FILL)
    args = parser.parse_args(argv)
    return 1 if problems(args.log, max_pt=args.max_pt, max_page_pt=args.max_page_pt,
                         min_fill=args.min_fill) else 0


def problems(log_file: Path, *, max_pt: float = LIMIT_PT, max_page_pt: float = PAGE_LIMIT_PT,
             min_fill: float = MIN_FILL) -> list[str]:
    """Everything the gate finds in a LaTeX log (printed to stderr, one line each)."""
    tex = log_file.with_suffix(".tex")
    log = log_file.read_text(encoding="utf-8", errors="replace")
    boxes = overfull_boxes(log, tex.read_text(encoding="utf-8") if tex.is_file() else "",
                           limit_pt=max_pt, page_limit_pt=max_page_pt)
    found = [f"{tex.name}: {box}" for box in boxes]
    if boxes:
        found.append(f"{len(boxes)} overfull box(es) in {log_file}: lines wider than "
                     f"{max_pt:g} pt or pages {max_page_pt:g} pt too high")
    fills = page_fills(log)
    if not fills:
        found.append(f"{log_file}: no page fills logged (the preamble's \\@outputpage "
                     "hook of _config.yml is missing)")
    empty = near_empty_pages(fills, min_fill=min_fill)
    found += [f"{tex.name}: {page}, and it ends no chapter" for page in empty]
    if empty:
        found.append(f"{len(empty)} page(s) less than {min_fill:.0%} full in {log_file.with_suffix('.pdf')}: "
                     "a block kept whole (a code cell and its figure, a table) did not fit below them")
    missing = missing_characters(log)
    found += [f"{tex.name}: no glyph for {char}" for char in missing]
    if missing:
        found.append(f"{len(missing)} character(s) missing from {log_file.with_suffix('.pdf')}: "
                     "give their script a font (xeCJK's \\setCJKmainfont for Chinese)")
    for line in found:
        print(line, file=sys.stderr)
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
