# Figures of the handbook as PNG (for the website) and PDF (vector, for the book's
# PDF); myst-nb keeps both and each builder picks its own.  `_ext/evalmetrics_book.py`
# copies this file into the IPython profile of the kernels it starts.
try:
    get_ipython().run_line_magic("config", "InlineBackend.figure_formats = ['png', 'pdf']")
except Exception:  # not an IPython kernel with the inline backend: nothing to set
    pass
# TrueType (Type 42) fonts in the PDF figures: matplotlib's default, Type 3, draws each
# glyph as a procedure, which some printers and PDF readers render poorly and whose text
# cannot be searched or selected.
try:
    import matplotlib

    matplotlib.rcParams["pdf.fonttype"] = 42
except ImportError:  # matplotlib is part of the book's stack; nothing to set without it
    pass
