"""Settings on sets of ports and nodes: each selector hits exactly the ports it names, counted on
FatTree(k) by hand, and TOML [[apply]] tables equal the Python with_* calls."""

import pytest
from wattnet import Scenario, ScenarioError
from wattnet.scenario import RateTablePower
from wattnet.selectors import node_roles, select_ports
from wattnet.topology import abilene, chain, fattree

RUN = {"seed": 1, "duration_s": 1.0}
POWER = {"type": "constant", "active_w": 2.0}
PRACTRA = {"type": "practra", "rates_bps": [1e8, 5e8, 1e9], "min_rate_change_interval_s": 0.01}


@pytest.mark.parametrize("k", [4, 6])
def test_selectors_count_the_ports_of_a_fattree(k):
    data = fattree(k, rate_bps=1e9).scenario(**RUN).model_dump()
    count = {selector: len(select_ports(data, selector, "ports")) for selector in
             ["all", "host", "switch", "edge", "aggregation", "core", "links:h*", "links:agg*->core*", "nodes:core*"]}  # fmt: skip
    # k³/4 host links; k²/2 edge and k²/2 aggregation switches of k ports; (k/2)² core switches of k ports.
    links = k**3 // 4 * 3
    assert count["all"] == 2 * links
    assert count["host"] == k**3 // 4 == count["links:h*"]
    assert count["edge"] == k**2 // 2 * k
    assert count["aggregation"] == k**2 // 2 * k
    assert count["core"] == (k // 2) ** 2 * k == count["nodes:core*"]
    assert count["switch"] == count["edge"] + count["aggregation"] + count["core"] == 2 * links - k**3 // 4
    assert count["links:agg*->core*"] == k * (k // 2) * (k // 2)  # each aggregation switch's k/2 uplinks


def test_roles_of_a_chain_abilene_and_a_ring_without_hosts():
    roles = node_roles(chain(0.1).scenario(**RUN).model_dump())
    assert {name for name, r in roles.items() if "host" in r} == {"S", "D", "B"}
    assert roles["N1"] == {"switch", "edge"} and roles["N2"] == {"switch", "aggregation"}
    roles = node_roles(abilene().scenario(**RUN).model_dump())
    # ATLAM5 is ABILENE's one node with a single link; the others are tiered by their hops from it.
    assert roles["ATLAM5"] == {"host"} and roles["ATLAng"] == {"switch", "edge"}
    assert roles["WASHng"] == {"switch", "aggregation"} and roles["STTLng"] == {"switch", "core"}
    ring = {**RUN, "nodes": [{"name": n} for n in "abc"],
            "links": [{"a": a, "b": b, "rate_bps": 1e6, "delay_s": 0.0} for a, b in ("ab", "bc", "ca")]}  # fmt: skip
    assert all(r == {"switch"} for r in node_roles(ring).values())


def test_toml_settings_equal_the_python_calls_and_are_recorded_per_port():
    base = {**RUN, "topology": {"builder": "fattree", "k": 4, "rate_bps": 1e9}}
    composed = Scenario.from_dict(
        {
            **base,
            "apply": [
                {"ports": "switch", "power": POWER},
                {"ports": "core", "controller": PRACTRA, "transition_s": 0.001},
                {"ports": "host", "queue": {"type": "droptail", "limit_packets": 20}},
                {"ports": "links:edge0_0->*", "sleep_at_s": 0.2, "wake_at_s": [0.5]},
                {"nodes": "host", "power": {"type": "battery", "tx_j_per_packet": 1e-6, "rx_j_per_packet": 1e-6,
                                            "idle_w": 0.1}},
            ],
        }
    )  # fmt: skip
    python = (
        Scenario.from_dict(base)
        .with_power(POWER, ports="switch")
        .with_settings(ports="core", controller=PRACTRA, transition_s=0.001)
        .with_queue({"type": "droptail", "limit_packets": 20}, ports="host")
        .with_sleep(0.2, ports="links:edge0_0->*", wake_at_s=[0.5])
        .with_settings(nodes="host", power={"type": "battery", "tx_j_per_packet": 1e-6, "rx_j_per_packet": 1e-6,
                                           "idle_w": 0.1})
    )  # fmt: skip
    assert composed.to_engine_json() == python.to_engine_json()
    overrides = {
        f"{a}->{b}": getattr(link, direction)
        for link in composed.links
        for direction, a, b in (("a_to_b", link.a, link.b), ("b_to_a", link.b, link.a))
    }
    powered = {port for port, o in overrides.items() if o is not None and o.power is not None}
    controlled = {port for port, o in overrides.items() if o is not None and o.controller is not None}
    assert len(powered) == 80 and not any(port.startswith("h") for port in powered)
    assert controlled == {port for port in overrides if port.startswith("core")} and len(controlled) == 16
    assert {e.port for e in composed.events if e.action == "sleep"} == {f"edge0_0->{n}" for n in
                                                                         ("h0", "h1", "agg0_0", "agg0_1")}  # fmt: skip
    assert len(composed.events) == 8
    assert sum(node.power is not None for node in composed.nodes) == 16


def test_a_later_setting_replaces_an_earlier_one_and_models_are_accepted():
    table = RateTablePower(levels=[{"rate_bps": 1e9, "watts": 3.0}])
    s = fattree(4, rate_bps=1e9).scenario(**RUN).with_power(POWER).with_power(table, ports="core")
    core = [link for link in s.links if link.b.startswith("core")]
    assert all(link.b_to_a.power == table and link.a_to_b.power.type == "constant" for link in core)


def test_bad_selectors_and_settings_name_their_field():
    base = {**RUN, "topology": {"builder": "fattree", "k": 4}}
    for setting, field in [
        ({"ports": "spine", "power": POWER}, "apply[0].ports"),
        ({"ports": "core", "colour": "red"}, "apply[0].colour"),
        ({"ports": "core", "nodes": "core", "power": POWER}, "apply[0]"),
        ({"ports": "core"}, "apply[0]"),
    ]:
        with pytest.raises(ScenarioError) as caught:
            Scenario.from_dict({**base, "apply": [setting]})
        assert caught.value.errors[0][0] == field, caught.value.errors
