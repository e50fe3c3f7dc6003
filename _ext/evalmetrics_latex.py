"""The book on paper: the LaTeX side of the build (``make pdf``, ``make handout``).

Sphinx's LaTeX writer loses some of the book's structure and gets some of it wrong;
this extension puts it back, for the whole book and for a handout alike:

* **Parts.**  Each caption of ``_toc.yml`` becomes a ``\\part`` before its first
  chapter (Sphinx drops the captions when it inlines the toctrees), and the contents
  page is titled "Contents" (Sphinx takes the first caption for it).
* **A preface.**  The landing page is an unnumbered preface: its sections become
  unnumbered headings inside it, so chapter 1 is the first chapter of the toc.
* **One numbering.**  Every chapter sets LaTeX's chapter counter to the number Sphinx
  gave it, so equations, figures and tables (numbered by LaTeX within the chapter)
  and theorems (numbered by Sphinx) carry the website's numbers.  In a handout,
  ``evalmetrics_chapter_numbers`` (written by ``tools/handout.py``) gives each chapter
  its number in the full book, and Sphinx's own numbers are rewritten to match, so
  "Theorem 6.1" is the same theorem in every product.
* **One bibliography**, inside the bibliography chapter, without the alphabetic
  labels ("[Faw06]") that the author-year citations of the text never show.  That
  chapter is back matter, unnumbered like any chapter of the toc that Sphinx gives
  no number (LaTeX numbers every ``\\chapter`` unless told otherwise).
* **Proof boxes** get their title ("Proof") in the box's title bar, and no box
  (a theorem, a proof, an exercise, a note) starts in the last lines of a page.
* **Handouts**: a reference into a chapter that is not in the handout prints as
  "Chapter 14, *Pitfalls*, in the full book"; the landing page is replaced by a
  short title page of the handout's own; the bibliography lists only the works
  the handout cites.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

LATEX_BUILDERS = ("latex",)


def _latex_escape(text: str) -> str:
    """Plain text for a LaTeX argument (titles and captions of this book)."""
    replace = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
               "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
               "^": r"\textasciicircum{}"}
    return "".join(replace.get(c, c) for c in text)


def _raw(latex: str) -> nodes.raw:
    return nodes.raw("", latex, format="latex")


def part_captions(env) -> dict[str, str]:
    """The first document of each captioned toctree of the root, and its caption."""
    site_map = getattr(env, "external_site_map", None)
    if site_map is None:
        return {}
    found = {}
    for tree in site_map.root.subtrees:
        files = tree.files()
        if tree.caption and files:
            found[files[0]] = tree.caption
    return found


def chapter_numbers(app) -> dict[str, int]:
    """Each chapter's number: the full book's in a handout, else Sphinx's own."""
    given = app.config.evalmetrics_chapter_numbers
    if given:
        return {f"book/{page}" if "/" not in page else page: int(n) for page, n in given.items()}
    found = {}
    for docname, numbers in app.env.toc_secnumbers.items():
        top = numbers.get("")
        if top and len(top) == 1:
            found[docname] = top[0]
    return found


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def unnumbered_chapters(app, numbers: dict[str, int]) -> list[str]:
    """The chapters of the root's table of contents that carry no number (the
    bibliography, in a last part without ``numbered``); not the root itself."""
    top = app.env.toctree_includes.get(app.config.root_doc, [])
    return [doc for doc in top if doc not in numbers and doc != app.config.root_doc]


