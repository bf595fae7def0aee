"""Topology builders and importers against the numbers of docs/models/topology.md and the textbook counts."""

import itertools
import math

import networkx as nx
import pytest
from wattnet import ScenarioError
from wattnet.topology import (
    abilene,
    access_network,
    bcube,
    chain,
    dumbbell,
    fattree,
    from_graphml,
    from_sndlib,
    to_graphml,
    vl2,
)

# SNDlib abilene (docs/models/topology.md): (id, SNDlib name, longitude, latitude, degree)
ABILENE_NODE_TABLE = [
    (0, "ATLAM5", -84.3833, 33.75, 1),
    (1, "ATLAng", -85.50, 34.50, 4),
    (2, "CHINng", -87.6167, 41.8333, 2),
    (3, "DNVRng", -105.00, 40.75, 3),
    (4, "HSTNng", -95.517364, 29.770031, 3),
    (5, "IPLSng", -86.159535, 39.780622, 3),
    (6, "KSCYng", -96.596704, 38.961694, 3),
    (7, "LOSAng", -118.25, 34.05, 2),
    (8, "NYCMng", -73.9667, 40.7833, 2),
    (9, "SNVAng", -122.02553, 37.38575, 3),
    (10, "STTLng", -122.30, 47.60, 2),
    (11, "WASHng", -77.026842, 38.897303, 2),
]

# SNDlib abilene (docs/models/topology.md): (ids, km, exact delay ms, rounded ms, SNDlib capacity Mb/s)
ABILENE_LINK_TABLE = [
    ((0, 1), 132.4, 0.662, 1, 9920),
    ((1, 4), 1079.1, 5.396, 5, 9920),
    ((1, 5), 590.1, 2.950, 3, 2480),
    ((1, 11), 899.2, 4.496, 4, 9920),
    ((2, 5), 259.1, 1.295, 1, 9920),
    ((2, 8), 1144.9, 5.724, 6, 9920),
    ((3, 6), 744.0, 3.720, 4, 9920),
    ((3, 9), 1514.0, 7.570, 8, 9920),
    ((3, 10), 1571.0, 7.855, 8, 9920),
    ((4, 6), 1026.8, 5.134, 5, 9920),
    ((4, 7), 2193.0, 10.965, 11, 9920),
    ((5, 6), 901.3, 4.506, 5, 9920),
    ((7, 9), 503.6, 2.518, 3, 9920),
    ((8, 11), 335.0, 1.675, 2, 9920),
    ((9, 10), 1136.0, 5.680, 6, 9920),
]


def test_abilene_nodes_are_sndlib_names_in_sndlib_order():
    t = abilene()
    assert [(t.ids[name], name) for _, name, *_ in ABILENE_NODE_TABLE] == [(i, n) for i, n, *_ in ABILENE_NODE_TABLE]
    for _, name, longitude, latitude, degree in ABILENE_NODE_TABLE:
        assert t.coordinates[name] == (longitude, latitude)
        assert t.graph().degree[name] == degree


@pytest.mark.parametrize("ids, km, exact_ms, rounded_ms, capacity_mbps", ABILENE_LINK_TABLE, ids=str)
def test_abilene_link_matches_the_documented_table(ids, km, exact_ms, rounded_ms, capacity_mbps):
    names = abilene().names
    a, b = names[ids[0]], names[ids[1]]
    rounded, exact = abilene(), abilene(exact_delays=True)
    assert rounded.info["distance_km"][a, b] == pytest.approx(km, abs=0.05)
    assert exact.link_between(a, b)["delay_s"] * 1e3 == pytest.approx(exact_ms, abs=0.0005)
    assert rounded.link_between(a, b)["delay_s"] == pytest.approx(rounded_ms / 1000, abs=1e-12)
    assert rounded.info["sndlib_capacity_mbps"][a, b] == capacity_mbps


