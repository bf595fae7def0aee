"""Sassu, Scarso, Cuomo, "TCP behavior over a greened network" (IEEE SustainIT 2012) through the
engine: ABILENE at 40 Mb/s with CBR background at 25 % of every link, a NewReno bulk flow 8 → 10,
and the links of the paper's Table V switched off at 30 s with every router installing the new
shortest paths 0.03 s later.

TCP packets are 1040 B: a 1000 B payload plus 40 B of TCP/IP header, as ns-2's TCP agent with
its default packetSize_ of 1000 B sends them, which is where the paper's "1040 bytes" come from.
"""

import itertools

import numpy as np
import pytest
from conftest import lowest_id_next_hops
from wattnet import ScenarioError
from wattnet.estop import link_down_events, sassu_off_links, watts_saved
from wattnet.results import Results
from wattnet.runner import build_simulation
from wattnet.topology import Topology, abilene
from wattnet.traffic import link_cbr_flows

SWITCH_OFF_S = 30.0
TRANSITION_S = 0.03
DURATION_S = 60.0  # the paper's run: 30 s before and 30 s after
# Cisco ONS 15600 line cards sized for the links' real 40 Gb/s (the simulated 40 Mb/s × 1000):
# ⌈40 / 2.5⌉ = 16 cards of 140 W, 2240 W per direction, whatever the load.
LINE_CARD = {"type": "line_card", "card_capacity_bps": 2.5e9, "card_w": 140, "capacity_bps": 40e9}

NET = abilene()
NAMES = NET.names


def greened_abilene(percent):
    net = abilene()
    for link in net.links:
        link["power"] = LINE_CARD
    tcp = {
        "name": "tcp",
        "src": NAMES[8],
        "dst": NAMES[10],
        "traffic": {"type": "bulk"},
        "tcp": {"profile": "ns2", "congestion_control": {"type": "newreno"}, "mss_bytes": 1000},
    }
    return net.scenario(
        name=f"greened-abilene-{percent}",
        seed=1,
        duration_s=DURATION_S,
        routing={"reconvergence": {"model": "global", "delay_s": TRANSITION_S}},
        flows=[*link_cbr_flows(net, np.random.default_rng(1)), tcp],
        events=link_down_events(sassu_off_links(percent, net), at_s=SWITCH_OFF_S),
    )


def run_in_phases(scenario, *times_s):
    """The results at each of ``times_s`` and at the end, from one run."""
    simulation = build_simulation(scenario)
    phases = []
    for t in (*times_s, simulation.end_s):
        simulation.run_until(t)
        phases.append(Results.from_engine(simulation.results(), {}, ""))
    return phases


@pytest.fixture(scope="module", params=[70, 50])
def greened(request):
    """(percent, links switched off, results at 30 s, at 30.03 s and at 60 s)."""
    percent = request.param
    before, transition, end = run_in_phases(greened_abilene(percent), SWITCH_OFF_S, SWITCH_OFF_S + TRANSITION_S)
    return percent, sassu_off_links(percent), before, transition, end


def flow_column(results, column):
    return results.flows.set_index("flow")[column]


def test_background_is_one_cbr_flow_per_link_direction_at_a_quarter_of_its_rate():
    flows = link_cbr_flows(NET, np.random.default_rng(1))
    assert len(flows) == 30
    assert {(f["src"], f["dst"]) for f in flows} == {
        pair for link in NET.links for pair in ((link["a"], link["b"]), (link["b"], link["a"]))
    }
    assert all(f["traffic"] == {"type": "cbr", "rate_bps": 10e6} for f in flows)
    assert all(f["packet_size"] == {"type": "fixed", "bytes": 1000} for f in flows)
    # Offsets uniform in one packet interval, 1000 B at 10 Mb/s = 0.8 ms; the same generator
    # state gives the same offsets, another seed others.
    starts = np.array([f["start_s"] for f in flows])
    assert ((0 <= starts) & (starts < 0.8e-3)).all() and len(set(starts)) == 30
    assert starts.tolist() == [f["start_s"] for f in link_cbr_flows(NET, np.random.default_rng(1))]
    assert starts.tolist() != [f["start_s"] for f in link_cbr_flows(NET, np.random.default_rng(2))]
    assert flows[0]["name"] == "cbr ATLAM5->ATLAng" and flows[1]["name"] == "cbr ATLAng->ATLAM5"


