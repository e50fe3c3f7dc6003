"""Turn the book's executed MyST notebooks into notebooks that read right in plain Jupyter.

The pages are MyST Markdown notebooks.  Their Markdown uses roles and directives
(``{glue:text}``, ``{cite}``, ``{prf:theorem}``, ``:::{note}``, ``{ref}``, ...) that
only Sphinx understands; plain Jupyter shows them raw.  This module rewrites
every Markdown cell into plain Markdown (CommonMark + ``$``-math, the dialect
Jupyter renders) using what the build knows:

* glued values, read from the executed notebook's own outputs
  (``application/papermill.record/*``);
* reference targets (section titles, figure, table, equation and theorem
  numbers), collected from the Sphinx environment into a :class:`Book`;
* the bibliography, for citations and a closing list of references.

Code cells are kept, with their outputs, except the records glue leaves
behind (Jupyter has no renderer for them) and the PDF copies of figures (the
PNG stays).  ``from myst_nb import glue`` is swapped for a stand-in defined in
a first cell (or at the top of the checks cell, when only the checks glue), so
the notebook runs where only ``evalmetrics`` is installed.  A figure is the
output of a visible cell calling a plotting function of the package
(``mystnb.figure`` metadata: its label and caption); the caption becomes a
Markdown cell under it, numbered as in the book.

Theorems, notes and the like become a bold title between two rules
(:func:`titled_block`), never a quoted block: JupyterLab keeps a quote's ``>``
inside display math.  TeX's own markup of the bibliography (````exact''``,
``--``) becomes plain text, and :func:`leftover_myst` finds any that is left.

Every notebook opens with a header (the chapter's number and title, the book's
version, the website page) and a cell that installs the package's wheel where it
is missing.  The hidden cells that check the text's numbers move to one folded
"checks" cell at the end, each unless a cell that stays needs it in place
(:func:`gather_checks`; the book's pages are written so that none does).  There
each runs as a block of ``evalmetrics.handbook.pages.Checks``: a failure is
listed, not raised, and the note above the cell says which checks read the
reader's values and which compute from the book's own data.  A reference to
another page links to that page's notebook, a sibling file.  The book's LaTeX
macros are written out, since KaTeX front ends keep no ``\\newcommand`` between
cells.

The conversion is pure (no Sphinx needed); ``_ext/evalmetrics_book.py`` feeds
it at the end of every HTML build, and ``tests/test_book_notebooks.py`` tests
it on small inputs and on every built notebook.
"""

from __future__ import annotations

import ast
import base64
import copy
import mimetypes
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

__all__ = [
    "Book",
    "Citation",
    "GLUE_STAND_IN",
    "LATEX_LEFTOVER_PATTERNS",
    "LEFTOVER_PATTERNS",
    "convert_markdown",
    "convert_notebook",
    "exercise_marks",
    "expand_macros",
    "figure_caption_cell",
    "figure_options",
    "gather_checks",
    "install_source",
    "notebook_header",
    "glue_data",
    "leftover_myst",
    "solutions_notebook",
    "split_exercises",
    "titled_block",
]

# The raw MyST a converted notebook must never show (the tests scan for these).
LEFTOVER_PATTERNS = {
    "role": re.compile(r"\{[a-zA-Z][\w:+-]*\}`"),
    "directive fence": re.compile(r"^\s*(`{3,}|:{3,})\s*\{", re.MULTILINE),
    "colon fence": re.compile(r"^\s*:::", re.MULTILINE),
    "label line": re.compile(r"^\s*\([\w:.-]+\)=\s*$", re.MULTILINE),
    "prf": re.compile(r"\{prf:"),
    "glue": re.compile(r"\{glue"),
    "cite": re.compile(r"\{cite"),
}
# LaTeX that only TeX reads, outside math and code (from .bib fields, mostly): the
# tests and the build scan for these too.
LATEX_LEFTOVER_PATTERNS = {
    "latex quotes": re.compile(r"``|''"),
    "latex command": re.compile(r"\\(?:[a-zA-Z]+\s*\{|[\"'`^~=.][a-zA-Z{])"),
    "latex dashes": re.compile(r"(?<=\w)---?(?=\w)"),
    "latex tie": re.compile(r"[\w.,]~\w"),
}

GLUE_STAND_IN = '''\
# The book pastes values into its text with myst_nb.glue; this stand-in keeps the
# notebook running where myst_nb is not installed (glue(name, value) just shows
# the value unless display=False).
try:
    from myst_nb import glue
except ImportError:
    def glue(name, variable, display=True):
        if display:
            from IPython.display import display as _show
            _show(variable)
'''

_GLUE_IMPORT = re.compile(r"^(\s*)from\s+myst_nb\s+import\s+glue\s*$", re.MULTILINE)
_RECORD_PREFIX = "application/papermill.record/"
# Outputs Jupyter shows anyway in a better form (PNG), or cannot show at all.
_DROP_MIMES = ("application/pdf",)
# An output the book's kernels made in forms for the website and the PDF only (an explorer
# of evalmetrics.plotting.explorers: tools/ipython_startup.py) carries what a reader's kernel
# outputs in the metadata of its HTML; the notebook gets that instead.
_JUPYTER_FORM = "jupyter"

_ADMONITION_TITLES = {
    "note": "Note",
    "tip": "Tip",
    "hint": "Hint",
    "important": "Important",
    "warning": "Warning",
    "caution": "Caution",
    "attention": "Attention",
    "danger": "Danger",
    "error": "Error",
    "seealso": "See also",
    "todo": "To do",
}
# Directives whose title is their argument (the body is the content).
_TITLED_BLOCKS = {"admonition", "dropdown", "sidebar", "margin", "topic", "card",
                  "grid-item-card", "tab-item", "rubric"}
_QUOTES = {"epigraph", "pull-quote", "highlights"}
_DROPPED = {"toctree", "tableofcontents", "index", "only", "raw", "eval-rst",
            "glossary"}


# The marks of an exercise, from its ``:class:`` (one level, one kind; tests/test_exercises.py).
EXERCISE_LEVELS = {"level-1": "quick", "level-2": "medium", "level-3": "hard"}
EXERCISE_KINDS = {"kind-hand": "by hand", "kind-prove": "proof or derivation",
                  "kind-code": "with the package", "kind-figure": "reading a figure",
                  "kind-critique": "critique"}


#: The same marks in the translated editions (``_ext/evalmetrics_exercises.py``).
EXERCISE_MARKS_TRANSLATED = {
    "zh_CN": {"quick": "简单", "medium": "中等", "hard": "较难", "by hand": "手算",
              "proof or derivation": "证明或推导", "with the package": "用本包计算",
              "reading a figure": "读图", "critique": "评析"},
}


def exercise_marks(classes: str, language: str = "en") -> str:
    """``"Quick · by hand"`` for ``:class: level-1 kind-hand`` (``"简单 · 手算"`` in
    ``zh_CN``); empty without marks."""
    names = classes.split()
    words = [EXERCISE_LEVELS[n] for n in names if n in EXERCISE_LEVELS]
    words += [EXERCISE_KINDS[n] for n in names if n in EXERCISE_KINDS]
    if language in EXERCISE_MARKS_TRANSLATED:
        return " · ".join(EXERCISE_MARKS_TRANSLATED[language][word] for word in words)
    return " · ".join(words).capitalize()


@dataclass(frozen=True)
class Citation:
    """One bibliography entry, reduced to what a citation and a reference list show."""

    authors: str  # "Fawcett", "Davis and Goadrich", "Hanley et al."
    year: str
    reference: str  # the full entry as one Markdown line


