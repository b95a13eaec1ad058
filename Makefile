# Two entry points for a fresh clone: `make build` (every game into output/) and `make test`.
# Both create the virtual environment in .venv on first use and reinstall when pyproject.toml changes.
# `make test` is the full suite, slow end-to-end tests included (under 4 min on 2 cores; issue 28); the quick loop
# while editing is `.venv/bin/python -m pytest -n 2 -m 'not slow'` (skips whole-game builds and many-game
# simulations; under a minute). pyproject's addopts spread tests with --dist worksteal.
# `make fuzz` runs the hostile-input fuzz suite at a large budget (docs/security.md).
# `make lint` type-checks (mypy --strict, configured in pyproject.toml) and lints (ruff); CI runs both.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: build test lint check bench fuzz fast pure clean

# The install also compiles the games' engines with mypyc (validator/native.py; about 45 s on 2 cores, needs a C
# compiler and Python's headers): simulations run about twice as fast, which the main job's reports need to stay
# under 30 s (issue 28). Without a compiler fudaya says so and plays in pure Python; mypyc's log is .venv/native.log.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	$(VENV)/bin/python -m validator.native build > $(VENV)/native.log 2>&1 \
		|| echo "fudaya: the engines were not compiled (see $(VENV)/native.log); simulations run in pure Python"
	touch $(STAMP)

build: $(STAMP)
	$(VENV)/bin/fudaya build

test: $(STAMP)
	$(VENV)/bin/python -m pytest -n auto

lint: $(STAMP)
	$(VENV)/bin/mypy
	$(VENV)/bin/ruff check generator validator tests bench

# The hostile-input fuzz suite at its large budget (300 examples a property, new ones each run; about 8 min
# on 2 cores before issue 23 added preflight's PDFs, fonts and gangs, import and watch: each of those
# properties adds minutes, the composed PDFs about 1 s an example); make test runs them on 6 fixed examples each.
fuzz: $(STAMP)
	$(VENV)/bin/python -m pytest tests/fuzz --hypothesis-profile=fuzz -n auto

# Compile the hot modules of every game with mypyc into .native/ again (the install does it once; about 45 s on
# 2 cores; needs gcc and the Python headers): greedy games 1.6-2.4x and an mcts seat 1.5-2.3x as fast as pure Python
# (validator/native.py gives each game's figures). They are used only while they match their sources, so after
# editing an engine run this again; `make pure` removes them.
fast: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test,fast]"
	$(VENV)/bin/python -m validator.native build

pure: $(STAMP)
	$(VENV)/bin/python -m validator.native clean

check: $(STAMP)
	$(VENV)/bin/fudaya check

bench: $(STAMP)
	$(VENV)/bin/python bench/bench_build.py

clean:
	rm -rf output/*/ $(VENV) .native
