"""The Python API documents itself: every public function and class has a docstring, the main
entry points show an example, and the examples written as doctests run as written."""

import doctest
import importlib
import inspect
import pkgutil
import sys

import pytest
import wattnet
import wattnet.scenario
import wattnet.topology
from conftest import ROOT

ENTRY_POINTS = ["run", "sweep", "load_scenario", "load_results", "replication_means", "mean_ci", "Results", "Scenario",
                "ScenarioError"]  # fmt: skip


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_each_entry_point_has_an_example(name):
    assert "Example:" in inspect.getdoc(getattr(wattnet, name))


@pytest.mark.parametrize(
    ("module", "name"),
    [(wattnet, n) for n in wattnet.__all__ if n != "__version__"]
    + [(wattnet.topology, n) for n in wattnet.topology.__all__ if callable(getattr(wattnet.topology, n))],
)
def test_every_public_function_and_class_has_a_docstring(module, name):
    assert (inspect.getdoc(getattr(module, name)) or "").strip(), f"{module.__name__}.{name}"


@pytest.mark.parametrize("name", ["wattnet.scenario", "wattnet.sweep"])
def test_the_doctests_run(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    # doctest finds only what a module defines itself: a package's examples live in its modules,
    # written against the package's public names.
    package = sys.modules[name]
    modules = [package] + [
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(getattr(package, "__path__", []), f"{name}.")
    ]
    outcomes = [
        doctest.testmod(module, extraglobs=vars(package), optionflags=doctest.NORMALIZE_WHITESPACE)
        for module in modules
    ]
    assert sum(outcome.attempted for outcome in outcomes) > 0
    assert sum(outcome.failed for outcome in outcomes) == 0
