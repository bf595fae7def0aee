"""Routing through the engine on FatTree: ECMP spreading flows over the core switches while
each flow keeps one path (RFC 2992; docs/forwarding.md), and the tables a link failure changes."""

import struct
from collections import defaultdict

import pytest
import wattnet
from conftest import lowest_id_next_hops
from wattnet.bench import fattree_routing_scenario, routing_fattree
from wattnet.topology import fattree

FATTREE4 = fattree(4)
POD = FATTREE4.info["pod_of_host"]
CORE = FATTREE4.groups["core"]


def core_ports(topology):
    """Every core switch's output ports ("core->agg"), by core switch."""
    ports = defaultdict(list)
    for link in topology.links:
        if link["b"] in topology.groups["core"]:
            ports[link["b"]].append(f"{link['b']}->{link['a']}")
    return ports


def inter_pod_flows():
    """A 1 Mb/s CBR flow of 1000 B packets from every host to every host of another pod:
    16 × 12 = 192 flows, stopped at 40 ms so that all have arrived by the end at 0.1 s."""
    return [
        {
            "name": f"{a}>{b}",
            "src": a,
            "dst": b,
            "traffic": {"type": "cbr", "rate_bps": 1e6},
            "stop_s": 0.04,
        }
        for a in FATTREE4.hosts
        for b in FATTREE4.hosts
        if POD[a] != POD[b]
    ]


def run_fattree4(ecmp, pcap_dir=None):
    ports = [port for ports in core_ports(FATTREE4).values() for port in ports]
    scenario = FATTREE4.scenario(
        seed=1,
        duration_s=0.1,
        routing={"ecmp": ecmp},
        flows=inter_pod_flows(),
        pcap=[{"port": port} for port in ports] if pcap_dir else [],
    )
    results = wattnet.run(scenario, pcap_dir=pcap_dir)
    # Nothing lost, nothing left: every packet crossed exactly one core switch.
    assert results.summary["packets_received"] == results.summary["packets_sent"] > 0
    return results


def packets_per_core(results):
    transmitted = results.ports.set_index("port")["transmitted_packets"]
    return {core: int(sum(transmitted[port] for port in ports)) for core, ports in core_ports(FATTREE4).items()}


def udp_source_ports(path):
    """The UDP source port of every packet in a classic pcap file of raw IPv4 records."""
    data = path.read_bytes()
    magic, _, _, _, _, _, linktype = struct.unpack_from("<IHHiIII", data)
    assert (magic, linktype) == (0xA1B23C4D, 228)  # nanosecond timestamps, LINKTYPE_IPV4
    ports, offset = [], 24
    while offset < len(data):
        _, _, captured, _ = struct.unpack_from("<IIII", data, offset)
        ip = data[offset + 16 : offset + 16 + captured]
        assert ip[9] == 17  # UDP
        header = (ip[0] & 0x0F) * 4
        ports.append(struct.unpack_from(">H", ip, header)[0])
        offset += 16 + captured
    return ports


def test_without_ecmp_only_the_lowest_id_core_carries_inter_pod_traffic():
    # Ties go to the lowest next-hop id: each edge switch sends up to agg{pod}_0, which sends
    # to core0_0. The other three core switches stay idle.
    results = run_fattree4(ecmp=False)
    assert packets_per_core(results) == {
        "core0_0": results.summary["packets_sent"],
        "core0_1": 0,
        "core1_0": 0,
        "core1_1": 0,
    }
    assert (results.flows.path_hops_start == 6).all()


def test_ecmp_spreads_flows_over_every_core_switch_and_keeps_each_on_one(tmp_path):
    results = run_fattree4(ecmp=True, pcap_dir=tmp_path)
    per_core = packets_per_core(results)
    total = results.summary["packets_sent"]
    assert sum(per_core.values()) == total
    # 192 flows hashed at the edge (2 aggregation switches) and again at the aggregation
    # switch (2 cores): every core switch carries a fair part of the traffic.
    assert all(count > 0.15 * total for count in per_core.values()), per_core
    # The captures of the core ports name each packet's flow (UDP source port 61000 + flow
    # index): each flow's packets all cross one core switch, so they keep one path
    # (a core switch fixes the path between two pods) and arrive in order.
    cores_of_flow = defaultdict(set)
    packets_of_flow = defaultdict(int)
    for core, ports in core_ports(FATTREE4).items():
        for port in ports:
            for source_port in udp_source_ports(tmp_path / f"{port.replace('->', '-')}.pcap"):
                cores_of_flow[source_port - 61000].add(core)
                packets_of_flow[source_port - 61000] += 1
    flows = results.flows
    assert sorted(cores_of_flow) == list(range(len(flows)))
    assert all(len(cores) == 1 for cores in cores_of_flow.values())
    assert [packets_of_flow[i] for i in range(len(flows))] == flows.received_packets.tolist()
    # ... and the flows, not just the packets, spread over all four.
    flows_per_core = defaultdict(int)
    for (core,) in cores_of_flow.values():
        flows_per_core[core] += 1
    assert sorted(flows_per_core) == CORE
    assert min(flows_per_core.values()) >= 192 // 4 // 2, dict(flows_per_core)


