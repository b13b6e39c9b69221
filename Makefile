# Felt: every step from a fresh clone (python3 >= 3.11, gcc; ../shared beside it) to a
# green test run.
#   make test         set up if needed, compile the firmware, run the tests on both runtimes
#   make check        the long runs after make test (CI runs both): 1000-hand runs compared
#                     across runtimes, the whole Pico set, slow tests, the soak
#   make run ARGS=..  the emulator (felt-emulator)       make bench ARGS=..  felt-bench
#   make floor        six emulated tables on the floor's page (felt-floor demo)
#   make soak         hostile frames and power cuts, figures in one JSON line
#   make micropython  build MicroPython's unix port (once) into build/micropython/
#   make pico         the Pico's firmware, felt frozen in, into build/pico/firmware.uf2

#   make pico-harness the emulated Pico's Node packages (host_tools/pico, npm ci)
#   make floor-parts  mosquitto, chromium and certutil, which the floor's tests use (Debian's)
#   make compile      the firmware as a board holds it, in build/mpy/ (.mpy + main.py)
#   make clean        back to a fresh clone's state

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test
VENV := .venv
# Python keeps compiled bytecode (__pycache__, ignored by git) even where the environment
# says not to: the test workers and the hundreds of tools and emulators the tests start
# would otherwise each compile the same modules again (a minute of make test).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: venv micropython pico pico-harness floor-parts compile test check run floor bench soak clean

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
# uses another build instead (docs/development.md, "MicroPython"); host_tools.micropython reads it too.
MP_SRC := ../shared/micropython/micropython-1.27.0-unix-src.tar.gz
MP_DIR := build/micropython
MP_BUILT := $(abspath $(MP_DIR)/micropython)
MICROPYTHON ?= $(MP_BUILT)
export MICROPYTHON := $(abspath $(MICROPYTHON))
micropython: $(MICROPYTHON)
# make run builds it when it can; without it only --runtime micropython is refused.
RUN_MP := $(if $(wildcard $(MICROPYTHON) $(MP_SRC)),micropython)

# Monocypher 4.0.3's C source (../shared/monocypher), for the monocypher module both
# MicroPython builds carry (cmodules/monocypher: Ed25519 in C, issue 40).
MONO_SRC := ../shared/monocypher/monocypher-4.0.3-src.tar.gz
MONO_DIR := build/monocypher
MONOCYPHER_DIR := $(abspath $(MONO_DIR))/monocypher-4.0.3/src
CMODULES := $(shell find cmodules -type f)

$(MONO_DIR)/.unpacked: $(MONO_SRC)
	@rm -rf $(MONO_DIR) && mkdir -p $(MONO_DIR)
	@tar xzf $(MONO_SRC) -C $(MONO_DIR)
	@touch $@

$(MP_BUILT): $(MP_SRC) $(MONO_DIR)/.unpacked $(CMODULES)
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
	  MICROPY_PY_BTREE=0 MICROPY_PY_SSL=0 MICROPY_PY_FFI=0 \
	  USER_C_MODULES=$(abspath cmodules) MONOCYPHER_DIR=$(MONOCYPHER_DIR) >/dev/null
	@# A new file moved into place: a test may be running the old one ("Text file busy").
	cp $(MP_DIR)/src/ports/unix/build-standard/micropython $@.new && mv -f $@.new $@

# MicroPython v1.27.0's rp2 port for the Raspberry Pi Pico (the board FELT_PICO in
# hardware/micropython: the port's RPI_PICO at 200 MHz) with felt and main.py frozen in
# (firmware/pico/manifest.py), and picotool without libusb to make the UF2, from
# ../shared/pico (its README is the recipe).  Built again only when a frozen file, a C
# module or the board changes; the port's build log is build/pico/build.log.
PICO_SRC := ../shared/pico/micropython-1.27.0-rp2-src.tar.gz
PICO_DIR := build/pico
PICO_TREE := $(abspath $(PICO_DIR)/src)
PICO_MP := $(PICO_TREE)/micropython-1.27.0-rp2
PICO_DEBS := gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake g++
PICO_FROZEN := $(shell find firmware/felt firmware/pico -name '*.py') firmware/main.py
PICO_LOG := $(abspath $(PICO_DIR)/build.log)
PICO_BOARD := hardware/micropython/FELT_PICO
PICO_BUILD := $(PICO_MP)/ports/rp2/build-FELT_PICO
pico: $(PICO_DIR)/firmware.uf2