class BookStructure(SphinxPostTransform):
    """Parts, preface, chapter numbers, the bibliography's place and proof titles."""

    default_priority = 760  # after Sphinx's BibliographyTransform (750)
    builders = LATEX_BUILDERS

    def run(self, **kwargs) -> None:
        document = self.document
        if not any(True for _ in document.findall(addnodes.start_of_file)):
            return  # a single page's doctree, not the assembled book
        app = self.app
        numbers = chapter_numbers(app)
        parts = {} if app.config.evalmetrics_handout else part_captions(self.env)
        unnumbered = set(unnumbered_chapters(app, numbers))
        for sof in list(document.findall(addnodes.start_of_file)):
            docname = sof["docname"]
            before, after = [], []
            if docname in parts:
                before.append(_raw(rf"\part{{{_latex_escape(parts[docname])}}}" + "\n"))
            if docname in numbers:
                sof.insert(0, _raw(r"\setcounter{chapter}{" + str(numbers[docname] - 1) + "}\n"))
            elif docname in unnumbered:
                # Back matter (the bibliography): a chapter without a number, in the
                # contents, the heading and the running foot; numbering resumes after it.
                before.append(_raw(r"\edef\evalmetricssecnumdepth{\the\value{secnumdepth}}"
                                   r"\setcounter{secnumdepth}{-1}" + "\n"))
                after.append(_raw(r"\setcounter{secnumdepth}{\evalmetricssecnumdepth}" + "\n"))
            parent = sof.parent
            index = parent.index(sof)
            for offset, node in enumerate(after):
                parent.insert(index + 1 + offset, node)
            for offset, node in enumerate(before):
                parent.insert(index + offset, node)
        self._preface(document)
        self._bibliography(document)
        self._proofs(document)
        self._boxes(document)

    def _preface(self, document) -> None:
        """The landing page's own sections as unnumbered headings of one preface."""
        root = next(iter(document.findall(nodes.section)), None)
        if root is None:
            return
        title = self.app.config.evalmetrics_preface_title
        root.insert(1 if root.children and isinstance(root[0], nodes.title) else 0, _raw(
            r"\chapter*{%s}\addcontentsline{toc}{chapter}{%s}\markboth{%s}{%s}"
            % ((_latex_escape(title),) * 4) + "\n"))
        for section in [c for c in root.children if isinstance(c, nodes.section)]:
            heading = section[0].astext() if isinstance(section[0], nodes.title) else ""
            content = section.children[1:] if heading else section.children
            replacement = [_raw(rf"\section*{{{_latex_escape(heading)}}}" + "\n")] if heading else []
            section.replace_self(replacement + list(content))

    def _bibliography(self, document) -> None:
        """Sphinx gathers the citations at the end of the book: move them into the
        bibliography chapter (``evalmetrics_bibliography_doc``)."""
        from sphinx.builders.latex.nodes import thebibliography

        found = next(iter(document.findall(thebibliography)), None)
        target = self.app.config.evalmetrics_bibliography_doc
        chapter = next((sof for sof in document.findall(addnodes.start_of_file)
                        if sof["docname"] == target), None)
        if found is None or chapter is None:
            return
        section = next(iter(chapter.findall(nodes.section)), None)
        if section is None:
            return
        found.parent.remove(found)
        section.append(found)

    BOX_LINES = 5  # a box's title bar and the first lines of its text

    def _boxes(self, document) -> None:
        """A theorem, proof, exercise or note starts a page rather than leave its title
        bar alone at the foot of one (the box splits after its title, anywhere)."""
        for box in list(document.findall(nodes.Admonition)):
            parent = box.parent
            if parent is None or any(isinstance(a, (nodes.Admonition, nodes.table))
                                     for a in _ancestors(box)):
                continue
            parent.insert(parent.index(box),
                          _raw(r"\Needspace{" + str(self.BOX_LINES) + r"\baselineskip}" + "\n"))

    def _proofs(self, document) -> None:
        """sphinx-proof's proofs are admonitions without a title; LaTeX then takes the
        first word of the proof as the box's title argument.  Give them "Proof"."""
        from sphinx_proof.nodes import proof_node

        words = print_words(self.app.config)

        for proof in document.findall(proof_node):
            for box in proof.findall(nodes.admonition):
                if box.children and isinstance(box[0], nodes.title):
                    continue
                paragraph = next(iter(box.findall(nodes.paragraph)), None)
                prefix = words["proof-prefix"]
                if paragraph is not None and paragraph.children:
                    first = paragraph[0]
                    if isinstance(first, nodes.Text) and first.startswith(prefix):
                        paragraph.replace(first, nodes.Text(str(first)[len(prefix):]))
                box.insert(0, nodes.title("", words["proof"]))


