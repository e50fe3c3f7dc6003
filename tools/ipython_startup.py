# Figures of the handbook as PNG (for the website) and PDF (vector, for the book's
# PDF); myst-nb keeps both and each builder picks its own.  `_ext/evalmetrics_book.py`
# copies this file into the IPython profile of the kernels it starts.
#
# Every figure a page draws gets the handbook's font sizes and TrueType fonts
# (evalmetrics.plotting._style.RC), and is measured when it is saved as PNG: text
# under 9 CSS pixels on the website or 7 points in the PDF, and every layout fault
# (evalmetrics.plotting._layout: text on data or on text, a zero bar left unmarked,
# colliding tick labels) is reported on stderr and in the build's log
# (EVALMETRICS_FIGURE_LOG, set by _ext/evalmetrics_book.py, which turns each line
# into a build warning, so the build fails: a hidden cell's stderr is never shown).
#
# The figures are the outputs of their cells only with matplotlib's inline backend, which
# ipykernel chooses unless MPLBACKEND names another (a headless machine often sets
# MPLBACKEND=Agg): then no cell would output its figure, and every figure's label would be
# undefined in the build.  The book's kernels always draw inline.
import os as _os

_os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
del _os
try:
    get_ipython().run_line_magic(  # noqa: F821 - a builtin of the IPython kernel that runs this file
        "config", "InlineBackend.figure_formats = ['png', 'pdf']")
except Exception:  # not an IPython kernel with the inline backend: nothing to set
    pass


def _evalmetrics_figure_rule():
    try:
        import matplotlib
        from matplotlib.backend_bases import FigureCanvasBase

        from evalmetrics.plotting import _layout, _style
    except ImportError:  # a kernel without matplotlib draws no figure
        return
    import os
    import sys

    matplotlib.rcParams.update(_style.RC)
    print_figure = FigureCanvasBase.print_figure

    def report(message):
        print(message, file=sys.stderr)
        if os.environ.get("EVALMETRICS_FIGURE_LOG"):
            with open(os.environ["EVALMETRICS_FIGURE_LOG"], "a", encoding="utf-8") as log:
                log.write(message + "\n")

    def checked_print_figure(self, filename, *args, format=None, **kwargs):
        result = print_figure(self, filename, *args, format=format, **kwargs)
        if format == "png":  # once per figure: the PDF copy is the same drawing
            labels = [ax.get_title() or ax.get_xlabel() for ax in self.figure.axes]
            sizes = _style.text_sizes(self.figure)
            if sizes is not None and not sizes.legible:
                report(f"figure text too small in the figure of {labels[:3]}: "
                       f"{sizes.text!r} is {sizes.points:.1f} pt in a "
                       f"{self.figure.get_figwidth():.1f} in wide figure, {sizes.web_px:.1f} "
                       f"CSS px on the website (at least {_style.MIN_WEB_TEXT_PX:g}) and "
                       f"{sizes.print_pt:.1f} pt in the PDF (at least "
                       f"{_style.MIN_PRINT_TEXT_PT:g})")
            for fault in _layout.layout_faults(self.figure):
                report(f"figure layout ({fault.kind}) in the figure of {labels[:3]}: {fault}")
        return result

    FigureCanvasBase.print_figure = checked_print_figure


_evalmetrics_figure_rule()
del _evalmetrics_figure_rule


# An explorer (evalmetrics.plotting.explorers) shows itself as Vega-Lite, for Jupyter.  The
# book needs other forms of it: the element the website embeds (text/html, drawn by the
# scripts _ext/evalmetrics_explorers.py serves) and a still picture at its default setting
# for the PDF (PNG and vector PDF); myst-nb gives each builder its own.  myst-nb warns about
# every MIME type it cannot render, Vega-Lite among them, so the Jupyter form travels in the
# metadata of the HTML, where tools/notebooks.py takes it back for the downloaded notebook.
def _evalmetrics_explorers():
    try:
        from evalmetrics.plotting.explorers import Explorer
        formatter = get_ipython().display_formatter.mimebundle_formatter
    except (ImportError, NameError):  # no explorers, or not IPython: nothing to add
        return
    import base64

    def book_forms(explorer):
        data, metadata = explorer._repr_mimebundle_()
        return ({"text/html": explorer.to_html(),
                 "image/png": base64.b64encode(explorer.to_png()).decode("ascii"),
                 "application/pdf": base64.b64encode(explorer.to_pdf()).decode("ascii"),
                 "text/plain": data["text/plain"]},
                {"text/html": {"jupyter": {"data": data, "metadata": metadata}}})

    formatter.for_type(Explorer, book_forms)


_evalmetrics_explorers()
del _evalmetrics_explorers
