# evalmetrics: the handbook and its package.
#   make test      set up .venv and run every test: package, pages through nbval,
#                  downloadable notebooks, the website in a browser, the PDFs
#   make book      set up .venv and build the HTML book under _build/html, with a
#                  downloadable notebook per page under _build/html/_sources/
#   make pdf [PAPER=a4|letter] [SOLUTIONS=no]
#                  the whole book as one PDF: _build/latex/evalmetrics.pdf, with the
#                  solutions (SOLUTIONS=no: the student edition, without them,
#                  _build/latex/evalmetrics-student.pdf); A4 unless PAPER=letter. Fails
#                  on an overfull box wider than 1 pt, a page 3 pt too high or a page less
#                  than a quarter full that ends no chapter (tools/latex_log.py).
#                  `make book pdf` builds the PDF first and the website offers it.
#                  `make pdf LANGUAGE=zh_CN`: the Chinese edition's translated pages as one
#                  PDF, _build/zh_CN/evalmetrics-zh_CN.pdf, through the same gates.
#   make handout PAGES="roc-auc calibration" [TITLE="..."] [SOLUTIONS=yes] [PAPER=...]
#                  a PDF of chosen pages: _build/handout/<pages>-student.pdf, exercises
#                  without solutions, or with SOLUTIONS=yes <pages>-instructor.pdf; the
#                  title page and the running head name the edition
#   make system    install the Debian packages the PDF and the browser test need
#   make expected-outputs
#                  record the outputs of the cells tagged nbval-check-output
#   make lint      ruff's checks (pyproject.toml's [tool.ruff]) over the whole repository
# Each target creates the virtual environment it needs; nothing is installed by hand.
# The execution cache is dropped automatically when evalmetrics/ changes
# (_ext/evalmetrics_book.py), so a rebuild never shows numbers of old code.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book
BUILD  := $(JB) build -n -W --keep-going
# One build at a time in _build/ (tests build on demand; two builds would share the
# execution cache's database).
LOCK   := mkdir -p _build && flock _build/.lock
PAGES  ?=
TITLE  ?=
# Empty: the handout's default (the student edition), the book's (with the solutions).
SOLUTIONS ?=
# a4 or letter; empty: the book's own (latex_elements.papersize in _config.yml).
PAPER  ?=

# Debian's TeX (minimal set: no texlive-fonts-extra), PDF text tools, Chromium; xeCJK
# (texlive-lang-chinese) and Noto CJK (fonts-noto-cjk) for the Chinese of the glossary
# in every PDF and for the Chinese edition's PDF.
TEX_PACKAGES := texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
                texlive-xetex latexmk fonts-freefont-otf poppler-utils \
                texlive-lang-chinese fonts-noto-cjk
BROWSER_PACKAGES := chromium

.PHONY: venv test book translations pdf handout system tex browser expected-outputs clean lock test-newest lint

# Every Python package at the version constraints.txt names (the lock), so a course
# that builds its handouts in week 1 and week 12 gets the same numbers and figures.
# `make lock` moves the lock to the newest releases; `make test-newest` runs the
# package tests against them without moving it.
LOCKFILE := constraints.txt
AXE      := node_modules/axe-core/axe.min.js
EXTRAS   := ml,plot,book,test

$(STAMP): pyproject.toml $(LOCKFILE)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --constraint $(LOCKFILE) -e ".[$(EXTRAS)]"
	touch $(STAMP)

venv: $(STAMP)

# Two workers by default (the CI machine has 2 cores); files never split (nbval pages
# share a kernel), e.g. `make test JOBS=0` for a single process.
# The Debian packages first (`system`: TeX and Chromium, one locked apt sequence), so
# that no test worker installs anything while another one runs; axe-core, the browser
# test's accessibility engine, from the npm registry at the version package-lock.json
# names.
JOBS ?= 2
test: $(STAMP) system $(AXE)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

# `make book pdf`: the PDF first, so that the website links it (_ext/evalmetrics_latex.py).
ifneq ($(filter pdf,$(MAKECMDGOALS)),)
book: pdf
endif

# The translated editions (tools/translations.py): built after the English one, from its
# execution cache, into _build/html/<language>/; each prints its coverage and its time.
LANGUAGES := zh_CN

book: $(STAMP)
	$(LOCK) $(BUILD) .
	$(LOCK) $(BIN)/python tools/translations.py html $(LANGUAGES)
	@touch _build/.html-built