$(PICO_DIR)/.unpacked: $(PICO_SRC)
	@# The ARM toolchain, newlib and libstdc++ (picotool is C++); installed where we may.
	@echo '#include <cstdio>' | arm-none-eabi-g++ -x c++ -fsyntax-only - 2>/dev/null && \
	  command -v cmake >/dev/null && command -v g++ >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    (apt-get update -qq && apt-get install -y -qq $(PICO_DEBS)) >/dev/null; } || \
	  { echo "make: the Pico build needs: $(PICO_DEBS) (Debian/Ubuntu)"; exit 1; }
	@rm -rf $(PICO_DIR)/src && mkdir -p $(PICO_DIR)/src
	@tar xzf $(PICO_SRC) -C $(PICO_DIR)/src
	@touch $@

$(PICO_DIR)/.picotool: $(PICO_DIR)/.unpacked
	@echo "make: building picotool and mpy-cross (log: $(PICO_LOG))"
	@{ cmake -S $(PICO_TREE)/picotool-2.1.1 -B $(PICO_TREE)/picotool-build \
	    -DPICO_SDK_PATH=$(PICO_MP)/lib/pico-sdk -DPICOTOOL_NO_LIBUSB=1 \
	    -DPICOTOOL_FLAT_INSTALL=1 -DCMAKE_INSTALL_PREFIX=$(PICO_TREE)/picotool && \
	  $(MAKE) -C $(PICO_TREE)/picotool-build -j2 install && \
	  $(MAKE) -C $(PICO_MP)/mpy-cross -j2; } >$(PICO_LOG) 2>&1 || \
	  { tail -20 $(PICO_LOG); exit 1; }
	@touch $@