class TablesFit(SphinxPostTransform):
    """Tables that fit the text width.

    Wide tables of numbers are set smaller (``\\small`` from five columns,
    ``\\footnotesize`` with tighter column gaps from seven), and code inside a table
    may break after ``.``, ``_``, ``(``, ``,`` and ``=``: a function's name in a
    column of its own is otherwise one unbreakable word that runs into the next column.
    """

    default_priority = 770
    builders = LATEX_BUILDERS
    # A table of more rows than this, or of more text than a third of a page, may break
    # across pages (longtable): kept whole, it left most of the page before it empty
    # (the notation table, a chapter's first; the decision table of reporting).
    LONG_ROWS = 15
    LONG_TEXT = 1500  # characters
    # After punctuation of a dotted name or a call, and inside a CamelCase name.
    _BREAK_AFTER = re.compile(r"(?<=[._(,=/])(?=[^\s)\]])|(?<=[a-z])(?=[A-Z])")

    def run(self, **kwargs) -> None:
        for table in list(self.document.findall(nodes.table)):
            rows = max((sum(1 for _ in g.findall(nodes.row)) for g in table.findall(nodes.tgroup)),
                       default=0)
            if self._is_long(table, rows) and "longtable" not in table["classes"]:
                table["classes"].append("longtable")
            columns = max((sum(1 for _ in g.findall(nodes.colspec))
                           for g in table.findall(nodes.tgroup)), default=0)
            size = (r"\footnotesize\setlength{\tabcolsep}{3pt}" if columns >= 7
                    else r"\small\setlength{\tabcolsep}{4pt}" if columns >= 5 else "")
            if size:
                parent = table.parent
                index = parent.index(table)
                parent.insert(index + 1, _raw("\\endgroup\n"))
                parent.insert(index, _raw("\\begingroup" + size + "\n"))
            self._column_widths(table)
            self._natural_columns(table)
            for text in list(table.findall(nodes.Text)):
                self._breakable(text)

    def _is_long(self, table: nodes.table, rows: int) -> bool:
        return rows > self.LONG_ROWS or (rows > 6 and len(table.astext()) > self.LONG_TEXT)

    def _column_widths(self, table: nodes.table) -> None:
        """A long table (Sphinx's ``longtable``, here from 16 rows) without widths gets
        columns that never wrap (``l``): give it ragged-right columns whose widths
        follow its text, none narrower than its longest word ("difference")."""
        if "colwidths-given" in table["classes"]:
            return
        for group in table.findall(nodes.tgroup):
            rows = list(group.findall(nodes.row))
            specs = list(group.findall(nodes.colspec))
            if not self._is_long(table, len(rows)) or not specs:
                continue
            cells = [[c for c in row.children if isinstance(c, nodes.entry)] for row in rows]
            head = {id(r) for h in group.findall(nodes.thead) for r in h.findall(nodes.row)}
            heads = [[c for c in row.children if isinstance(c, nodes.entry)] for row in rows if id(row) in head]
            widths = []
            for column in range(len(specs)):
                texts = [row[column].astext() for row in cells if column < len(row)]
                found = sorted(len(t) for t in texts) or [1]
                typical = found[int(0.9 * (len(found) - 1))]
                longest_word = max((len(w) for t in texts for w in t.split() if len(w) <= 14),
                                   default=0)
                # Widths count characters of body text; a header's word is set in bold
                # sans serif, about a fifth wider again ("difference" ran 2.4 pt over).
                header_word = max((len(w) for row in heads if column < len(row)
                                   for w in row[column].astext().split()), default=0)
                widths.append(max(6, round(1.6 * longest_word) + 2, round(2.0 * header_word) + 2,
                                  min(40, typical)))
            total = sum(widths)
            spec = "".join(r">{\raggedright\arraybackslash}p{\dimexpr %.3f\linewidth-2\tabcolsep\relax}"
                           % (w / total) for w in widths)
            parent = table.parent
            parent.insert(parent.index(table), addnodes.tabular_col_spec(spec=spec))
            return

    @staticmethod
    def _cell_length(entry: nodes.Node) -> float:
        """About how many characters wide a cell prints (a formula's source is longer
        than what it shows)."""
        length = 0.0
        for node in entry.findall(nodes.Text):
            inside_math = isinstance(node.parent, (nodes.math, nodes.math_block))
            length += len(node) * (0.5 if inside_math else 1.0)
        return length

    def _natural_columns(self, table: nodes.table) -> None:
        """Columns of short entries (a symbol, a count, "accuracy") at their natural
        width: tabulary would otherwise squeeze them below it, so that a formula runs
        into the next column and a header breaks as "accu-racy"."""
        if "colwidths-given" in table["classes"]:
            return
        for group in table.findall(nodes.tgroup):
            rows = list(group.findall(nodes.row))
            specs = list(group.findall(nodes.colspec))
            if self._is_long(table, len(rows)) or not specs:
                continue  # a long table: _column_widths
            longest = [0.0] * len(specs)
            # a column of numbers written "---:" in Markdown stays right-aligned in print
            aligned = [None] * len(specs)
            body = set(map(id, (r for b in group.findall(nodes.tbody) for r in b.findall(nodes.row))))
            for row in rows:
                entries = [c for c in row.children if isinstance(c, nodes.entry)]
                if len(entries) != len(specs):
                    return  # spanning cells: leave the table to Sphinx
                for column, entry in enumerate(entries):
                    longest[column] = max(longest[column], self._cell_length(entry))
                    if id(row) in body:
                        side = next((c[5:] for c in entry["classes"] if c.startswith("text-")), "")
                        aligned[column] = side if aligned[column] in (None, side) else ""
            sides = [side or "left" for side in aligned]
            if all(width <= 12 for width in longest) and set(sides) == {"left"}:
                return  # every column short and left-aligned: tabulary's own widths fit
            short = {"left": "l", "right": "r", "center": "c"}
            long = {"left": "T", "right": "R", "center": "C"}
            spec = "".join((short if width <= 12 else long)[side]
                           for width, side in zip(longest, sides))
            parent = table.parent
            parent.insert(parent.index(table), addnodes.tabular_col_spec(spec=spec))

    def _breakable(self, text: nodes.Text) -> None:
        """A long dotted name (``sklearn.metrics.confusion_matrix``) may break after
        ``.``, ``_``, ``(``, ``,``, ``=`` and ``/`` and between the words of a CamelCase
        name; as one word it runs into the next column."""
        parent = text.parent
        if parent is None or isinstance(parent, (nodes.math, nodes.math_block, nodes.raw,
                                                 nodes.literal_block)):
            return
        value = str(text)
        if not any(len(word) > 14 for word in value.split()):
            return
        pieces = [p for p in self._BREAK_AFTER.split(value) if p]
        if len(pieces) < 2:
            return
        replacement = []
        for piece in pieces:
            if replacement:
                replacement.append(_raw(r"\allowbreak{}"))
            replacement.append(nodes.Text(piece))
        index = parent.index(text)
        parent.remove(text)
        for offset, node in enumerate(replacement):
            parent.insert(index + offset, node)


