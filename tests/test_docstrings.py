"""The Python API documents itself: every public function and class has a docstring, the main
entry points show an example, and the examples written as doctests run as written."""

import doctest
import inspect
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
    module = sys.modules[name]
    outcome = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert outcome.attempted > 0
    assert outcome.failed == 0