def changed_destinations(graph, failed_link):
    before = lowest_id_next_hops(graph)
    pruned = graph.copy()
    pruned.remove_edge(*failed_link)
    after = lowest_id_next_hops(pruned)
    changed = defaultdict(int)
    for (u, d), hop in before.items():
        changed[u] += after.get((u, d)) != hop
    return changed


@pytest.mark.parametrize("model", [{"model": "global", "delay_s": 0.03}, {"model": "link_state"}])
def test_a_core_link_failure_changes_the_tables_networkx_predicts(model):
    # The failure of the bench's link agg0_0–core0_0 on FatTree(4); every router recomputes.
    results = wattnet.run(fattree_routing_scenario(4, model))
    events = results.routing_events
    expected = changed_destinations(FATTREE4.graph(), ("agg0_0", "core0_0"))
    assert sorted(events.node) == sorted(FATTREE4.names)  # one install per router
    assert events.set_index("node")["changed_destinations"].to_dict() == {n: expected[n] for n in FATTREE4.names}
    assert events.changed_destinations.sum() > 0


def test_routing_bench_reports_its_timings():
    measured = routing_fattree(4, repeats=1)
    assert measured["name"] == "routing_fattree4"
    assert (measured["nodes"], measured["ports"], measured["route_installs"]) == (36, 96, 36)
    expected = changed_destinations(FATTREE4.graph(), ("agg0_0", "core0_0"))
    assert measured["changed_destinations"] == sum(expected.values())
    assert 0 < measured["build_s"] < measured["wall_s"]
    assert 0 < measured["reconverge_s"] < measured["wall_s"]
    assert 0 < measured["link_state_reconverge_s"] < measured["wall_s"]


def pinned_square(path):
    """A square a–b–c–d–a of 1 Mb/s links and a 100 kB TCP transfer a→c pinned to ``path``."""
    links = [{"a": x, "b": y, "rate_bps": 1e6, "delay_s": 1e-3} for x, y in ("ab", "bc", "cd", "da")]
    flow = {"name": "f", "src": "a", "dst": "c", "traffic": {"type": "transfer", "bytes": 100_000}, "path": path}
    return {"seed": 1, "duration_s": 1.0, "nodes": [{"name": n} for n in "abcd"], "links": links, "flows": [flow]}


def test_a_pinned_flow_follows_its_ports_both_ways():
    # The tables would take a→b→c (the lower next-hop id of two equal paths).
    results = wattnet.run(pinned_square(["a->d", "d->c"]))
    sent = dict(zip(results.ports["port"], results.ports["transmitted_packets"]))
    assert sent["a->d"] == sent["d->c"] >= 69  # 100 kB in 1460 B segments
    assert sent["c->d"] == sent["d->a"] > 0  # the ACKs
    assert all(sent[p] == 0 for p in ("a->b", "b->c", "c->b", "b->a"))


@pytest.mark.parametrize(
    ("path", "field", "problem"),
    [
        ([], "flows[0].path", "at least one port"),
        (["a->x"], "flows[0].path[0]", "unknown port 'a->x'"),
        (["b->c"], "flows[0].path[0]", "does not start at the flow's src, 'a'"),
        (["a->b", "c->d"], "flows[0].path[1]", "does not start at the previous port's end, 'b'"),
        (["a->b", "b->a"], "flows[0].path[1]", "returns to node 'a'"),
        (["a->b"], "flows[0].path", "ends at 'b', not at the flow's dst 'c'"),
    ],
)
def test_a_pinned_path_is_checked_port_by_port(path, field, problem):
    with pytest.raises(wattnet.ScenarioError) as error:
        wattnet.Scenario.from_dict(pinned_square(path))
    assert [(f, p) for f, p in error.value.errors if f == field and problem in p], error.value.errors
