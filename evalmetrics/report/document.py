"""A tiny document model and its two renderings, Markdown and self-contained HTML.

A :class:`Document` is a title, a list of facts about how it was made, and
sections of blocks: paragraphs, tables, bullet lists (warnings among them)
and figures.  The text of paragraphs and cells may use two inline marks,
```code``` and ``**bold**``, which both renderings understand.

:func:`render_markdown` refers to each figure by its file name (the PNGs
are written beside the Markdown file); :func:`render_html` embeds the PNG
bytes as base64 data, so the page is one file that needs nothing else --
no stylesheet, script or image from elsewhere.
"""

from __future__ import annotations

import base64
import html
import re
import urllib.parse
from dataclasses import dataclass, field

__all__ = ["Bullets", "Document", "Figure", "Paragraph", "Section", "Table", "render_html",
           "render_markdown"]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of text (with `code` and **bold** marks)."""

    text: str


@dataclass(frozen=True)
class Table:
    """Rows of strings under a header; ``align`` holds "l" or "r" per column."""

    header: tuple
    rows: tuple
    align: tuple = ()
    caption: str = ""


@dataclass(frozen=True)
class Bullets:
    """A bullet list; ``warning=True`` draws it as a warning box in HTML."""

    items: tuple
    warning: bool = False


@dataclass(frozen=True)
class Figure:
    """A PNG figure: ``name`` is its file name beside the Markdown file."""

    name: str
    caption: str
    png: bytes = field(repr=False)


@dataclass(frozen=True)
class Section:
    """A titled section: a tuple of blocks (Paragraph, Table, Bullets, Figure)."""

    title: str
    blocks: tuple


@dataclass(frozen=True)
class Document:
    """A report to render: title, facts of how it was made, an intro line, sections."""

    title: str
    facts: tuple  # (name, value) pairs: how the report was produced
    sections: tuple
    intro: str = ""

    def figures(self):
        """Every :class:`Figure` in reading order."""
        return [block for section in self.sections for block in section.blocks if isinstance(block, Figure)]


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

# The two inline marks both renderings understand.
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


# Backslash-escaped, these characters stand for themselves in CommonMark and GFM, so
# no tag, link, image, entity, emphasis, code span or table cell can start from them.
# (Any ASCII punctuation may be escaped; these are the ones that open something, kept
# few so that the Markdown stays readable as text.)
_MD_PUNCTUATION = re.compile(r"([\\`*_\[\]<>&|~!#])")


def _md_plain(text):
    return _MD_PUNCTUATION.sub(r"\\\1", text)


def _md_code(text, in_table):
    # A code span shows its content literally (no escapes work inside it); only a
    # table's cell separator must still be escaped, which GFM allows in code too.
    # The document's marks never put a backtick inside a code span.
    if in_table:
        text = text.replace("|", "\\|")
    padded = f" {text} " if text.startswith((" ", "`")) or text.endswith((" ", "`")) else text
    return f"`{padded}`"


def _md_inline(text, in_table=False):
    """Markdown of a text with `code` and **bold** marks: every other character stands for itself.

    The same marks as :func:`_inline` turns into HTML; everything else,
    user strings included, is escaped, so the Markdown cannot hold a tag,
    a link or an image the report did not put there itself.
    """
    text = " ".join(str(text).split("\n"))
    out = []
    for number, part in enumerate(_CODE.split(text)):
        if number % 2:
            out.append(_md_code(part, in_table))
            continue
        for inner, piece in enumerate(_BOLD.split(part)):
            out.append(f"**{_md_plain(piece)}**" if inner % 2 else _md_plain(piece))
    return "".join(out)


def _md_table(table):
    align = table.align or ("l",) * len(table.header)
    rule = ["---:" if a == "r" else ":---" for a in align]
    lines = ["| " + " | ".join(_md_inline(h, True) for h in table.header) + " |",
             "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(_md_inline(c, True) for c in row) + " |" for row in table.rows]
    if table.caption:
        lines = [f"*{_md_inline(table.caption)}*", ""] + lines
    return "\n".join(lines)


def _md_link_target(path):
    # Percent-encoded: no space, parenthesis or colon left, so a folder named
    # "javascript:x" stays a relative path and cannot end the link early.
    return urllib.parse.quote(path, safe="/")


def render_markdown(document, *, figure_path=None):
    """The document as GitHub-flavoured Markdown.

    Parameters
    ----------
    document : Document
    figure_path : callable, optional
        Maps a figure's file name to the path written in the Markdown
        (default: the name itself, a file beside the Markdown file).

    Returns
    -------
    str

    Examples
    --------
    >>> doc = Document("Report", (("rows", "12"),), (Section("Data", (Paragraph("**12** rows"),)),))
    >>> print(render_markdown(doc))
    # Report
    <BLANKLINE>
    | how this report was produced | details |
    | :--- | :--- |
    | rows | 12 |
    <BLANKLINE>
    ## Data
    <BLANKLINE>
    **12** rows
    <BLANKLINE>
    """
    path = figure_path or (lambda name: name)
    parts = [f"# {_md_inline(document.title)}"]
    if document.intro:
        parts.append(_md_inline(document.intro))
    if document.facts:
        parts.append(_md_table(Table(("how this report was produced", "details"), document.facts)))
    for section in document.sections:
        parts.append(f"## {_md_inline(section.title)}")
        for block in section.blocks:
            if isinstance(block, Paragraph):
                parts.append(_md_inline(block.text))
            elif isinstance(block, Table):
                parts.append(_md_table(block))
            elif isinstance(block, Bullets):
                marker = "- **Warning:** " if block.warning else "- "
                parts.append("\n".join(marker + _md_inline(item) for item in block.items))
            elif isinstance(block, Figure):
                caption = _md_inline(block.caption)
                parts.append(f"![{caption}]({_md_link_target(path(block.name))})\n\n*{caption}*")
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 62rem;
       margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; line-height: 1.45; }
h1 { font-size: 1.7rem; } h2 { font-size: 1.3rem; margin-top: 2.2rem;
     border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .92rem; }
th, td { border-bottom: 1px solid #e3e3e3; padding: .25rem .7rem; vertical-align: top; }
th { text-align: left; background: #f5f5f5; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; font-style: italic; padding-bottom: .3rem; }
table.facts td:first-child { color: #555; white-space: nowrap; }
code { background: #f2f2f2; padding: 0 .25rem; border-radius: 3px; font-size: .9em; }
.warnings { background: #fff6e0; border-left: 4px solid #E69F00; padding: .5rem 1rem; }
figure { margin: 1.2rem 0; } figure img { max-width: 100%; height: auto; }
figcaption { font-style: italic; color: #444; }
"""



