# evalmetrics: the handbook and its package.
#   make test      set up .venv and run every test: package, pages through nbval,
#                  downloadable notebooks, the website in a browser, the PDFs
#   make book      set up .venv and build the HTML book under _build/html, with a
#                  downloadable notebook per page under _build/html/_sources/
#   make pdf       the whole book as one PDF: _build/latex/evalmetrics.pdf; fails on an
#                  overfull box wider than 1 pt or a page 3 pt too high
#                  (tools/latex_log.py). `make book pdf`
#                  builds the PDF first and the website offers it for download.
#   make handout PAGES="roc-auc calibration" [TITLE="..."] [SOLUTIONS=yes]
#                  a PDF of chosen pages: _build/handout/<pages>-student.pdf, exercises
#                  without solutions, or with SOLUTIONS=yes <pages>-instructor.pdf
#   make system    install the Debian packages the PDF and the browser test need
#   make expected-outputs
#                  record the outputs of the cells tagged nbval-check-output
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
SOLUTIONS ?= no

# Debian's TeX (minimal set: no texlive-fonts-extra), PDF text tools, Chromium.
TEX_PACKAGES := texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
                texlive-xetex latexmk fonts-freefont-otf poppler-utils
BROWSER_PACKAGES := chromium

.PHONY: venv test book pdf handout system tex browser expected-outputs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[ml,plot,book,test]"
	touch $(STAMP)

venv: $(STAMP)

# Two workers by default (the CI machine has 2 cores); files never split (nbval pages
# share a kernel), e.g. `make test JOBS=0` for a single process.
JOBS ?= 2
test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

# `make book pdf`: the PDF first, so that the website links it (_ext/evalmetrics_latex.py).
ifneq ($(filter pdf,$(MAKECMDGOALS)),)
book: pdf
endif

book: $(STAMP)
	$(LOCK) $(BUILD) .
	@touch _build/.html-built

pdf: $(STAMP) tex
	$(LOCK) $(BUILD) --builder pdflatex .
	$(BIN)/python tools/latex_log.py _build/latex/evalmetrics.log
	@touch _build/latex/evalmetrics.pdf
	@echo "PDF: _build/latex/evalmetrics.pdf"

handout: $(STAMP) tex
	@test -n "$(PAGES)" || { echo 'usage: make handout PAGES="roc-auc calibration" [TITLE="..."] [SOLUTIONS=yes|no]'; exit 2; }
	$(LOCK) $(BIN)/python tools/handout.py --title "$(TITLE)" --solutions "$(SOLUTIONS)" $(PAGES)

# apt-get only for what is missing; a clear message instead when not root.
tex:
	@$(PYTHON) tools/system.py tex $(TEX_PACKAGES)

browser:
	@$(PYTHON) tools/system.py browser $(BROWSER_PACKAGES)

system:
	@$(PYTHON) tools/system.py all $(TEX_PACKAGES) $(BROWSER_PACKAGES)

expected-outputs: $(STAMP)
	$(BIN)/python tools/expected_outputs.py

clean:
	rm -rf _build
