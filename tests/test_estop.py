"""ESTOP on ABILENE against Table V of Sassu, Scarso, Cuomo, "TCP behavior over a greened network"
(IEEE SustainIT 2012), and hand-computed algebraic connectivities."""

import networkx as nx
import pytest
from wattnet import Scenario, ScenarioError
from wattnet.estop import (
    SASSU_ENERGY_SAVING_PERCENT,
    SASSU_TABLE_V,
    algebraic_connectivity,
    estop,
    line_card_watts,
    link_down_events,
    link_up_events,
    sassu_off_links,
    watts_saved,
)
from wattnet.topology import abilene

ABILENE = abilene()
NAMES = ABILENE.names


def unordered(links):
    return {frozenset(link) for link in links}


def test_original_algebraic_connectivity():
    assert algebraic_connectivity(ABILENE.graph()) == pytest.approx(0.30899, abs=5e-6)
    assert estop(ABILENE, 0.5).lambda2_original == pytest.approx(0.30899, abs=5e-6)


def test_algebraic_connectivity_of_known_graphs():
    # Path P4: 2 − √2; cycle C4: 2; complete K5: 5; disconnected: 0.
    assert algebraic_connectivity(nx.path_graph(4)) == pytest.approx(2 - 2**0.5)
    assert algebraic_connectivity(nx.cycle_graph(4)) == pytest.approx(2.0)
    assert algebraic_connectivity(nx.complete_graph(5)) == pytest.approx(5.0)
    assert algebraic_connectivity(nx.Graph([(0, 1), (2, 3)])) == 0.0


def test_initial_edge_betweenness_is_the_documented_table():
    # Worked by hand (ids; unnormalised, unordered pairs).
    expected = {
        (9, 10): 3.5, (3, 9): 5.5, (2, 8): 6.5, (8, 11): 6.5, (3, 10): 7.5,
        (7, 9): 9.0, (4, 6): 9.5, (0, 1): 11.0, (1, 5): 11.0, (1, 11): 13.5,
        (2, 5): 13.5, (4, 7): 14.0, (5, 6): 17.5, (3, 6): 18.0, (1, 4): 18.5,
    }  # fmt: skip
    betweenness = estop(ABILENE, 0.5).edge_betweenness
    assert {(ABILENE.ids[u], ABILENE.ids[v]): value for (u, v), value in betweenness.items()} == pytest.approx(expected)


@pytest.mark.parametrize("percent", [50, 60, 70, 90])
def test_estop_gives_the_papers_table_v(percent):
    result = estop(ABILENE, percent / 100)
    assert unordered(result.off_link_ids) == unordered(SASSU_TABLE_V[percent])
    assert round(100 * result.energy_saving, 1) == SASSU_ENERGY_SAVING_PERCENT[percent]


def test_estop_at_80_percent_is_the_documented_difference():
    # The paper lists 2 links; the algorithm's third candidate (2, 8) keeps λ₂ at 0.8405 ≥ 0.8.
    result = estop(ABILENE, 0.8)
    assert result.off_link_ids == ((9, 10), (3, 9), (2, 8))
    assert round(result.lambda2_ratios[-1], 4) == 0.8405
    assert len(SASSU_TABLE_V[80]) == 2


def test_switch_off_order_and_connectivity_ratios():
    result = estop(ABILENE, 0.5)
    assert result.off_link_ids == ((9, 10), (3, 9), (2, 8), (1, 5))
    assert [round(ratio, 4) for ratio in result.lambda2_ratios] == [0.9783, 0.9415, 0.8405, 0.5029]
    assert result.off_links[0] == ("SNVAng", "STTLng")


def test_rejected_candidates_at_50_percent():
    # Worked by hand: after step 3, (8,11), (3,10), (9,7) disconnect, (4,6) leaves 0.466, (0,1) disconnects.
    rejected = [((ABILENE.ids[u], ABILENE.ids[v]), round(ratio, 3)) for (u, v), ratio in estop(ABILENE, 0.5).rejected]
    assert rejected[:5] == [((8, 11), 0.0), ((3, 10), 0.0), ((7, 9), 0.0), ((4, 6), 0.466), ((0, 1), 0.0)]


def test_equal_betweenness_breaks_ties_by_lower_then_higher_id():
    # (0,1) and (1,5) both have 11.0 (summed in floating point they differ in the last bit):
    # at 60 % both are tried and kept on, (0,1) first.
    rejected = [(ABILENE.ids[u], ABILENE.ids[v]) for (u, v), _ in estop(ABILENE, 0.6).rejected]
    assert rejected[:6] == [(8, 11), (3, 10), (7, 9), (4, 6), (0, 1), (1, 5)]


