"""The exercises of the handbook in two editions: with solutions and without.

The exercises and their solutions are sphinx-exercise's ``exercise`` and
``solution`` directives (a solution that shows code uses its gated form,
``solution-start`` ... ``solution-end``, so the code is an executed cell).
This extension only decides where the solutions go:

* config value ``evalmetrics_solutions`` (default ``True``): ``False`` builds the
  *student edition*, in which every solution is removed, gated ones with the
  code cells between their gates.  sphinx-exercise's own ``hide_solutions``
  cannot do that: it drops the ``solution-start`` node before the gates are
  merged, so the code cells of a gated solution would stay on the page.
* Every exercise opens with its marks, read from its classes (one level,
  ``level-1`` to ``level-3``, and one kind, ``kind-hand``, ``kind-prove``,
  ``kind-code``, ``kind-figure``, ``kind-critique``): "*Quick · by hand*" (in the
  Chinese edition "*简单 · 手算*").
* The download menu of a page with exercises offers the notebook of their
  solutions, ``<page>-solutions.ipynb`` (written by ``_ext/evalmetrics_book.py``).
* On the website a solution stays under its exercise, folded (its ``dropdown``
  class, which sphinx-togglebutton turns into a toggle).  In the PDF the
  solutions of a chapter are gathered after its last exercise, under the
  heading *Solutions*, so a reader of paper meets every exercise before any
  answer.  There a solution is not boxed (``evalmetricssolution``, defined in
  the LaTeX preamble of ``_config.yml``): a box cannot split a table or a code
  block at the bottom of a page, and a long solution ran past the page's end.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, solution_node

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import notebooks  # noqa: E402  (tools/notebooks.py: the marks, shared with the notebooks)


class SolutionEditions(SphinxPostTransform):
    """Remove the solutions (student edition) or gather them at the chapter's end (PDF)."""

    # After sphinx-exercise resolved the solutions' titles (its priorities 20-22).
    default_priority = 30

    def run(self, **kwargs) -> None:
        solutions = list(self.document.findall(solution_node))
        if not solutions:
            return
        if not self.config.evalmetrics_solutions:
            for node in solutions:
                node.parent.remove(node)
            return
        if self.app.builder.format != "latex":
            return
        # The LaTeX builder resolves one doctree that holds every chapter, each under
        # its start_of_file node: gather each chapter's solutions after its own last
        # exercise, so that a reader meets them at the end of that chapter and their
        # references to the chapter's figures and theorems keep the chapter's names.
        chapters = {}
        for node in self.document.findall(
                lambda n: isinstance(n, (exercise_node, exercise_enumerable_node, solution_node))):
            chapters.setdefault(id(_chapter_of(node)), []).append(node)
        for found in chapters.values():
            exercises = [n for n in found if not isinstance(n, solution_node)]
            answers = [n for n in found if isinstance(n, solution_node)]
            if not exercises or not answers:
                continue
            section = exercises[-1].parent
            for node in answers:
                node.parent.remove(node)
            # (room for the heading, the first solution's title and a few of its lines:
            # the heading never ends a page alone)
            section += nodes.raw("", "\\Needspace{10\\baselineskip}\n", format="latex")
            # (a translated edition's PDF gives the word: _ext/evalmetrics_latex.py)
            words = getattr(self.config, "evalmetrics_print_words", None) or {}
            section += nodes.rubric(text=words.get("solutions", "Solutions"))
            for node in answers:
                section += node


def _chapter_of(node):
    """The start_of_file node of a chapter in the LaTeX builder's whole-book doctree
    (the document itself when the doctree is one page)."""
    while node.parent is not None and not isinstance(node, addnodes.start_of_file):
        node = node.parent
    return node