@dataclass
class Book:
    """What a page's Markdown may refer to, collected from the whole book.

    ``targets`` maps a label to ``(docname, text)``: the text a bare ``{ref}``
    shows (a section title, or a figure caption).  ``numbers`` maps a label to
    the number Sphinx gave it, for ``{numref}`` (with its kind: ``figure``,
    ``table``, ``code-block``), ``{eq}`` (kind ``equation``) and ``{prf:ref}``
    (kind ``theorem``, ``lemma``, ...).
    """

    targets: dict[str, tuple[str, str]] = field(default_factory=dict)
    numbers: dict[str, tuple[str, str]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    citations: dict[str, Citation] = field(default_factory=dict)
    numfig_format: dict[str, str] = field(default_factory=lambda: {
        "figure": "Figure %s", "table": "Table %s", "code-block": "Listing %s",
        "section": "Section %s"})
    eqref_format: str = "({number})"
    macros: dict[str, str] = field(default_factory=dict)  # MathJax macros of the book
    # For the header of every notebook: the chapter numbers (docname -> "6"), the
    # book's version, the website's address ("" when unknown: the header then names
    # the page's path in the site) and the wheel of the package the zip ships.
    chapters: dict[str, str] = field(default_factory=dict)
    version: str = ""
    website: str = ""
    wheel: str = ""


# --------------------------------------------------------------------- glue


def glue_data(nb) -> dict[str, dict]:
    """Every glued value of an executed notebook: name -> {mime type: data}."""
    found = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("scrapbook")
            if not meta:
                continue
            prefix = len(meta.get("mime_prefix", ""))
            found[meta["name"]] = {k[prefix:]: v for k, v in output.get("data", {}).items()}
    return found


def _plain_value(text: str):
    """The Python value behind a text/plain repr, as myst-nb's glue:text reads it."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _format_text(data: dict, spec: str) -> str:
    text = data.get("text/plain")
    if text is None:
        raise KeyError("no text/plain")
    value = _plain_value(text)
    # myst-nb formats the literal value; a repr with quotes is shown without them.
    return format(value, spec) if spec else (value if isinstance(value, str) else text)


# ----------------------------------------------------------------- converter


class _Page:
    """The conversion of one notebook: its glue values, attachments and citations."""

    def __init__(self, book: Book, docname: str, glue: dict, srcdir: Path | None):
        self.book = book
        self.docname = docname
        self.glue = glue
        self.srcdir = srcdir
        self.cited: list[str] = []
        self.attachments: dict[str, dict] = {}
        self.problems: list[str] = []

    # ---- pieces

    def attach(self, name: str, mime: str, data: str) -> str:
        key = re.sub(r"[^\w.-]", "-", name)
        self.attachments[key] = {mime: data}
        return f"attachment:{key}"

    def attach_file(self, path: str) -> str:
        """Embed an image file of the page, so the notebook carries it."""
        base = Path(self.srcdir or ".") / Path(self.docname).parent
        file = (base / path).resolve()
        mime = mimetypes.guess_type(file.name)[0] or "image/png"
        try:
            raw = file.read_bytes()
        except OSError:
            self.problems.append(f"image {path!r} not found")
            return path
        if mime == "image/svg+xml":
            return self.attach(file.name, mime, raw.decode("utf-8"))
        return self.attach(file.name, mime, base64.b64encode(raw).decode("ascii"))

    def glue_markdown(self, key: str, inline: bool) -> str:
        """A glued value shown as Markdown, picking the richest form Jupyter renders."""
        if key not in self.glue and ":" in key:  # key:format (glue:md's MyST flavour)
            key = key.rsplit(":", 1)[0]
        data = self.glue.get(key)
        if data is None:
            self.problems.append(f"glue key {key!r} not found")
            return key
        if "text/markdown" in data:  # MyST itself (a {table} directive, roles): convert it
            return "\n".join(self.blocks(data["text/markdown"].strip().split("\n")))
        for mime in ("image/png", "image/jpeg", "image/svg+xml"):
            if mime in data:
                ext = mime.split("/")[1].split("+")[0]
                return f"![{key}]({self.attach(f'{key}.{ext}', mime, data[mime])})"
        if "text/html" in data and not inline:
            return data["text/html"].strip()
        if "text/latex" in data:
            latex = data["text/latex"].strip()
            return latex if latex.startswith("$") else f"${latex}$"
        return _format_text(data, "")

    def number(self, label: str, kinds: tuple[str, ...] = ()) -> tuple[str, str] | None:
        found = self.book.numbers.get(label)
        if found is None or (kinds and found[0] not in kinds):
            return None
        return found

    def elsewhere(self, label: str) -> str:
        """`` in *Title*`` for a target on another page, linked to that page's notebook."""
        doc = self.book.targets.get(label, ("", ""))[0]
        if doc and doc != self.docname and doc in self.book.titles:
            return " in " + self.link_to(doc, f"*{self.book.titles[doc]}*")
        return ""

    def link_to(self, doc: str, text: str) -> str:
        """``text`` as a link to ``doc``'s notebook, beside this one (in the website's
        ``_sources`` and in the zip alike), and to its website page when the address
        is known; plain ``text`` for this page's own targets."""
        if not doc or doc == self.docname:
            return text
        sibling = os.path.relpath(doc, Path(self.docname).parent or ".") + ".ipynb"
        link = f"[{text}]({Path(sibling).as_posix()})"
        if self.book.website:
            link += f" ([website]({page_address(self.book, doc)}))"
        return link

    def cite(self, keys: str, textual: bool, brackets: bool = True) -> str:
        parts = []
        for key in (k.strip() for k in keys.split(",")):
            key = re.sub(r"^\{[^}]*\}|\{[^}]*\}$", "", key)  # drop pre/post notes
            entry = self.book.citations.get(key)
            if entry is None:
                self.problems.append(f"citation {key!r} not in the bibliography")
                parts.append(key)
                continue
            if key not in self.cited:
                self.cited.append(key)
            parts.append(f"{entry.authors} ({entry.year})" if textual
                         else f"{entry.authors}, {entry.year}")
        if textual or not brackets:  # {cite:alp} is parenthetical without the brackets
            return "; ".join(parts)
        return "(" + "; ".join(parts) + ")"

    # ---- inline roles: the ones the book uses, each in _ROLES below

    def role(self, name: str, text: str) -> str:
        convert = _ROLES.get(name)
        if convert is None:
            raise ValueError(f"{self.docname}: role {{{name}}} is not one the book uses "
                             f"({', '.join(sorted(_ROLES))}); add its conversion to _ROLES in "
                             "tools/notebooks.py")
        explicit = re.match(r"^(.*?)\s*<([^<>]+)>$", text, re.DOTALL)
        title, target = (explicit.group(1), explicit.group(2)) if explicit else (None, text)
        return convert(self, text, title, target)

    def glue_text(self, text: str, title: str | None, target: str) -> str:
        key, _, spec = text.rpartition(":") if ":" in text else (text, "", "")
        if key not in self.glue:
            self.problems.append(f"glue key {key!r} not found")
            return key
        try:
            return _format_text(self.glue[key], spec)
        except (KeyError, ValueError, TypeError) as error:
            self.problems.append(f"glue key {key!r} cannot be formatted with {spec!r}: {error}")
            return key

    def glue_md(self, text: str, title: str | None, target: str) -> str:
        return self.glue_markdown(text.rsplit(":", 1)[0] if ":" in text else text, inline=True)

    def ref(self, text: str, title: str | None, target: str) -> str:
        found = self.book.targets.get(target)
        if found is None:
            if title:
                return title
            self.problems.append(f"reference {target!r} not found")
            return target
        numbered = self.number(target, ("exercise",))
        if numbered and not title:  # the website says "Exercise 5.2": so does the notebook
            return f"Exercise {numbered[1]}" + self.elsewhere(target)
        return self.link_to(found[0], title or found[1])

    def numref(self, text: str, title: str | None, target: str) -> str:
        found = self.number(target)
        if found is None:
            self.problems.append(f"numbered target {target!r} not found")
            return title or target
        kind, number = found
        if title:
            return (title.replace("%s", number).replace("{number}", number)
                    .replace("{name}", self.book.targets.get(target, ("", ""))[1]))
        return self.book.numfig_format.get(kind, "%s").replace("%s", number) + self.elsewhere(target)

    def eq(self, text: str, title: str | None, target: str) -> str:
        if title:
            return title
        found = self.number(target, ("equation",))
        if found is None:
            self.problems.append(f"equation {target!r} not found")
            return target
        return self.book.eqref_format.format(number=found[1]) + self.elsewhere(target)

    def prf_ref(self, text: str, title: str | None, target: str) -> str:
        if title:
            return title
        found = self.number(target)
        if found is None:
            self.problems.append(f"proof target {target!r} not found")
            return target
        return f"{found[0].title()} {found[1]}".strip() + self.elsewhere(target)

    def doc(self, text: str, title: str | None, target: str) -> str:
        doc = str((Path(self.docname).parent / target).as_posix())
        doc = re.sub(r"\.(md|ipynb)$", "", doc).lstrip("./")
        if doc not in self.book.titles and target in self.book.titles:
            doc = target
        found = self.book.titles.get(doc)
        if found is None:
            if title:
                return title
            self.problems.append(f"document {target!r} not found")
            return target
        return self.link_to(doc, title or found)

    def py_ref(self, text: str, title: str | None, target: str, call: bool = False) -> str:
        # A link to the reference: the name as the website shows it, in code
        # ("~" keeps the last part; functions get their parentheses).
        shown = title or (target[1:].rpartition(".")[2] if target.startswith("~") else target)
        return f"`{shown}()`" if call and not title else f"`{shown}`"

    def inline(self, text: str) -> str:
        """Rewrite roles, labelled links and ``$$ (label)`` outside of code spans."""
        # Scan left to right: a role is `{name}` + a backtick run; any other backtick
        # run opens a code span, kept verbatim up to the next run of the same length.
        out, i = [], 0
        role = re.compile(r"\{([a-zA-Z][\w:+-]*)\}(`+)")
        while i < len(text):
            found = role.match(text, i)
            if found:
                close = text.find(found.group(2), found.end())
                if close > found.end():
                    out.append(self.role(found.group(1), text[found.end():close].strip()))
                    i = close + len(found.group(2))
                    continue
            if text[i] == "`":
                run = re.match(r"`+", text[i:]).group(0)
                close = re.compile(rf"(?<!`){run}(?!`)").search(text, i + len(run))
                end = close.end() if close else i + len(run)
                out.append(text[i:end])
                i = end
                continue
            out.append(text[i])
            i += 1
        joined = "".join(out)

        def link(match: re.Match) -> str:
            label_text, target = match.group(1), match.group(2)
            bare = target.lstrip("#")
            if bare in self.book.targets:
                doc, text = self.book.targets[bare]
                return self.link_to(doc, label_text or text)
            if re.fullmatch(r"[\w./-]+\.md(#.*)?", target):
                doc = os.path.normpath(os.path.join(str(Path(self.docname).parent),
                                                    target.split("#")[0][:-3]))
                return self.link_to(doc, label_text) if doc in self.book.titles else \
                    label_text or target
            return match.group(0)

        return re.sub(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)", link, joined)

    # ---- blocks

    def blocks(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        prose: list[str] = []  # plain lines, rewritten together: a role may span lines

        def flush():
            if prose:
                out.extend(self.inline("\n".join(prose)).split("\n"))
                prose.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            fence = re.match(r"^(\s*)(`{3,}|:{3,})\s*(\{([^}]+)\})?\s*(.*)$", line)
            if fence and not (fence.group(2)[0] == ":" and not fence.group(3)):
                flush()
                indent, marks, _, name, argument = fence.groups()
                end = i + 1
                closer = re.compile(rf"^\s*{re.escape(marks[0])}{{{len(marks)},}}\s*$")
                while end < len(lines) and not closer.match(lines[end]):
                    end += 1
                body = lines[i + 1:end]
                i = end + 1
                if name is None:  # a plain code block: kept verbatim
                    out.extend([line, *body, indent + marks])
                    continue
                options, body = _split_options(body)
                out.extend(self.directive(name.strip(), argument.strip(), options, body))
                continue
            if re.match(r"^\s*\([\w:.-]+\)=\s*$", line) or re.match(r"^\s*%", line):
                i += 1  # a target label, a MyST comment
                continue
            if line.strip().startswith("$$"):
                flush()
                end = i
                if "$$" not in line.strip()[2:]:  # the block goes on to a closing $$
                    end = i + 1
                    while end < len(lines) and "$$" not in lines[end]:
                        end += 1
                block = lines[i:end + 1]
                i = end + 1
                out.extend(self.dollar_math(block))
                continue
            if not line.strip():
                flush()
                out.append(line)
            else:
                prose.append(line)
            i += 1
        flush()
        return out

    def dollar_math(self, block: list[str]) -> list[str]:
        text = "\n".join(block)
        labelled = re.search(r"\$\$\s*\(([\w:.-]+)\)\s*$", text)
        if labelled:
            text = text[:labelled.start()] + "$$"
            found = self.number(labelled.group(1), ("equation",))
            if found:
                text = text[:-2].rstrip() + f"\n\\tag{{{found[1]}}}\n$$"
        return text.split("\n")

    def directive(self, name: str, argument: str, options: dict, body: list[str]) -> list[str]:
        label = options.get("label") or options.get("name")
        if name == "math":
            return self.math_block(body, label)
        if name in ("glue:figure", "glue", "glue:", "glue:any", "glue:md", "glue:math"):
            return self.glue_block(name, argument, options, body)
        if name in ("figure", "image"):
            caption = self.blocks(body) if name == "figure" else []
            alt = options.get("alt", "")
            image = f"![{alt}]({self.attach_file(argument)})"
            return [image, "", *self.caption(caption, label, "figure")]
        if name.startswith("prf:"):
            return self.theorem(name[4:], argument, label, body)
        if name == "exercise":
            return self.exercise(argument, label, options, body)
        if name in ("solution", "solution-start"):
            return self.solution(argument, body)
        if name == "solution-end":
            return []
        if name in _ADMONITION_TITLES or name in _TITLED_BLOCKS or name in _QUOTES:
            content = self.blocks(([argument] if argument and name in _ADMONITION_TITLES
                                   else []) + body)
            title = (_ADMONITION_TITLES.get(name) if name in _ADMONITION_TITLES
                     else self.inline(argument))
            if name in ("tab-item", "grid-item-card", "card", "rubric", "topic"):
                return ([f"**{title}**", ""] if title else []) + content + [""]
            return titled_block(f"**{title}.**" if title and not title.endswith(
                (".", "?", "!", ":")) else f"**{title}**" if title else "", content)
        if name in ("code-block", "code", "sourcecode", "literalinclude"):
            return [f"```{argument}", *body, "```"]
        if name in ("table", "list-table"):
            table = _list_table(body) if name == "list-table" else self.blocks(body)
            cap = [self.inline(argument)] if argument else []
            return [*self.caption(cap, label, "table", before=True), "", *table, ""]
        if name == "bibliography":
            return self.references(all_entries=True)
        if name in _DROPPED:
            return []
        # sphinx-design containers (tab-set, grid, ...) and anything else: their content.
        return self.blocks(body)

    def caption(self, caption: list[str], label: str | None, kind: str,
                before: bool = False) -> list[str]:
        found = self.number(label, (kind,)) if label else None
        prefix = (self.book.numfig_format.get(kind, "%s").replace("%s", found[1])
                  if found else "")
        text = " ".join(x.strip() for x in caption if x.strip())
        if not text and not prefix:
            return []
        return [f"*{prefix}{': ' if prefix and text else ''}{text}*"] + ([] if before else [""])

    def math_block(self, body: list[str], label: str | None) -> list[str]:
        parts = [p.strip() for p in "\n".join(body).strip().split("\n\n") if p.strip()]
        tex = " \\\\\n".join(parts)
        if ("\\\\" in tex and not tex.lstrip().startswith("\\begin")):
            tex = "\\begin{split}\n" + tex + "\n\\end{split}"
        found = self.number(label, ("equation",)) if label else None
        if found:
            tex += f"\n\\tag{{{found[1]}}}"
        return ["$$", *tex.split("\n"), "$$"]

    def glue_block(self, name: str, key: str, options: dict, body: list[str]) -> list[str]:
        if name == "glue:math":
            data = self.glue.get(key, {})
            latex = data.get("text/latex", "").strip().strip("$")
            if not latex:
                self.problems.append(f"glue key {key!r} has no LaTeX")
            return self.math_block([latex], options.get("label"))
        shown = self.glue_markdown(key, inline=False)
        if name != "glue:figure":
            return [shown, ""]
        caption = self.blocks(body)
        return [shown, "", *self.caption(caption, options.get("name"), "figure")]

    def theorem(self, kind: str, argument: str, label: str | None, body: list[str]) -> list[str]:
        content = _trim(self.blocks(body))
        if kind == "proof":
            if content and not content[-1].rstrip().endswith("$$") and \
                    not re.match(r"^\s*([-*+]|\d+\.|\|)", content[-1]):
                content[-1] = content[-1].rstrip() + " ∎"
            else:
                content += ["", "∎"]
            if content:
                content[0] = "*Proof.* " + content[0]
            return content + [""]
        found = self.number(label, (kind,)) if label else None
        heading = kind.title() + (f" {found[1]}" if found else "")
        if argument:
            heading += f" ({self.inline(argument)})"
        return titled_block(f"**{heading}.**", content)

    def exercise(self, title: str, label: str | None, options: dict,
                 body: list[str]) -> list[str]:
        found = self.number(label, ("exercise",)) if label else None
        heading = "Exercise" + (f" {found[1]}" if found else "")
        if title:
            heading += f" ({self.inline(title)})"
        marks = exercise_marks(options.get("class", ""))
        # (a cell of its own, split_exercises: its title line is enough to frame it)
        return [f"**{heading}.**" + (f" *{marks}*" if marks else ""), "",
                *_trim(self.blocks(body)), ""]

    def solution(self, target: str, body: list[str]) -> list[str]:
        found = self.number(target, ("exercise",))
        heading = "Solution to Exercise" + (f" {found[1]}" if found else "")
        return [f"**{heading}.**", "", *_trim(self.blocks(body)), ""]

    def references(self, all_entries: bool = False) -> list[str]:
        # By authors and year, in the order of the website's and the PDF's bibliography.
        keys = (sorted(self.book.citations, key=lambda k: (self.book.citations[k].authors.lower(),
                                                           self.book.citations[k].year))
                if all_entries else self.cited)
        return [f"* {self.book.citations[k].reference}" for k in keys] + [""]

    def convert(self, source: str) -> str:
        text = "\n".join(self.blocks(source.split("\n"))).strip("\n")
        # "(5.3) in {ref}`imbalance`": the text names the page itself, so the "in *Title*"
        # a reference to another page gets would say it twice.
        text = _NAMED_TWICE.sub(r"\2", text)
        return expand_macros(text, self.book.macros)


# The roles of the book's Markdown, and how each reads in plain Markdown.  A role
# not listed here fails the conversion: a new one gets its conversion first.
_ROLES = {
    "glue:text": _Page.glue_text,
    "glue:md": _Page.glue_md,
    "cite": lambda page, text, title, target: page.cite(text, textual=False),
    "cite:t": lambda page, text, title, target: page.cite(text, textual=True),
    "cite:alp": lambda page, text, title, target: page.cite(text, textual=False, brackets=False),
    "ref": _Page.ref,
    "doc": _Page.doc,
    "numref": _Page.numref,
    "eq": _Page.eq,
    "prf:ref": _Page.prf_ref,
    "py:func": lambda page, text, title, target: page.py_ref(text, title, target, call=True),
    "py:class": _Page.py_ref,
}


def _split_options(body: list[str]) -> tuple[dict, list[str]]:
    """Split a directive body into its options (``:key: value`` or YAML) and content."""
    options: dict[str, str] = {}
    if body and body[0].strip() == "---":
        end = next((j for j in range(1, len(body)) if body[j].strip() == "---"), None)
        if end is not None:
            for line in body[1:end]:
                key, _, value = line.partition(":")
                options[key.strip()] = value.strip().strip("\"'")
            return options, _trim(body[end + 1:])
    j = 0
    while j < len(body) and re.match(r"^\s*:[\w-]+:", body[j]):
        key, value = re.match(r"^\s*:([\w-]+):\s*(.*)$", body[j]).groups()
        options[key] = value.strip()
        j += 1
    return options, _trim(body[j:])


def titled_block(heading: str, content: list[str]) -> list[str]:
    """A theorem, a note or a warning in plain Markdown: a rule, its title in bold,
    its text, a rule.

    Not a quoted block (``> ``): JupyterLab keeps the ``>`` of every line of a quote
    inside display math and shows it as a "greater than" sign
    (jupyterlab/jupyterlab#16755).  The blank line before each rule keeps it a rule:
    ``---`` right under a line of text would make that line a heading.
    """
    return ["", "---", "", *([heading, ""] if heading else []), *_trim(content), "", "---", ""]


def _trim(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return list(lines[start:end])


def _list_table(body: list[str]) -> list[str]:
    """A ``{list-table}`` body (``* - a`` rows) as a pipe table; first row is the header."""
    rows: list[list[str]] = []
    for line in body:
        if re.match(r"^\*\s+-\s*", line):
            rows.append([re.sub(r"^\*\s+-\s*", "", line).strip()])
        elif re.match(r"^\s+-\s*", line) and rows:
            rows[-1].append(re.sub(r"^\s+-\s*", "", line).strip())
        elif line.strip() and rows:
            rows[-1][-1] += " " + line.strip()
    if not rows:
        return []
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    out = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
    out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
    return out


def convert_markdown(source: str, book: Book, *, glue: dict | None = None,
                     docname: str = "", srcdir: Path | None = None):
    """Plain Markdown for one Markdown cell; returns ``(text, attachments, problems)``."""
    page = _Page(book, docname, glue or {}, srcdir)
    text = page.convert(source)
    return text, page.attachments, page.problems


def leftover_myst(text: str) -> list[str]:
    """The kinds of raw MyST syntax, or of LaTeX that only TeX reads, still in ``text``
    (empty when it reads right)."""
    # Code is allowed to show MyST (a page may teach it): look at the prose only.
    text = re.sub(r"^(\s*)(`{3,})[^`{\n]*\n.*?^\s*\2\s*$", "", text,
                  flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"(?<![}`])(`+)[^`\n].*?\1", "", text)
    found = [kind for kind, pattern in LEFTOVER_PATTERNS.items() if pattern.search(text)]
    # Math may hold anything TeX (f''(x), \\frac{..}): look at the words only.
    # (inline math may go on over a line break: not over a blank line)
    words = re.sub(r"\$\$.*?\$\$|(?<!\\)\$(?:[^$\n]|\n(?!\s*\n))+?(?<!\\)\$", "", text,
                   flags=re.DOTALL)
    words = re.sub(r"^\s*(\||---\s*$).*$", "", words, flags=re.MULTILINE)  # tables, rules
    return found + [kind for kind, pattern in LATEX_LEFTOVER_PATTERNS.items()
                    if pattern.search(words)]


# ---------------------------------------------------------------- exercises

_EXERCISE_FENCE = re.compile(
    r"^(`{3,}|:{3,})\{(exercise|solution|solution-start|solution-end)\}\s*(.*)$")


def _segments(source: str) -> list[tuple[str, str, list[str]]]:
    """A Markdown cell cut at its exercise and solution blocks: ``(kind, argument, lines)``,
    kind ``text``, ``exercise``, ``solution``, ``solution-start`` or ``solution-end``."""
    lines = source.split("\n")
    out: list[tuple[str, str, list[str]]] = []
    text: list[str] = []
    i = 0
    while i < len(lines):
        fence = _EXERCISE_FENCE.match(lines[i])
        if not fence:
            text.append(lines[i])
            i += 1
            continue
        if text:
            out.append(("text", "", text))
            text = []
        marks, kind, argument = fence.groups()
        closer = re.compile(rf"^{re.escape(marks[0])}{{{len(marks)},}}\s*$")
        end = i + 1
        while end < len(lines) and not closer.match(lines[end]):
            end += 1
        out.append((kind, argument.strip(), lines[i:end + 1]))
        i = end + 1
    if text:
        out.append(("text", "", text))
    return out


def split_exercises(cells: list) -> tuple[list, list[tuple[str, list]]]:
    """Separate a page's solutions from the rest of its cells.

    Returns the page's cells, in which every exercise is a Markdown cell of its own
    followed by an empty code cell for the reader's work, and the solutions as
    ``(exercise label, cells)`` in page order: a ``{solution}`` block is one
    Markdown cell, a gated solution (``solution-start`` ... ``solution-end``) every
    cell between its gates, code cells with their outputs included.
    """
    page: list = []
    solutions: list[tuple[str, list]] = []
    gated: list | None = None  # the cells of the gated solution being collected

    def markdown(lines: list[str]):
        text = "\n".join(_trim(lines))
        return nbformat.v4.new_markdown_cell(text) if text else None

    for cell in cells:
        if cell.cell_type != "markdown":
            (gated if gated is not None else page).append(cell)
            continue
        for kind, argument, lines in _segments(cell.source):
            if kind == "solution-start":
                gated = [c for c in [markdown(lines)] if c is not None]
                solutions.append((argument, gated))
            elif kind == "solution-end":
                gated = None
            elif kind == "solution":
                solutions.append((argument, [markdown(lines)]))
            elif kind == "exercise":
                page.append(markdown(lines))
                work = nbformat.v4.new_code_cell("# Your work for the exercise above.\n")
                work.metadata["tags"] = ["exercise-work"]
                page.append(work)
            else:
                block = markdown(lines)
                if block is not None:
                    (gated if gated is not None else page).append(block)
    return page, solutions


# ------------------------------------------------------------------- checks

CHECKS_INTRO = (
    "## Checks\n\n"
    "The book computes every number its text quotes and checks it against the value the "
    "text gives (`keep(...)`, `assert`); those checks are gathered in the folded cell "
    "below, one numbered block for each check cell of the book. Run it after the "
    "chapter's cells: it does not stop at a failure, and ends with one list of the "
    "checks that failed, or says that all hold.")

# The checks cell: each moved hidden cell a block of Checks (evalmetrics.handbook.pages),
# so that a failure is listed and the next block runs.
CHECKS_HEAD = (
    "# The book's checks of this chapter's numbers, one block per check cell of the\n"
    "# book.  A failed check is recorded and the next block runs; the list of\n"
    "# failures is printed at the end.\n"
    "from evalmetrics.handbook.pages import Checks\n\n"
    "book_checks = Checks()\n")
CHECKS_TAIL = "book_checks.report()"


def _numbers_text(numbers: list[int]) -> str:
    """``1, 3–5 and 7``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words = [f"{r[0]}" if len(r) == 1 else f"{r[0]}\u2013{r[-1]}" for r in runs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def checks_intro(reads: list[list[str]]) -> str:
    """The Markdown above the checks cell: which checks follow the reader's data (with
    the names they read) and which compute from the book's own."""
    follow = [k for k, names in enumerate(reads, start=1) if names]
    own = [k for k, names in enumerate(reads, start=1) if not names]

    def subject(numbers: list[int], other: list[int]) -> tuple[str, bool]:
        if not other:
            return ("All checks", True) if len(numbers) > 1 else ("The check", False)
        return (f"Check{'s' if len(numbers) > 1 else ''} {_numbers_text(numbers)}",
                len(numbers) > 1)

    names = sorted({n for found in reads for n in found})
    shown = ", ".join(f"`{n}`" for n in names[:8]) + (", ..." if len(names) > 8 else "")
    lines = [CHECKS_INTRO, ""]
    if follow:
        who, plural = subject(follow, own)
        lines.append(
            f"* {who} {'read' if plural else 'reads'} values your cells computed ({shown}): "
            "once you change a seed, the data or a parameter above, "
            f"{'they' if plural else 'it'} may fail, which only says that the text's "
            "numbers no longer hold for your version.")
    if own:
        who, plural = subject(own, follow)
        lines.append(
            f"* {who} {'compute' if plural else 'computes'} from the book's own data, "
            f"drawn in the check itself: {'they hold' if plural else 'it holds'} whatever "
            f"you change above, and {'fail' if plural else 'fails'} only if the package "
            "computes differently from the book.")
    return "\n".join(lines)


def _has_code(source: str) -> bool:
    """Whether a cell holds a statement (not only comments and blank lines)."""
    try:
        return bool(ast.parse("\n".join(("pass" if re.match(r"^\s*[%!]", line) else line)
                                         for line in source.split("\n"))).body)
    except SyntaxError:
        return True  # (kept as it is; the checks cell then reports the error)


def _indented(source: str, prefix: str = "    ") -> str:
    """A cell's code as the body of a ``with`` block: every line indented but those
    inside a string of several lines (their text would change)."""
    lines = source.split("\n")
    verbatim: set[int] = set()
    try:
        tree = ast.parse("\n".join(("pass" if re.match(r"^\s*[%!]", line) else line)
                                   for line in lines))
    except SyntaxError:
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.end_lineno > node.lineno \
                and (isinstance(node, ast.JoinedStr) or isinstance(node.value, (str, bytes))):
            verbatim.update(range(node.lineno + 1, node.end_lineno + 1))
    return "\n".join(line if number in verbatim or not line.strip() else prefix + line
                     for number, line in enumerate(lines, start=1))


# Methods that change their object (a random generator's draws change its state):
# a cell calling one on a name changes what that name is for the cells after it.
_MUTATORS = {"append", "extend", "insert", "update", "pop", "remove", "clear", "sort",
             "fill", "setdefault", "add", "discard", "resize", "put", "seed", "shuffle",
             "normal", "uniform", "integers", "random", "choice", "permutation", "binomial",
             "standard_normal", "beta", "poisson", "exponential", "multivariate_normal",
             "bytes", "spawn", "set", "set_state", "bit_generator"}


def _base_name(node) -> str:
    """``x`` for ``x.a.b``, ``x[i].a``, ``x.f().g``."""
    while not isinstance(node, ast.Name):
        node = getattr(node, "value", None) or getattr(node, "func", None)
        if node is None:
            return ""
    return node.id


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _scoped(node, local: frozenset = frozenset()):
    """Every node under ``node`` with the names local to it there: a comprehension's
    loop variables belong to the comprehension (Python 3), not to the cell."""
    yield node, local
    if isinstance(node, _COMPREHENSIONS):
        inner = local | {n.id for g in node.generators for n in ast.walk(g.target)
                         if isinstance(n, ast.Name)}
        first, *_ = node.generators
        yield from _scoped(first.iter, local)  # evaluated in the enclosing scope
        for child in ast.iter_child_nodes(node):
            if child is not first:
                yield from _scoped(child, inner)
        yield from _scoped(first.target, inner)
        for condition in first.ifs:
            yield from _scoped(condition, inner)
        return
    for child in ast.iter_child_nodes(node):
        yield from _scoped(child, local)


def _changed_by_call(call: ast.Call, modules: frozenset, local: frozenset) -> str:
    """The name a method call changes (``rows.append(x)``, ``rng.normal()``), or ""."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in _MUTATORS):
        return ""
    chain, node = [], call.func.value
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Call):
            return ""  # a fresh object: np.random.default_rng(0).normal() changes nothing kept
        if isinstance(node, ast.Attribute):
            chain.append(node.attr)
        node = getattr(node, "value", None)
        if node is None:
            return ""
    if node.id in local:
        return ""
    if node.id in modules:
        # np.sort(x) changes no module; np.random.normal() moves the global generator.
        return node.id if (node.id == "random" or "random" in chain) else ""
    return node.id


def _statements(source: str, modules: frozenset = frozenset()) -> list[tuple[set, set]]:
    """``(names read, names bound)`` of each top-level statement of a code cell.

    Conservative on purpose (a name read anywhere, a function's body included,
    counts as read): it decides which cells may move, and a false alarm only keeps
    a cell where it was.  ``modules`` are the names the notebook binds with
    ``import``: calling a function of a module changes no name (except the legacy
    global random generator)."""
    # IPython syntax (%magic, !shell) is not Python: a line of it reads and binds nothing.
    lines = [("pass" if re.match(r"^\s*[%!]", line) else line) for line in source.split("\n")]
    tree = ast.parse("\n".join(lines))
    out = []
    for statement in tree.body:
        stored, loaded = set(), set()
        for node, local in _scoped(statement):
            if isinstance(node, ast.Name):
                if node.id not in local:
                    (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
            elif isinstance(node, (ast.Attribute, ast.Subscript)) and \
                    not isinstance(node.ctx, ast.Load):
                stored.add(_base_name(node))  # x.a = ..., x[i] = ...: x changes
            elif isinstance(node, ast.Call):
                changed = _changed_by_call(node, modules, local)
                if changed:
                    stored.add(changed)  # rows.append(...), rng.normal(...)
            elif isinstance(node, ast.arg):
                stored.add(node.arg)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                stored.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stored.add(node.name)
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            # x = f(x): the value is read before the target is bound
            reads = {n.id for n, local in _scoped(statement.value)
                     if isinstance(n, ast.Name) and n.id not in local} \
                if statement.value is not None else set()
            if isinstance(statement, ast.AugAssign):
                reads |= stored
            reads |= loaded - stored
        else:
            reads = loaded - stored  # loop variables, arguments
        out.append((reads, stored))
    return out


def _module_names(sources: list[str]) -> frozenset:
    """The names ``import x`` / ``import x as y`` bind in any of these cells."""
    names = set()
    for source in sources:
        lines = [("pass" if re.match(r"^\s*[%!]", line) else line) for line in source.split("\n")]
        try:
            tree = ast.parse("\n".join(lines))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def gather_checks(cells: list, *, tag: str = "remove-cell") -> tuple[list, list[int]]:
    """Move the hidden cells (tagged ``tag``) to one folded "checks" cell at the end.

    A hidden cell moves only when nothing else needs it where it is: no cell that
    stays reads a name it binds, and no later cell rebinds a name it reads (the
    check would then see another value).  In the checks cell each moved cell is
    one block, ``with book_checks.block(n, reads="..."):`` (``reads`` names the
    reader's values it depends on, :func:`checks_intro` says so above the cell),
    and ``book_checks.report()`` lists the failures at its end.  Returns the cells
    and the indices (in ``cells``) of the hidden cells that had to stay: those
    break the rule that hidden cells define no state the visible ones use.
    """
    code = {i: c for i, c in enumerate(cells) if c.cell_type == "code"}
    hidden = {i for i, c in code.items() if tag in c.get("metadata", {}).get("tags", [])}
    if not hidden:
        return cells, []
    flows = {}
    modules = _module_names([c.source for c in code.values()])
    for i, cell in code.items():
        try:
            flows[i] = _statements(cell.source, modules)
        except SyntaxError:
            flows[i] = None
    stay = {i for i in hidden if flows[i] is None}
    while True:
        needed = set(stay)
        binder: dict[str, int] = {}
        for j in sorted(code):
            reads_all, binds_all = set(), set()
            for reads, binds in flows[j] or []:
                for name in reads:
                    source = binder.get(name)
                    if source is not None and source != j and source in hidden \
                            and (j not in hidden or j in stay):
                        needed.add(source)
                reads_all |= {n for n in reads if binder.get(n) != j}
                binds_all |= binds
                binder.update(dict.fromkeys(binds, j))
            if j in hidden:
                # (moved cells after it run after it at the end too: only those staying count)
                later = set().union(*[b for k in code if k > j and (k not in hidden or k in stay)
                                      for _, b in flows[k] or []])
                if reads_all & later:
                    needed.add(j)
        if needed == stay:
            break
        stay = needed
    moved = [i for i in sorted(hidden) if i not in stay]
    if not moved:
        return cells, sorted(stay)
    reads = _reader_names(code, flows, hidden, stay, moved)
    blocks = []
    for number, (i, names) in enumerate(zip(moved, reads), start=1):
        opening = (f'with book_checks.block({number}, reads="{", ".join(names)}"):' if names
                   else f"with book_checks.block({number}):  # the book's own data")
        source = cells[i].source.strip("\n")
        # (a block of comments only, a glue import the conversion commented out, needs a
        # statement)
        blocks.append(f"{opening}\n{_indented(source)}" if _has_code(source)
                      else f"{opening}\n{_indented(source) + chr(10) if source.strip() else ''}"
                           "    pass")
    checks = nbformat.v4.new_code_cell("\n\n".join([CHECKS_HEAD.rstrip("\n"), *blocks,
                                                    CHECKS_TAIL]))
    # No outputs: those of separate cells, under old execution counts, would mislead
    # (glue's records, the usual ones, are dropped anyway).
    checks.outputs = []
    checks.execution_count = max((cells[i].get("execution_count") or 0 for i in moved),
                                 default=None) or None
    checks.metadata["tags"] = ["remove-cell", "checks"]
    # Folded; its output, the list of failures, shows when it runs.
    checks.metadata["jupyter"] = {"source_hidden": True}
    kept = [c for i, c in enumerate(cells) if i not in moved]
    intro = nbformat.v4.new_markdown_cell(checks_intro(reads))
    intro.metadata["tags"] = ["checks"]
    return [*kept, intro, checks], sorted(stay)


def _reader_names(code: dict, flows: dict, hidden: set, stay: set,
                  moved: list[int]) -> list[list[str]]:
    """For each moved hidden cell, the names of the reader's cells it depends on: those
    it reads, and those read by the hidden cells whose results it reads.  Empty for a
    cell that computes from its own data (names bound by an import or a ``def`` are
    the package's, not data)."""
    data: dict[str, set[str]] = {}  # a name -> the reader's names its value comes from
    found = {}
    for j in sorted(code):
        statements = flows[j] or []
        try:
            tree = ast.parse("\n".join(("pass" if re.match(r"^\s*[%!]", line) else line)
                                       for line in code[j].source.split("\n")))
            # the names each statement binds by an import or a def, anywhere in it
            # (the glue stand-in imports or defines glue inside a try)
            defined = [_definitions(node) for node in tree.body]
        except SyntaxError:
            defined = [set()] * len(statements)
        if j in hidden and j not in stay:
            origin: set[str] = set()
            for reads, binds in statements:
                for name in reads:
                    origin |= data.get(name, set())
                for name in binds:
                    data[name] = set(origin)
            found[j] = sorted(origin)
            continue
        for names, (_reads, binds) in zip(defined, statements):
            for name in binds:
                if name in names:
                    data.pop(name, None)
                else:
                    data[name] = {name}
    return [found[i] for i in moved]


def _definitions(statement) -> set[str]:
    """The names a statement binds by ``import`` or ``def``/``class`` (at any depth)."""
    names = set()
    for node in ast.walk(statement):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def page_address(book: Book, docname: str) -> str:
    """The website page of ``docname``: its address, or its path in the site."""
    path = f"{docname}.html"
    return f"{book.website.rstrip('/')}/{path}" if book.website else path


def install_source(book: Book) -> str:
    """The install cell: the wheel shipped beside the notebook, only where evalmetrics
    is missing (re-running the notebook, or running it in the book's own environment,
    must not reinstall anything)."""
    wheel = book.wheel or "evalmetrics-*.whl"
    return (
        "# Run once: installs evalmetrics with what its plots and comparisons need, from\n"
        "# the wheel in evalmetrics-notebooks.zip (keep it beside this notebook).  Nothing\n"
        "# happens where evalmetrics is already installed; restart the kernel after it.\n"
        "import importlib.util\n"
        "\n"
        "if importlib.util.find_spec(\"evalmetrics\") is None:\n"
        f"    %pip install \"{wheel}[ml,plot]\"\n")


def notebook_header(book: Book, docname: str, *, solutions: bool = False) -> list:
    """The two cells every notebook starts with: which chapter of which version of the
    book it is, where its website page is, and the cell that installs the package."""
    title = book.titles.get(docname, Path(docname).name)
    number = book.chapters.get(docname)
    chapter = f"Chapter {number}: {title}" if number else title
    address = page_address(book, docname)
    where = (f"[{address}]({address})" if book.website
             else f"`{address}` in the book's website")
    what = "The worked solutions of the exercises of" if solutions else "The notebook of"
    version = f", version {book.version}" if book.version else ""
    text = "\n".join([
        f"**The evalmetrics handbook{version}.** {what} *{chapter}*.", "",
        f"* The same chapter on the website: {where}.",
        "* To run it you need Python 3.10 or later and the package: the next cell installs it "
        f"from `{book.wheel or 'evalmetrics-*.whl'}`, the wheel in `evalmetrics-notebooks.zip` "
        "(download it from the website: it has every chapter's notebook and the wheel). "
        "In a clone of the repository, `pip install -e \".[ml,plot]\"` instead."])
    header = nbformat.v4.new_markdown_cell(text)
    header.metadata["tags"] = ["notebook-header"]
    install = nbformat.v4.new_code_cell(install_source(book))
    install.metadata["tags"] = ["install"]
    return [header, install]


def convert_notebook(nb, book: Book, *, docname: str, srcdir: Path | None = None):
    """The downloadable form of one executed page; returns ``(notebook, problems)``.

    ``nb`` is the page as myst-nb executed it (outputs included); it is not changed.
    The solutions of its exercises are left out (see :func:`solutions_notebook`).
    """
    nb = copy.deepcopy(nb)
    page = _Page(book, docname, glue_data(nb), srcdir)
    cells, _ = split_exercises(nb.cells)
    # The checks go after everything the reader reads, references included.
    cells, _ = gather_checks(_convert_cells(cells, page))
    return _finish(nb, notebook_header(book, docname) + _stand_in_to_checks(cells)), \
        page.problems


def _stand_in_to_checks(cells: list) -> list:
    """The glue stand-in moved into the checks cell when only the checks glue: the
    reader's part of the notebook then starts with the chapter's own code."""
    def tagged(cell, tag):
        return tag in cell.metadata.get("tags", [])

    stand_in = next((c for c in cells if tagged(c, "glue-stand-in")), None)
    checks = next((c for c in cells if c.cell_type == "code" and tagged(c, "checks")), None)
    if stand_in is None or checks is None or any(
            re.search(r"\bglue\b", c.source) for c in cells
            if c.cell_type == "code" and c is not stand_in and c is not checks):
        return cells
    checks.source = GLUE_STAND_IN + "\n\n" + checks.source
    return [c for c in cells if c is not stand_in]


def solutions_notebook(nb, book: Book, *, docname: str, srcdir: Path | None = None):
    """The worked solutions of a page's exercises as a notebook of their own.

    Returns ``(notebook, problems)``, or ``(None, [])`` for a page without
    exercises.  The notebook opens with the page's code, folded and without its
    outputs (the solutions use what the chapter computed) except its figures, which
    stay under their captions (a solution may point at one); then each exercise is
    repeated with its solution, code cells and outputs included.
    """
    nb = copy.deepcopy(nb)
    page_cells, solutions = split_exercises(nb.cells)
    if not solutions:
        return None, []
    page = _Page(book, docname, glue_data(nb), srcdir)
    statements = {}
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for kind, _, lines in _segments(cell.source):
                if kind == "exercise":
                    options, _ = _split_options(lines[1:-1])
                    statements[options.get("label", "")] = "\n".join(lines)
    title = book.titles.get(docname, Path(docname).name)
    name = Path(docname).name
    cells = [nbformat.v4.new_markdown_cell(
        f"# Solutions: {title}\n\nThe worked solutions of the exercises of *{title}* "
        f"(the notebook `{name}.ipynb`).")]
    setup = [c for c in page_cells if c.cell_type == "code"
             and "exercise-work" not in c.get("metadata", {}).get("tags", [])]
    if setup:
        cells.append(nbformat.v4.new_markdown_cell(
            "The chapter's code comes first, folded, with its figures (the solutions "
            "refer to them): run it once, then the solutions."))
    for cell in setup:
        tags = cell.metadata.get("tags", [])
        cell.metadata["tags"] = [*tags, "chapter-code"]
        if figure_options(cell) is not None and "remove-cell" not in tags:
            # "In Figure 9.1 ...": the figure stays, under its caption, its code folded
            cell.metadata["jupyter"] = {"source_hidden": True}
        else:
            cell.outputs = []
            cell.execution_count = None
            cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
        cells.append(cell)
    for label, solution in solutions:
        if label in statements:
            cells.append(nbformat.v4.new_markdown_cell(statements[label]))
        else:
            page.problems.append(f"solution to {label!r}: no such exercise on the page")
        cells.extend(solution)
    cells = _convert_cells(cells, page)
    return _finish(nb, notebook_header(book, docname, solutions=True) + cells), page.problems


def _convert_cells(cells: list, page: _Page) -> list:
    """Plain-Jupyter cells: Markdown rewritten, outputs cleaned, hidden cells marked."""
    out = []
    needs_glue = False
    for cell in cells:
        if cell.cell_type == "markdown":
            page.attachments = {}
            cell.source = page.convert(cell.source)
            if page.attachments:
                cell["attachments"] = page.attachments
            if not cell.source.strip():
                continue
        elif cell.cell_type == "code":
            if _GLUE_IMPORT.search(cell.source):
                needs_glue = True
                cell.source = _GLUE_IMPORT.sub(
                    r"\1# glue: the stand-in defined above", cell.source)
            cell.outputs = [o for o in (_clean_output(o) for o in cell.get("outputs", []))
                            if o is not None]
            for output in cell.outputs:  # Math(...) and Markdown(...) shown by a cell
                for mime in ("text/latex", "text/markdown"):
                    if isinstance(output.get("data", {}).get(mime), str):
                        output["data"][mime] = expand_macros(output["data"][mime],
                                                             page.book.macros)
            tags = cell.get("metadata", {}).get("tags", [])
            figure = figure_options(cell)
            jupyter = {}
            # A figure's cell stays open whatever the website does with its code: it is
            # the cell a reader changes and re-runs to redraw the figure.
            if "remove-cell" in tags or (figure is None and (
                    "remove-input" in tags or "hide-input" in tags or "hide-cell" in tags)):
                jupyter["source_hidden"] = True
            if "remove-cell" in tags or "remove-output" in tags or "hide-output" in tags \
                    or "hide-cell" in tags:
                jupyter["outputs_hidden"] = True
            if jupyter:
                cell.metadata["jupyter"] = jupyter
            if figure is not None and "remove-cell" not in tags:
                out.append(cell)
                out.append(figure_caption_cell(figure, page))
                continue
        elif cell.cell_type == "raw":
            continue
        out.append(cell)
    if needs_glue:
        setup = nbformat.v4.new_code_cell(GLUE_STAND_IN)
        setup.metadata["jupyter"] = {"source_hidden": True}
        setup.metadata["tags"] = ["glue-stand-in"]
        insert_at = 1 if out and out[0].cell_type == "markdown" else 0
        out.insert(insert_at, setup)
    if page.cited:
        out.append(nbformat.v4.new_markdown_cell(
            "\n".join(["## References", "", *page.references()]).strip()))
    return out


def figure_options(cell) -> dict | None:
    """The ``mystnb.figure`` options of a code cell whose output is a numbered figure
    (``name`` and ``caption``), or ``None``."""
    options = cell.get("metadata", {}).get("mystnb", {}).get("figure")
    return options if isinstance(options, dict) else None


def figure_caption_cell(options: dict, page: _Page):
    """The caption under a figure drawn by a code cell: "*Figure 6.1: ...*", its
    Markdown converted like the page's own."""
    caption = page.blocks(str(options.get("caption", "")).strip().split("\n"))
    lines = page.caption(caption, options.get("name"), "figure")
    cell = nbformat.v4.new_markdown_cell(
        expand_macros("\n".join(lines).strip("\n"), page.book.macros))
    cell.metadata["tags"] = ["figure-caption"]
    return cell


def _finish(nb, cells: list):
    """The notebook with these cells, numbered ids and plain-Jupyter metadata."""
    nb.cells = cells
    for index, cell in enumerate(nb.cells):
        cell.pop("id", None)
        cell["id"] = f"cell-{index}"
        if cell.cell_type == "code":
            cell.setdefault("execution_count", None)
    nb.nbformat, nb.nbformat_minor = 4, 5
    nb.metadata.pop("mystnb", None)
    nb.metadata.pop("jupytext", None)
    return nb


_NAMED_TWICE = re.compile(r" in \[\*[^\]]*\*\]\(([^)\s]+)\)( in \[[^\]]*\]\(\1\))")

_CODE = re.compile(r"^(\s*)(`{3,}|~{3,})[^\n]*\n.*?^\s*\2\s*$|(`+)[^`].*?(?<!`)\3(?!`)",
                   re.MULTILINE | re.DOTALL)


def expand_macros(text: str, macros: dict) -> str:
    """``text`` with the book's LaTeX macros written out (``\\AUC`` becomes
    ``\\operatorname{AUC}``), code left alone.

    Jupyter front ends that typeset with KaTeX (VS Code, Colab) do not keep a
    ``\\newcommand`` from one cell to the next, so the notebooks use none.
    """
    if not macros:
        return text
    names = sorted(macros, key=len, reverse=True)
    # (after an even run of backslashes only: in "\\\\AUC" the \\ is a line break)
    pattern = re.compile(r"(?<!\\)((?:\\\\)*)\\(" + "|".join(map(re.escape, names))
                         + r")(?![A-Za-z])")

    def expand(match: re.Match) -> str:
        body = macros[match.group(2)]
        if isinstance(body, (list, tuple)):  # MathJax form [definition, number of arguments]
            raise ValueError(f"macro \\{match.group(2)} takes arguments: expand_macros "
                             "writes out macros without arguments only")
        # Braced when it has a sub- or superscript: \cFP_i must not be c_{FP}_i.
        return match.group(1) + ("{" + body + "}" if re.search(r"[_^]", body) else body)

    def outside_code(chunk: str) -> str:
        # A macro may use another one: expand until nothing changes.
        for _ in range(10):
            new = pattern.sub(expand, chunk)
            if new == chunk:
                break
            chunk = new
        return chunk

    out, last = [], 0
    for code in _CODE.finditer(text):
        out.append(outside_code(text[last:code.start()]))
        out.append(code.group(0))
        last = code.end()
    out.append(outside_code(text[last:]))
    return "".join(out)


def _clean_output(output):
    """An output as plain Jupyter should see it, or None if nothing is left."""
    if output.get("metadata", {}).get("scrapbook"):
        meta = output["metadata"]["scrapbook"]
        if meta.get("mime_prefix"):
            return None  # glue(..., display=False): nothing was shown in the book either
        output = copy.deepcopy(output)
        output["metadata"].pop("scrapbook")
    jupyter = output.get("metadata", {}).get("text/html", {})
    if isinstance(jupyter, dict) and isinstance(jupyter.get(_JUPYTER_FORM), dict):
        output = copy.deepcopy(output)
        output["data"] = jupyter[_JUPYTER_FORM]["data"]
        output["metadata"] = jupyter[_JUPYTER_FORM]["metadata"]
        return output
    if "data" in output:
        output = copy.deepcopy(output)
        for mime in _DROP_MIMES:
            if len(output["data"]) > 1:
                output["data"].pop(mime, None)
                output.get("metadata", {}).pop(mime, None)
    return output


# ------------------------------------------------------------ bibliography


def citations_from_bibtex(paths) -> dict[str, Citation]:
    """Author-year citations and one-line references for every entry of the .bib files."""
    from pybtex.database import parse_file

    found: dict[str, Citation] = {}
    for path in paths:
        data = parse_file(str(path))
        for key, entry in data.entries.items():
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            # "van Rijsbergen": the particle belongs to the name the text cites.
            lasts = [_tex_text(" ".join(p.prelast_names + p.last_names)) for p in people]
            if len(lasts) == 1:
                authors = lasts[0]
            elif len(lasts) == 2:
                authors = f"{lasts[0]} and {lasts[1]}"
            elif lasts:
                authors = f"{lasts[0]} et al."
            else:
                authors = _tex_text(entry.fields.get("organization", key))
            year = entry.fields.get("year", "n.d.")
            full_names = [_tex_text(" ".join(p.first_names + p.middle_names + p.prelast_names
                                             + p.last_names)) for p in people]
            names = (", ".join(full_names[:-1]) + " and " + full_names[-1]
                     if len(full_names) > 1 else "".join(full_names))
            title = _tex_text(entry.fields.get("title", ""))
            venue = _tex_text(entry.fields.get("journal") or entry.fields.get("booktitle")
                              or entry.fields.get("publisher") or entry.fields.get("howpublished", ""))
            details = [_tex_text(entry.fields[k]) for k in ("volume",) if entry.fields.get(k)]
            if entry.fields.get("number"):
                details = [f"{details[0] if details else ''}({_tex_text(entry.fields['number'])})"]
            pages = entry.fields.get("pages", "").replace("--", "–")
            tail = ", ".join(x for x in [venue, *details, pages] if x)
            reference = f"{names} ({year}). {title}." + (f" *{tail}*." if tail else "")
            if entry.fields.get("doi"):
                reference += f" https://doi.org/{entry.fields['doi']}"
            # What the book reads the work for, as the website and the PDF end the entry.
            if entry.fields.get("annote"):
                reference += f" *{_tex_text(entry.fields['annote']).rstrip('.')}.*"
            found[key] = Citation(authors=authors, year=year, reference=reference)
    return found


def _tex_text(text: str) -> str:
    """BibTeX field text without braces and the few TeX escapes .bib files use."""
    text = re.sub(r"\\[a-zA-Z]+\s*\{([^{}]*)\}", r"\1", text)
    text = text.replace("\\&", "&").replace("--", "–").replace("~", " ")
    # TeX's quotes: ``exact'' is “exact”.
    text = text.replace("``", "\u201c").replace("''", "\u201d")
    return text.replace("{", "").replace("}", "")