$(PICO_DIR)/firmware.uf2: $(PICO_DIR)/.picotool $(PICO_FROZEN) $(MONO_DIR)/.unpacked $(CMODULES) \
    $(wildcard $(PICO_BOARD)/*)
	@echo "make: building the Pico firmware (log: $(PICO_LOG))"
	@# CMake is run only for a new build folder: a changed C module or board needs one.
	@[ -f $@ ] && [ -z "$$(find cmodules $(PICO_BOARD) -newer $@)" ] || rm -rf $(PICO_BUILD)
	@# CMAKE_ARGS from the environment: the port's Makefile adds to it (the board, the
	@# manifest), which a CMAKE_ARGS on make's command line would override.
	@# The version from the source's tag: git would describe the Felt checkout around it.
	@CMAKE_ARGS="-Dpicotool_DIR=$(PICO_TREE)/picotool/picotool -DMONOCYPHER_DIR=$(MONOCYPHER_DIR)" \
	  MICROPY_GIT_TAG=v1.27.0 $(MAKE) -C $(PICO_MP)/ports/rp2 BOARD_DIR=$(abspath $(PICO_BOARD)) -j2 \
	  USER_C_MODULES=$(abspath cmodules/monocypher/micropython.cmake) \
	  FROZEN_MANIFEST=$(abspath firmware/pico/manifest.py) >>$(PICO_LOG) 2>&1 || \
	  { tail -20 $(PICO_LOG); exit 1; }
	@cp $(PICO_BUILD)/firmware.{elf,bin} $(PICO_DIR)/
	@cp $(PICO_BUILD)/firmware.uf2 $@

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

# Each stage of make test and make check says how long it took.
STAGE = @stage() { s=$$SECONDS; "$${@:2}"; echo "make: $$1 took $$((SECONDS - s)) s"; }; stage
# The Pico set's cases make test runs (tests/pico/run.py NAME...): booting the image, a
# press through the expander to the LEDs, a no-limit raise keyed on the dealer's panel
# and a fouled hand reported there; make check runs them all, every scenario among them.
PICO_QUICK := test_boot_checks test_seat_buttons test_a_no_limit_raise \
              test_scenario_20_38j3_fouled

# The emulated Pico's device models first (node, no UF2 needed: about a second), then
# CPython (pytest: tests/, on both cores, the slow tests left for make check), then every
# scenario and a short run of every game inside MicroPython's unix port compared with
# CPython's, then on a core each (each output kept whole): the firmware's unit tests in
# the unix port, and the image on the emulated Pico.
# Debian's MQTT broker, which the floor's tests start on a free port of their own
# (tests/host/broker.py), and its chromium, in which Playwright tests the floor's page;
# installed where we may, as gcc-multilib is.
floor-parts:
	@command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    (apt-get update -qq && apt-get install -y -qq mosquitto) >/dev/null; } || \
	  { echo "make: the floor's tests need mosquitto (apt-get install mosquitto)"; exit 1; }
	@command -v chromium >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null; } || \
	  { echo "make: the floor's page is tested in chromium (apt-get install chromium)"; exit 1; }
	@# certutil: the page's HTTPS test makes chromium trust a CA of its own (NSS's database).
	@command -v certutil >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	    (apt-get update -qq && apt-get install -y -qq libnss3-tools) >/dev/null; } || \
	  { echo "make: the page's HTTPS test needs certutil (apt-get install libnss3-tools)"; exit 1; }

test: venv micropython compile pico pico-harness floor-parts
	$(STAGE) harness node --test --test-reporter=spec host_tools/pico/harness/test/
	$(STAGE) pytest $(VENV)/bin/pytest -n 2 -m "not slow"
	$(STAGE) compare $(VENV)/bin/python tests/mp/compare.py
	@$(MAKE) -s -j2 --output-sync=target test-micropython test-pico

.PHONY: test-micropython test-pico
test-micropython:
	$(STAGE) micropython $(VENV)/bin/python tests/mp/run.py
test-pico:
	$(STAGE) pico $(VENV)/bin/python tests/pico/run.py $(PICO_QUICK)

# What make test leaves out for time: the slow tests and the sampled ones at full length
# (FELT_LONG=1: make test draws a fifth of their examples), the 1000-hand runs compared
# across runtimes, every case of the Pico set, and the soak (hostile frames, power cuts
# at every byte, 10,000 frames over the link; make soak sends 50,000).
check: venv micropython compile pico pico-harness floor-parts
	$(STAGE) pytest-slow env FELT_LONG=1 $(VENV)/bin/pytest -n 2 -m "slow or sampled"
	$(STAGE) micropython-long env FELT_LONG=1 $(VENV)/bin/python tests/mp/run.py
	$(STAGE) compare-long $(VENV)/bin/python tests/mp/compare.py --long
	$(STAGE) pico-all $(VENV)/bin/python tests/pico/run.py -j 2
	$(STAGE) soak $(VENV)/bin/python tests/host/soak.py --link-frames 10000

# A reader that stops early (`make run ARGS=... | head`) is no error: 141 is SIGPIPE's.
run: venv $(RUN_MP) $(if $(findstring pico,$(ARGS)),pico pico-harness)
	@$(VENV)/bin/felt-emulator $(ARGS) || { rc=$$?; [ $$rc = 141 ] || exit $$rc; }

# A floor on this machine: a broker, the floor service and its page, six emulated tables.
floor: venv floor-parts
	@$(VENV)/bin/felt-floor demo $(ARGS)

bench: venv micropython compile pico pico-harness
	@$(VENV)/bin/felt-bench $(ARGS)

# Hostile frames and power cuts at every byte of journal writes: one JSON line.
soak: venv
	@$(VENV)/bin/python tests/host/soak.py $(ARGS)

clean:
	rm -rf build $(VENV) .pytest_cache .hypothesis *.egg-info host_tools/pico/node_modules
