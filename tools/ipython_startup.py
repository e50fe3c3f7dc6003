# Figures of the handbook as PNG (for the website) and PDF (vector, for the book's
# PDF); myst-nb keeps both and each builder picks its own.  `_ext/evalmetrics_book.py`
# copies this file into the IPython profile of the kernels it starts.
try:
    get_ipython().run_line_magic("config", "InlineBackend.figure_formats = ['png', 'pdf']")
except Exception:  # not an IPython kernel with the inline backend: nothing to set
    pass
