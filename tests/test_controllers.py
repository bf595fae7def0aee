"""Rate policies reached from Python: the benchmark's practRA bottleneck and the G-router's N₀."""

import json

import pytest
import wattnet
from wattnet import ScenarioError
from wattnet.bench import PRACTRA_BOTTLENECK, dumbbell_scenario
from wattnet.topology import access_network


def test_bench_dumbbell_variant_puts_practra_and_a_meter_on_the_bottleneck():
    # 4 flows for 2 s: too little to fill 100 Mb/s at first, so practRA steps down from
    # 100 Mb/s (one 10 Mb/s step per mRCI = 100 ms at most) and the meter follows.
    results = wattnet.run(dumbbell_scenario("newreno", flows=4, duration_s=2.0, bottleneck=PRACTRA_BOTTLENECK))
    ports = results.ports.set_index("port")
    bottleneck = ports.loc["r1->r2"]
    assert 1 <= bottleneck.rate_changes <= 20
    assert bottleneck.mean_rate_bps < 100e6
    # 1 W static + 1 W at 100 Mb/s, linear in the rate: E = 2 s · (1 W + r̄/100 Mb/s · 1 W).
    assert bottleneck.energy_j == pytest.approx(2.0 * (1.0 + bottleneck.mean_rate_bps / 100e6), rel=1e-9)
    assert ports.loc["r2->r1"].rate_changes == 0
    plain = json.loads(dumbbell_scenario("newreno", flows=4, duration_s=2.0).to_engine_json())
    assert not next(link for link in plain["links"] if (link["a"], link["b"]) == ("r1", "r2")).get("a_to_b")


def g_router_scenario(**g_router):
    topology = access_network(2)
    link = topology.link_between("grouter", "internet")
    link["a_to_b"]["controller"] = {"type": "g_router", "target_bytes": 50_000, "mtu_bytes": 1000, **g_router}
    flows = [{"name": "f", "src": "src0", "dst": "dst0", "traffic": {"type": "bulk"}, "tcp": {"profile": "ns2"}}]
    return topology.scenario(seed=1, duration_s=1.0, flows=flows)


def test_g_router_initial_flows_reaches_the_engine_and_must_be_at_least_one():
    scenario = g_router_scenario(initial_flows=10.0)
    assert '"initial_flows":10.0' in scenario.to_engine_json()
    wattnet.run(scenario)
    with pytest.raises(ScenarioError) as raised:
        g_router_scenario(initial_flows=0.5)
    [(field, _)] = raised.value.errors
    assert field.endswith("controller.initial_flows")


def test_g_router_n0_from_the_configured_round_trip_and_not_both():
    # Eq. 6 at configuration: N₀ = (RTT + T/C₀)·C₀/swnd₀; the engine takes the round trip itself.
    scenario = g_router_scenario(round_trip_propagation_s=0.2)
    assert '"round_trip_propagation_s":0.2' in scenario.to_engine_json()
    wattnet.run(scenario)
    with pytest.raises(ScenarioError) as raised:
        g_router_scenario(initial_flows=2.0, round_trip_propagation_s=0.2)
    assert any("not both" in message for _, message in raised.value.errors)
