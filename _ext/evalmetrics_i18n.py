"""Sphinx extension: the book in more than one language, from one set of executed cells.

The English pages are the source.  A translated edition (Simplified Chinese today,
``zh_CN``) is Sphinx's own internationalisation: gettext catalogues, one per page,
``locale/<language>/LC_MESSAGES/book/<page>.po`` (``sphinx-intl`` keeps them in step
with the English, ``tools/translations.py update``), applied to the same pages by a
second Sphinx build with ``language`` set (``tools/translations.py html``).  The code
cells are the English pages' own, so the translated build finds every page in the
execution cache and glues the same values: a translation can lag in its wording,
never in its numbers.  What this extension adds:

* **Glued numbers in translated text.**  Sphinx parses a translated paragraph on its
  own (``publish_msgstr``), and myst-nb parses such a ``<translated>`` fragment as
  plain MyST, without the page's glue data: ``{glue:text}`` roles in it rendered
  nothing (tried on a probe page: math, ``{numref}``, ``{eq}`` and figure captions
  came through, the glued values did not).  The parser registered here rewrites
  each ``{glue:text}`key:fmt``` of a translated fragment into myst-nb's
  cross-document form, ``/book/<page>.md::key:fmt``, which myst-nb resolves after
  reading from the glue data the page's own execution stored: the same value,
  formatted by the same code.  myst-nb has no cross-document form of
  ``{glue:md}``, so a ``{glue:md}`key:myst``` of a translated fragment is replaced
  by the Markdown itself, read from the glue data the page's execution wrote
  (``<key>.glue.json`` in myst-nb's output folder), and parsed with the fragment:
  the same inline MyST as the English page's role renders.
* **Coverage.**  Each page's share of translated paragraphs (headings, captions,
  list items, table cells and alt texts included; display math, code and
  number-only cells excluded) is counted after Sphinx's ``Locale`` transform,
  printed at the end of the build and written to ``translation-coverage.json`` in
  the HTML output.  Untranslated paragraphs carry the class ``untranslated``
  (``translation_progress_classes``); a page below 100 % opens with a note, in the
  edition's language, that links the English page.
* **Pages without a catalogue** are not built twice: in a translated build such a
  page is read as a stub, its title and label and a sentence, in the edition's
  language, that it is not translated yet, with a link to the English page.  A
  reference to anything else on it resolves to the English site (intersphinx on the
  English build's inventory).
* **A language switch** on every page of both editions, to the same page in the
  other language (a link in the article's header, ``_ext/templates``).
* **Chinese search.**  Sphinx's Chinese index splits words with jieba when it is
  installed (it is, with the book's extras), with the glossary's terms as a user
  dictionary so that 可靠度 or 分辨力 are indexed as one word; its Latin-word list is
  a set here (Sphinx keeps a list, searched once per word: a quadratic minute on
  this book).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
logger = logging.getLogger(__name__)

#: The editions: language code -> what the other edition's pages say about it.
EDITIONS = {
    "en": {"name": "English", "html_lang": "en", "path": ""},
    "zh_CN": {"name": "中文", "html_lang": "zh-CN", "path": "zh_CN"},
}
#: The sentences a translated edition writes itself (the catalogues hold the pages').
MESSAGES = {
    "zh_CN": {
        "stub": "本页尚未译成中文。",
        "stub-link": "阅读英文原文",
        "partial": "本页尚有 {missing} 段未译成中文，以英文显示（已译 {share}）。",
        "partial-link": "英文原文",
        "switch-title": "本页的英文版",
        "numfig_format": {"figure": "图 %s", "table": "表 %s", "code-block": "代码 %s",
                          "section": "第 %s 节"},
    },
    "en": {"switch-title": "This page in Chinese"},
}
COVERAGE_FILE = "translation-coverage.json"
GLUE_TEXT = re.compile(r"\{glue:text\}`([^`]+)`")
GLUE_MD = re.compile(r"\{glue:md\}`([^`]+)`")
# A message that needs no translation: no letter of any script in it.
NO_WORDS = re.compile(r"^[\W\d_]*$")


def catalogue(language: str, docname: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{docname}.po"


def translated_language(config) -> str | None:
    language = config.language or "en"
    return None if language == "en" else language


# ----------------------------------------------------- glue in translated text


def localise_glue(text: str, source_path: str) -> str:
    """``{glue:text}`key:fmt``` -> ``{glue:text}`/<source_path>::key:fmt```: myst-nb's
    cross-document form, which reads the page's stored glue data (an explicit format,
    ``s`` when there is none, since the role splits its text at the last colon)."""

    def local(match: re.Match) -> str:
        content = match.group(1)
        if "::" in content:
            return match.group(0)
        key, _, fmt = content.partition(":")
        return f"{{glue:text}}`/{source_path}::{key}:{fmt or 's'}`"

    return GLUE_TEXT.sub(local, text)


def paste_glue_markdown(text: str, glue_data: dict) -> str:
    """``{glue:md}`key:myst``` -> the glued Markdown (``glue_data``: the page's
    ``.glue.json``).  Any other format, or a key the page did not glue, stays a role
    and fails the build as in English (myst-nb warns: no glue data in a fragment)."""

    def paste(match: re.Match) -> str:
        key, _, fmt = match.group(1).rpartition(":")
        markdown = glue_data.get(key, {}).get("data", {}).get("text/markdown")
        return markdown if fmt == "myst" and markdown is not None else match.group(0)

    return GLUE_MD.sub(paste, text)


def _glue_data(env) -> dict:
    """The glue data the current page's execution stored (myst-nb writes it while
    parsing the page, before Sphinx's Locale transform parses the translations)."""
    path = Path(env.mystnb_config.output_folder).joinpath(f"{env.docname}.glue.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _parser_class():
    from myst_nb.sphinx_ import Parser

    class TranslatedGlueParser(Parser):
        """myst-nb's parser; in a translated fragment, glue roles read the page's data."""

        def parse(self, inputstring, document):
            if document.current_source and document.current_source.endswith("<translated>"):
                env = document.settings.env
                inputstring = localise_glue(inputstring, env.doc2path(env.docname, False))
                if GLUE_MD.search(inputstring):
                    inputstring = paste_glue_markdown(inputstring, _glue_data(env))
            super().parse(inputstring, document)

    return TranslatedGlueParser


def _subtitle_transform():
    from sphinx.transforms import SphinxTransform

    class TranslatableSubtitles(SphinxTransform):
        """An exercise's title (sphinx-exercise's ``exercise_subtitle``) carries no source,
        so gettext skipped it and it stayed English: give it the exercise's source and
        line, and its text as the message (titles with math or roles stay untouched)."""

        default_priority = 15  # before Sphinx's Locale (20)

        def apply(self, **kwargs):
            for node in self.document.findall(nodes.subtitle):
                if node.source or not all(isinstance(c, nodes.Text) for c in node.children):
                    continue
                parent = node.parent
                while parent is not None and not parent.line:
                    parent = parent.parent
                node.source = self.document["source"]
                node.line = parent.line if parent is not None else 1
                node.rawsource = node.astext()

    return TranslatableSubtitles


def _record_subtitles(app, doctree):
    """sphinx-exercise rebuilds an exercise's title after reading (a post-transform), so
    the gettext builder, which extracts from the resolved page, never sees the
    subtitle: keep its message at reading and hand it to the catalogue."""
    if app.builder.name != "gettext":
        return
    found = [(node.rawsource, node.source, node.line) for node in doctree.findall(nodes.subtitle)
             if node.rawsource and node.source]
    app.env.__dict__.setdefault("evalmetrics_subtitles", {})[app.env.docname] = found


def _add_subtitles(app, doctree, docname):
    if app.builder.name != "gettext":
        return
    from sphinx.builders.gettext import MsgOrigin
    from sphinx.util.i18n import docname_to_domain

    catalog = app.builder.catalogs[docname_to_domain(docname, app.config.gettext_compact)]
    for message, source, line in getattr(app.env, "evalmetrics_subtitles", {}).get(docname, []):
        catalog.add(message, MsgOrigin(source, line))


_MESSAGES: dict[tuple[str, str], dict[str, str]] = {}


def translations_of(language: str, docname: str) -> dict[str, str]:
    """The page's catalogue as {English: translation}, its fuzzy entries left out."""
    key = (language, docname)
    if key not in _MESSAGES:
        found = {}
        path = catalogue(language, docname)
        if path.is_file():
            from babel.messages.pofile import read_po

            with path.open("rb") as handle:
                found = {m.id: m.string for m in read_po(handle)
                         if m.id and m.string and not m.fuzzy}
        _MESSAGES[key] = found
    return _MESSAGES[key]


def _solution_title_transform():
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class TranslatedSolutionTitles(SphinxPostTransform):
        """A solution's title repeats its exercise's subtitle, which sphinx-exercise
        copies from the exercise as it was read, before translation: "解答 练习 10.1
        (A three-valued forecast by hand)".  Give it the subtitle's translation."""

        default_priority = 23  # after sphinx-exercise has built the title (21)

        def run(self, **kwargs):
            language = translated_language(self.config)
            if language is None:
                return
            from sphinx_exercise.nodes import solution_node

            for solution in self.document.findall(solution_node):
                title = solution.children[0] if solution.children else None
                if not isinstance(title, nodes.title):
                    continue
                docname = self.env.path2doc(solution.source) if solution.source else None
                messages = translations_of(language, docname or self.env.docname)
                for text in list(title.findall(nodes.Text)):
                    translated = messages.get(str(text))
                    if translated:
                        text.parent.replace(text, nodes.Text(translated))

    return TranslatedSolutionTitles


# ------------------------------------------------------------------ stubs


def english_url(docname: str) -> str:
    """The English page, relative to the translated edition's page of ``docname``."""
    return "../" * (docname.count("/") + 1) + docname + ".html"


def _stub_source(text: str) -> str:
    """The page's first label and title, nothing else (no code, nothing to run)."""
    keep = []
    for line in text.splitlines():
        if re.match(r"^\([\w:.-]+\)=\s*$", line) and not keep:
            keep.append(line)
        elif line.startswith("# "):
            keep.append(line)
            break
    return "\n".join(keep) + "\n"


def _on_source_read(app, docname, source):
    language = translated_language(app.config)
    if language is None or catalogue(language, docname).is_file():
        return
    source[0] = _stub_source(source[0])
    app.env.evalmetrics_stubs = getattr(app.env, "evalmetrics_stubs", set()) | {docname}


def _paragraph(text: str, link_text: str, url: str, classes: list[str]) -> nodes.paragraph:
    para = nodes.paragraph(classes=classes)
    para += nodes.Text(text + " ")
    para += nodes.reference("", link_text, refuri=url, internal=False)
    para += nodes.Text("。" if not link_text.endswith("。") else "")
    return para


# ----------------------------------------------------------------- coverage


def _has_words(node) -> bool:
    """Whether a message has words outside its math and code (``$n$``, a code name or
    a number needs no translation)."""
    for text in node.findall(nodes.Text):
        parent = text.parent
        if isinstance(parent, (nodes.math, nodes.literal)) or \
                any(isinstance(a, (nodes.math, nodes.literal)) for a in _ancestors(parent)):
            continue
        if not NO_WORDS.match(str(text)):
            return True
    return False


def _ancestors(node):
    while node is not None:
        yield node
        node = node.parent


def coverage_of(doctree) -> tuple[int, int]:
    """(translated, total) paragraphs of a page read with a catalogue."""
    translated = total = 0
    for node in doctree.findall(nodes.Element):
        if "translated" not in node.attributes:
            continue
        if isinstance(node, (nodes.math_block, nodes.literal_block, nodes.raw)):
            continue
        # sphinx-exercise's "Exercise"/"Solution to" titles: its own translated words
        # around the exercise's subtitle, which is counted on its own.
        if type(node).__name__ in ("exercise_title", "solution_title"):
            continue
        if not _has_words(node):
            continue
        total += 1
        translated += bool(node["translated"])
    return translated, total


def _on_doctree_read(app, doctree):
    language = translated_language(app.config)
    if language is None:
        return
    env = app.env
    docname = env.docname
    texts = MESSAGES[language]
    records = env.__dict__.setdefault("evalmetrics_coverage", {})
    sections = list(doctree.findall(nodes.section))
    if docname in getattr(env, "evalmetrics_stubs", set()):
        records[docname] = {"stub": True, "translated": 0, "total": 0}
        if sections:
            sections[0] += _paragraph(texts["stub"], texts["stub-link"], english_url(docname),
                                      ["evalmetrics-untranslated-page"])
        return
    translated, total = coverage_of(doctree)
    records[docname] = {"stub": False, "translated": translated, "total": total}
    if total and translated < total and sections:
        share = f"{100 * translated / total:.0f} %"
        note = _paragraph(texts["partial"].format(missing=total - translated, share=share),
                          texts["partial-link"], english_url(docname),
                          ["evalmetrics-partly-translated"])
        title = sections[0].next_node(nodes.title)
        sections[0].insert(sections[0].index(title) + 1 if title is not None else 0, note)


def _purge(app, env, docname):
    for name in ("evalmetrics_coverage", "evalmetrics_subtitles"):
        getattr(env, name, {}).pop(docname, None)
    getattr(env, "evalmetrics_stubs", set()).discard(docname)


def _merge(app, env, docnames, other):
    env.__dict__.setdefault("evalmetrics_coverage", {}).update(
        {d: v for d, v in getattr(other, "evalmetrics_coverage", {}).items() if d in docnames})
    env.evalmetrics_stubs = getattr(env, "evalmetrics_stubs", set()) | {
        d for d in getattr(other, "evalmetrics_stubs", set()) if d in docnames}


def coverage_report(records: dict) -> list[str]:
    lines = []
    for docname in sorted(records):
        record = records[docname]
        if record["stub"]:
            continue
        share = 100 * record["translated"] / record["total"] if record["total"] else 100.0
        lines.append(f"{docname}: {share:.1f} % ({record['translated']} of "
                     f"{record['total']} paragraphs)")
    stubs = sum(1 for r in records.values() if r["stub"])
    lines.append(f"{stubs} page(s) without a catalogue (a note that links the English page)")
    return lines


def _on_build_finished(app, exception):
    language = translated_language(app.config)
    if exception is not None or language is None:
        return
    records = getattr(app.env, "evalmetrics_coverage", {})
    logger.info(f"translation coverage ({language}):")
    for line in coverage_report(records):
        logger.info("  " + line)
    if app.builder.format == "html":
        (Path(app.outdir) / COVERAGE_FILE).write_text(
            json.dumps({"language": language, "pages": records}, indent=1, sort_keys=True)
            + "\n", encoding="utf-8")


# ------------------------------------------------------------ configuration


def glossary_terms(language: str) -> list[str]:
    """The glossary's terms in ``language`` (the catalogue's msgstr of its first column)."""
    return sorted({term for term in translations_of(language, "book/glossary").values()
                   if re.fullmatch(r"[\u4e00-\u9fff]{2,12}", term)})


def _on_config_inited(app, config):
    language = translated_language(config)
    if language is None:
        return
    # Only a translated edition loads the Chinese index (and jieba's dictionary: 0.2 s
    # of every English rebuild); the builder, started after this event, finds it.
    app.add_search_language(_search_language())
    texts = MESSAGES[language]
    config.numfig_format = {**(config.numfig_format or {}), **texts["numfig_format"]}
    config.translation_progress_classes = "untranslated"
    # The glossary's terms as whole words of the search index.
    terms = glossary_terms(language)
    if terms:
        words = Path(app.doctreedir).parent / f"search-words-{language}.txt"
        words.parent.mkdir(parents=True, exist_ok=True)
        words.write_text("".join(f"{term} 1000 n\n" for term in terms), encoding="utf-8")
        config.html_search_options = {**(config.html_search_options or {}), "dict": str(words)}


def _search_language():
    from sphinx.search.zh import SearchChinese

    class ChineseSearch(SearchChinese):
        """Sphinx's Chinese index, its Latin-word list a set (membership per word)."""

        def init(self, options):
            super().init(options)
            self.latin_terms = set()

        def split(self, input):
            import sphinx.search.zh as zh

            chinese = list(zh.jieba.cut_for_search(input)) if zh.JIEBA else []
            latin = [term.strip() for term in self.latin1_letters.findall(input)]
            self.latin_terms.update(latin)
            return chinese + latin

    return ChineseSearch


def _on_page_context(app, pagename, templatename, context, doctree):
    """The other edition's version of this page, for the header's switch."""
    language = app.config.language or "en"
    root = "../" * pagename.count("/")
    if language == "en":
        others = [code for code in app.config.evalmetrics_translations if code in EDITIONS]
        if not others:
            return
        other = others[0]
        url = f"{root}{EDITIONS[other]['path']}/{pagename}.html"
        title = MESSAGES["en"]["switch-title"]
    else:
        other = "en"
        url = f"{root}../{pagename}.html"
        title = MESSAGES[language]["switch-title"]
    context["evalmetrics_other_edition"] = {
        "url": url, "name": EDITIONS[other]["name"], "lang": EDITIONS[other]["html_lang"],
        "title": title}


def setup(app):
    # The translated editions the English pages link (tools/translations.py builds them).
    app.add_config_value("evalmetrics_translations", ["zh_CN"], "html", list)
    app.add_source_parser(_parser_class(), override=True)
    app.add_transform(_subtitle_transform())
    app.add_post_transform(_solution_title_transform())
    app.connect("doctree-read", _record_subtitles)
    app.connect("doctree-resolved", _add_subtitles)
    app.connect("config-inited", _on_config_inited)
    app.connect("source-read", _on_source_read)
    app.connect("doctree-read", _on_doctree_read)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _on_build_finished)
    app.connect("html-page-context", _on_page_context)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