# The translations' catalogues brought in step with the English pages (new paragraphs
# untranslated, changed ones fuzzy); `make translations PAGES=book/costs` starts a page.
translations: $(STAMP)
	$(LOCK) $(BIN)/python tools/translations.py update $(LANGUAGES) $(PAGES)

# The LaTeX of the edition asked for (_ext/evalmetrics_latex.py reads the two variables),
# then only its own PDF: evalmetrics.tex and evalmetrics-student.tex share _build/latex.
# `make pdf LANGUAGE=zh_CN`: the translated edition's PDF (tools/translations.py).
LANGUAGE ?= en
PDF_NAME := evalmetrics$(if $(filter no,$(SOLUTIONS)),-student)
ifneq ($(LANGUAGE),en)
pdf: $(STAMP) tex
	$(LOCK) $(BIN)/python tools/translations.py pdf $(LANGUAGE)
else
pdf: $(STAMP) tex
	$(LOCK) sh -c 'EVALMETRICS_PAPER="$(PAPER)" EVALMETRICS_SOLUTIONS="$(SOLUTIONS)" \
	  $(BUILD) --builder latex . && $(MAKE) --no-print-directory -C _build/latex $(PDF_NAME).pdf'
	$(BIN)/python tools/latex_log.py _build/latex/$(PDF_NAME).log
	@touch _build/latex/$(PDF_NAME).pdf
	@echo "PDF: _build/latex/$(PDF_NAME).pdf"
endif

handout: $(STAMP) tex
	@test -n "$(PAGES)" || { echo 'usage: make handout PAGES="roc-auc calibration" [TITLE="..."] [SOLUTIONS=yes|no] [PAPER=a4|letter]'; exit 2; }
	$(LOCK) $(BIN)/python tools/handout.py --title "$(TITLE)" --solutions "$(or $(SOLUTIONS),no)" \
	  --paper "$(PAPER)" $(PAGES)

# apt-get only for what is missing, one installation at a time on the machine (a lock in
# tools/system.py shared by these three targets and the test fixtures); a clear message
# instead when not root.
tex:
	@$(PYTHON) tools/system.py tex $(TEX_PACKAGES)

browser:
	@$(PYTHON) tools/system.py browser $(BROWSER_PACKAGES)

system:
	@$(PYTHON) tools/system.py all $(TEX_PACKAGES) $(BROWSER_PACKAGES)

# The newest releases that pyproject.toml allows, resolved in a scratch environment and
# written to constraints.txt (review its diff, then run `make test` before committing).
SCRATCH := _build/newest-venv
lock:
	rm -rf $(SCRATCH)
	$(PYTHON) -m venv $(SCRATCH)
	$(SCRATCH)/bin/pip install --quiet --upgrade pip
	$(SCRATCH)/bin/pip install --quiet --upgrade -e ".[$(EXTRAS)]"
	{ echo "# The lock: exact versions of every Python package of the book, the tests and the"; \
	  echo "# notebooks' wheel, used by default (Makefile). Refresh with \`make lock\`."; \
	  $(SCRATCH)/bin/pip freeze --exclude-editable; } > $(LOCKFILE).new
	mv $(LOCKFILE).new $(LOCKFILE)
	@echo "$(LOCKFILE): $$(grep -c '==' $(LOCKFILE)) packages"

# The package tests (no book) against the newest releases, in the scratch environment:
# a drift is seen here before the lock is moved. Every extra, as in .venv: some package
# tests read the book's tools (myst-nb's glue, pybtex, vl-convert's still pictures).
test-newest:
	rm -rf $(SCRATCH)
	$(PYTHON) -m venv $(SCRATCH)
	$(SCRATCH)/bin/pip install --quiet --upgrade pip
	$(SCRATCH)/bin/pip install --quiet --upgrade -e ".[$(EXTRAS)]"
	$(SCRATCH)/bin/pip list --format=freeze | grep -E '^(numpy|scipy|scikit-learn|matplotlib)=='
	$(SCRATCH)/bin/python -m pytest -n $(JOBS) -m "not book" -q

$(AXE): package.json package-lock.json
	@command -v npm >/dev/null || $(PYTHON) tools/system.py npm npm
	npm ci --no-audit --no-fund --silent
	touch $(AXE)

expected-outputs: $(STAMP)
	$(BIN)/python tools/expected_outputs.py

# Lint only (no formatter): the rules and their reasons are in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf _build