class ExerciseMarks(SphinxTransform):
    """Open every exercise with its marks, read from its classes: "*Quick · by hand*"."""

    default_priority = 500

    def apply(self, **kwargs) -> None:
        for node in self.document.findall(
                lambda n: isinstance(n, (exercise_node, exercise_enumerable_node))):
            marks = notebooks.exercise_marks(" ".join(node.get("classes", [])),
                                             self.config.language or "en")
            content = next(node.findall(nodes.section), None)
            if marks and content is not None:
                content.insert(0, nodes.paragraph("", "", nodes.emphasis(text=marks)))


def _on_page_context(app, pagename, templatename, context, doctree):
    """Offer the page's solutions notebook in its download menu, beside its notebook."""
    if doctree is None or not context.get("ipynb_source"):
        return
    if next(doctree.findall(solution_node), None) is None:
        return
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        buttons = group["buttons"]
        at = next((i + 1 for i, b in enumerate(buttons)
                   if b.get("label") == "download-notebook-button"), 0)
        buttons.insert(at, {
            "type": "link",
            "url": f"{context['pathto']('_sources', 1)}/{pagename}-solutions.ipynb",
            "text": "solutions .ipynb",
            "tooltip": "Download the worked solutions of the exercises as a notebook",
            "icon": "fas fa-check",
            "label": "download-solutions-button",
        })


def _visit_solution_latex(self, node) -> None:
    # sphinx-exercise's own visitor, with an unboxed environment instead of its note
    # box; the solution's title node then writes the environment's one argument.
    target = self.builder.env.sphinx_exercise_registry[node["label"]]
    label = f"{target.get('docname')}:{node['label']}"
    self.body.append("\\phantomsection \\label{" + label + "}\n")
    # A solution that opens with code: room for its title and that code (up to a
    # third of a page), or the title would end a page alone above a code block that
    # LaTeX keeps whole.
    first = next((child for child in node.children if not isinstance(child, nodes.title)), None)
    if first is not None:
        code = sum(block.astext().count("\n") + 1 for block in first.findall(nodes.literal_block)
                   if first is block or "cell_output" not in block.parent.get("classes", []))
        if code:
            self.body.append(f"\\Needspace{{{6 + min(code, 16)}\\baselineskip}}\n")
    self.body.append("\n\\begin{evalmetricssolution}")


def _depart_solution_latex(self, node) -> None:
    self.body.append("\\end{evalmetricssolution}\n")


def _detached(node: nodes.Element) -> nodes.Element:
    """The node with its attributes and title only, belonging to no document."""
    slim = node.copy()
    if node.children:
        slim += node.children[0].deepcopy()
    for part in slim.findall(nodes.Node):
        part.document = None
    return slim


def _slim_registry(app, env) -> None:
    # sphinx-exercise keeps every exercise and solution node in the environment; a
    # node (or a node inside it) keeps its document, so the pickled environment held
    # every page with an exercise (4.9 of its 6.5 MB), read again by every rebuild.
    # What it reads from the registry is the node's class, attributes and title:
    # kept, the rest dropped.
    registry = getattr(env, "sphinx_exercise_registry", {})
    for entry in registry.values():
        node = entry.get("node")
        if isinstance(node, nodes.Element):
            entry["node"] = _detached(node)


def setup(app):
    app.setup_extension("sphinx_exercise")
    app.connect("env-updated", _slim_registry)
    # (the HTML visitors are sphinx-exercise's own)
    from sphinx_exercise.nodes import depart_solution_node, visit_solution_node

    app.add_node(solution_node, override=True,
                 html=(visit_solution_node, depart_solution_node),
                 latex=(_visit_solution_latex, _depart_solution_latex))
    # (a post-transform reads it, when a page is written: switching editions reads no
    # page again, and `make pdf SOLUTIONS=no` leaves the website's environment alone)
    app.add_config_value("evalmetrics_solutions", True, "html", types=[bool])
    app.add_post_transform(SolutionEditions)
    app.add_transform(ExerciseMarks)
    # After sphinx-book-theme built the header buttons (its priority 501).
    app.connect("html-page-context", _on_page_context, priority=600)
    # env_version: an environment pickled before the registry was slimmed is read anew.
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