def test_background_follows_each_directions_own_rate():
    pair = Topology(
        name="pair",
        nodes=[{"name": "a"}, {"name": "b"}],
        links=[{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3, "b_to_a": {"rate_bps": 2e6}}],
    )
    flows = {f["name"]: f for f in link_cbr_flows(pair, np.random.default_rng(0), load=0.5, packet_bytes=500)}
    assert flows["cbr a->b"]["traffic"]["rate_bps"] == 5e6
    assert flows["cbr b->a"]["traffic"]["rate_bps"] == 1e6
    assert flows["cbr b->a"]["start_s"] < 500 * 8 / 1e6
    assert flows["cbr a->b"]["start_s"] < 500 * 8 / 5e6


def test_background_parameters_are_checked():
    with pytest.raises(ScenarioError) as error:
        link_cbr_flows(NET, 1, load=1.5, packet_bytes=0)
    assert [path for path, _ in error.value.errors] == ["rng", "load", "packet_bytes"]


def test_the_tcp_flow_goes_from_5_hops_to_6(greened):
    *_, end = greened
    # Hop-count shortest paths: 8–2–5–6–3–10 before; 8–11–1–4–6–3–10 after 3 or 4 links are off.
    assert flow_column(end, "path_hops_start")["tcp"] == 5
    assert flow_column(end, "path_hops_end")["tcp"] == 6


def test_tcp_packets_are_1040_bytes(greened):
    *_, end = greened
    connection = end.connections.iloc[0]
    flow = end.flows.set_index("flow").loc["tcp"]
    # The flow's bytes are its data packets of 1040 B and its SYN and ACKs of 40 B.
    acks = flow.sent_packets - connection.data_packets_sent
    assert flow.sent_bytes == 1040 * connection.data_packets_sent + 40 * acks


def test_every_router_installs_its_new_table_at_30_03_s(greened):
    _, off, _, transition, end = greened
    events = end.routing_events
    assert (events.time_s == SWITCH_OFF_S + TRANSITION_S).all()
    assert events.node.tolist() == NAMES  # each router once, though several links went down
    assert transition.routing_events.equals(events)  # installed by the end of the transition
    # The destinations whose next hop changed, as networkx finds them.
    graph = NET.graph()
    before = lowest_id_next_hops(graph)
    graph.remove_edges_from(off)
    after = lowest_id_next_hops(graph)
    expected = [sum(after[u, d] != hop for (v, d), hop in before.items() if v == u) for u in NAMES]
    assert events.changed_destinations.tolist() == expected
    assert sum(expected) > 0


# The new paths of the background flows whose link goes off (node ids, from the lower id; the
# other direction takes the reverse). With 3 links off: SNVA reaches STTL and DNVR through
# LOSA, HSTN and KSCY, CHIN reaches NYCM through IPLS, ATLA and WASH. With (1,5) off as well
# the rest is a spanning tree: CHIN–NYCM and ATLA–IPLS both go round through KSCY and HSTN.
REROUTED_PATHS = {
    70: {(9, 10): [9, 7, 4, 6, 3, 10], (3, 9): [3, 6, 4, 7, 9], (2, 8): [2, 5, 1, 11, 8]},
    50: {(9, 10): [9, 7, 4, 6, 3, 10], (3, 9): [3, 6, 4, 7, 9], (2, 8): [2, 5, 6, 4, 1, 11, 8], (1, 5): [1, 4, 6, 5]},
}


def background_paths(percent):
    """Every background flow's path after the switch-off, as node names, by flow name."""
    paths = {}
    rerouted = REROUTED_PATHS[percent]
    for link in NET.links:
        a, b = sorted((link["a"], link["b"]), key=NET.ids.get)
        path = [NAMES[i] for i in rerouted.get((NET.ids[a], NET.ids[b]), [NET.ids[a], NET.ids[b]])]
        paths[f"cbr {a}->{b}"] = path
        paths[f"cbr {b}->{a}"] = path[::-1]
    return paths