def test_abilene_shape_and_study_defaults():
    t = abilene()
    graph = t.graph()
    degrees = [degree for _, degree in graph.degree()]
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (12, 15)
    assert (min(degrees), sum(degrees) / len(degrees), max(degrees)) == (1, 2.5, 4)
    assert nx.diameter(graph) == 5
    assert {link["rate_bps"] for link in t.links} == {40e6}
    assert {link["queue"]["limit_packets"] for link in t.links} == {300}
    assert min(link["delay_s"] for link in t.links) == 0.001 and max(link["delay_s"] for link in t.links) == 0.011
    scenario = t.scenario(seed=1, duration_s=60.0)
    assert len(scenario.links) == 15


@pytest.mark.parametrize(
    "route, one_way_ms",
    [
        ([8, 2, 5, 6, 3, 10], 23.1),  # before pruning
        ([8, 11, 1, 4, 6, 3, 10], 28.3),  # after pruning
        ([8, 11, 1, 5, 6, 3, 10], 25.2),  # the equal-hop alternative
    ],
)
def test_abilene_route_delays_match_the_spec(route, one_way_ms):
    t = abilene(exact_delays=True)
    names = t.names
    total_s = sum(t.link_between(names[u], names[v])["delay_s"] for u, v in itertools.pairwise(route))
    assert total_s * 1e3 == pytest.approx(one_way_ms, abs=0.05)


def test_abilene_tcp_flow_takes_five_hops():
    names = abilene().names
    assert nx.shortest_path_length(abilene().graph(), names[8], names[10]) == 5


def test_fattree4_counts_and_paths():
    t = fattree(4)
    graph = t.graph()
    assert len(t.hosts) == 16
    assert graph.number_of_nodes() - len(t.hosts) == 20
    assert graph.number_of_edges() == len(t.links) == 48
    assert [len(t.groups[role]) for role in ("edge", "agg", "core")] == [8, 8, 4]
    # h0, h1 on edge0_0; h2, h3 on edge0_1 (pod 0); h15 in pod 3.
    assert set(graph["edge0_0"]) == {"h0", "h1", "agg0_0", "agg0_1"}
    assert len(list(nx.all_shortest_paths(graph, "h0", "h15"))) == 4
    assert len(list(nx.all_shortest_paths(graph, "h0", "h2"))) == 2
    assert nx.shortest_path_length(graph, "h0", "h15") == 6
    assert all(graph.degree[switch] == 4 for role in ("edge", "agg", "core") for switch in t.groups[role])
    assert set(graph["core1_0"]) == {f"agg{pod}_1" for pod in range(4)}


def test_fattree8_matches_the_paper():
    t = fattree(8)
    graph = t.graph()
    assert len(t.hosts) == 128
    assert graph.number_of_nodes() - 128 == 80
    assert [len(t.groups[role]) for role in ("core", "agg", "edge")] == [16, 32, 32]
    assert graph.number_of_edges() == 384
    assert len(list(nx.all_shortest_paths(graph, "h0", "h127"))) == 16
    assert len(list(nx.all_shortest_paths(graph, "h0", "h4"))) == 4  # same pod, next edge switch


def test_fattree_fabric_rate_applies_between_switches_only():
    t = fattree(4, rate_bps=1e9, fabric_rate_bps=10e9, delay_s=0.0)
    rates = {(link["a"][0], link["b"][0]): link["rate_bps"] for link in t.links}
    assert rates == {("h", "e"): 1e9, ("e", "a"): 10e9, ("a", "c"): 10e9}


def test_vl2_defaults():
    t = vl2()
    graph = t.graph()
    assert len(t.hosts) == 128
    assert [len(t.groups[role]) for role in ("int", "agg", "tor")] == [4, 8, 16]
    assert graph.number_of_nodes() - 128 == 28
    assert graph.number_of_edges() == 128 + 16 * 2 + 8 * 4
    assert {link["rate_bps"] for link in t.links} == {1e9}
    assert all(graph.degree[tor] == 8 + 2 for tor in t.groups["tor"])
    assert all(graph.degree[agg] == 8 for agg in t.groups["agg"])  # D_A ports
    assert all(graph.degree[top] == 8 for top in t.groups["int"])  # D_I ports
    # tor0 and tor1 share an aggregation pair; tor15 hangs off the last pair.
    assert len(list(nx.all_shortest_paths(graph, "h0", "h8"))) == 2
    assert len(list(nx.all_shortest_paths(graph, "h0", "h127"))) == 2 * 4 * 2