def _inline(text):
    """Escape, then turn `code` and **bold** into HTML."""
    escaped = html.escape(str(text), quote=False)
    escaped = _CODE.sub(r"<code>\1</code>", escaped)
    return _BOLD.sub(r"<strong>\1</strong>", escaped)


def _html_table(table, css_class=""):
    align = table.align or ("l",) * len(table.header)
    cls = [' class="r"' if a == "r" else "" for a in align]
    out = [f'<table{f" class={chr(34)}{css_class}{chr(34)}" if css_class else ""}>']
    if table.caption:
        out.append(f"<caption>{_inline(table.caption)}</caption>")
    if any(table.header):
        out.append("<thead><tr>" + "".join(f"<th{c}>{_inline(h)}</th>" for h, c in zip(table.header, cls))
                   + "</tr></thead>")
    out.append("<tbody>")
    for row in table.rows:
        out.append("<tr>" + "".join(f"<td{c}>{_inline(v)}</td>" for v, c in zip(row, cls)) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def render_html(document):
    """The document as one self-contained HTML page, figures embedded as base64 PNG.

    Parameters
    ----------
    document : Document

    Returns
    -------
    str

    Examples
    --------
    >>> doc = Document("A <b> report", (), (Section("Data", (Paragraph("`y` has 12 rows"),)),))
    >>> page = render_html(doc)
    >>> "<h1>A &lt;b&gt; report</h1>" in page, "<code>y</code> has 12 rows" in page
    (True, True)
    """
    body = [f"<h1>{_inline(document.title)}</h1>"]
    if document.intro:
        body.append(f"<p>{_inline(document.intro)}</p>")
    if document.facts:
        body.append(_html_table(Table(("", ""), document.facts, caption="How this report was produced"),
                                "facts"))
    for section in document.sections:
        body.append(f"<h2>{_inline(section.title)}</h2>")
        for block in section.blocks:
            if isinstance(block, Paragraph):
                body.append(f"<p>{_inline(block.text)}</p>")
            elif isinstance(block, Table):
                body.append(_html_table(block))
            elif isinstance(block, Bullets):
                items = "".join(f"<li>{_inline(item)}</li>" for item in block.items)
                body.append(f'<div class="warnings"><ul>{items}</ul></div>' if block.warning
                            else f"<ul>{items}</ul>")
            elif isinstance(block, Figure):
                data = base64.b64encode(block.png).decode("ascii")
                alt = html.escape(block.caption)
                body.append(f'<figure><img alt="{alt}" src="data:image/png;base64,{data}">'
                            f"<figcaption>{_inline(block.caption)}</figcaption></figure>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(document.title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")