def test_background_of_switched_off_links_is_rerouted(greened):
    percent, off, before, transition, end = greened
    paths = background_paths(percent)
    hops_end = flow_column(end, "path_hops_end")
    delivered = [flow_column(phase, "delivered_bytes") for phase in (before, transition, end)]
    offered = 10e6 / 8 * (DURATION_S - SWITCH_OFF_S - TRANSITION_S)
    # The CBR each port is offered after the switch-off, 10 Mb/s per flow whose path crosses it.
    load_bps = {}
    for path in paths.values():
        for port in itertools.pairwise(path):
            load_bps[port] = load_bps.get(port, 0.0) + 10e6
    off_flows = {f"cbr {a}->{b}" for link in off for a, b in (link, link[::-1])}
    assert len(off_flows) == 2 * len(off)
    for name, path in paths.items():
        assert hops_end[name] == len(path) - 1, name
        assert (hops_end[name] > 1) == (name in off_flows), name
        if name in off_flows:
            # During the transition the old route black-holes the flow: nothing arrives.
            assert delivered[1][name] == delivered[0][name], name
            assert delivered[2][name] > delivered[1][name], name
        # Where every port of its path has room for all the CBR it is offered, the flow
        # delivers nearly its 10 Mb/s after 30.03 s (the TCP flow yields).
        if all(load_bps[port] < 40e6 for port in itertools.pairwise(path)):
            assert delivered[2][name] - delivered[1][name] > 0.99 * offered, name
    overloaded = sorted(f"{a}->{b}" for (a, b), load in load_bps.items() if load > 40e6)
    if percent == 70:
        assert max(load_bps.values()) == 30e6  # e.g. KSCY→DNVR: its own flow, SNVA→STTL, SNVA→DNVR
    else:
        # The spanning tree left at 50 % routes five CBR flows each way, 50 Mb/s, over HSTN–KSCY:
        # both directions send without pause and drop the 10 Mb/s they cannot send.
        assert overloaded == ["HSTNng->KSCYng", "KSCYng->HSTNng"]
        after_s = DURATION_S - SWITCH_OFF_S - TRANSITION_S
        for port in overloaded:
            assert load_bps[tuple(port.split("->"))] == 50e6
            rows = [phase.ports.set_index("port").loc[port] for phase in (transition, end)]
            assert rows[1].busy_time_s - rows[0].busy_time_s > 0.999 * after_s
            assert rows[1].dropped_packets - rows[0].dropped_packets > 0.95 * 10e6 / 8000 * after_s
    assert end.summary["dropped_no_route"] == 0
    assert end.summary["dropped_link_down"] > 0


def tcp_throughputs_bps(before, end):
    """Goodput of the TCP flow before the switch-off and after it (from 30 s to the end)."""
    delivered_before = flow_column(before, "delivered_bytes")["tcp"]
    delivered_end = flow_column(end, "delivered_bytes")["tcp"]
    return (
        delivered_before * 8 / SWITCH_OFF_S,
        (delivered_end - delivered_before) * 8 / (DURATION_S - SWITCH_OFF_S),
    )


def test_tcp_throughput_is_lower_after_the_switch_off(greened):
    _, _, before, _, end = greened
    throughput_before, throughput_after = tcp_throughputs_bps(before, end)
    # Before, the TCP flow shares each link of its path with one 10 Mb/s CBR flow. After, the
    # CBR flows of SNVA–STTL and SNVA–DNVR are rerouted through KSCY→DNVR, which every path
    # to STTL now crosses: 30 Mb/s of CBR there leave the TCP flow about 10 Mb/s (at 70 %);
    # at 50 % HSTN→KSCY, on its path too, is offered 50 Mb/s of CBR and the flow starves.
    assert throughput_after < throughput_before
    assert throughput_after < 10e6 < throughput_before


def test_energy_saved_is_the_line_cards_of_the_switched_off_links(greened):
    _, off, _, _, end = greened
    off_s = DURATION_S - SWITCH_OFF_S
    # Both directions of each link switched off draw nothing for the last 30 s: 16 cards of
    # 140 W each, 2240 W, per direction.
    saved_j = len(off) * 2 * 2240.0 * off_s
    assert saved_j == watts_saved(off, ends=2) * off_s
    summary = end.summary
    assert summary["full_rate_energy_j"] == pytest.approx(15 * 2 * 2240.0 * DURATION_S, rel=1e-12)
    assert summary["full_rate_energy_j"] - summary["energy_j"] == pytest.approx(saved_j, rel=1e-12)
    ports = end.ports.set_index("port")
    off_ports = {f"{a}->{b}" for link in off for a, b in (link, link[::-1])}
    for port, row in ports.iterrows():
        on_s = SWITCH_OFF_S if port in off_ports else DURATION_S
        assert row.energy_j == pytest.approx(2240.0 * on_s, rel=1e-12), port
        assert row.asleep_time_s == pytest.approx(DURATION_S - on_s, abs=1e-12), port
