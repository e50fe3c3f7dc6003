"""The translated editions:  python tools/translations.py {html,pdf,update} LANGUAGE [PAGE...]

* ``html zh_CN``: the Chinese edition of the website, built by Sphinx from the same
  pages as the English with ``language = zh_CN`` and the catalogues of ``locale/``,
  into ``_build/zh_CN/html`` (its own doctrees, beside the English ones), then copied
  to ``_build/html/zh_CN/``: one site, the Chinese under its own path.  Run after the
  English build (``make book``): the pages are read from the English build's
  execution cache (nothing runs a second time) and references to pages without a
  catalogue go to the English pages (the English build's ``objects.inv``).  Prints
  the coverage of each translated page and the seconds the edition took.
* ``pdf zh_CN``: the translated pages as one PDF, ``_build/zh_CN/evalmetrics-zh_CN.pdf``:
  a handout (``tools/handout.py``) of the pages with a catalogue, read in Chinese: the
  landing page as preface, the translated chapters with their solutions and their
  numbers in the full book, the bibliography and the glossary as back matter, a title
  page and print words in Chinese.  The book's own LaTeX set-up (paper, macros, the
  page-fill log; xeCJK with Debian's Noto CJK fonts), through the same gates as every
  PDF (``tools/latex_log.py``: overfull boxes, near-empty pages).  Untranslated
  chapters are left out rather than printed as stubs: a reference to one prints its
  number and title in the full book.
* ``update zh_CN [book/<page>...]``: the English pages' messages (Sphinx's gettext
  builder) merged by ``sphinx-intl update`` into the catalogues of the translated
  pages, and of the pages named, whose catalogues it creates: new paragraphs appear
  untranslated, changed ones fuzzy (a fuzzy entry is not used), so the coverage shows
  what is left to do.

``_ext/evalmetrics_i18n.py`` says what the translated build does besides Sphinx's own
internationalisation (glue in translated text, coverage, stubs, the language switch).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import handout  # noqa: E402  (tools/handout.py)

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
LOCALE = ROOT / "locale"
BIN = ROOT / ".venv" / "bin"
#: Per language: the book's title, and the words its PDF prints
#: (``_ext/evalmetrics_latex.py``, ``PRINT_WORDS``; ``{chapters}``: the chapters it holds).
EDITIONS = {
    "zh_CN": {
        "title": "评估指标",
        "preface": "前言",
        "print": {
            "contents": "目录",
            "proof": "证明",
            "proof-prefix": "证明。",
            "solutions": "解答",
            "full-book": "全书第 {number} 章“{title}”",
            "full-book-unnumbered": "全书的“{title}”一章",
            "brackets": ("（", "）"),
            "date": "{d.year} 年 {d.month} 月 {d.day} 日",
            "about-heading": "关于本册。",
            "about-edition": "本册是《评估指标》中文版已译成的部分（版本 {release}，印于 {date}）："
                             "前言，{chapters}，以及参考文献和术语表。章、图、表、公式、定理和习题"
                             "的编号与英文全书相同；提到尚未译出的章时，注明它在全书中的章号和英文"
                             "标题。书中的每个数字都由与英文版相同的代码在构建时算出，并与正文所写的"
                             "值核对。",
        },
        "chapter": "第 {number} 章“{title}”",
        "list-separator": "、",
    },
}


def translated_pages(language: str) -> list[str]:
    """The pages with a catalogue (``book/<page>``), in the order of ``_toc.yml``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    order = [toc["root"]]

    def walk(node):
        for part in node.get("parts", []):
            walk(part)
        for entry in node.get("chapters", []) + node.get("sections", []):
            order.append(entry["file"])
            walk(entry)

    walk(toc)
    folder = LOCALE / language / "LC_MESSAGES"
    return [page for page in order if (folder / f"{page}.po").is_file()]