class IndexEntries(SphinxPostTransform):
    """The printed index's entries, short enough for its narrow columns.

    The index holds the reference's names (autodoc's entries), each with Sphinx's
    remark in brackets: "accuracy() (in module evalmetrics)" on almost every line,
    "as_matrix() (evalmetrics.BinaryCounts method)", and each module twice ("module,
    evalmetrics.arrays" and "evalmetrics.arrays, module").  Justified in a column a
    third of the page wide, those remarks broke as "(evalmet- rics.GaussianNaiveBayes
    method)" with wide gaps.  Here the remark names only what the name does not say
    ("(BinaryCounts method)", "(class)", nothing for a function of the package), each
    module is listed once, and the preamble sets the index ragged right, unhyphenated.
    """

    default_priority = 790
    builders = LATEX_BUILDERS
    PACKAGE = "evalmetrics"

    def run(self, **kwargs) -> None:
        for node in self.document.findall(addnodes.index):
            node["entries"] = [self._entry(*entry) for entry in node["entries"]]

    def _entry(self, kind, text, target, main, key):
        if kind == "pair" and text.startswith("module; "):
            return ("single", f"{text[len('module; '):]} (module)", target, main, key)
        found = re.match(r"^(.*\S)\s+\(([^()]*)\)$", text)
        if kind != "single" or not found:
            return (kind, text, target, main, key)
        name, remark = found.groups()
        package = re.escape(self.PACKAGE)
        remark = re.sub(rf"^in module {package}$", "", remark)
        remark = re.sub(rf"^in module ({package}\.)", r"in \1", remark)
        remark = re.sub(rf"^(class|exception|data) in {package}(\.[\w.]+)?$", r"\1", remark)
        remark = re.sub(rf"^{package}\.(?:[\w]+\.)*(\w+ (?:method|attribute|property|"
                        r"class method|static method))$", r"\1", remark)
        return (kind, f"{name} ({remark})" if remark else name, target, main, key)


# ------------------------------------------------------------------ handouts


def _handout_missing_reference(app, env, node, contnode):
    """A reference into a chapter the handout leaves out: its number and title in the
    full book (``evalmetrics_foreign_labels`` maps each of its labels to the chapter)."""
    if not app.config.evalmetrics_handout or app.builder.name not in LATEX_BUILDERS:
        return None
    target = node.get("reftarget", "")
    key = target.split(":")[-1] if node.get("refdomain") != "std" or node.get("reftype") != "doc" \
        else target
    page = app.config.evalmetrics_foreign_labels.get(key)
    if page is None and node.get("reftype") == "doc":
        page = app.config.evalmetrics_foreign_labels.get(target.rsplit("/", 1)[-1])
    if page is None:
        return None
    number = app.config.evalmetrics_book_chapters.get(page)
    title = app.config.evalmetrics_book_titles.get(page, page)
    words = print_words(app.config)
    where = _with_title(words["full-book" if number else "full-book-unnumbered"], number, title)
    if node.get("refexplicit") and contnode is not None:
        # "its own chapter" becomes "its own chapter (Chapter 10, *...*, in the full book)"
        opening, closing = words["brackets"]
        return nodes.inline("", "", nodes.Text(contnode.astext() + opening), *where,
                            nodes.Text(closing))
    return nodes.inline("", "", *where)


