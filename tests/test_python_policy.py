"""Policies written in Python run inside the engine's loop: a Python practRA gives results
identical to the built-in one; commands, errors and the per-port factory behave as documented."""

from typing import ClassVar

import pandas as pd
import pytest
import wattnet
from wattnet import ScenarioError, SimulationError
from wattnet.policy import SLEEP, set_rate, tune
from wattnet.results import TABLES
from wattnet.topology import chain

RATES = [m * 1e6 for m in range(1, 11)]
PRACTRA = {"rates_bps": RATES, "min_rate_change_interval_s": 0.1, "delay_bound_s": 0.01, "ewma_weight": 0.25}


def practra_chain(controller: dict, seed: int = 3) -> wattnet.Scenario:
    """The capacity-scaling chain: one NewReno bulk flow S→D and Poisson background B→D through
    N1->N2, whose controller is under test (δ = 1 ms)."""
    t = chain(0.1)
    flows = [
        {"name": "tcp", "src": "S", "dst": "D", "traffic": {"type": "bulk"}},
        {"name": "bg", "src": "B", "dst": "D", "traffic": {"type": "poisson", "rate_bps": 2e6}},
    ]
    recorder = {"interval_s": 0.05, "ports": ["N1->N2"], "flows": ["tcp"]}
    scenario = t.scenario(seed=seed, duration_s=20.0, flows=flows, recorder=recorder)
    return scenario.with_settings(ports="links:N1->N2", transition_s=0.001, controller=controller)


def assert_same_results(a: wattnet.Results, b: wattnet.Results) -> None:
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True, obj=name)
    skip = {"wall_time_s", "scenario_hash"}
    assert {k: v for k, v in a.summary.items() if k not in skip} == {
        k: v for k, v in b.summary.items() if k not in skip
    }


@pytest.mark.parametrize("seed", [3, 4])
def test_a_python_practra_gives_the_built_in_results(seed):
    builtin = wattnet.run(practra_chain({"type": "practra", **PRACTRA}, seed))
    python = {
        "type": "external",
        "policy": "wattnet.policy:PracticalRateAdaptation",
        "interval_s": 0.1,  # T_s: the built-in default, one sample per mRCI
        "per_packet": True,
        "params": PRACTRA,
    }
    ported = wattnet.run(practra_chain(python, seed))
    assert builtin.summary["rate_changes"] > 10, "practRA must act for the comparison to mean anything"
    assert_same_results(builtin, ported)


class Halving:
    """Halves the rate at each tick down to a floor, and counts its calls."""

    made: ClassVar[list["Halving"]] = []

    def __init__(self, port, *, floor_bps):
        self.port, self.floor, self.calls = port, floor_bps, []
        Halving.made.append(self)

    def observe(self, view):
        self.calls.append((view.event, view.now_s))
        return set_rate(max(view.rate_bps // 2, self.floor)) if view.rate_bps > self.floor else None


def test_a_policy_is_made_per_port_and_called_every_interval():
    Halving.made = []
    controller = {"type": "external", "policy": "halving", "interval_s": 0.25, "params": {"floor_bps": 1e6}}
    scenario = practra_chain(controller).with_settings(ports="links:N2->N3", transition_s=0.001, controller=controller)
    results = wattnet.run(scenario, policies={"halving": Halving})
    assert sorted(p.port.name for p in Halving.made) == ["N1->N2", "N2->N3"]
    policy = Halving.made[0]
    assert (policy.port.rate_bps, policy.port.transition_s, policy.port.interval_s) == (10_000_000, 0.001, 0.25)
    # Ticks at 0.25 s, 0.5 s, ... up to the end of the run (20 s): 80 calls.
    assert [e for e, _ in policy.calls] == ["tick"] * 80 and policy.calls[0][1] == 0.25
    # 10 → 5 → 2.5 → 1.25 → 1 Mb/s: four changes per port, the last at the fourth tick.
    changes = results.rate_changes[results.rate_changes["port"] == "N1->N2"]
    assert changes["new_rate_bps"].tolist() == [5e6, 2.5e6, 1.25e6, 1e6]
    assert changes["time_s"].tolist() == [0.25, 0.5, 0.75, 1.0]


class Raising:
    def __init__(self, port):
        pass

    def observe(self, view):
        if view.now_s >= 1.0:
            raise ZeroDivisionError("the policy's own bug")


class Answering:
    def __init__(self, port, *, answer):
        self.answer = answer

    def observe(self, view):
        return self.answer


def run_with(policy, params=None):
    controller = {"type": "external", "policy": "p", "interval_s": 0.5, "params": params or {}}
    return wattnet.run(practra_chain(controller), policies={"p": policy})


def test_a_policys_exception_surfaces_with_its_port_and_time():
    with pytest.raises(ZeroDivisionError, match="the policy's own bug") as caught:
        run_with(Raising)
    assert any("port N1->N2 at t = 1 s" in note for note in caught.value.__notes__)


@pytest.mark.parametrize("answer", [("set_rate", 0), ("faster", 5), "stop", 3.5])
def test_a_bad_command_is_named(answer):
    with pytest.raises(ValueError, match="returns None|whole number"):
        run_with(Answering, {"answer": answer})


def test_commands_tune_and_sleep_reach_the_port():
    results = run_with(Answering, {"answer": tune(4e6)})
    assert results.ports.set_index("port").loc["N1->N2", "rate_tunes"] == 1  # the same rate again is no change
    controller = {"type": "external", "policy": "p", "interval_s": 0.5, "sleep_transition_s": 0.001,
                  "params": {"answer": SLEEP}}  # fmt: skip
    idle = practra_chain(controller).model_copy(update={"flows": [], "recorder": None})
    slept = wattnet.run(idle, policies={"p": Answering})
    assert slept.ports.set_index("port").loc["N1->N2", "sleeps"] >= 1


def test_unknown_policies_and_bad_parameters_are_scenario_errors():
    with pytest.raises(ScenarioError, match="controller.policy") as caught:
        wattnet.run(practra_chain({"type": "external", "policy": "nowhere:Nothing", "interval_s": 0.5}))
    assert "No module named 'nowhere'" in str(caught.value)
    with pytest.raises(ScenarioError, match="floor_bps"):
        run_with(Halving, {})
    with pytest.raises(ScenarioError, match="interval_s or per_packet"):
        practra_chain({"type": "external", "policy": "p"})


def test_a_failed_run_has_no_results():
    from wattnet.policy import policy_factory
    from wattnet.runner import build_simulation

    controller = {"type": "external", "policy": "p", "interval_s": 0.5}
    simulation = build_simulation(practra_chain(controller), policies={"p": Raising})
    with pytest.raises(ZeroDivisionError):
        simulation.run_until(2.0)
    with pytest.raises(SimulationError, match="no results"):
        simulation.results()
    assert policy_factory(None) is not None
