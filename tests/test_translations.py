"""The Chinese edition against the English one.

* Catalogue level (no build): every translated message keeps its English original's
  glued values (keys and formats), inline math, code, cross-reference targets and
  typed numbers (``translation_check.py``); no translated message is fuzzy; the terms
  are the glossary's (one Chinese term per concept: the renderings the glossary lists
  as "also seen" never appear in a translation).
* The Chinese Brier chapter against the note it was written from
  (``/shared/seeds/brier-decomposition-zh.txt`` is outside the repository: its points
  are listed here, each with the place in the translated chapter that carries it).
* Built site (``make book``): each translated page and its English original have the
  same multiset of glued values, the same numbers in the rendered text, the same
  display equations, figures, numbered labels (theorems, equations, exercises) and
  cross-reference targets; the pages with a catalogue are translated to 100 %, the
  others are stubs that link their English page, and every page of each edition
  links the same page of the other.
* The edition in print (``make pdf LANGUAGE=zh_CN``): every translated page, in
  Chinese, with the chapters' numbers of the full book and the glossary's terms; no
  character without a glyph, the layout gates of every PDF passed, every page rendered.
  (The Chinese pages in a browser: ``tests/browser``, ``site_check.ZH_PAGES``.)
"""

from __future__ import annotations

import json
import posixpath
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from translation_check import differences

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))
import evalmetrics_i18n  # noqa: E402

import handout  # noqa: E402  (tools/handout.py)
import latex_log  # noqa: E402  (tools/latex_log.py)
import notebooks  # noqa: E402
import translations  # noqa: E402  (tools/translations.py)

LANGUAGE = "zh_CN"
CATALOGUES = ROOT / "locale" / LANGUAGE / "LC_MESSAGES" / "book"
PAGES = sorted(p.stem for p in CATALOGUES.glob("*.po"))
#: The pages translated in full (the issue's four, the glossary and the bibliography).
COMPLETE = ["bibliography", "brier-decomposition", "calibration", "glossary", "index", "notation"]


def messages(page: str):
    with (CATALOGUES / f"{page}.po").open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


@pytest.mark.parametrize("page", PAGES)
def test_translated_messages_keep_values_math_links_and_numbers(page):
    problems = [f"{m.id[:60]!r}: {found}" for m in messages(page) if m.string
                for found in [differences(m.id, m.string)] if found]
    assert problems == [], "\n".join(problems)


def test_glued_markdown_in_a_translation_is_the_pages_own():
    """myst-nb resolves no {glue:md} in a translated paragraph: the extension pastes the
    Markdown the page glued (format myst); another format or a key the page did not
    glue stays a role, which fails the build as it would in English."""
    data = {"gap": {"data": {"text/markdown": "$2.3 \\times 10^{-6}$", "text/plain": "<Markdown>"}}}
    text = "至多 {glue:md}`gap:myst`；{glue:md}`gap:commonmark`，{glue:md}`other:myst`"
    assert evalmetrics_i18n.paste_glue_markdown(text, data) == (
        "至多 $2.3 \\times 10^{-6}$；{glue:md}`gap:commonmark`，{glue:md}`other:myst`")


def test_exercise_marks_are_in_the_editions_language():
    assert notebooks.exercise_marks("level-1 kind-hand") == "Quick · by hand"
    assert notebooks.exercise_marks("kind-prove level-3", "zh_CN") == "较难 · 证明或推导"


@pytest.mark.parametrize("page", PAGES)
def test_no_fuzzy_translation_is_kept(page):
    assert [m.id[:60] for m in messages(page) if m.fuzzy and m.string] == []


def glossary_rows() -> list[tuple[str, str, list[str]]]:
    """(English, Chinese, other renderings) of every row of the glossary's tables."""
    rows = []
    for line in (ROOT / "book" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] and cells[0] not in ("English", "---"):
            others = [o.strip() for o in cells[3].split(",") if o.strip()]
            rows.append((cells[0], cells[1], others))
    return rows


def test_the_glossary_has_the_notes_terms():
    chinese = {english: term for english, term, _ in glossary_rows()}
    assert chinese["reliability"] == "可靠度" and chinese["resolution"] == "分辨力"
    assert chinese["uncertainty"] == "不确定性" and chinese["base rate"] == "基率"
    assert chinese["law of total variance"] == "全方差公式"