def _with_title(template: str, number, title: str) -> list[nodes.Node]:
    """A print word's template as nodes: ``*{title}*`` in italics, ``{title}`` plain."""
    emphasised = "*{title}*" in template
    before, _, after = template.replace("*{title}*", "{title}").partition("{title}")
    title_node = nodes.emphasis(title, title) if emphasised else nodes.Text(title)
    return [nodes.Text(before.format(number=number)), title_node,
            nodes.Text(after.format(number=number))]


def _handout_source(app, docname, source) -> None:
    """In a handout: the landing page becomes the handout's title page, and the
    bibliography lists the works the handout cites, not all of them."""
    if not app.config.evalmetrics_handout:
        return
    text = source[0]
    if docname == app.config.root_doc and app.config.evalmetrics_handout_title_page:
        source[0] = _handout_front(app, text)
    elif docname == app.config.evalmetrics_bibliography_doc:
        source[0] = re.sub(r"^:all:\s*$\n?", "", text, flags=re.MULTILINE)


def _handout_front(app, text: str) -> str:
    header = text.split("\n---\n", 1)[0] + "\n---\n" if text.startswith("---") else ""
    label = re.search(r"^\(([\w:.-]+)\)=\s*$", text, re.MULTILINE)
    numbers = app.config.evalmetrics_chapter_numbers
    titles = app.config.evalmetrics_chapter_titles
    items = "\n".join(f"* Chapter {numbers[page]}, *{titles[page]}*" for page in numbers)
    website = app.config.evalmetrics_website
    where = (f"The full book, with every chapter, its notebooks and the package they run, "
             f"is at <{website}>." if website else
             "The full book, with every chapter, its notebooks and the package they run, "
             "is built from the same sources (`make book`, `make pdf`).")
    edition = {STUDENT_EDITION: "This is the student edition: the exercises, without "
                                "their solutions.",
               INSTRUCTOR_EDITION: "This is the instructor edition: the solutions of each "
                                   "chapter's exercises follow them, at the chapter's end."
               }.get(app.config.evalmetrics_edition, "")
    return (f"{header}\n{'(' + label.group(1) + ')=' if label else ''}\n"
            f"# {app.config.project}\n\n"
            f"This handout holds {'these chapters' if len(numbers) > 1 else 'this chapter'} "
            f"of *{app.config.evalmetrics_book_title}*, version {app.config.release}, "
            f"with their numbers in the full book:\n\n{items}\n\n"
            f"{edition + ' ' if edition else ''}{where}\n")


# ------------------------------------------------------------------ front matter


def _front_matter(app) -> str:
    """What a reader of paper needs, on the page after the title (a translated
    edition's print words give it in its language)."""
    words = print_words(app.config)
    if words["about-edition"]:
        return (r"\sphinxmaketitle" "\n"
                r"\thispagestyle{empty}\null\vfill" "\n"
                r"\noindent\textbf{" + _latex_escape(words["about-heading"]) + "} "
                + _latex_escape(words["about-edition"].format(
                    release=app.config.release, date=app.config.evalmetrics_date))
                + "\n\\clearpage\n")
    website = app.config.evalmetrics_website
    web = (f"The website, {website}, shows the same pages with the code of every figure "
           "and number, and offers each chapter as a Jupyter notebook to download." if website
           else "The website built from the same sources shows the same pages with the "
           "code of every figure and number, and offers each chapter as a Jupyter notebook "
           "to download.")
    return (r"\sphinxmaketitle" "\n"
            r"\thispagestyle{empty}\null\vfill" "\n"
            r"\noindent\textbf{" + _latex_escape(words["about-heading"]) + "} "
            + _latex_escape(
                f"This is version {app.config.release} of the book, printed on "
                f"{app.config.evalmetrics_date}. ") + _latex_escape(web) + " "
            + _latex_escape(
                "Every page of the website offers evalmetrics-notebooks.zip: the chapters "
                "as notebooks and a wheel of the package of this same version, which the "
                "first code cell of each notebook installs; they then run in plain Jupyter. "
                "Every number in this book is computed when the book is built and checked "
                "against the value the text promises.")
            + "\n\\clearpage\n")