def test_vl2_htsim_size():
    t = vl2(8, 8, 20)
    assert len(t.hosts) == 320
    assert len(t.nodes) - len(t.hosts) == 28


@pytest.mark.parametrize("n, k", [(2, 1), (4, 1), (3, 2), (2, 6)])
def test_bcube_counts_and_parallel_paths(n, k):
    t = bcube(n, k)
    graph = t.graph()
    assert len(t.hosts) == n ** (k + 1)
    switches = [node for node in graph if node not in set(t.hosts)]
    assert len(switches) == (k + 1) * n**k
    assert all(graph.degree[switch] == n for switch in switches)
    assert all(graph.degree[host] == k + 1 for host in t.hosts)
    for a, b in [(t.hosts[0], t.hosts[-1]), (t.hosts[1], t.hosts[n])]:
        assert len(list(nx.edge_disjoint_paths(graph, a, b))) == k + 1


def test_bcube_switch_joins_servers_differing_in_its_digit():
    t = bcube(3, 2)
    graph = t.graph()
    for level in range(3):
        for switch in t.groups[f"level{level}"]:
            addresses = [t.info["address"][server] for server in graph[switch]]
            # Addresses are a_k…a_0: digit i sits at position k − i.
            position = 2 - level
            assert sorted(address[position] for address in addresses) == [0, 1, 2]
            assert len({address[:position] + address[position + 1 :] for address in addresses}) == 1


def test_partial_bcube():
    t = bcube(4, 3, n_servers=128)
    assert len(t.hosts) == 128
    # Levels 0–2 only serve servers with a_3 ∈ {0, 1}: half their 64 switches; level 3 keeps all 64.
    assert [len(t.groups[f"level{i}"]) for i in range(4)] == [32, 32, 32, 64]
    assert nx.is_connected(t.graph())


@pytest.mark.parametrize("rtt_ms, buffer_packets", [(1, 2), (10, 9), (50, 42), (100, 84)])
def test_chain_buffers_are_one_bdp(rtt_ms, buffer_packets):
    t = chain(rtt_ms / 1000)
    assert t.info["buffer_packets"] == buffer_packets
    router_ports = {"N1->N2", "N2->N3", "N3->D", "N1->S", "N1->B", "N2->N1", "N3->N2"}
    for link in t.links:
        for port, override in ((f"{link['a']}->{link['b']}", "a_to_b"), (f"{link['b']}->{link['a']}", "b_to_a")):
            queue = link.get(override, {}).get("queue", link["queue"])
            assert queue["limit_packets"] == (buffer_packets if port in router_ports else 1000), port


def test_chain_round_trip_is_the_rtt():
    t = chain(0.05, access_delay_s=0.002)
    path = ["S", "N1", "N2", "N3", "D"]
    one_way = sum(t.link_between(a, b)["delay_s"] for a, b in itertools.pairwise(path))
    assert 2 * one_way == pytest.approx(0.05)
    assert t.link_between("N1", "N2")["delay_s"] == pytest.approx(0.0105)
    assert t.link_between("N1", "N2")["rate_bps"] == 10e6 and t.link_between("S", "N1")["rate_bps"] == 100e6
    assert nx.shortest_path(t.graph(), "B", "D") == ["B", "N1", "N2", "N3", "D"]