def test_pruned_abilene_is_a_spanning_tree_at_50_percent():
    pruned = estop(ABILENE, 0.5).pruned(ABILENE)
    assert pruned.number_of_edges() == 11 and nx.is_tree(pruned)


def test_tcp_flow_gains_one_hop():
    src, dst = NAMES[8], NAMES[10]
    assert nx.shortest_path_length(ABILENE.graph(), src, dst) == 5
    three_off = estop(ABILENE, 0.7).pruned(ABILENE)
    routes = {tuple(ABILENE.ids[node] for node in path) for path in nx.all_shortest_paths(three_off, src, dst)}
    assert routes == {(8, 11, 1, 4, 6, 3, 10), (8, 11, 1, 5, 6, 3, 10)}
    four_off = estop(ABILENE, 0.5).pruned(ABILENE)
    routes = {tuple(ABILENE.ids[node] for node in path) for path in nx.all_shortest_paths(four_off, src, dst)}
    assert routes == {(8, 11, 1, 4, 6, 3, 10)}


def test_stop_at_first_rejection_variant():
    # The first rejection at 50 % is (8, 11), right after the third switch-off.
    assert estop(ABILENE, 0.5, stop_at_first_rejection=True).off_link_ids == ((9, 10), (3, 9), (2, 8))


def test_ties_break_by_node_ids_not_labels():
    # Every link of a cycle has the same betweenness; ids follow the node order d, c, b, a.
    cycle = nx.Graph()
    cycle.add_nodes_from("dcba")
    cycle.add_edges_from([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
    result = estop(cycle, 0.1)
    assert result.off_links == (("d", "c"),)
    assert result.lambda2_ratios == pytest.approx(((2 - 2**0.5) / 2,))


def test_table_v_as_names():
    assert sassu_off_links(90) == (("SNVAng", "STTLng"), ("SNVAng", "DNVRng"))
    assert unordered(sassu_off_links(50)) == unordered(estop(ABILENE, 0.5).off_links)


def test_line_card_watts():
    assert line_card_watts(40e9) == 16 * 140
    assert line_card_watts(10e9) == 4 * 140
    assert line_card_watts(1e9) == 140
    assert line_card_watts(2.6e9) == 2 * 140
    # ⌈40 Gb/s / 2.5 Gb/s⌉ × 140 W = 2240 W per link, 8960 W for 4 links, 4480 W for 2; both ends double it.
    assert watts_saved(sassu_off_links(50)) == 8960
    assert watts_saved(sassu_off_links(90)) == 4480
    assert watts_saved(sassu_off_links(90), ends=2) == 8960
    off = estop(ABILENE, 0.5).off_links
    capacities = {(a, b): capacity * 1e6 for (a, b), capacity in ABILENE.info["sndlib_capacity_mbps"].items()}
    # SNDlib's pre-installed capacities: 9920 Mb/s (4 cards) for three links, 2480 Mb/s (1 card) for (1,5).
    assert watts_saved(off, capacities) == (3 * 4 + 1) * 140


def test_off_links_become_scenario_events():
    off = estop(ABILENE, 0.7).off_links
    scenario = ABILENE.scenario(
        seed=1,
        duration_s=60.0,
        routing={"reconvergence": {"model": "global", "delay_s": 0.03}},
        events=link_down_events(off, at_s=30.0) + link_up_events(off[:1], at_s=45.0),
    )
    assert [(e.action, e.at_s, e.a, e.b) for e in scenario.events] == [
        ("link_down", 30.0, "SNVAng", "STTLng"),
        ("link_down", 30.0, "DNVRng", "SNVAng"),
        ("link_down", 30.0, "CHINng", "NYCMng"),
        ("link_up", 45.0, "SNVAng", "STTLng"),
    ]
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(
            {
                **ABILENE.fragment(),
                "seed": 1,
                "duration_s": 60.0,
                "events": link_down_events([("ATLAM5", "STTLng")], 30.0),
            }
        )
    assert raised.value.errors == [("events[0].b", "no link between 'ATLAM5' and 'STTLng'")]


@pytest.mark.parametrize(
    "network, threshold, field, words",
    [
        (ABILENE, 0.0, "threshold", "(0, 1]"),
        (ABILENE, 50, "threshold", "(0, 1]"),
        (nx.Graph([(0, 1), (2, 3)]), 0.5, "network", "connected"),
        (nx.MultiGraph([(0, 1), (0, 1)]), 0.5, "network", "simple undirected"),
    ],
)
def test_estop_errors(network, threshold, field, words):
    with pytest.raises(ScenarioError) as raised:
        estop(network, threshold)
    [(named, problem)] = raised.value.errors
    assert named == field and words in problem
