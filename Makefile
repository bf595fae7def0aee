# Each target sets itself up from nothing: a virtualenv in .venv, the Python dependencies and
# the engine built in release mode, redone only when their inputs change (stamp files).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ENGINE_INPUTS := pyproject.toml Cargo.toml $(wildcard Cargo.lock) $(shell find crates -name '*.rs' -o -name Cargo.toml)

.PHONY: demo test test-python lint docs wheel bench setup tshark chromium ns2 ns3 validate clean

# The demo reproduces the capacity-scaling study in quick mode (a reduced grid, 60 s runs:
# seconds on two cores) and prints where its report is. Its runs are cached in out/demo/store.
demo: setup
	@echo "reproducing the capacity-scaling study in quick mode (a reduced grid of short runs, about half a minute)"
	$(BIN)/wattnet reproduce capacity-scaling --quick --out out/demo
	@echo "demo report: $(CURDIR)/out/demo/report.html"
	@echo "quick mode runs too few and too short runs for some of the paper's targets; the full study"
	@echo "(wattnet reproduce capacity-scaling) is the one to judge: see docs/reproductions.md"

# Only the engine crate: the binding crate is a Python extension module and cannot link as a
# test binary. Cargo's test profile is optimised (see Cargo.toml). The documentation is built
# (warnings as errors) before the tests, which build it again to check its links and run its tutorials.
test: lint docs tshark chromium
	cargo test -p wattnet-engine
	$(BIN)/python -m pytest -q

# Formatting and lints, Rust and Python alike: one width (120), no warnings; the package's
# type hints checked by mypy --strict (its configuration is in pyproject.toml).
lint: setup
	cargo fmt --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	$(BIN)/ruff check python tests tools
	$(BIN)/ruff format --check python tests tools
	$(BIN)/mypy

# The documentation site (MkDocs, Material theme) into site/, warnings as errors. The scenario,
# output and command-line references are generated from the code by tools/mkdocs_hooks.py.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

# An installable wheel into dist/: one abi3 wheel per platform serves every CPython from 3.11
# on, so `pip install dist/wattnet-*.whl` needs no Rust.
wheel: $(VENV)/.maturin-installed
	$(BIN)/maturin build --release --out dist

test-python: setup tshark chromium
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/wattnet bench

setup: $(VENV)/.engine-built

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.maturin-installed: $(BIN)/python
	$(BIN)/python -m pip install --quiet 'maturin>=1.5,<2.0'
	touch $@

# maturin installs the package (editable: python/ is imported in place), its dev extra and the engine.
$(VENV)/.engine-built: $(VENV)/.maturin-installed $(ENGINE_INPUTS)
	VIRTUAL_ENV=$(abspath $(VENV)) PATH="$(abspath $(BIN)):$$PATH" $(BIN)/maturin develop --release --extras dev
	touch $@

# $(call apt_install,COMMAND,WHAT SKIPS WITHOUT IT[,PACKAGE]): when COMMAND is absent and this runs
# as root with apt-get (as CI does), Debian's package PACKAGE (default: the command's name) is
# installed; otherwise, or if that fails, the tests that need it skip and say why.
define apt_install
	@command -v $(1) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing $(or $(3),$(1)) with apt-get"; \
	    { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(or $(3),$(1)) >/dev/null; } || \
	    echo "warning: apt-get could not install $(or $(3),$(1)); $(2) will skip"; \
	  else \
	    echo "warning: $(1) is absent and cannot be installed here (needs root and apt-get); $(2) will skip"; \
	  fi; }
endef

# tshark reads the pcap captures back in tests/test_pcap.py.
tshark:
	$(call apt_install,tshark,the pcap tests)

# Headless Chromium opens each reproduction's report.html (tests/test_report_renders.py) and
# checks that every figure loads.
chromium:
	$(call apt_install,chromium,the report-rendering tests)

# ns-2.35 (Debian's ns2, run as `ns script.tcl`): the reference for the classic one-way TCP
# agents in the cross-validation (docs/validation.md).
ns2:
	$(call apt_install,ns,the ns-2 reference runs,ns2)

# ns-3.44 from its PyPI wheel, whose headers and libraries validation/ns3/build.sh compiles
# the C++ scenarios against (g++ with C++20).
ns3: setup
	@$(BIN)/python -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("ns3") is None)' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet 'ns3==3.44.*'
	sh validation/ns3/build.sh $(BIN)/python validation/ns3/dumbbell.cc validation/ns3/build/dumbbell

# Reruns ns-2 and ns-3 on every cross-validation scenario, stores their results in
# validation/reference, and rewrites docs/validation.md and the simulators' default tables.
# Also reruns ns-2.35 on the reproduced studies' reconstructed scenarios (validation/studies;
# capacity scaling's practRA emulation takes the longest: about half an hour on two cores).
validate: ns2 ns3
	$(BIN)/python validation/defaults_docs.py
	$(BIN)/wattnet validate --regenerate --report docs/validation.md --readme README.md
	$(BIN)/python validation/studies/run_all.py

clean:
	rm -rf $(VENV) out site dist python/wattnet/_engine*.so
