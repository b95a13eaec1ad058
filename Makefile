# Two entry points for a fresh clone: `make build` (every game into output/) and `make test`.
# Both create the virtual environment in .venv on first use and reinstall when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: build test check bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $(STAMP)

build: $(STAMP)
	$(VENV)/bin/fudaya build

test: $(STAMP)
	$(VENV)/bin/python -m pytest

check: $(STAMP)
	$(VENV)/bin/fudaya check

bench: $(STAMP)
	$(VENV)/bin/python bench/bench_build.py

clean:
	rm -rf output/*/ $(VENV)
