# Each target sets itself up from nothing: a virtualenv in .venv, the Python dependencies and
# the engine built in release mode, redone only when their inputs change (stamp files).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ENGINE_INPUTS := pyproject.toml Cargo.toml $(wildcard Cargo.lock) $(shell find crates -name '*.rs' -o -name Cargo.toml)

.PHONY: demo test test-python bench setup clean

# For now the demo runs the example chain; the capacity-scaling reproduction and its report replace it.
demo: setup
	$(BIN)/wattnet run examples/chain.toml --out out/demo
	@echo "demo outputs are in $(CURDIR)/out/demo"

# Only the engine crate: the binding crate is a Python extension module and cannot link as a
# test binary. Cargo's test profile is optimised (see Cargo.toml).
test: setup
	cargo test -p wattnet-engine
	$(BIN)/python -m pytest -q

test-python: setup
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

clean:
	rm -rf $(VENV) out python/wattnet/_engine*.so
