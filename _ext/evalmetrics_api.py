"""The library's public API, defined once, and the Sphinx directive that documents it.

The public API is the modules of :data:`LIBRARY_MODULES` and
:data:`PLOTTING_MODULES` and, in each, the names of its ``__all__``.  The
package re-exports every one of them from the package above the module
(``evalmetrics.curves.roc_auc`` is ``evalmetrics.roc_auc``,
``evalmetrics.plotting.curves.plot_roc_curve`` is
``evalmetrics.plotting.plot_roc_curve``), and that shorter name is the one a
reader imports, so the reference documents each object under it: the chapters
link ``{py:func}`~evalmetrics.roc_auc```, and a docstring's
``:class:`BinaryCounts``` resolves from any module of the library.

The book's companions (the studies, pitfalls, the screening project and the
comparisons behind the later chapters) are not part of the library and have no
reference page.

``tests/test_docstrings.py`` validates the docstrings of exactly the objects
:func:`public_objects` lists, and checks that every reference page uses this
directive for a module listed here (and every module listed has its page):

.. code-block:: md

    ```{eval-rst}
    .. api-module:: evalmetrics.curves
    ```

(in reStructuredText, which autodoc writes and parses) writes the module's docstring, then each name
of its ``__all__`` in that order
(``autofunction`` or ``autoclass`` with the class's own public methods).
"""

from __future__ import annotations

import importlib
import inspect

LIBRARY_MODULES = (
    "evalmetrics.arrays",
    "evalmetrics.counts",
    "evalmetrics.rates",
    "evalmetrics.averaging",
    "evalmetrics.curves",
    "evalmetrics.ranking",
    "evalmetrics.costs",
    "evalmetrics.budgets",
    "evalmetrics.calibration",
    "evalmetrics.recalibration",
    "evalmetrics.regression",
    "evalmetrics.cross_validation",
    "evalmetrics.intervals",
    "evalmetrics.delong",
    "evalmetrics.models",
    "evalmetrics.datasets",
    "evalmetrics.worked_example",
)

# The optional extra `plot`: one reference page, one section per submodule.  The
# figures of the companion studies and pitfalls are in `evalmetrics.handbook.plotting`.
PLOTTING_MODULES = (
    "evalmetrics.plotting.overview",
    "evalmetrics.plotting.counts",
    "evalmetrics.plotting.curves",
    "evalmetrics.plotting.budgets",
    "evalmetrics.plotting.calibration",
    "evalmetrics.plotting.regression",
    "evalmetrics.plotting.validation",
    "evalmetrics.plotting.explorers",
)


def public_package(module_name: str) -> str:
    """The package that re-exports the module's names (the name a reader imports from)."""
    return module_name.rpartition(".")[0]


def public_methods(cls) -> list[str]:
    """The public methods a class defines itself (not the ones it inherits)."""
    return [name for name, value in vars(cls).items()
            if not name.startswith("_") and inspect.isfunction(value)]


def public_objects(modules=LIBRARY_MODULES + PLOTTING_MODULES):
    """Yield ``(documented name, object)`` for every public function, class and method."""
    for module_name in modules:
        module = importlib.import_module(module_name)
        package = public_package(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            yield f"{package}.{name}", obj
            if inspect.isclass(obj):
                for method in public_methods(obj):
                    yield f"{package}.{name}.{method}", getattr(obj, method)


def module_reference(module_name: str) -> list[str]:
    """The reStructuredText that documents one module (what the directive parses)."""
    module = importlib.import_module(module_name)
    # The module's target (for :mod: links), then its docstring read in the package's
    # namespace, where the docstrings' short names (:func:`ratio`) are documented.
    lines = [f".. py:module:: {module_name}", ""]
    lines += [f".. currentmodule:: {public_package(module_name)}", ""]
    lines += inspect.cleandoc(module.__doc__ or "").splitlines() + [""]
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isclass(obj):
            lines.append(f".. autoclass:: {name}")
            methods = public_methods(obj)
            if methods:
                lines.append(f"   :members: {', '.join(methods)}")
        elif inspect.isfunction(obj):
            lines.append(f".. autofunction:: {name}")
        else:
            continue
        lines.append("")
    return lines


def _split(target: str):
    """``(module, name)`` if ``target`` is a public name under its defining module, else None."""
    for module_name in LIBRARY_MODULES + PLOTTING_MODULES:
        if target.startswith(module_name + "."):
            rest = target[len(module_name) + 1:]
            if rest.partition(".")[0] in importlib.import_module(module_name).__all__:
                return module_name, rest
    return None, None


def setup(app):
    # Sphinx is imported here only, so that the test imports the lists above without it.
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ApiModule(SphinxDirective):
        required_arguments = 1

        def run(self):
            module_name = self.arguments[0]
            if module_name not in LIBRARY_MODULES + PLOTTING_MODULES:
                raise self.error(f"{module_name} is not a module of the public API "
                                 "(_ext/evalmetrics_api.py)")
            source = StringList(module_reference(module_name),
                                source=self.get_source_info()[0])
            holder = nodes.container()
            holder.document = self.state.document
            self.state.nested_parse(source, 0, holder)
            return holder.children

    def link_result_types(app, config):
        # numpydoc links a type word of Parameters / Returns only when it is an alias
        # (numpydoc_xref_ignore: all): every public class, under its documented name.
        # numpydoc's own aliases (int, ndarray, array_like, ...) point into the python:
        # and numpy: intersphinx inventories, which an offline build does not have: an
        # alias to itself leaves the word as text.
        from numpydoc.xref import DEFAULT_LINKS

        classes = {name.rpartition(".")[2]: name for name, obj in public_objects()
                   if inspect.isclass(obj)}
        config.numpydoc_xref_aliases = {**{word: word for word in DEFAULT_LINKS}, **classes,
                                        **config.numpydoc_xref_aliases}
        config.numpydoc_xref_ignore = "all"

    def resolve_module_path(app, env, node, contnode):
        # A docstring may name an object by its defining module
        # (:func:`evalmetrics.curves.roc_curve`); the reference documents it under the
        # package that re-exports it (evalmetrics.roc_curve): resolve to that entry.
        if node.get("refdomain") != "py":
            return None
        module_name, rest = _split(node["reftarget"])
        if module_name is None:
            return None
        target = f"{public_package(module_name)}.{rest}"
        domain = env.get_domain("py")
        return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], target,
                                   node, contnode)

    app.add_directive("api-module", ApiModule)
    # Before numpydoc's own handler (priority 500) reads the aliases.
    app.connect("config-inited", link_result_types, priority=400)
    app.connect("missing-reference", resolve_module_path)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
