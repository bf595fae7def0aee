"""The scenarios: the study's topology, traffic and controllers as wattnet scenarios."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd

from wattnet.estop import (
    LINE_CARD_CAPACITY_BPS,
    LINE_CARD_WATTS,
    SASSU_ENERGY_SAVING_PERCENT,
    SASSU_TABLE_V,
    SASSU_WATTS_SAVED,
    estop,
    watts_saved,
)
from wattnet.experiments.greened_network.params import (
    BASE_SEED,
    CAPACITY_SCALE,
    CBR_LOAD,
    CBR_PACKET_BYTES,
    DURATION_S,
    LINK_RATE_BPS,
    MSS_BYTES,
    NAME,
    RECORDER_INTERVAL_S,
    SWITCH_OFF_S,
    TCP_DESTINATION,
    TCP_SOURCE,
    THRESHOLDS,
    TRANSITION_S,
    VARIANTS,
    Reading,
)
from wattnet.scenario import Scenario
from wattnet.sweep import derive_seed
from wattnet.topology import Topology, abilene
from wattnet.traffic import link_cbr_flows


def greened_abilene() -> Topology:
    """ABILENE at 40 Mb/s whose every port draws the line cards of its real 40 Gb/s link."""
    network = abilene(LINK_RATE_BPS)
    line_card = {
        "type": "line_card",
        "card_capacity_bps": LINE_CARD_CAPACITY_BPS,
        "card_w": LINE_CARD_WATTS,
        "capacity_bps": LINK_RATE_BPS * CAPACITY_SCALE,
    }
    for link in network.links:
        link["power"] = line_card
    return network


def background_flows(network: Topology, reading: Reading, replication: int) -> list[dict[str, Any]]:
    """The CBR background of ``reading``; replication r draws the flows' start offsets (uniform in
    one packet interval) from its own seed, the only thing that differs between replications."""
    rng = np.random.default_rng(derive_seed(BASE_SEED, replication))
    return link_cbr_flows(network, rng, load=CBR_LOAD, packet_bytes=CBR_PACKET_BYTES, directions=reading)


def tcp_settings(variant: str) -> dict[str, Any]:
    return {"profile": "ns2", "mss_bytes": MSS_BYTES, **VARIANTS[variant]}


def tcp_flow(network: Topology, variant: str = "NewReno") -> dict[str, Any]:
    names = network.names
    return {
        "name": "tcp",
        "src": names[TCP_SOURCE],
        "dst": names[TCP_DESTINATION],
        "traffic": {"type": "bulk"},
        "tcp": tcp_settings(variant),
    }


def base_scenario(reading: Reading, replication: int, *, with_tcp: bool = True) -> Scenario:
    """The unpruned network with the background of ``reading`` and (first, so that it is
    ``flows[0]`` whatever the background) the TCP flow; the sweeps set ``events`` and the variant.
    Without TCP (the sweep then sets the background too), the recorder samples every port's
    offered load over each 30 s phase."""
    network = greened_abilene()
    flows = background_flows(network, reading, replication)
    if with_tcp:
        flows.insert(0, tcp_flow(network))
        recorder = {
            "interval_s": RECORDER_INTERVAL_S,
            "quantities": [],
            "flows": ["tcp"],
            "flow_quantities": ["cwnd_segments", "ssthresh_segments", "srtt_s", "delivered_bytes"],
        }
    else:
        recorder = {"interval_s": SWITCH_OFF_S, "quantities": ["arrival_rate_bps"]}
    return network.scenario(
        name=f"{NAME} {reading} replication {replication}" if with_tcp else f"{NAME} background only",
        seed=BASE_SEED,
        duration_s=DURATION_S,
        routing={"reconvergence": {"model": "global", "delay_s": TRANSITION_S}},
        flows=flows,
        recorder=recorder,
    )


def estop_table(network: Topology) -> pd.DataFrame:
    """Per threshold: the links the algorithmic ESTOP switches off (the runs use these) and the paper's
    Table V's, their energy saving and the line-card watts of one set of cards per link."""
    rows = []
    for threshold in THRESHOLDS:
        result = estop(network, threshold / 100)
        paper_links = {tuple(sorted(link)) for link in SASSU_TABLE_V[threshold]}
        rows.append({
            "threshold_pct": threshold,
            "links_off": len(result.off_links),
            "off_links": link_label(result.off_link_ids),
            "lambda2_ratio": result.lambda2_ratios[-1] if result.lambda2_ratios else 1.0,
            "energy_saving_pct": 100 * result.energy_saving,
            "watts_saved": watts_saved(result.off_links, LINK_RATE_BPS * CAPACITY_SCALE),
            "paper_off_links": link_label(SASSU_TABLE_V[threshold]),
            "paper_energy_saving_pct": SASSU_ENERGY_SAVING_PERCENT[threshold],
            "paper_watts_saved": SASSU_WATTS_SAVED.get(threshold, math.nan),
            "same_links_as_paper": set(result.off_link_ids) == paper_links,
            "off_link_names": result.off_links,
        })  # fmt: skip
    return pd.DataFrame(rows)


def link_label(links: Any) -> str:
    return ", ".join(f"({u};{v})" for u, v in links)


def lowest_id_path(graph: nx.Graph, source: Any, target: Any) -> list[Any]:
    """The engine's route (wattnet default): hop-count shortest paths, and on ties the
    neighbour with the lowest node id (the graph's node order)."""
    order = {node: i for i, node in enumerate(graph.nodes)}
    distance = nx.single_source_shortest_path_length(graph, target)
    path = [source]
    while path[-1] != target:
        here = path[-1]
        path.append(min((v for v in graph[here] if distance[v] == distance[here] - 1), key=lambda v: order[v]))
    return path