@pytest.mark.parametrize("page", PAGES)
def test_one_term_per_concept(page):
    """No rendering the glossary rejects appears in a translation (a rejected rendering
    that contains the chosen term, 可靠度图 in 可靠度, is not one)."""
    rejected = {other: term for _, term, others in glossary_rows() for other in others
                if not any(other in chosen for _, chosen, _ in glossary_rows())}
    if page == "glossary":
        return  # the glossary names them, in its last column
    found = [(other, rejected[other], m.string[:50]) for m in messages(page) if m.string
             for other in rejected if other in m.string]
    assert found == []


# ----------------------------------------------------------- the seed note

#: Every point of the Chinese note (its claims, proof steps, boundary cases and
#: citations), with the words of the note and where the translated Brier chapter
#: carries it: an English message (its start) and Chinese words that must be in its
#: translation, in the note's terms.
NOTE_POINTS = [
    ("statement: Y in {0,1}, S in [0,1], base rate pi = EY, m(S) = E[Y|S]",
     "Let $Y \\in \\{0, 1\\}$ be the outcome", ["基率", "真实风险"]),
    ("normalisation BS = E(S-Y)^2; two-class vector sum is twice",
     "the value a calibrated forecaster would have reported", ["单列归一化", "两倍"]),
    ("three non-negative quantities REL, RES, UNC", "Three non-negative quantities", ["非负"]),
    ("REL: calibration error, smaller is better; RES: how much true risks differ, larger "
     "is better; UNC: variance of the Bernoulli outcome",
     "The **reliability** term", ["可靠度", "越小越好", "分辨力", "越大越好", "不确定性", "Bernoulli"]),
    ("all three non-negative, resolution subtracted [1,3]",
     "All three terms are non-negative", ["均非负", "被减去"]),
    ("intuition: baseline pi(1-pi) of always reporting the base rate",
     "Start from a forecaster who knows nothing", ["基率", "基线"]),
    ("useful forecaster splits into bins of different true risk: the gain is resolution; "
     "misstated values pay reliability loss",
     "Start from a forecaster who knows nothing", ["分辨力", "可靠度损失"]),
    ("citation [2]: Gneiting and Raftery, Sections 2.3 and 3.3, reference forecast",
     "Start from a forecaster who knows nothing", ["第 2.3 节", "第 3.3 节", "恰当评分规则"]),
    ("perfect calibration is not the end: base-rate forecaster has REL = RES = 0; a model "
     "that separates risk can be calibrated and score better",
     "This order of events explains", ["完全校准", "可靠度损失为零", "分辨力也为零"]),
    ("0.24 - 0.09 + 0.01 = 0.16 (the waterfall)",
     "From the base-rate score to the Brier score", ["不确定性", "减去分辨力", "加上可靠度损失"]),
    ("example: reports 0.2 and 0.8 equally often, true rates 0.1 and 0.7, pi = 0.4, UNC = 0.24",
     "The true rates of the two groups are", ["基率", "不确定性"]),
    ("both reports 0.1 too high: REL = 0.01", "The true rates of the two groups are", ["高报"]),
    ("true risks 0.3 from the base rate: RES = 0.09", "which is {glue:text}`bd-rel:.2f`",
     ["离基率"]),
    ("BS = 0.16 by the decomposition and directly from the labels (0.10 and 0.22)",
     "which is {glue:text}`bd-res:.2f`", ["直接按标签求平均"]),
    ("report 0.1 and 0.7: RES unchanged, REL 0, BS 0.15; always 0.4: calibrated, no "
     "resolution, 0.24", "Two variations separate the terms", ["分辨力不动", "可靠度损失消失", "校准"]),
    ("proof: S - Y = (S - m) + (m - Y), squared", "Proof. Write $q = q(S)$", ["平方"]),
    ("given S, S - m fixed and E[m - Y | S] = 0: cross term vanishes",
     "Given $S$, the factor $S - q$ is a constant", ["确定量", "交叉项消失", "条件方差"]),
    ("law of total variance", "The law of total variance splits", ["全方差公式"]),
    ("E m(S) = pi: the between part is RES; variance of binary Y is UNC",
     "Since $\\E q(S) = \\E Y = \\pi$", ["代回"]),
    ("holds for any report distribution, no finitely many values, no correct model",
     "Nothing in the proof needs", ["有限个值", "正确设定的模型", "任意联合分布"]),
    ("empirical groups with one report value each: exact identity with shares and masses",
     "On a finite sample, group the $n$ rows", ["不同的", "经验正例率"]),
    ("exact: the same algebra on the empirical distribution; citation [3] Bröcker, "
     "Sections 2.2-2.3, equations (6), (8), (13)-(14)",
     "exactly, because it is the same algebra", ["同一代数恒等式", "第 2.2 节", "第 2.3 节", "修订稿"]),
    ("bin means replace distinct reports: decomposition of the binned forecaster, not "
     "the original", "The exactness depends on every group", ["分箱后预报者", "箱均值"]),
    ("(0.2, 0), (0.4, 1): 0.20; reported 0.3: 0.29; the 0.09 cannot be dropped",
     "Two rows show it", ["不能同时宣称分解了原来的"]),
    ("0 <= RES <= UNC by the law of total variance; randomness within bins cannot be "
     "removed while true risks lie in (0, 1)", "**Resolution is bounded by uncertainty.**",
     ["分辨力不超过不确定性", "全方差公式", "无法去除"]),
    ("resolution does not grow because reports are more extreme: it depends on true rates",
     "**Resolution is bounded by uncertainty.**", ["更极端", "真实"]),
    ("richer information Z, old information a function of it: ideal Brier risk never worse",
     "**Better information cannot hurt the ideal forecast.**", ["理想 Brier 风险不会变差"]),
    ("finite-sample estimates can get worse (overfitting): more features do not guarantee "
     "a lower score", "The ideal risk falls from", ["增加特征并不保证"]),
    ("use: recalibration may reduce reliability loss; equal true risks need more "
     "informative predictors", "The decomposition points at the kind of improvement",
     ["再校准", "可能减少", "信息更多的预测依据"]),
    ("a low empirical calibration error never replaces checking overall quality on "
     "independent data", "The decomposition points at the kind of improvement",
     ["独立数据", "总体分数"]),
    ("citation [1]: Murphy (1973), the original decomposition", "The Brier score of {ref}`calibration`",
     ["{cite:t}`murphy1973`"]),
]