#: The words this extension prints, in English; a translated edition's PDF gives its
#: own (``evalmetrics_print_words``, from tools/translations.py).  ``full-book``: a
#: reference into a chapter a handout leaves out (``*{title}*`` in italics);
#: ``about-edition``: the text of the page after the title (``{release}``, ``{date}``),
#: instead of the English one of ``_front_matter``.
PRINT_WORDS = {
    "contents": "Contents",
    "proof": "Proof",
    "proof-prefix": "Proof. ",
    "solutions": "Solutions",  # the heading of a chapter's solutions (evalmetrics_exercises)
    "full-book": "Chapter {number}, *{title}*, in the full book",
    "full-book-unnumbered": "the chapter *{title}*, in the full book",
    "brackets": (" (", ")"),
    "date": "{d.day} {d:%B} {d.year}",
    "about-heading": "About this edition.",
    "about-edition": "",
}


def print_words(config) -> dict:
    return {**PRINT_WORDS, **(config.evalmetrics_print_words or {})}


PAPER_SIZES = {"a4": "a4paper", "letter": "letterpaper"}
STUDENT_EDITION = "Student edition"
INSTRUCTOR_EDITION = "Instructor edition (with solutions)"


def _edition_preamble(edition: str) -> str:
    """The edition under the title on the title page, and at the left of the running
    head of every page; the head's right side (title and release) wraps to a second
    line rather than run into it."""
    text = _latex_escape(edition)
    return ("\n% The edition (_ext/evalmetrics_latex.py): title page and running head.\n"
            "\\makeatletter\n"
            f"\\setreleaseinfo{{\\par\\medskip\\upshape\\bfseries {text}}}\n"
            "\\g@addto@macro\\ps@normal{%\n"
            f"  \\fancyhead[LO]{{{{\\py@HeaderFamily {text}}}}}%\n"
            f"  \\fancyhead[RO]{{\\sbox\\@tempboxa{{\\py@HeaderFamily {text}}}%\n"
            "    \\parbox[b]{\\dimexpr\\headwidth-\\wd\\@tempboxa-2em\\relax}"
            "{\\raggedleft\\py@HeaderFamily \\@title\\sphinxheadercomma\\py@release}}}\n"
            "\\makeatother\n")


def _book_options(app, config) -> None:
    """``make pdf PAPER=letter SOLUTIONS=no``: the paper size and the edition of the
    whole book, from ``EVALMETRICS_PAPER`` and ``EVALMETRICS_SOLUTIONS``, which only
    ``make pdf`` sets.  The edition without solutions is written to
    ``evalmetrics-student.tex``, beside the book's own ``evalmetrics.tex``.  (Neither
    value is one a page is read with: switching them reads no page again.)"""
    paper = os.environ.get("EVALMETRICS_PAPER", "").strip().lower()
    if paper:
        if paper not in PAPER_SIZES:
            from sphinx.errors import ConfigError

            raise ConfigError(f"EVALMETRICS_PAPER={paper!r}: give one of "
                              f"{', '.join(sorted(PAPER_SIZES))}")
        config.latex_elements = {**config.latex_elements, "papersize": PAPER_SIZES[paper]}
    solutions = os.environ.get("EVALMETRICS_SOLUTIONS", "").strip().lower()
    if solutions not in ("", "yes", "no"):
        from sphinx.errors import ConfigError

        raise ConfigError(f"EVALMETRICS_SOLUTIONS={solutions!r}: give yes or no")
    if solutions == "no" and not config.evalmetrics_handout:
        config.evalmetrics_solutions = False
        config.evalmetrics_edition = config.evalmetrics_edition or STUDENT_EDITION


def student_documents(latex_documents: list) -> list:
    """The LaTeX documents of the student edition: ``evalmetrics-student.tex``."""
    return [(start, target.replace(".tex", "-student.tex"), *rest)
            for start, target, *rest in latex_documents]


def _student_target(app, env) -> list[str]:
    """The student edition's file name, set once Jupyter Book has set the book's own
    (it applies ``latex.latex_documents`` of _config.yml after Sphinx starts, and the
    LaTeX builder reads the list again when it writes)."""
    if not app.config.evalmetrics_handout and \
            os.environ.get("EVALMETRICS_SOLUTIONS", "").strip().lower() == "no":
        app.config.latex_documents = student_documents(app.config.latex_documents)
    return []