def test_access_network_defaults():
    t = access_network(3)
    scenario = t.scenario(seed=1, duration_s=600.0)
    assert [node.name for node in scenario.nodes] == ["src0", "src1", "src2", "grouter", "internet", "dst0"]
    dsl = t.link_between("src1", "grouter")
    assert (dsl["a"], dsl["rate_bps"], dsl["b_to_a"]["rate_bps"]) == ("src1", 1e6, 20e6)
    gateway = t.link_between("grouter", "internet")
    assert gateway["a"] == "grouter"
    assert gateway["a_to_b"] == {"rate_bps": 20e6, "queue": {"type": "droptail", "limit_packets": 100}}
    assert gateway["rate_bps"] == 100e6
    assert t.link_between("internet", "dst0")["a_to_b"]["queue"]["limit_packets"] == 100
    one_way = sum(
        t.link_between(a, b)["delay_s"] for a, b in [("src0", "grouter"), ("grouter", "internet"), ("internet", "dst0")]
    )
    assert 2 * one_way == pytest.approx(0.2) == t.info["rtt_s"]
    assert t.info["controlled_port"] == "grouter->internet" and t.info["internet_ports"] == ["internet->dst0"]


def test_dumbbell_pairs():
    t = dumbbell(3, 10e6, 0.01, 100e6, 0.001, 50, access_buffer_packets=500)
    graph = t.graph()
    assert t.groups["senders"] == ["s0", "s1", "s2"] and t.groups["receivers"] == ["r0", "r1", "r2"]
    assert graph.number_of_edges() == 7
    assert nx.shortest_path(graph, "s2", "r0") == ["s2", "left", "right", "r0"]
    assert t.link_between("left", "right")["queue"]["limit_packets"] == 50
    assert t.link_between("s0", "left")["queue"]["limit_packets"] == 500
    assert t.link_between("right", "r1")["a"] == "right"  # oriented along the data