@pytest.mark.parametrize("point, english, words", NOTE_POINTS, ids=[p[0][:40] for p in NOTE_POINTS])
def test_the_brier_chapter_carries_every_point_of_the_note(point, english, words):
    found = [m for m in messages("brier-decomposition") if m.id.startswith(english)]
    assert found, f"no message starts with {english!r}"
    text = " ".join(m.string for m in found)
    missing = [w for w in words if w not in text]
    assert missing == [], f"{point}: {missing} not in the translation"


# ------------------------------------------------------------- the built site


def article(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    start = html.find('<article class="bd-article"')
    end = html.find("</article>", start)
    return html[start:end]


def _target(href: str, page_dir: str) -> str:
    """A link's target from the site's root (a translated page's link into the English
    site, through intersphinx, and an English page's own link name the same target)."""
    target = posixpath.normpath(posixpath.join(page_dir, href))
    return target.removeprefix(f"{LANGUAGE}/")


def rendered(path: Path, page_dir: str = "book") -> dict[str, Counter]:
    """What the editions must share, from a page's article."""
    # A translated edition's own note on a partly translated page is not the page's.
    html = re.sub(r'<p class="evalmetrics-partly-translated">.*?</p>', " ", article(path), flags=re.S)
    text_html = re.sub(r'<div class="[^"]*\bmath\b[^"]*"[^>]*>.*?</div>', " ", html, flags=re.S)
    text_html = re.sub(r'<div class="(cell_input|highlight)[^"]*".*?</pre></div>', " ", text_html,
                       flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text_html)
    text = re.sub(r"\\\(.*?\\\)", " ", text, flags=re.S)
    return {
        "glued": Counter(re.findall(r'<span class="pasted-text">([^<]*)</span>', html)),
        "numbers": Counter(n.replace(",", "") for n in
                           re.findall(r"(?<![\w.])\d+(?:[.,]\d+)*", text)),
        "display math": Counter(m.strip() for m in
                                re.findall(r'<div class="[^"]*\bmath\b[^"]*"[^>]*>(.*?)</div>', html, re.S)),
        "figures": Counter(re.findall(r'<img [^>]*src="([^"]+)"', html)),
        "ids": Counter(re.findall(r'id="((?:equation|fig|tab|thm|[\w-]+-ex-|[\w-]+-sol-)[^"]*)"', html)),
        "links": Counter(_target(href, page_dir) for href in
                         re.findall(r'<a class="reference (?:internal|external)" href="([^"#:]*(?:#[^"]*)?)"',
                                    html) if "://" not in href),
    }


@pytest.fixture(scope="module")
def coverage(built_site) -> dict:
    return json.loads((built_site / LANGUAGE / "translation-coverage.json").read_text())["pages"]


@pytest.mark.book
@pytest.mark.parametrize("page", COMPLETE)
def test_the_page_is_translated_in_full(coverage, page):
    record = coverage[f"book/{page}"]
    assert not record["stub"] and record["translated"] == record["total"], record


@pytest.mark.book
@pytest.mark.parametrize("page", COMPLETE)
def test_a_page_translated_in_full_has_its_exercise_marks_in_chinese(built_site, page):
    """The marks are written after Sphinx applied the catalogue (no message of theirs)."""
    html = article(built_site / LANGUAGE / "book" / f"{page}.html")
    assert not re.search(r"(Quick|Medium|Hard) · ", html)
    english = article(built_site / "book" / f"{page}.html")
    assert html.count(" · ") >= len(re.findall(r"(?:Quick|Medium|Hard) · ", english))


@pytest.mark.book
@pytest.mark.parametrize("page", PAGES)
def test_the_two_editions_render_the_same_values_and_links(built_site, page):
    english = rendered(built_site / "book" / f"{page}.html")
    chinese = rendered(built_site / LANGUAGE / "book" / f"{page}.html", f"{LANGUAGE}/book")
    for kind in english:
        lost, added = english[kind] - chinese[kind], chinese[kind] - english[kind]
        assert not lost and not added, f"{kind}: only English {dict(lost)}, only Chinese {dict(added)}"


@pytest.mark.book
def test_pages_without_a_catalogue_are_stubs_that_link_the_english(built_site, coverage):
    stubs = [doc for doc, record in coverage.items() if record["stub"]]
    assert stubs
    for doc in stubs:
        html = article(built_site / LANGUAGE / f"{doc}.html")
        assert "本页尚未译成中文" in html
        assert f'href="{"../" * (doc.count("/") + 1)}{doc}.html"' in html


@pytest.mark.book
def test_every_page_links_its_other_edition(built_site):
    for path in sorted((built_site / "book").glob("*.html")):
        doc = path.relative_to(built_site).with_suffix("").as_posix()
        english = path.read_text(encoding="utf-8")
        chinese = (built_site / LANGUAGE / f"{doc}.html").read_text(encoding="utf-8")
        assert f'href="../{LANGUAGE}/{doc}.html"' in english, doc
        assert f'href="../../{doc}.html"' in chinese, doc
        assert '<html lang="zh-CN"' in chinese and '<html lang="en"' in english


# ------------------------------------------------------------ the edition in print


def cjk_text(pdf: Path) -> list[str]:
    """The text of each page, with the line breaks inside Chinese text taken out (a
    Chinese line breaks between two characters, without a space)."""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    cjk = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
    return [re.sub(rf"(?<=[{cjk}])\s+(?=[{cjk}])", "", re.sub(r"[ \t]*\n[ \t]*", "\n", page))
            for page in text.split("\f")]


def test_the_gate_reads_missing_characters(tmp_path):
    # XeTeX's report of a character no font has, as a Chinese term in a Latin font gives it
    log = tmp_path / "book.log"
    log.write_text("evalmetrics-page 1 (1): 600.0pt of 650.0pt opens\n"
                   "Missing character: There is no 分 (U+5206) in font [FreeSerif.otf]/OT:script=latn;!\n"
                   "Missing character: There is no 分 (U+5206) in font [FreeSerif.otf]/OT:script=latn;!\n"
                   "Missing character: There is no 力 (U+529B) in font [FreeSerif.otf]/OT:script=latn;!\n",
                   encoding="utf-8")
    found = latex_log.problems(log)
    assert [line for line in found if "no glyph" in line] == [
        "book.tex: no glyph for 分 (U+5206) in [FreeSerif.otf]/OT:script=latn;",
        "book.tex: no glyph for 力 (U+529B) in [FreeSerif.otf]/OT:script=latn;"]
    log.write_text("evalmetrics-page 1 (1): 600.0pt of 650.0pt opens\n", encoding="utf-8")
    assert latex_log.problems(log) == []


@pytest.fixture(scope="module")
def zh_print(built_zh_pdf) -> dict:
    latex = built_zh_pdf.parent / "pdf" / "_build" / "latex"
    pages = cjk_text(built_zh_pdf)
    return {"pdf": built_zh_pdf, "log": latex / f"{built_zh_pdf.stem}.log",
            "pages": pages, "text": re.sub(r"\s+", " ", " ".join(pages))}


@pytest.mark.book
def test_the_chinese_pdf_holds_every_translated_page_in_chinese(zh_print):
    text = zh_print["text"]
    titles = {page: translations.translated_title(LANGUAGE, page) for page in PAGES}
    assert [page for page, title in titles.items() if title not in text] == []
    # the translated pages only, never a stub of an untranslated one
    assert "本页尚未译成中文" not in text
    # each chapter under its number in the full book, as the website numbers it
    numbers = handout.book_numbers()
    for page in PAGES:
        if page in numbers:
            assert re.search(rf"第\s*{numbers[page]}\s*章\s*{re.escape(titles[page])}", text), page
    # a reference into a chapter that is not translated: its number and title in the full book
    assert "全书第" in text and "in the full book" not in text
    # the print words in Chinese
    assert "目录" in text and "前言" in text and "证明" in text


@pytest.mark.book
@pytest.mark.parametrize("page", COMPLETE)
def test_the_chinese_pdf_prints_every_translated_sentence(zh_print, page):
    """The runs of Chinese in the page's catalogue (six characters or more between
    punctuation, markup or Latin) are text of the PDF that pdftotext reads back.  A
    few are cut by what pdftotext reads in between (a page's running head, a table's
    next column, a formula), so 95 % of them, not all."""
    runs = {run for m in messages(page) if m.string and not m.fuzzy
            for run in re.findall(r"[\u4e00-\u9fff]{6,}", m.string)}
    text = re.sub(r"\s+", "", zh_print["text"])
    missing = sorted(run for run in runs if run not in text)
    assert runs and len(missing) <= 0.05 * len(runs), missing


@pytest.mark.book
def test_the_chinese_pdf_has_the_glossarys_terms_and_the_english_numbers(zh_print):
    from test_book_pdf import WORKED_EXAMPLE

    text = zh_print["text"]
    assert [term for _, term, _ in glossary_rows() if term not in text] == []
    # the same computed numbers as the English book prints, from the same cells
    missing = [(page, number) for page in PAGES for number in WORKED_EXAMPLE.get(page, [])
               if number not in text]
    assert missing == []


@pytest.mark.book
def test_the_chinese_pdf_passes_the_gates_with_a_glyph_for_every_character(zh_print):
    log = zh_print["log"].read_text(encoding="utf-8", errors="replace")
    assert "Missing character" not in log
    assert latex_log.problems(zh_print["log"]) == []
    assert not re.search(r"^! |LaTeX Error|undefined references", log, re.MULTILINE)
    # every page was measured by the near-empty-page gate
    assert len(latex_log.page_fills(log)) == len(zh_print["pages"]) - 1  # (a form feed ends the text)


@pytest.mark.book
def test_the_chinese_pdf_pages_render(zh_print, tmp_path):
    subprocess.run(["pdftoppm", "-r", "20", "-png", str(zh_print["pdf"]), str(tmp_path / "page")],
                   check=True)
    images = sorted(tmp_path.glob("page-*.png"))
    assert len(images) == len(zh_print["pages"]) - 1
    assert all(image.stat().st_size > 500 for image in images)


@pytest.mark.book
@pytest.mark.parametrize("page", PAGES)
def test_solution_titles_repeat_the_translated_subtitle(built_site, page):
    """A solution's title names its exercise with the exercise's subtitle, translated
    (sphinx-exercise copies it from the English as read)."""
    html = article(built_site / LANGUAGE / "book" / f"{page}.html")
    titles = re.findall(r'<p class="admonition-title">解答<a [^>]*>([^<]*)</a>', html)
    translated = {m.id: m.string for m in messages(page) if m.string and not m.fuzzy}
    english = [title for title in titles for msgid in translated if f"({msgid})" in title]
    assert english == []
    if page == "brier-decomposition":  # a chapter with exercises: each subtitle in Chinese
        assert titles and all(re.search(r"\([^)]*[\u4e00-\u9fff][^)]*\)", t) for t in titles), titles
