# evalmetrics: the handbook and its package.
#   make test    set up .venv and run every test (package, pages through nbval)
#   make book    set up .venv and build the HTML book under _build/html
# Each target creates the virtual environment it needs; nothing is installed by hand.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book

.PHONY: venv test book clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[ml,plot,book,test]"
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

book: $(STAMP)
	$(JB) build -n -W --keep-going .

clean:
	rm -rf _build
