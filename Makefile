# Each target sets itself up from nothing: a virtualenv in .venv, the Python dependencies and
# the engine built in release mode, redone only when their inputs change (stamp files).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ENGINE_INPUTS := pyproject.toml Cargo.toml $(wildcard Cargo.lock) $(shell find crates -name '*.rs' -o -name Cargo.toml)

.PHONY: demo test test-python bench setup tshark clean

# The demo reproduces the capacity-scaling seed study in quick mode (a reduced grid, 60 s runs:
# seconds on two cores) and prints where its report is. Its runs are cached in out/demo/store.
demo: setup
	$(BIN)/wattnet reproduce capacity-scaling --quick --out out/demo
	@echo "demo report: $(CURDIR)/out/demo/report.html"

# Only the engine crate: the binding crate is a Python extension module and cannot link as a
# test binary. Cargo's test profile is optimised (see Cargo.toml).
test: setup tshark
	cargo test -p wattnet-engine
	$(BIN)/python -m pytest -q

test-python: setup tshark
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

# tshark reads the pcap captures back in tests/test_pcap.py. When it is absent and this runs as
# root with apt-get (as CI does), it is installed from Debian's packages; otherwise, or if that
# fails, those tests skip and say why.
tshark:
	@command -v tshark >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing tshark with apt-get"; \
	    { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	      DEBIAN_FRONTEND=noninteractive apt-get install -y -q tshark >/dev/null; } || \
	    echo "warning: apt-get could not install tshark; the pcap tests will skip"; \
	  else \
	    echo "warning: tshark is absent and cannot be installed here (needs root and apt-get); the pcap tests will skip"; \
	  fi; }

clean:
	rm -rf $(VENV) out python/wattnet/_engine*.so