def _on_config_inited(app, config) -> None:
    _book_options(app, config)
    if not config.evalmetrics_date:
        stamp = os.environ.get("SOURCE_DATE_EPOCH")
        day = (_dt.datetime.fromtimestamp(int(stamp), _dt.timezone.utc) if stamp
               else _dt.datetime.now(_dt.timezone.utc))
        config.evalmetrics_date = print_words(config)["date"].format(d=day)
    if not config.release:
        try:
            from importlib.metadata import version

            config.release = version("evalmetrics")
        except Exception:  # not installed: the title page shows no version
            config.release = ""
    if not config.evalmetrics_book_title:
        config.evalmetrics_book_title = config.project
    # A config value (compared with the saved environment's), so that every page of the
    # website is written again when the PDF appears.
    config.evalmetrics_book_pdf = "yes" if _book_pdf(app) else ""
    elements = dict(config.latex_elements)
    if config.evalmetrics_edition:
        elements["preamble"] = elements.get("preamble", "") + _edition_preamble(
            config.evalmetrics_edition)
    elements.setdefault("maketitle", _front_matter(app))
    # Sphinx titles the contents with the root's first toctree caption (a part's).
    contents = _latex_escape(print_words(config)["contents"])
    elements.setdefault("tableofcontents",
                        r"\renewcommand{\contentsname}{" + contents + r"}\sphinxtableofcontents")
    config.latex_elements = elements


def _renumber_handout(app, env) -> list[str]:
    """In a handout, give Sphinx's numbers of each chapter the full book's chapter
    number (the handout's toc numbers its chapters 1, 2, ...)."""
    given = app.config.evalmetrics_chapter_numbers
    if not given:
        return []
    numbers = chapter_numbers(app)
    for docname, number in numbers.items():
        secnumbers = env.toc_secnumbers.get(docname)
        if secnumbers:
            env.toc_secnumbers[docname] = {
                anchor: (number, *value[1:]) if value else value
                for anchor, value in secnumbers.items()}
        for kind, found in env.toc_fignumbers.get(docname, {}).items():
            env.toc_fignumbers[docname][kind] = {
                node_id: (number, *value[1:]) if len(value) > 1 else value
                for node_id, value in found.items()}
    return []


# ------------------------------------------------------------ the website's PDF

BOOK_PDF = "evalmetrics.pdf"  # latex_documents' targetname, in _build/latex/


def _book_pdf(app) -> str:
    """The whole book's PDF when ``make pdf`` has built it ("" otherwise)."""
    candidate = os.path.join(os.path.dirname(os.path.abspath(app.outdir)), "latex", BOOK_PDF)
    return candidate if os.path.isfile(candidate) else ""


def _on_page_context(app, pagename, templatename, context, doctree) -> None:
    """The whole book as PDF, next to the page's own downloads."""
    if not app.config.evalmetrics_book_pdf:
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append({
                "type": "link", "url": context["pathto"](BOOK_PDF, 1), "text": "book .pdf",
                "tooltip": "Download the whole book as PDF", "icon": "fas fa-book",
                "label": "download-book-pdf-button"})


def _on_build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html" and app.config.evalmetrics_book_pdf:
        source = _book_pdf(app)
        if source:
            import shutil

            shutil.copyfile(source, os.path.join(app.outdir, BOOK_PDF))