def test_dumbbell_ecn_efficiency_layout():
    queue = {"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 32, "ecn": True}
    t = dumbbell(
        10, 1.5e6, 0.02, 10e6, 0.0005, 1000, n_senders=1,
        bottleneck_left_to_right={"queue": queue}, receiver_access_error_rate=0.01,
    )  # fmt: skip
    scenario = t.scenario(seed=1, duration_s=10.0)
    assert t.hosts == ["s0"] + [f"r{i}" for i in range(10)]
    bottleneck = scenario.links[1]
    assert (bottleneck.a, bottleneck.b) == ("left", "right")
    assert bottleneck.a_to_b.queue.type == "red" and bottleneck.a_to_b.queue.limit_packets == 32
    assert bottleneck.queue.limit_packets == 1000 and bottleneck.b_to_a is None
    assert [link.error_rate for link in scenario.links] == [0.0, 0.0] + [0.01] * 10


# A native SNDlib file written from docs/models/topology.md's ABILENE tables, independently of the builder.
ABILENE_NATIVE = """?SNDlib native format; type: network; version: 1.0
# network abilene

# NODE SECTION
#
# <node_id> [(<longitude>, <latitude>)]

NODES (
  ATLAM5 ( -84.3833 33.75 )
  ATLAng ( -85.50 34.50 )
  CHINng ( -87.6167 41.8333 )
  DNVRng ( -105.00 40.75 )
  HSTNng ( -95.517364 29.770031 )
  IPLSng ( -86.159535 39.780622 )
  KSCYng ( -96.596704 38.961694 )
  LOSAng ( -118.25 34.05 )
  NYCMng ( -73.9667 40.7833 )
  SNVAng ( -122.02553 37.38575 )
  STTLng ( -122.30 47.60 )
  WASHng ( -77.026842 38.897303 )
)

# LINK SECTION
#
# <link_id> ( <source> <target> ) <pre_installed_capacity> <pre_installed_capacity_cost> <routing_cost> <setup_cost> ( {<module_capacity> <module_cost>}* )

LINKS (
  ATLAM5_ATLAng ( ATLAM5 ATLAng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  ATLAng_HSTNng ( ATLAng HSTNng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  ATLAng_IPLSng ( ATLAng IPLSng ) 2480.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  ATLAng_WASHng ( ATLAng WASHng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  CHINng_IPLSng ( CHINng IPLSng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  CHINng_NYCMng ( CHINng NYCMng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  DNVRng_KSCYng ( DNVRng KSCYng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  DNVRng_SNVAng ( DNVRng SNVAng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  DNVRng_STTLng ( DNVRng STTLng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  HSTNng_KSCYng ( HSTNng KSCYng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  HSTNng_LOSAng ( HSTNng LOSAng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  IPLSng_KSCYng ( IPLSng KSCYng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  LOSAng_SNVAng ( LOSAng SNVAng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  NYCMng_WASHng ( NYCMng WASHng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
  SNVAng_STTLng ( SNVAng STTLng ) 9920.00 0.00 0.00 0.00 ( 40000.00 0.00 )
)

# DEMAND SECTION
DEMANDS (
  ATLAM5_ATLAng ( ATLAM5 ATLAng ) 1 116.00 UNLIMITED
)

ADMISSIBLE_PATHS ( )
"""


def test_sndlib_importer_agrees_with_the_abilene_builder(tmp_path):
    imported = from_sndlib(ABILENE_NATIVE, default_rate_bps=40e6, buffer_packets=300)
    assert imported.nodes == abilene().nodes
    assert imported.links == abilene().links
    assert imported.coordinates == abilene().coordinates
    path = tmp_path / "abilene.txt"
    path.write_text(ABILENE_NATIVE)
    exact = from_sndlib(path, default_rate_bps=40e6, buffer_packets=300, exact_delays=True)
    assert exact.links == abilene(exact_delays=True).links


def test_sndlib_capacities():
    module = from_sndlib(
        ABILENE_NATIVE, default_rate_bps=1e6, buffer_packets=300, capacity="module", capacity_scale=1e-3
    )
    assert [link["rate_bps"] for link in module.links] == pytest.approx([40e6] * 15)
    preinstalled = from_sndlib(ABILENE_NATIVE, default_rate_bps=1e6, buffer_packets=300, capacity="preinstalled")
    assert preinstalled.link_between("ATLAng", "IPLSng")["rate_bps"] == 2480e6
    assert preinstalled.link_between("ATLAM5", "ATLAng")["rate_bps"] == 9920e6


def test_sndlib_parallel_links_and_self_loops():
    text = """NODES (
  A ( 0.0 0.0 )
  B ( 1.0 0.0 )
)
LINKS (
  L1 ( A B ) 10.0 0 0 0 ( )
  L2 ( B A ) 30.0 0 0 0 ( )
  L3 ( A A ) 10.0 0 0 0 ( )
)
"""
    with pytest.warns(UserWarning) as caught:
        t = from_sndlib(text, default_rate_bps=1e6, buffer_packets=10, capacity="preinstalled", exact_delays=True)
    messages = [str(w.message) for w in caught]
    assert messages == [
        "SNDlib text: dropped the self-loop at node 'A'",
        "SNDlib text: merged 2 parallel links between 'A' and 'B' (sum of their rates)",
    ]
    assert len(t.links) == 1 and t.links[0]["rate_bps"] == 40e6
    # One degree of longitude on the equator: 2πR/360 km.
    assert t.links[0]["delay_s"] == pytest.approx(2 * math.pi * 6371 / 360 / 2e5)
    with pytest.warns(UserWarning):
        assert (
            from_sndlib(
                text, default_rate_bps=1e6, buffer_packets=10, capacity="preinstalled", parallel_rates="max"
            ).links[0]["rate_bps"]
            == 30e6
        )


@pytest.mark.parametrize(
    "text, words",
    [
        ("NODES (\n A ( 0 0 )\n)\nLINKS (\n L ( A Z ) 1 0 0 0 ( )\n)\n", "unknown node 'Z'"),
        ("NODES (\n A ( 0 zero )\n)\n", "expected a number, got 'zero'"),
        ("NODES (\n A ( 0 0 )\n", "not closed"),
        ('<?xml version="1.0"?>\n<network/>\n', "XML"),
    ],
)
def test_sndlib_syntax_errors(text, words):
    with pytest.raises(ValueError, match=words):
        from_sndlib(text, default_rate_bps=1e6, buffer_packets=10)


ZOO_GRAPHML = """<?xml version="1.0" encoding="utf-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key attr.name="LinkSpeedRaw" attr.type="double" for="edge" id="d4" />
  <key attr.name="LinkSpeedUnits" attr.type="string" for="edge" id="d3" />
  <key attr.name="LinkSpeed" attr.type="string" for="edge" id="d2" />
  <key attr.name="Latitude" attr.type="double" for="node" id="d1" />
  <key attr.name="Longitude" attr.type="double" for="node" id="d0" />
  <key attr.name="label" attr.type="string" for="node" id="d5" />
  <graph edgedefault="undirected">
    <node id="0"><data key="d5">Chicago</data><data key="d1">41.85003</data><data key="d0">-87.65005</data></node>
    <node id="1"><data key="d5">New York</data><data key="d1">40.71427</data><data key="d0">-74.00597</data></node>
    <node id="2"><data key="d5">PoP</data></node>
    <node id="3"><data key="d5">PoP</data><data key="d1">40.71427</data><data key="d0">-74.00597</data></node>
    <edge source="0" target="1"><data key="d4">10000000000.0</data><data key="d2">10</data><data key="d3">G</data></edge>
    <edge source="1" target="0"><data key="d2">2.5</data><data key="d3">G</data></edge>
    <edge source="1" target="2" />
    <edge source="2" target="3"><data key="d2">155</data><data key="d3">M</data></edge>
    <edge source="3" target="3" />
  </graph>
</graphml>
"""


def test_graphml_zoo_attributes(tmp_path):
    path = tmp_path / "zoo.graphml"
    path.write_text(ZOO_GRAPHML)
    with pytest.warns(UserWarning) as caught:
        t = from_graphml(path, default_rate_bps=1e9, default_delay_s=0.002, buffer_packets=100)
    messages = " | ".join(str(w.message) for w in caught)
    assert "merged 2 parallel links between 'Chicago' and 'New York'" in messages
    assert "dropped the self-loop at node 'PoP_3'" in messages
    assert t.names == ["Chicago", "New York", "PoP_2", "PoP_3"]
    backbone = t.link_between("Chicago", "New York")
    assert backbone["rate_bps"] == 12.5e9  # 10 Gb/s (LinkSpeedRaw) + 2.5 Gb/s (LinkSpeed G)
    # Zoo's city coordinates are a little off SNDlib's: within 1 % of ABILENE's CHIN–NYCM 1144.9 km.
    assert backbone["delay_s"] == pytest.approx(1144.9 / 2e5, rel=0.01)
    assert t.link_between("New York", "PoP_2") == {
        "a": "New York", "b": "PoP_2", "rate_bps": 1e9, "delay_s": 0.002,
        "queue": {"type": "droptail", "limit_packets": 100},
    }  # fmt: skip
    assert t.link_between("PoP_2", "PoP_3")["rate_bps"] == 155e6
    t.scenario(seed=1, duration_s=1.0)


def test_graphml_round_trip(tmp_path):
    original = abilene(exact_delays=True)
    path = tmp_path / "abilene.graphml"
    to_graphml(original, path)
    imported = from_graphml(path, default_rate_bps=1.0, default_delay_s=0.0, buffer_packets=300)
    assert imported.nodes == original.nodes
    assert imported.coordinates == original.coordinates
    assert [(l["a"], l["b"], l["rate_bps"], l["queue"]) for l in imported.links] == [
        (l["a"], l["b"], l["rate_bps"], l["queue"]) for l in original.links
    ]
    assert [l["delay_s"] for l in imported.links] == pytest.approx([l["delay_s"] for l in original.links], rel=1e-12)


# (call, parameter named, words of the problem)
BAD_PARAMETERS = [
    (lambda: fattree(3), "k", "even"),
    (lambda: fattree(0), "k", "at least 2"),
    (lambda: fattree(4.0), "k", "integer"),
    (lambda: fattree(4, rate_bps=-1), "rate_bps", "at least 1 bit/s"),
    (lambda: fattree(4, delay_s=float("nan")), "delay_s", "non-negative"),
    (lambda: vl2(d_a=7), "d_a", "even"),
    (lambda: vl2(d_i=0), "d_i", "at least 2"),
    (lambda: vl2(servers_per_tor=0), "servers_per_tor", "at least 1"),
    (lambda: bcube(1, 2), "n", "at least 2"),
    (lambda: bcube(2, -1), "k", "at least 0"),
    (lambda: bcube(2, 2, n_servers=9), "n_servers", "at most n^(k+1) = 8"),
    (lambda: dumbbell(0, 1e6, 0.01, 1e7, 0.001, 10), "n_pairs", "at least 1"),
    (lambda: dumbbell(2, 1e6, -0.01, 1e7, 0.001, 10), "bottleneck_delay_s", "non-negative"),
    (lambda: dumbbell(2, 1e6, 0.01, 1e7, 0.001, 0), "buffer_packets", "at least 1"),
    (
        lambda: dumbbell(2, 1e6, 0.01, 1e7, 0.001, 10, bottleneck_right_to_left={"rate_bps": 0}),
        "bottleneck_right_to_left.rate_bps",
        "greater than or equal to 1",
    ),
    (
        lambda: dumbbell(2, 1e6, 0.01, 1e7, 0.001, 10, bottleneck_left_to_right={"buffer": 5}),
        "bottleneck_left_to_right.buffer",
        "unknown field",
    ),
    (
        lambda: dumbbell(2, 1e6, 0.01, 1e7, 0.001, 10, receiver_access_error_rate=1.0),
        "receiver_access_error_rate",
        "[0, 1)",
    ),
    (lambda: chain(0.0), "rtt_s", "positive"),
    (lambda: chain(0.01, access_delay_s=0.003), "rtt_s", "at least 4 × access_delay_s"),
    (lambda: chain(0.01, mtu_bytes=0), "mtu_bytes", "at least 1"),
    (lambda: access_network(0), "n_sources", "at least 1"),
    (lambda: access_network(2, g_router_rate_bps=200e6), "g_router_rate_bps", "must not exceed g_router_max_rate_bps"),
    (lambda: abilene(buffer_packets=0), "buffer_packets", "at least 1"),
    (lambda: abilene(rate_bps=0.5), "rate_bps", "at least 1 bit/s"),
    (
        lambda: from_sndlib(ABILENE_NATIVE, default_rate_bps=1e6, buffer_packets=1, capacity="max"),
        "capacity",
        "'module'",
    ),
    (
        lambda: from_sndlib(ABILENE_NATIVE, default_rate_bps=1e6, buffer_packets=1, capacity_scale=0),
        "capacity_scale",
        "positive",
    ),
    (
        lambda: from_sndlib(ABILENE_NATIVE, default_rate_bps=1e6, buffer_packets=1, parallel_rates="min"),
        "parallel_rates",
        "'sum' or 'max'",
    ),
]


@pytest.mark.parametrize(
    "call, parameter, words", BAD_PARAMETERS, ids=[case[1] + "-" + case[2] for case in BAD_PARAMETERS]
)
def test_bad_builder_parameter_is_named(call, parameter, words):
    with pytest.raises(ScenarioError) as raised:
        call()
    assert len(raised.value.errors) == 1, raised.value.errors
    [(named, problem)] = raised.value.errors
    assert named == parameter
    assert words in problem


def test_every_bad_parameter_is_reported_at_once():
    with pytest.raises(ScenarioError) as raised:
        fattree(5, rate_bps=0, buffer_packets=0)
    assert [field for field, _ in raised.value.errors] == ["k", "rate_bps", "buffer_packets"]