def overrides(language: str) -> dict:
    """The translated edition's Sphinx configuration on top of ``_config.yml``."""
    edition = EDITIONS[language]
    config = {
        "language": language,
        "nitpicky": True,
        "latex_individualpages": False,
        # The English build's execution cache: the same code, so every page is a hit.
        "nb_execution_cache_path": str(BUILD / ".jupyter_cache"),
        "html_title": edition["title"],
        # A reference to a page without a catalogue goes to the English page.
        "intersphinx_mapping": {"en": ("../", str(BUILD / "html" / "objects.inv"))},
        "intersphinx_disabled_reftypes": ["std:doc"],
    }
    return config


def _build(language: str, builder: str, outdir: Path) -> int:
    from jupyter_book.sphinx import build_sphinx

    return build_sphinx(str(ROOT), str(outdir), noconfig=True,
                        path_config=str(ROOT / "_config.yml"),
                        doctreedir=str(BUILD / language / ".doctrees"),
                        confoverrides=overrides(language), builder=builder,
                        warningiserror=True, keep_going=True,
                        # Read afresh every time: a few pages in full and stubs, seconds,
                        # and no environment kept from an older extension or catalogue.
                        freshenv=True)


def html(language: str) -> int:
    if not (BUILD / "html" / "objects.inv").is_file():
        print("build the English edition first (make book)", file=sys.stderr)
        return 2
    start = time.perf_counter()
    outdir = BUILD / language / "html"
    status = _build(language, "html", outdir)
    if status != 0:
        return 1 if isinstance(status, Exception) else int(status)
    target = BUILD / "html" / language
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(outdir, target, ignore=shutil.ignore_patterns(".doctrees", ".buildinfo"))
    print(f"{language} edition: {time.perf_counter() - start:.1f} s, in "
          f"{target.relative_to(ROOT)}/", flush=True)
    return 0


def update(language: str, new_pages: list[str]) -> int:
    """Merge the English messages into the catalogues of the translated pages and of
    ``new_pages`` (created)."""
    from jupyter_book.sphinx import build_sphinx

    pot = BUILD / "gettext"
    status = build_sphinx(str(ROOT), str(pot), noconfig=True, path_config=str(ROOT / "_config.yml"),
                          doctreedir=str(BUILD / "gettext" / ".doctrees"),
                          confoverrides={"latex_individualpages": False,
                                         "nb_execution_cache_path": str(BUILD / ".jupyter_cache")},
                          builder="gettext", keep_going=True, freshenv=True)
    if status != 0:
        return 1
    pages = translated_pages(language) + [p for p in new_pages if p not in translated_pages(language)]
    missing = [page for page in pages if not (pot / f"{page}.pot").is_file()]
    if missing:
        print(f"not pages of the book: {' '.join(missing)}", file=sys.stderr)
        return 2
    # Only these pages' templates: sphinx-intl would otherwise create a catalogue for
    # every page, and a page with a catalogue is built in full (not as a stub).
    chosen = BUILD / "gettext-chosen"
    if chosen.exists():
        shutil.rmtree(chosen)
    for page in pages:
        (chosen / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pot / f"{page}.pot", chosen / f"{page}.pot")
    return subprocess.run([str(BIN / "sphinx-intl"), "update", "-p", str(chosen), "-l", language,
                           "-d", str(LOCALE), "-w", "0", "-j", "1"], cwd=ROOT).returncode


def translated_title(language: str, page: str) -> str:
    """A page's title in its catalogue (the English one while it is untranslated)."""
    from babel.messages.pofile import read_po

    english = handout.page_title(page)
    with (LOCALE / language / "LC_MESSAGES" / "book" / f"{page}.po").open("rb") as handle:
        found = read_po(handle).get(english)
    return found.string if found is not None and found.string and not found.fuzzy else english


