"""Sphinx extension: the explorers of ``evalmetrics.plotting.explorers`` on the website, offline.

* **What a cell outputs.**  An explorer shows itself as Vega-Lite; the book's
  kernels (``tools/ipython_startup.py``) add the element the website embeds
  (``text/html``, :meth:`Explorer.to_html`) and a still picture (PNG and PDF).
  myst-nb gives the HTML builder the element and LaTeX the PDF: the PDF and
  the handouts print the explorer at its default setting.
* **Its scripts, from the site.**  At the end of an HTML build Vega, Vega-Lite
  and Vega-Embed, one script made by ``vl-convert-python``, are written to
  ``_static/explorers/vega.js``, wrapped in a function so that its top-level
  names stay its own (it sets ``window.vegaEmbed``).  ``_ext/static/explorers.js``
  draws each explorer of a page with it, ``explorers.css`` places the sliders.
* **Only where needed.**  A page whose body holds an explorer gets the three
  files (deferred: the page shows before the 0.9 MB script has run); other
  pages load nothing more.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)

MARKER = '<div class="evalmetrics-explorer"'  # an explorer, not a page quoting one
SCRIPT = "explorers/vega.js"
# The Vega-Lite the website runs: the oldest vl-convert-python bundles, the nearest to
# the 5.6 that JupyterLab 4 and Notebook 7 render the same specifications with.
VEGALITE_VERSION = "5.8"


def _versions() -> str:
    try:
        import vl_convert
    except ImportError as error:
        raise RuntimeError("the explorers' scripts come from vl-convert-python: "
                           "pip install -e '.[book]'") from error
    return (f"Vega {vl_convert.get_vega_version()}, Vega-Lite {VEGALITE_VERSION}, "
            f"Vega-Embed {vl_convert.get_vega_embed_version()}, vl-convert-python "
            f"{getattr(vl_convert, '__version__', '?')}")


def _header(versions: str) -> str:
    return f"/* {versions}, from vl-convert-python. */\n"


def vega_bundle() -> str:
    """Vega, Vega-Lite and Vega-Embed as one classic script, with its versions in a comment."""
    import vl_convert

    versions = _versions()
    bundle = vl_convert.javascript_bundle(vl_version=VEGALITE_VERSION)
    return f"{_header(versions)}(function () {{\n{bundle}\n}})();\n"


def _write_bundle(outdir: Path) -> None:
    target = outdir / "_static" / SCRIPT
    # Bundling takes 1.6 s: a script already written by the same versions is kept, so a
    # rebuild after a prose edit does not pay for it.
    if target.is_file():
        with target.open(encoding="utf-8") as existing:
            if existing.readline() == _header(_versions()):
                return
    text = vega_bundle()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def _on_page_context(app, pagename, templatename, context, doctree):
    if MARKER in context.get("body", ""):
        app.add_js_file(SCRIPT, defer="defer")
        app.add_js_file("explorers.js", defer="defer")
        app.add_css_file("explorers.css")


def _on_build_finished(app, exception):
    if exception is None and app.builder.format == "html":
        _write_bundle(Path(app.outdir))


def setup(app):
    app.connect("html-page-context", _on_page_context)
    app.connect("build-finished", _on_build_finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
