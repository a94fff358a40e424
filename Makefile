# `make run`: install everything and run the whole fleet. `make test`: install everything and test.
PYTHON ?= python3
PIP ?= $(PYTHON) -m pip

.PHONY: install install-system run demo test lint

install-system:
	bash scripts/install-system.sh

install: install-system
	$(PIP) install -q -e '.[test,bench]'

run: install
	$(PYTHON) run_all.py

demo: install
	$(PYTHON) run_all.py --demo

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy
	lint-imports

# Two workers, a test file per worker at a time (-rs from pyproject: skips listed with reasons).
test: install lint
	$(PYTHON) -m pytest -q -n 2 --dist loadfile