def pdf_options(language: str, chapters: list[str]) -> dict:
    """The Sphinx configuration of the translated edition's PDF, on top of a handout's."""
    edition = EDITIONS[language]
    numbers = handout.book_numbers()
    listed = edition["list-separator"].join(
        edition["chapter"].format(number=numbers[page], title=translated_title(language, page))
        for page in chapters)
    words = dict(edition["print"])
    words["about-edition"] = words["about-edition"].replace("{chapters}", listed)
    book = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    elements = dict(book["sphinx"]["config"]["latex_elements"])
    # Chinese text takes its double quotes, dash and ellipsis from the CJK font, full
    # width; the English book gives them to the Latin font (its glossary's Chinese is
    # terms only).  The apostrophe, single quotes, en dash and middle dot stay Latin:
    # they come from English words (an untranslated paragraph, a title, a reference).
    charclass = "\\xeCJKDeclareCharClass{Default}"
    lines = elements["preamble"].splitlines()
    if sum(line.strip().startswith(charclass) for line in lines) != 1:
        raise RuntimeError(f"_config.yml's LaTeX preamble has no single {charclass} line to replace")
    elements["preamble"] = "\n".join(
        f'{charclass}{{"2013, "2018, "2019, "00B7}}' if line.strip().startswith(charclass) else line
        for line in lines) + "\n"
    # fontspec as in the English book, and xeCJK from the preamble, after Sphinx's own
    # packages (Sphinx's Chinese set-up loads it first, instead of fontspec: code names
    # such as expected_calibration_error() then lose their breaks after "_" and run
    # into the margin).
    # Chapters as a Chinese book numbers them, 第 9 章, in the heading (fncychap's Sonny
    # style, Sphinx's for Chinese) and the running foot (Sphinx puts \@chappos after
    # the number there).
    elements["preamble"] += (
        "\\addto\\captionsenglish{\\renewcommand{\\chaptername}{第}}\n"
        "\\makeatletter\n\\def\\@chappos{章}\n"
        "\\renewcommand{\\DOCH}{\\raggedleft\\CNV\\FmN{\\@chapapp}\\space\\CNoV\\thechapter"
        "\\space\\CNV\\FmN{\\@chappos}\\par\\nobreak\\vskip 40\\p@}\n\\makeatother\n")
    elements["fontenc"] = "\\usepackage{fontspec}\n\\defaultfontfeatures[\\rmfamily,\\sffamily,\\ttfamily]{}"
    return {
        "language": language,
        # The English build's execution cache: the same code, so every page is a hit.
        "nb_execution_cache_path": str(BUILD / ".jupyter_cache"),
        # The book's own elements (paper, macros, the page-fill log of the gate), not a
        # handout's edition: the translated chapters with their solutions, like the book.
        "latex_elements": elements,
        "evalmetrics_solutions": True,
        "evalmetrics_edition": "",
        "evalmetrics_handout_title_page": False,
        "evalmetrics_preface_title": edition["preface"],
        "evalmetrics_print_words": words,
    }


def pdf(language: str) -> int:
    """The translated pages as one PDF (a handout of them, read in ``language``)."""
    start = time.perf_counter()
    numbers = handout.book_numbers()
    pages = [Path(page).name for page in translated_pages(language) if page != "book/index"]
    chapters = [page for page in pages if page in numbers]
    back_matter = tuple(page for page in pages if page not in numbers)
    folder = BUILD / language / "pdf"
    name = f"evalmetrics-{language}"
    toc_path, config_path = handout.write_inputs(
        chapters, EDITIONS[language]["title"], folder, solutions=True, back_matter=back_matter,
        options=pdf_options(language, chapters), targetname=f"{name}.tex")
    built = handout.build(pages, toc_path, config_path, folder)
    if built is None:
        return 1
    target = BUILD / language / f"{name}.pdf"
    shutil.copyfile(built, target)
    print(f"{language} PDF: {target.relative_to(ROOT)} ({time.perf_counter() - start:.1f} s)")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("html", "pdf", "update"))
    parser.add_argument("language", choices=sorted(EDITIONS))
    parser.add_argument("pages", nargs="*", help="update: pages to start translating (book/<page>)")
    args = parser.parse_args(argv)
    if args.command == "update":
        return update(args.language, args.pages)
    return {"html": html, "pdf": pdf}[args.command](args.language)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