class FigureWithItsCode(SphinxPostTransform):
    """A figure printed on the page of the code cell that draws it.

    A figure is the output of a visible cell (``mystnb.figure``) and stays where it
    is (``figure_align: H``); without room for it, LaTeX would end the page after
    the code and start the next with the figure.  Before each such cell this asks
    for the room of the code, the figure at its printed size (its PDF's MediaBox,
    scaled to the line width as ``\\sphinxincludegraphics`` does) and its caption
    (``\\evalmetricsfigurespace`` in the preamble, with ``needspace``); without
    it, the cell starts a new page.  A cell right under a heading asks before the
    heading, which then moves with it rather than end a page alone.
    """

    default_priority = 780
    builders = LATEX_BUILDERS
    _MEDIABOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")
    CAPTION_LINES = 6  # a caption of three lines and the space around the figure
    HEADING_LINES = 4  # a section's heading and the space above and below it (about 45 pt)

    def run(self, **kwargs) -> None:
        for cell in list(self.document.findall(nodes.container)):
            if "cell" not in cell["classes"] or cell.parent is None:
                continue
            figures = list(cell.findall(nodes.figure))
            if len(figures) != 1:
                continue
            size = self._printed_size(figures[0])
            if size is None:
                continue
            width, height = size
            code = sum(block.astext().count("\n") + 1
                       for part in cell.findall(nodes.container) if "cell_input" in part["classes"]
                       for block in part.findall(nodes.literal_block))
            lines = code + max(self.CAPTION_LINES, 3 + self._caption_lines(figures[0]))
            anchor = self._heading_above(cell)
            if anchor is None:
                anchor = cell
            else:
                lines += self.HEADING_LINES
            parent = anchor.parent
            parent.insert(parent.index(anchor), _raw(
                f"\\evalmetricsfigurespace{{{width}}}{{{height}}}{{{lines}}}\n"))

    LINE_UNITS = 90  # a line of text: about 90 Latin characters, or 45 Chinese ones

    @classmethod
    def _caption_lines(cls, figure: nodes.figure) -> int:
        """About how many lines the figure's caption prints (a Chinese character is as
        wide as two Latin ones)."""
        text = "".join(c.astext() for c in figure.findall(nodes.caption))
        units = sum(2 if ord(char) >= 0x2E80 else 1 for char in text)
        return -(-units // cls.LINE_UNITS)

    @staticmethod
    def _heading_above(cell: nodes.Node) -> nodes.Node | None:
        """The section (or the preface's raw heading) that the cell comes right under:
        the room is asked for above the heading, which would otherwise end a page alone."""
        parent = cell.parent
        before = [n for n in parent.children[:parent.index(cell)] if not isinstance(n, nodes.target)]
        if isinstance(parent, nodes.section) and parent.parent is not None and \
                len(before) == 1 and isinstance(before[0], nodes.title):
            return parent
        if before and isinstance(before[-1], nodes.raw) and before[-1].astext().startswith("\\section*"):
            return before[-1]
        return None

    def _printed_size(self, figure: nodes.figure) -> tuple[int, int] | None:
        """The figure's natural width and height in PostScript points, from its PDF."""
        for image in figure.findall(nodes.image):
            uri = image.get("uri", "")
            if not uri.endswith(".pdf"):
                continue
            path = Path(self.env.srcdir) / uri
            if not path.is_file():
                path = Path(self.env.relfn2path(uri, self.env.docname)[1])
            try:
                head = path.read_bytes()
            except OSError:
                return None
            box = self._MEDIABOX.search(head)
            if box:
                x0, y0, x1, y1 = (float(v) for v in box.groups())
                return round(x1 - x0), round(y1 - y0)
        return None


def setup(app):
    # The website's address, printed on the PDF's front matter and a handout's title page.
    app.add_config_value("evalmetrics_website", "", "env")
    app.add_config_value("evalmetrics_date", "", "env")
    app.add_config_value("evalmetrics_book_title", "", "env")
    app.add_config_value("evalmetrics_preface_title", "Preface", "env")
    app.add_config_value("evalmetrics_bibliography_doc", "book/bibliography", "env")
    # Set by tools/handout.py only.
    app.add_config_value("evalmetrics_handout", False, "env")
    app.add_config_value("evalmetrics_chapter_numbers", {}, "env")
    app.add_config_value("evalmetrics_chapter_titles", {}, "env")
    app.add_config_value("evalmetrics_book_chapters", {}, "env")
    app.add_config_value("evalmetrics_book_titles", {}, "env")
    app.add_config_value("evalmetrics_foreign_labels", {}, "env")
    # False: the landing page stays the preface (a translated edition's PDF).
    app.add_config_value("evalmetrics_handout_title_page", True, "env")
    # A translated edition's words for PRINT_WORDS (tools/translations.py).
    app.add_config_value("evalmetrics_print_words", {}, "env")
    # "Student edition", "Instructor edition (with solutions)": on the title page and in
    # the running head (tools/handout.py, `make pdf SOLUTIONS=no`); "" for the book.
    # (read once, into the LaTeX preamble: no page is read again when it changes)
    app.add_config_value("evalmetrics_edition", "", "")
    app.add_config_value("evalmetrics_book_pdf", "", "html")
    app.connect("config-inited", _on_config_inited)
    # After sphinx-book-theme's header buttons (priority 501).
    app.connect("html-page-context", _on_page_context, priority=600)
    app.connect("build-finished", _on_build_finished)
    app.connect("source-read", _handout_source)
    app.connect("missing-reference", _handout_missing_reference, priority=400)
    app.connect("env-get-updated", _renumber_handout, priority=900)
    app.connect("env-updated", _student_target)
    app.add_post_transform(BookStructure)
    app.add_post_transform(TablesFit)
    app.add_post_transform(FigureWithItsCode)
    app.add_post_transform(IndexEntries)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
