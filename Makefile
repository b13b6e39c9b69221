# Felt: every step from a fresh clone (python3 >= 3.11, gcc; ../shared beside it) to a
# green test run.
#   make test         set up if needed, compile the firmware, run the tests on both runtimes
#   make run ARGS=..  the emulator (felt-emulator)       make bench ARGS=..  felt-bench
#   make soak         hostile frames and power cuts, figures in one JSON line
#   make micropython  build MicroPython's unix port (once) into build/micropython/
#   make pico-harness the emulated Pico's Node packages (host_tools/pico, npm ci)
#   make compile      the firmware as a board holds it, in build/mpy/ (.mpy + main.py)
#   make clean        back to a fresh clone's state

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test
VENV := .venv

.PHONY: venv micropython pico-harness compile test run bench soak clean

venv: $(VENV)/.stamp

# Re-installs when pyproject.toml changes, and once when host_tools/__init__.py first
# appears (the editable finder records at install time whether it is a namespace).
$(VENV)/.stamp: pyproject.toml $(wildcard host_tools/__init__.py)
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[test]'
	touch $@

# MicroPython v1.27.0's unix port, 32-bit like the RP2040, built once from the source in
# ../shared/micropython (its README is the recipe).  MICROPYTHON=/path/to/micropython
# uses another build instead (README, "MicroPython"); host_tools.micropython reads it too.
MP_SRC := ../shared/micropython/micropython-1.27.0-unix-src.tar.gz
MP_DIR := build/micropython
MP_BUILT := $(abspath $(MP_DIR)/micropython)
MICROPYTHON ?= $(MP_BUILT)
export MICROPYTHON := $(abspath $(MICROPYTHON))
micropython: $(MICROPYTHON)
# make run builds it when it can; without it only --runtime micropython is refused.
RUN_MP := $(if $(wildcard $(MICROPYTHON) $(MP_SRC)),micropython)

$(MP_BUILT): $(MP_SRC)
	@command -v gcc >/dev/null || { echo "make: gcc is needed to build MicroPython's unix port"; exit 1; }
	@# A 32-bit build needs gcc-multilib; install it where we may (CI runs as root).
	@echo 'int main(void){return 0;}' | gcc -m32 -x c -o /dev/null - 2>/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    (apt-get update -qq && apt-get install -y -qq gcc-multilib) >/dev/null; } || \
	  { echo "make: gcc -m32 fails: install gcc-multilib (Debian/Ubuntu)"; exit 1; }
	rm -rf $(MP_DIR)/src && mkdir -p $(MP_DIR)/src
	tar xzf $(MP_SRC) -C $(MP_DIR)/src
	mkdir -p $(MP_DIR)/src/lib/micropython-lib
	echo placeholder > $(MP_DIR)/src/lib/micropython-lib/README.md
	echo 'include("$$(MPY_DIR)/extmod/asyncio")' > $(MP_DIR)/src/manifest.py
	$(MAKE) -s -C $(MP_DIR)/src/mpy-cross -j2 >/dev/null
	$(MAKE) -s -C $(MP_DIR)/src/ports/unix -j2 MICROPY_FORCE_32BIT=1 \
	  FROZEN_MANIFEST=$(abspath $(MP_DIR)/src/manifest.py) \
	  MICROPY_PY_BTREE=0 MICROPY_PY_SSL=0 MICROPY_PY_FFI=0 >/dev/null
	cp $(MP_DIR)/src/ports/unix/build-standard/micropython $@

# The emulated Pico (host_tools/pico/harness): rp2040js and uf2 exactly as
# package-lock.json pins them, installed again when either file changes.
PICO_NODE := host_tools/pico/node_modules/.stamp
pico-harness: $(PICO_NODE)

$(PICO_NODE): host_tools/pico/package.json host_tools/pico/package-lock.json
	@command -v npm >/dev/null || { echo "make: npm (Node.js >= 20) is needed for the emulated Pico"; exit 1; }
	npm ci --prefix host_tools/pico --no-audit --no-fund --loglevel=error
	touch $@

# The firmware as a board holds it (the felt package as .mpy, main.py as source), every
# file compiled with mpy-cross: a file MicroPython cannot compile stops here.
compile: venv
	@$(VENV)/bin/python -m host_tools.micropython compile

# The emulated Pico's device models first (node, no UF2 needed: about a second), then
# CPython (pytest: tests/), then the firmware inside MicroPython's unix port: its
# unit tests, then every scenario and the seeded runs compared with CPython's.
test: venv micropython compile pico-harness
	node --test --test-reporter=spec host_tools/pico/harness/test/
	$(VENV)/bin/pytest
	$(VENV)/bin/python tests/mp/run.py
	$(VENV)/bin/python tests/mp/compare.py

# A reader that stops early (`make run ARGS=... | head`) is no error: 141 is SIGPIPE's.
run: venv $(RUN_MP)
	@$(VENV)/bin/felt-emulator $(ARGS) || { rc=$$?; [ $$rc = 141 ] || exit $$rc; }

bench: venv micropython compile
	@$(VENV)/bin/felt-bench $(ARGS)

# Hostile frames and power cuts at every byte of journal writes: one JSON line.
soak: venv
	@$(VENV)/bin/python tests/host/soak.py $(ARGS)

clean:
	rm -rf build $(VENV) .pytest_cache .hypothesis *.egg-info host_tools/pico/node_modules
