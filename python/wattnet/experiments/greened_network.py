"""Sassu, Scarso, Cuomo, "TCP behavior over a greened network" (IEEE SustainIT 2012): one bulk TCP
flow from node 8 to node 10 of ABILENE while ESTOP switches links off on every router at t = 30 s,
for Tahoe, Reno, NewReno, BIC, CUBIC and Vegas (Table IV, Table V, Figs. 2, 3 and 4).

    wattnet reproduce greened-network --quick --out out/gn

Scenario: SNDlib ABILENE with 0-based SNDlib ids, every link 40 Mb/s with its rounded great-circle
delay and 300-packet DropTail buffers (above the BDP, as the paper says); one CBR flow per link at
25 % of the link (10 Mb/s of 1000 B packets); the TCP flow 8 → 10 sends 1040 B packets (1000 B
payload + 40 B header, as ns-2's agents do) with the ``ns2`` profile (BIC and CUBIC with SACK, as
ns-2's TCP-Linux agent) and never runs out of data (the paper's 1 GB file outlasts the 60 s run).
At 30 s the links ESTOP picks (``wattnet.estop.estop``) go down on every router at once; every router
installs the new shortest paths (hop count, lowest next-hop id on ties) 0.03 s later, the paper's
"transition period". Each port draws the line-card power of the real 40 Gb/s link (⌈40 / 2.5⌉ Cisco
ONS 15600 cards of 140 W) and nothing once off.

The background reading is the study's main interpretation (``BACKGROUND_READINGS``): a CBR flow in
each direction of every link overloads HSTN–KSCY at 50 % and leaves the TCP flow 10 Mb/s at 60–90 %,
whereas the paper keeps BIC and CUBIC at ≈ 20 Mb/s after pruning at every threshold. One CBR agent
per link, from the link's second SNDlib end to its first (``"b_to_a"``), leaves exactly that. The
checks use that reading; the full mode also runs the other two and the report compares them. The
ns-2.35 column of every target comes from ``validation/studies/greened_network`` (this scenario
written out for ns-2.35's own agents).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any, Literal, TypedDict

import networkx as nx
import numpy as np
import pandas as pd

from wattnet.estop import (
    LINE_CARD_CAPACITY_BPS,
    LINE_CARD_WATTS,
    SASSU_ENERGY_SAVING_PERCENT,
    SASSU_TABLE_V,
    SASSU_WATTS_SAVED,
    Link,
    estop,
    link_down_events,
    watts_saved,
)
from wattnet.experiments import GREENED_NETWORK_PAPER
from wattnet.experiments.report import (
    check,
    judge,
    plt,
    reference_checks,
    reference_rows,
    rounded,
    row_of,
    save_figure,
    stage,
    table_html,
    write_checks,
    write_report,
    write_tables,
)
from wattnet.scenario import Scenario
from wattnet.sweep import derive_seed, mean_ci, require_done, sweep
from wattnet.topology import Topology, abilene
from wattnet.traffic import link_cbr_flows

NAME = "greened-network"

# The paper's Table II.
LINK_RATE_BPS = 40e6
CAPACITY_SCALE = 1000  # the paper scaled ABILENE's 40 Gb/s links down to 40 Mb/s
CBR_LOAD = 0.25
TCP_SOURCE, TCP_DESTINATION = 8, 10
DURATION_S = 60.0
SWITCH_OFF_S = 30.0
TRANSITION_S = 0.03
THRESHOLDS = (50, 60, 70, 80, 90)
TABLE_IV_THRESHOLDS = (50, 70, 90)  # the columns of the paper's Table IV
FIG2_THRESHOLD = 70

MSS_BYTES = 1000  # + 40 B of TCP/IP header: the paper's 1040 B segments
CBR_PACKET_BYTES = 1000  # wattnet default (the paper gives no size)
RECORDER_INTERVAL_S = 0.01  # cwnd sampled every 10 ms
# cwnd statistics "before" skip the initial slow start and its recovery.
STEADY_FROM_S = 10.0
# The transition the paper's Fig. 2 shows as a short deep drop: the first second after ESTOP.
TRANSITION_WINDOW_S = 1.0
# A cwnd reduction is a fall of at least 10 % between two samples; falls less than 1 s apart
# belong to one loss event, between whose first and last fall duplicate ACKs inflate cwnd
# (+1 segment each, Reno-style fast recovery): those samples are not window peaks.
REDUCTION_FRACTION = 0.9
LOSS_EVENT_GAP_S = 1.0
B1_TOLERANCE = 0.15
B3_TOLERANCE = 0.03
# B6: Vegas "collapses" when less than a quarter of its throughput is left (loss ≥ 75 %) and is
# "moderate" when it loses at most half.
VEGAS_COLLAPSE_LOSS_PCT = 75.0
VEGAS_MODERATE_LOSS_PCT = 50.0

# The paper's Table III, in the order of Table IV: the ``tcp`` settings of each variant over the ``ns2``
# profile. Tahoe, Reno, NewReno and Vegas are ns-2's own agents (Vegas's diff is
# cwnd·(rtt − baseRTT)/rtt, α/β/γ = 1/3/1). ns-2 has BIC and CUBIC only as its TCP-Linux agent,
# which "supports SACK" and is run with a SACK receiver (ns-2 manual, "Linux TCP"), with the
# modules of the kernels the paper names: CUBIC's β is 0.8 there.
VARIANTS: dict[str, dict[str, Any]] = {
    "Tahoe": {"congestion_control": {"type": "tahoe"}},
    "Reno": {"congestion_control": {"type": "reno"}},
    "NewReno": {"congestion_control": {"type": "newreno"}},
    "BIC": {"congestion_control": {"type": "bic"}, "sack": True},
    "CUBIC": {"congestion_control": {"type": "cubic", "beta": 0.8}, "sack": True},
    "Vegas": {"congestion_control": {"type": "vegas", "classic_diff": True}},
}
LOSS_BASED = ("Tahoe", "Reno", "NewReno", "BIC", "CUBIC")
AIMD = ("Tahoe", "Reno", "NewReno")
# The paper's Fig. 2's panels as its text names them: (a), (b) and (e) the AIMD class, (c) BIC,
# (d) CUBIC, (f) Vegas. Which of Tahoe, Reno and NewReno is (a), (b) or (e) is assumed.
FIG2_PANELS = (("a", "Tahoe"), ("b", "Reno"), ("c", "BIC"), ("d", "CUBIC"), ("e", "NewReno"), ("f", "Vegas"))

# The paper's Table IV (Mb/s): before ESTOP, and after it at 50, 70 and 90 %.
PAPER_TABLE_IV: dict[str, tuple[float, dict[int, float]]] = {
    "Tahoe": (18.11, {50: 12.42, 70: 12.81, 90: 13.19}),
    "Reno": (20.82, {50: 15.62, 70: 15.91, 90: 16.27}),
    "NewReno": (21.51, {50: 15.30, 70: 15.51, 90: 15.96}),
    "BIC": (27.23, {50: 19.07, 70: 19.62, 90: 20.16}),
    "CUBIC": (26.26, {50: 19.96, 70: 20.19, 90: 20.49}),
    "Vegas": (26.72, {50: 0.1, 70: 0.32, 90: 19.02}),
}

# Background readings: link_cbr_flows' ``directions``.
Reading = Literal["b_to_a", "a_to_b", "both"]
BACKGROUND_READINGS: dict[Reading, str] = {
    "b_to_a": "one CBR flow per link, from its second SNDlib end to its first",
    "a_to_b": "one CBR flow per link, from its first SNDlib end to its second",
    "both": "one CBR flow per link and direction (wattnet default)",
}
PRIMARY_BACKGROUND: Reading = "b_to_a"


class Grid(TypedDict):
    """A run grid: the replications of the primary background and the background readings run."""

    replications: int
    backgrounds: tuple[Reading, ...]


FULL: Grid = {"replications": 5, "backgrounds": tuple(BACKGROUND_READINGS)}
QUICK: Grid = {"replications": 1, "backgrounds": (PRIMARY_BACKGROUND,)}
BASE_SEED = 1


# ---------------------------------------------------------------------------------------------
# Scenario
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# ESTOP
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def _param(value: Any) -> Any:
    """A grid value as the sweep's table gives it back (JSON text for tables and lists)."""
    return json.loads(value) if isinstance(value, str) else value


def run_tcp(
    out: Path, reading: Reading, replication: int, link_sets: dict[int, tuple[Link, ...]], executor: Any,
    workers: int | None, progress: bool,
) -> pd.DataFrame:  # fmt: skip
    """Every variant with every distinct set of links switched off (keyed by its size), one row per
    run with its metrics."""
    base = base_scenario(reading, replication)
    events = {n: link_down_events(links, at_s=SWITCH_OFF_S) for n, links in link_sets.items()}
    grid = {"events": list(events.values()), "flows[0].tcp": [tcp_settings(variant) for variant in VARIANTS]}
    store = out / "store" / "tcp" / reading / f"replication_{replication}"
    table = sweep(base, grid, 1, out=store, executor=executor, workers=workers,
                  progress=progress and f"{NAME} {reading} replication {replication}")  # fmt: skip
    require_done(table, store)
    variant_of = {settings["congestion_control"]["type"]: name for name, settings in VARIANTS.items()}
    rows = []
    for _, run in table.iterrows():
        rows.append({
            "background": reading,
            "replication": replication,
            "links_off": len(_param(run["events"])),
            "variant": variant_of[_param(run["flows[0].tcp"])["congestion_control"]["type"]],
            **run_metrics(store / "runs" / run["key"]),
            "key": run["key"],
            "store": str(store.relative_to(out)),
        })  # fmt: skip
    return pd.DataFrame(rows)


def run_background_loads(
    out: Path,
    link_sets: dict[int, tuple[Link, ...]],
    network: Topology,
    executor: Any,
    workers: int | None,
    progress: bool,
) -> pd.DataFrame:
    """The offered load of every port from the background alone, before and after ESTOP, for every
    background reading and set of links switched off: the check that pruning does not overload the
    network by itself."""
    base = base_scenario(PRIMARY_BACKGROUND, 0, with_tcp=False)
    backgrounds = {reading: background_flows(network, reading, 0) for reading in BACKGROUND_READINGS}
    events = {n: link_down_events(links, at_s=SWITCH_OFF_S) for n, links in link_sets.items()}
    grid = {"flows": list(backgrounds.values()), "events": list(events.values())}
    store = out / "store" / "background_only"
    table = sweep(base, grid, 1, out=store, executor=executor, workers=workers,
                  progress=progress and f"{NAME} background only")  # fmt: skip
    require_done(table, store)
    reading_of = {json.dumps(flows, sort_keys=True): reading for reading, flows in backgrounds.items()}
    names = network.names
    rows = []
    for _, run in table.iterrows():
        reading = reading_of[json.dumps(_param(run["flows"]), sort_keys=True)]
        off = [(e["a"], e["b"]) for e in _param(run["events"])]
        graph = network.graph()
        tcp_path_before = set(itertools.pairwise(lowest_id_path(graph, names[TCP_SOURCE], names[TCP_DESTINATION])))
        graph.remove_edges_from(off)
        tcp_path_after = set(itertools.pairwise(lowest_id_path(graph, names[TCP_SOURCE], names[TCP_DESTINATION])))
        ts = pd.read_parquet(store / "runs" / run["key"] / "timeseries.parquet")
        wide = ts.pivot_table(index="entity", columns="time_s", values="value")
        for port, values in wide.iterrows():
            hop = tuple(str(port).split("->"))
            rows.append({
                "background": reading,
                "links_off": len(off),
                "port": port,
                "offered_before_mbps": values[SWITCH_OFF_S] / 1e6,
                "offered_after_mbps": values[DURATION_S] / 1e6,
                "on_tcp_path_before": hop in tcp_path_before,
                "on_tcp_path_after": hop in tcp_path_after,
            })  # fmt: skip
    return pd.DataFrame(rows)


def run_metrics(run_dir: Path) -> dict[str, float]:
    """The measures for one run: goodput of the TCP flow over [0, 30) and [30, 60), its path
    lengths, retransmissions and the cwnd statistics of Fig. 2; the line-card power saved."""
    flows = pd.read_parquet(run_dir / "flows.parquet").set_index("flow")
    tcp = row_of(flows, "tcp")
    connection = row_of(pd.read_parquet(run_dir / "connections.parquet").set_index("flow"), "tcp")
    summary = json.loads((run_dir / "summary.json").read_text())
    series = tcp_series(run_dir)
    at_switch_off = series["delivered_bytes"].iloc[np.argmin(np.abs(series.index - SWITCH_OFF_S))]
    delivered = float(tcp["delivered_bytes"])
    return {
        "throughput_before_mbps": at_switch_off * 8 / SWITCH_OFF_S / 1e6,
        "throughput_after_mbps": (delivered - at_switch_off) * 8 / (DURATION_S - SWITCH_OFF_S) / 1e6,
        "hops_before": int(tcp["path_hops_start"]),
        "hops_after": int(tcp["path_hops_end"]),
        "retransmissions": int(connection["retransmissions"]),
        "timeouts": int(connection["timeouts"]),
        "tcp_dropped_packets": int(tcp["dropped_packets"]),
        # Every port draws constant line-card power while on: what the switched-off ports did not draw.
        "line_card_watts_saved": (summary["full_rate_energy_j"] - summary["energy_j"]) / (DURATION_S - SWITCH_OFF_S),
        **cwnd_metrics(series),
    }


def tcp_series(run_dir: Path) -> pd.DataFrame:
    """The TCP flow's recorder samples (every 10 ms), one column per quantity, indexed by time_s."""
    ts = pd.read_parquet(run_dir / "timeseries.parquet")
    return ts[ts["entity"] == "tcp"].pivot_table(index="time_s", columns="quantity", values="value")


def in_loss_recovery(cwnd: pd.Series) -> pd.Series:
    """True for the samples from the first to the last fall of each loss event (falls of ≥ 10 %
    between samples, chained while less than LOSS_EVENT_GAP_S apart)."""
    values, times = cwnd.to_numpy(), cwnd.index.to_numpy()
    falls = times[1:][values[1:] < REDUCTION_FRACTION * values[:-1]]
    mask = np.zeros(len(times), dtype=bool)
    start = previous = None
    for t in [*falls, math.inf]:
        if previous is not None and t - previous >= LOSS_EVENT_GAP_S:
            mask |= (times >= start) & (times <= previous)
            start = None
        start = t if start is None else start
        previous = t
    return pd.Series(mask, index=cwnd.index)


def cwnd_metrics(series: pd.DataFrame) -> dict[str, float]:
    """Fig. 2's measures (segments, seconds) from the 10 ms samples: mean cwnd before ESTOP (from
    STEADY_FROM_S) and after it; the peak (largest cwnd outside loss recovery) before and once the
    transition second is over; the lowest cwnd in that second and after ESTOP; the mean cwnd after
    that second; the mean SRTT; the growth rate in congestion avoidance (cwnd ≥ ssthresh, outside
    recovery), whose inverse is the time a window takes to climb back to its peak."""
    cwnd, ssthresh, srtt = series["cwnd_segments"], series["ssthresh_segments"], series["srtt_s"]
    t = cwnd.index
    before = (t >= STEADY_FROM_S) & (t < SWITCH_OFF_S)
    after = t >= SWITCH_OFF_S
    transition = after & (t < SWITCH_OFF_S + TRANSITION_WINDOW_S)
    settled = t >= SWITCH_OFF_S + TRANSITION_WINDOW_S
    steady = ~in_loss_recovery(cwnd).to_numpy()
    # Growth per second between consecutive samples that are both in congestion avoidance.
    avoidance = steady & (cwnd >= ssthresh).to_numpy()
    both = avoidance[1:] & avoidance[:-1]
    growth = pd.Series(np.diff(cwnd.to_numpy()) / np.diff(t.to_numpy()), index=t[1:])[both]

    def mean_growth(phase: np.ndarray) -> float:
        rates = growth[phase[1:][both]]
        return float(rates[rates >= 0].mean())

    return {
        "cwnd_mean_before": float(cwnd[before].mean()),
        "cwnd_peak_before": float(cwnd[before & steady].max()),
        "cwnd_mean_after": float(cwnd[after].mean()),
        "cwnd_peak_after": float(cwnd[settled & steady].max()),
        "cwnd_min_transition": float(cwnd[transition].min()),
        "cwnd_min_after": float(cwnd[after].min()),
        "cwnd_mean_settled": float(cwnd[settled].mean()),
        "srtt_before_ms": 1000 * float(srtt[before].mean()),
        "srtt_after_ms": 1000 * float(srtt[settled].mean()),
        "ca_growth_before_per_s": mean_growth(before),
        "ca_growth_after_per_s": mean_growth(settled),
    }


def fig2_traces(out: Path, per_threshold: pd.DataFrame) -> pd.DataFrame:
    """The cwnd samples of Fig. 2: every variant at th = 70 %, primary background, replication 0."""
    runs = per_threshold[
        (per_threshold["background"] == PRIMARY_BACKGROUND) & (per_threshold["replication"] == 0)
        & (per_threshold["threshold_pct"] == FIG2_THRESHOLD)
    ]  # fmt: skip
    traces = [
        tcp_series(out / run["store"] / "runs" / run["key"])["cwnd_segments"].reset_index().assign(variant=str(variant))
        for variant, run in runs.set_index("variant").iterrows()
    ]
    return pd.concat(traces, ignore_index=True)[["variant", "time_s", "cwnd_segments"]]


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------


def by_threshold(runs: pd.DataFrame, estop_rows: pd.DataFrame) -> pd.DataFrame:
    """The runs once per threshold whose ESTOP switches off their links (a set of links serves
    several thresholds: 60, 70 and 80 % switch off the same three)."""
    sizes = estop_rows[["threshold_pct", "links_off"]]
    return sizes.merge(runs, on="links_off").sort_values(["background", "variant", "threshold_pct", "replication"])


def table_iv(per_threshold: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table IV per background reading, variant and threshold: means over replications (with
    95 % CI half-widths), throughput loss and the paper's values."""
    rows = []
    for (reading, variant, threshold), group in per_threshold.groupby(["background", "variant", "threshold_pct"]):
        before, before_ci = mean_ci(group["throughput_before_mbps"])
        after, after_ci = mean_ci(group["throughput_after_mbps"])
        loss, loss_ci = mean_ci(100 * (1 - group["throughput_after_mbps"] / group["throughput_before_mbps"]))
        paper_before, paper_after = PAPER_TABLE_IV[str(variant)]
        threshold_pct = int(group["threshold_pct"].iloc[0])
        rows.append({
            "background": reading, "variant": variant, "threshold_pct": threshold, "replications": len(group),
            "before_mbps": before, "before_mbps_ci95": before_ci,
            "after_mbps": after, "after_mbps_ci95": after_ci,
            "loss_pct": loss, "loss_pct_ci95": loss_ci,
            "paper_before_mbps": paper_before, "paper_after_mbps": paper_after.get(threshold_pct, math.nan),
            "paper_loss_pct": 100 * (1 - paper_after[threshold_pct] / paper_before) if threshold_pct in paper_after else math.nan,
            "hops_after": int(group["hops_after"].iloc[0]),
        })  # fmt: skip
    table = pd.DataFrame(rows)
    order = {name: i for i, name in enumerate(VARIANTS)}
    return table.sort_values(
        ["background", "variant", "threshold_pct"], key=lambda c: c.map(order) if c.name == "variant" else c
    )


def table_iv_wide(iv: pd.DataFrame) -> pd.DataFrame:
    """Table IV laid out as the paper's: one row per variant, "wattnet (paper)" in each cell."""
    rows = []
    for variant in VARIANTS:
        cells = iv[iv["variant"] == variant].set_index("threshold_pct")
        first = cells.iloc[0]
        row = {"variant": variant, "before [Mb/s]": _pair(first["before_mbps"], first["paper_before_mbps"])}
        for t in THRESHOLDS:
            row[f"after {t} % [Mb/s]"] = _pair(cells["after_mbps"].loc[t], cells["paper_after_mbps"].loc[t])
        for t in THRESHOLDS:
            row[f"loss {t} % [%]"] = _pair(cells["loss_pct"].loc[t], cells["paper_loss_pct"].loc[t], digits=1)
        rows.append(row)
    return pd.DataFrame(rows)


def _pair(measured: float, paper: float, digits: int = 2) -> str:
    return f"{measured:.{digits}f}" + ("" if math.isnan(paper) else f" ({paper:.{digits}f})")


def table_v(estop_rows: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table V with the engine's measured line-card saving (primary background, any run)."""
    measured = runs[runs["background"] == PRIMARY_BACKGROUND].groupby("links_off")["line_card_watts_saved"].mean()
    table = estop_rows.drop(columns=["off_link_names"]).copy()
    table["engine_watts_saved_both_ends"] = table["links_off"].map(measured)
    return table


def load_summary(loads: pd.DataFrame, estop_rows: pd.DataFrame) -> pd.DataFrame:
    """Per background reading and threshold: the highest offered background load of any port and
    of the TCP flow's path, before and after ESTOP, and the ports offered more than the link rate."""
    rows = []
    for (reading, links_off), group in loads.groupby(["background", "links_off"]):
        path_before = group[group["on_tcp_path_before"]]
        path_after = group[group["on_tcp_path_after"]]
        worst = group.iloc[group["offered_after_mbps"].argmax()]
        thresholds = estop_rows[estop_rows["links_off"] == links_off]["threshold_pct"]
        rows.append({
            "background": reading,
            "thresholds_pct": ", ".join(str(t) for t in thresholds),
            "links_off": links_off,
            "max_port_before_mbps": group["offered_before_mbps"].max(),
            "max_port_after_mbps": worst["offered_after_mbps"],
            "max_port_after": worst["port"],
            "max_tcp_path_before_mbps": path_before["offered_before_mbps"].max(),
            "max_tcp_path_after_mbps": path_after["offered_after_mbps"].max(),
            "tcp_residual_after_mbps": LINK_RATE_BPS / 1e6 - path_after["offered_after_mbps"].max(),
            "tcp_path_hops_after": len(path_after),
            "overloaded_ports_after": ", ".join(group[group["offered_after_mbps"] > LINK_RATE_BPS / 1e6]["port"]),
        })  # fmt: skip
    order = {name: i for i, name in enumerate(BACKGROUND_READINGS)}
    return pd.DataFrame(rows).sort_values(
        ["background", "links_off"], key=lambda c: c.map(order) if c.name == "background" else c
    )


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def _cell(table: pd.DataFrame, variant: str, threshold: int, column: str) -> float:
    return float(table[(table["variant"] == variant) & (table["threshold_pct"] == threshold)][column].iloc[0])


def _by_variant(table: pd.DataFrame, threshold: int, column: str) -> pd.Series:
    return table[table["threshold_pct"] == threshold].set_index("variant")[column]


def checks(network: Topology, iv: pd.DataFrame, v: pd.DataFrame, per_threshold: pd.DataFrame) -> list[dict[str, Any]]:
    """B1–B6 on the primary background reading: Table IV means over replications; Fig. 2's trends per run."""
    iv = iv[iv["background"] == PRIMARY_BACKGROUND]
    runs = per_threshold[per_threshold["background"] == PRIMARY_BACKGROUND]
    return [*b1_checks(iv), *b2_b3_checks(v), *b4_checks(network, runs), *b5_checks(runs), *b6_checks(iv)]


def b1_checks(iv: pd.DataFrame) -> list[dict[str, Any]]:
    """B1 (Table IV), one check per variant: every throughput within ±15 %, losses shown."""
    result = []
    for variant, (paper_before, paper_after) in PAPER_TABLE_IV.items():
        measured = {"before": _cell(iv, variant, TABLE_IV_THRESHOLDS[0], "before_mbps")}
        paper = {"before": paper_before}
        for t in TABLE_IV_THRESHOLDS:
            measured[f"after {t} %"] = _cell(iv, variant, t, "after_mbps")
            paper[f"after {t} %"] = paper_after[t]
        within = all(abs(measured[k] - paper[k]) <= B1_TOLERANCE * paper[k] for k in paper)
        losses = {f"loss {t} %": rounded(_cell(iv, variant, t, "loss_pct"), 1) for t in TABLE_IV_THRESHOLDS}
        paper_losses = {f"loss {t} %": rounded(_cell(iv, variant, t, "paper_loss_pct"), 1) for t in TABLE_IV_THRESHOLDS}
        result.append(check(
            f"B1.{variant}",
            f"Table IV: {variant} average throughput before ESTOP and after it at 50, 70, 90 % (Mb/s)",
            {**paper, **paper_losses},
            {**{k: rounded(x) for k, x in measured.items()}, **losses},
            "each throughput within ±15 % of the paper's (losses shown, the wattnet defaults §B)",
            within,
        ))  # fmt: skip
    return result


def b2_b3_checks(v: pd.DataFrame) -> list[dict[str, Any]]:
    """B2 (Table V per threshold, the algorithmic ESTOP the runs use) and B3 (watts saved)."""
    result = []
    for _, row in v.iterrows():
        threshold = int(row["threshold_pct"])
        saving_gap = abs(row["energy_saving_pct"] - row["paper_energy_saving_pct"])
        result.append(check(
            f"B2.{threshold}",
            f"Table V at {threshold} %: links switched off and energy saving",
            {"links": row["paper_off_links"], "energy_saving_pct": row["paper_energy_saving_pct"]},
            {"links": row["off_links"], "energy_saving_pct": rounded(row["energy_saving_pct"], 1),
             "lambda2_ratio": rounded(row["lambda2_ratio"], 4)},
            "the same links; saving within 0.05 points (the paper rounds to 0.1)",
            bool(row["same_links_as_paper"]) and saving_gap <= 0.05,
        ))  # fmt: skip
    for threshold, paper_watts in SASSU_WATTS_SAVED.items():
        row = v[v["threshold_pct"] == threshold].iloc[0]
        result.append(check(
            f"B3.{threshold}",
            f"Watts saved at {threshold} % at the original 40 Gb/s (140 W per 2.5 Gb/s card)",
            paper_watts,
            {"rule_one_card_set_per_link": rounded(row["watts_saved"], 1), "links_off": int(row["links_off"]),
             "engine_both_ends": rounded(row["engine_watts_saved_both_ends"], 1)},
            "rule within ±3 % of the paper",
            abs(row["watts_saved"] - paper_watts) <= B3_TOLERANCE * paper_watts,
        ))  # fmt: skip
    return result


def _distinct(values: pd.Series[Any]) -> list[Any]:
    return sorted(set(values))


def b4_checks(network: Topology, runs: pd.DataFrame) -> list[dict[str, Any]]:
    """B4: Table I's topology facts and Table II's path lengths, as the engine measured them."""
    degrees = [d for _, d in network.graph().degree()]
    facts = {"nodes": len(network.nodes), "links": len(network.links), "degree_min": min(degrees),
             "degree_mean": sum(degrees) / len(degrees), "degree_max": max(degrees)}  # fmt: skip
    paper_facts = {"nodes": 12, "links": 15, "degree_min": 1, "degree_mean": 2.5, "degree_max": 4}
    hops = runs.groupby("threshold_pct")[["hops_before", "hops_after"]].agg(_distinct)
    # The paper's "+1 hop" comes with (2;8) switched off; at its other thresholds the path keeps its 5 hops.
    with_2_8_off = [t for t, links in SASSU_TABLE_V.items() if (2, 8) in links]
    hops_ok = all(hops.loc[t, "hops_before"] == [5] and hops.loc[t, "hops_after"] == [6] for t in with_2_8_off)
    return [
        check(
            "B4.topology", "Table I: ABILENE nodes, links, degrees", paper_facts, facts, "exact", facts == paper_facts
        ),
        check(
            "B4.hops",
            "Table II: the TCP path 8 → 10 has 5 hops, and 1 more after ESTOP where (2;8) goes off",
            {"before": 5, "after": 6, "thresholds": with_2_8_off},
            {f"{t} %": f"{b[0]} → {a[0]}" for t, (b, a) in hops.iterrows()},
            f"exact at {', '.join(map(str, with_2_8_off))} % (the paper's sets with (2;8) off)",
            hops_ok,
        ),
    ]


def b5_checks(runs: pd.DataFrame) -> list[dict[str, Any]]:
    """B5: Fig. 2's trends at th = 70 %, required in every run (the counts say how many hold)."""
    fig2 = runs[runs["threshold_pct"] == FIG2_THRESHOLD]
    means = fig2.groupby("variant").mean(numeric_only=True).reindex(list(VARIANTS))

    def runs_holding(holds: pd.Series) -> dict[str, str]:
        return {v: f"{int(group.sum())}/{len(group)}" for v, group in holds.groupby(fig2.loc[holds.index, "variant"])}

    lower = (fig2["cwnd_mean_after"] < fig2["cwnd_mean_before"]) & (fig2["cwnd_peak_after"] < fig2["cwnd_peak_before"])
    lower_runs = runs_holding(lower)
    aimd = fig2[fig2["variant"].isin(AIMD)]
    deep_drop = aimd["cwnd_min_transition"] <= 0.5 * aimd["cwnd_mean_before"]
    new_state = aimd["cwnd_mean_settled"] >= 2 * aimd["cwnd_min_transition"]
    # A longer time to the peak: slower congestion-avoidance growth (≈ 1 segment per RTT) on a longer RTT.
    slower = aimd["ca_growth_after_per_s"] < aimd["ca_growth_before_per_s"]
    longer_rtt = aimd["srtt_after_ms"] > aimd["srtt_before_ms"]
    transition = deep_drop & new_state & slower & longer_rtt
    transition_runs = runs_holding(transition)
    bic_cubic = fig2[fig2["variant"].isin(["BIC", "CUBIC"])]
    above_1 = bic_cubic["cwnd_min_after"] > 1
    above_1_runs = runs_holding(above_1)
    lowest_after = bic_cubic.groupby("variant")["cwnd_min_after"].min()
    ratio = means["cwnd_mean_after"] / means["cwnd_mean_before"]
    transition_end_s = SWITCH_OFF_S + TRANSITION_WINDOW_S
    return [
        check(
            "B5.lower-cwnd",
            f"Fig. 2 ({FIG2_THRESHOLD} %): every variant has a lower mean and peak cwnd after ESTOP",
            "mean and peak lower after, all six variants",
            {v: {"mean": f"{r.cwnd_mean_before:.1f} → {r.cwnd_mean_after:.1f}",
                 "peak": f"{r.cwnd_peak_before:.0f} → {r.cwnd_peak_after:.0f}", "runs_holding": lower_runs[str(v)]}
             for v, r in means.iterrows()},
            f"in every run: mean over [30, 60) s < mean over [{STEADY_FROM_S:g}, 30) s; peak outside loss recovery "
            f"over [{transition_end_s:g}, 60) s < over [{STEADY_FROM_S:g}, 30) s",
            bool(lower.all()),
        ),
        check(
            "B5.aimd-transition",
            "Fig. 2: Tahoe, Reno, NewReno drop deep and briefly at the transition, settle in a new state, and take "
            "longer to reach their peak",
            "deep short drop, new stable state, longer time to peak (larger RTT)",
            {v: {"min_first_s": rounded(r.cwnd_min_transition, 1), "mean_before": rounded(r.cwnd_mean_before, 1),
                 "mean_settled": rounded(r.cwnd_mean_settled, 1),
                 "srtt_ms": f"{r.srtt_before_ms:.1f} → {r.srtt_after_ms:.1f}",
                 "ca_growth_per_s": f"{r.ca_growth_before_per_s:.2f} → {r.ca_growth_after_per_s:.2f}",
                 "runs_holding": transition_runs[str(v)]}
             for v, r in means.loc[list(AIMD)].iterrows()},
            f"in every run: min cwnd in [30, {transition_end_s:g}) s ≤ half the mean before; mean after that ≥ twice "
            "that min; SRTT longer and congestion-avoidance growth (segments/s) slower after than before",
            bool(transition.all()),
        ),
        check(
            "B5.bic-cubic-above-1",
            "Fig. 2: BIC and CUBIC never set their cwnd to one segment after ESTOP",
            "cwnd > 1 segment",
            {v: {"lowest_cwnd": rounded(lowest_after[v], 2), "runs_holding": above_1_runs[v]}
             for v in ["BIC", "CUBIC"]},
            "lowest cwnd over [30, 60) s > 1 segment in every run",
            bool(above_1.all()),
        ),
        check(
            "B5.vegas-steps-down",
            "Fig. 2: Vegas's cwnd steps down after ESTOP, by more than the loss-based variants'",
            "Vegas's drop larger than every loss-based variant's",
            {v: rounded(r, 3) for v, r in ratio.items()} | {"quantity": "mean cwnd after / before"},
            "Vegas's ratio below every loss-based variant's",
            bool(ratio["Vegas"] < ratio[list(LOSS_BASED)].min()),
        ),
    ]  # fmt: skip


def _measured(loss_pct: Any) -> float:
    """A throughput loss to one decimal, as the B6 checks compare and report it; a clear error if it is missing."""
    value = rounded(loss_pct, 1)
    if value is None:
        raise ValueError("B6: a variant has no measured throughput loss at a Table IV threshold")
    return value


def b6_checks(iv: pd.DataFrame) -> list[dict[str, Any]]:
    """B6: the paper's orderings, on Table IV's means at 50, 70 and 90 %."""
    before = _by_variant(iv, TABLE_IV_THRESHOLDS[0], "before_mbps")
    after = {t: _by_variant(iv, t, "after_mbps") for t in TABLE_IV_THRESHOLDS}
    loss = {t: _by_variant(iv, t, "loss_pct") for t in TABLE_IV_THRESHOLDS}
    paper_loss = {t: _by_variant(iv, t, "paper_loss_pct") for t in TABLE_IV_THRESHOLDS}

    tops = {"before": list(before.nlargest(2).index)} | {
        f"after {t} %": list(after[t].nlargest(2).index) for t in TABLE_IV_THRESHOLDS
    }
    best_after = {f"{t} %": after[t].idxmax() for t in TABLE_IV_THRESHOLDS}
    versus_tahoe, beat_tahoe = {}, True
    for t in TABLE_IV_THRESHOLDS:
        for variant in ["Reno", "NewReno"]:
            versus_tahoe[f"{variant} vs Tahoe {t} %"] = {
                "before": f"{before[variant]:.2f} vs {before['Tahoe']:.2f}",
                "after": f"{after[t][variant]:.2f} vs {after[t]['Tahoe']:.2f}",
                "loss": f"{loss[t][variant]:.1f} vs {loss[t]['Tahoe']:.1f}",
            }
            beat_tahoe &= bool(
                before[variant] > before["Tahoe"]
                and after[t][variant] > after[t]["Tahoe"]
                and loss[t][variant] < loss[t]["Tahoe"]
            )
    lowest_loss = {f"{t} %": list(loss[t][list(LOSS_BASED)].nsmallest(2).index) for t in TABLE_IV_THRESHOLDS}
    trend = {v: [_measured(loss[t][v]) for t in TABLE_IV_THRESHOLDS] for v in VARIANTS}
    falls = {v: losses[0] >= losses[1] >= losses[2] and losses[0] > losses[2] for v, losses in trend.items()}
    vegas = {f"{t} %": _measured(loss[t]["Vegas"]) for t in TABLE_IV_THRESHOLDS}
    collapses = vegas["50 %"] >= VEGAS_COLLAPSE_LOSS_PCT and vegas["70 %"] >= VEGAS_COLLAPSE_LOSS_PCT
    return [
        check(
            "B6.bic-cubic-best", "BIC and CUBIC have the best throughput before and after ESTOP",
            "the two highest: BIC and CUBIC", tops, "BIC and CUBIC the two highest of six, before and at 50, 70, 90 %",
            all(set(top) == {"BIC", "CUBIC"} for top in tops.values()),
        ),
        check(
            "B6.cubic-best-after", "CUBIC is best after pruning", "CUBIC at 50, 70, 90 %", best_after,
            "CUBIC the highest after-throughput at each threshold", all(v == "CUBIC" for v in best_after.values()),
        ),
        check(
            "B6.reno-newreno-beat-tahoe", "Reno and NewReno beat Tahoe in throughput and in throughput loss",
            "higher throughput before and after, lower loss", versus_tahoe, "at 50, 70 and 90 %", beat_tahoe,
        ),
        check(
            "B6.reno-cubic-lowest-loss", "Reno and CUBIC have the lowest throughput loss (Fig. 3)",
            "the two lowest losses of the loss-based variants: Reno and CUBIC", lowest_loss, "at 50, 70 and 90 %",
            all(set(pair) == {"Reno", "CUBIC"} for pair in lowest_loss.values()),
        ),
        check(
            "B6.loss-falls", "All variants: the throughput loss falls as the threshold rises (Fig. 3)",
            {v: [rounded(paper_loss[t][v], 1) for t in TABLE_IV_THRESHOLDS] for v in VARIANTS},
            trend | {"falls": falls}, "loss % at 50 ≥ 70 ≥ 90 % and 50 > 90 %, every variant", all(falls.values()),
        ),
        check(
            "B6.vegas-collapse", "Vegas collapses at 50 % and 70 % and is moderate at 90 % (Fig. 4)",
            {f"{t} %": rounded(paper_loss[t]["Vegas"], 1) for t in TABLE_IV_THRESHOLDS}, vegas,
            f"loss ≥ {VEGAS_COLLAPSE_LOSS_PCT:g} % at 50 and 70 %, ≤ {VEGAS_MODERATE_LOSS_PCT:g} % at 90 %",
            collapses and vegas["90 %"] <= VEGAS_MODERATE_LOSS_PCT,
        ),
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def _error_bars(rows: pd.DataFrame) -> pd.Series | None:
    """The loss's 95 % CI half-widths, or none with a single replication."""
    ci = rows["loss_pct_ci95"]
    return None if ci.isna().all() else ci.fillna(0)


def figure2(traces: pd.DataFrame, path: Path) -> list[Path]:
    """The paper's Fig. 2: cwnd (segments) of each variant at th = 70 %, HIGH energy before ESTOP, LOW after."""
    pyplot = plt()
    fig, axes = pyplot.subplots(3, 2, figsize=(11, 9), sharex=True)
    for ax, (letter, variant) in zip(axes.flat, FIG2_PANELS, strict=True):
        trace = traces[traces["variant"] == variant]
        ax.plot(trace["time_s"], trace["cwnd_segments"], lw=0.6, color="tab:blue")
        ax.axvline(SWITCH_OFF_S, color="tab:red", lw=1, ls="--")
        top = trace["cwnd_segments"].max()
        ax.text(SWITCH_OFF_S / 2, top, "HIGH energy", ha="center", va="top", fontsize=8)
        ax.text((SWITCH_OFF_S + DURATION_S) / 2, top, "LOW energy", ha="center", va="top", fontsize=8)
        ax.set_title(f"({letter}) {variant}", fontsize=10)
        ax.set_ylabel("cwnd [segments]")
        ax.grid(True, alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("time [s]")
    fig.suptitle(f"Fig. 2 — congestion window, ESTOP at {SWITCH_OFF_S:g} s with threshold {FIG2_THRESHOLD} %")
    fig.tight_layout()
    return save_figure(fig, path)


def figure3(iv: pd.DataFrame, v: pd.DataFrame, path: Path, ns2_iv: pd.DataFrame | None = None) -> list[Path]:
    """The paper's Fig. 3: (a) throughput loss against the connectivity threshold, loss-based variants
    (wattnet, the paper's Table IV and, where stored, ns-2.35 on the same scenario); (b) the energy
    saving of ESTOP's link sets (Table V: wattnet's line-card rule and the paper's)."""
    pyplot = plt()
    fig, (ax, energy) = pyplot.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 2]})
    for variant in LOSS_BASED:
        rows = iv[iv["variant"] == variant]
        line = ax.errorbar(rows["threshold_pct"], rows["loss_pct"], yerr=_error_bars(rows), marker="o",
                           capsize=3, label=f"{variant} (wattnet)")  # fmt: skip
        paper = rows.dropna(subset=["paper_loss_pct"])
        ax.plot(paper["threshold_pct"], paper["paper_loss_pct"], ls=":", marker="x", color=line[0].get_color(),
                label=f"{variant} (paper)")  # fmt: skip
        if ns2_iv is not None:
            ref = ns2_iv[ns2_iv["variant"] == variant]
            ax.plot(ref["threshold_pct"], ref["loss_pct"], ls="--", lw=0.8, marker="s", mfc="none",
                    color=line[0].get_color(), label=f"{variant} (ns-2.35)")  # fmt: skip
    ax.set_xlabel("connectivity threshold [%]")
    ax.set_ylabel("throughput loss [%]")
    ax.set_xticks(THRESHOLDS)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.13), frameon=False)
    ax.set_title("(a) throughput loss of the loss-based variants", fontsize=10)
    energy.plot(v["threshold_pct"], v["energy_saving_pct"], marker="o", label="wattnet (ESTOP's links)")
    energy.plot(
        v["threshold_pct"], v["paper_energy_saving_pct"], ls=":", marker="x", color="0.3", label="paper (Table V)"
    )
    energy.set_xlabel("connectivity threshold [%]")
    energy.set_ylabel("energy saving [%]")
    energy.set_xticks(THRESHOLDS)
    energy.set_ylim(0, None)
    energy.grid(True, alpha=0.3)
    energy.legend(fontsize=7, loc="lower left")
    energy.set_title("(b) energy saving of the links switched off", fontsize=10)
    fig.suptitle("Fig. 3 — throughput loss and energy saving against ESTOP's connectivity threshold")
    fig.tight_layout()
    return save_figure(fig, path)


def figure4(iv: pd.DataFrame, path: Path) -> list[Path]:
    """The paper's Fig. 4: Vegas's throughput loss against the connectivity threshold."""
    pyplot = plt()
    rows = iv[iv["variant"] == "Vegas"]
    fig, ax = pyplot.subplots(figsize=(6.5, 4.5))
    ax.bar(rows["threshold_pct"] - 1.5, rows["loss_pct"], width=3, yerr=_error_bars(rows),
           capsize=3, label="wattnet")  # fmt: skip
    paper = rows.dropna(subset=["paper_loss_pct"])
    ax.bar(paper["threshold_pct"] + 1.5, paper["paper_loss_pct"], width=3, color="0.6", label="paper")
    ax.set_xlabel("connectivity threshold [%]")
    ax.set_ylabel("throughput loss [%]")
    ax.set_xticks(THRESHOLDS)
    ax.set_ylim(0, 105)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend()
    ax.set_title("Fig. 4 — throughput loss of TCP Vegas")
    fig.tight_layout()
    return save_figure(fig, path)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def parameters(config: Grid, quick: bool) -> list[tuple[str, str, str]]:
    """(parameter, value, source) rows of the report."""
    readings = ", ".join(config["backgrounds"])
    return [
        ("topology", "SNDlib ABILENE, 12 nodes, 15 links, 0-based SNDlib ids", "paper"),
        ("links", (f"{LINK_RATE_BPS / 1e6:g} Mb/s both ways; delay = great-circle distance at 2×10⁵ km/s, "
                  "rounded to whole ms (1–11 ms)"), "paper + wattnet default"),
        ("buffers", "DropTail, 300 packets per port (the longest TCP path's BDP is ≈ 272 packets)",
         "paper (\"higher than the BDP\") + interpretation (300)"),
        ("background", (f"CBR over UDP at {CBR_LOAD:.0%} of the link: 10 Mb/s of {CBR_PACKET_BYTES} B packets, start "
                       f"offset uniform in one packet interval; {BACKGROUND_READINGS[PRIMARY_BACKGROUND]} "
                       f"({PRIMARY_BACKGROUND}, the checks); readings run: {readings}"),
         "paper (25 %) + wattnet default (1000 B) + interpretation"),
        ("TCP flow", (f"bulk (the 1 GB file outlasts the run), node {TCP_SOURCE} (NYCM) → node {TCP_DESTINATION} "
                     f"(STTL), 1040 B packets = {MSS_BYTES} B payload + 40 B header"), "paper"),
        ("TCP variants", ("Tahoe, Reno, NewReno, Vegas (α/β/γ = 1/3/1, diff = cwnd·(rtt − baseRTT)/rtt) as ns-2's "
                         "agents; BIC (β = 819/1024) and CUBIC (β = 0.8, C = 0.4, no HyStart) as ns-2's TCP-Linux "
                         "agent, with SACK"), "the paper's Table III + wattnet defaults + interpretation"),
        ("TCP profile", ("ns2: no SACK (BIC, CUBIC: SACK), no delayed ACKs, IW 2, initial RTO 3 s, min RTO 0.2 s, "
                        "10 ms tick"), "ns-2.35 default (windowInit_ 2, Agent/TCPSink, rtxcur_init_ 3, minrto_ 0.2, tcpTick_ 0.01)"),
        ("receive window", "1 GiB", ("interpretation: ns-2.35's window_ of 20 packets would cap the flow at ≈ 2 Mb/s, "
         "far below the paper's 27 Mb/s")),
        ("ESTOP", ("algorithmic: ascending initial edge betweenness; a removal is kept while the "
                  "graph stays connected with λ₂ ≥ th·λ₂(original)"), "interpretation of Cuomo et al.; thresholds 50–90 % from the paper"),
        ("ESTOP activation", f"t = {SWITCH_OFF_S:g} s, every link at once on every router", "paper"),
        ("re-routing", (f"global reconvergence: every router installs the new hop-count shortest paths "
                       f"{TRANSITION_S * 1000:g} ms after the switch-off (lowest next-hop id on ties, no ECMP); "
                       "packets sent over an off link meanwhile are lost"),
         "paper (0.03 s transition) + wattnet default"),
        ("duration", f"{DURATION_S:g} s; before = [0, 30) s, after = [30, 60) s", "paper"),
        ("line cards", f"per port ⌈40 Gb/s / 2.5 Gb/s⌉ × {LINE_CARD_WATTS:g} W = 2240 W while on, 0 W off",
         "paper (Cisco ONS 15600) + wattnet default (one set of cards per port)"),
        ("replications", f"{config['replications']} (the CBR start offsets are redrawn; nothing else is random)",
         "wattnet default (the paper ran one)" + (" (1: --quick)" if quick else "")),
        ("cwnd sampling", f"every {RECORDER_INTERVAL_S * 1000:g} ms; statistics before ESTOP from {STEADY_FROM_S:g} s",
         "wattnet default"),
    ]  # fmt: skip


def interpretations(v: pd.DataFrame, quick: bool) -> list[str]:
    """The report's list of the choices made where the paper is silent or ambiguous (HTML)."""
    ratio_80 = float(v[v["threshold_pct"] == 80]["lambda2_ratio"].iloc[0])
    return [
        f"""<b>Background traffic.</b> The paper: "CBR traffic on top of UDP using 25 % of the link capacity of every
link, before the links switch-off", re-routed by OSPF after it. wattnet's default reads it as a CBR flow in each
direction of every link. After pruning, that puts the flows of SNVA–STTL and SNVA–DNVR on KSCY→DNVR (30 Mb/s of CBR at
every threshold) and at 50 % five flows (50 Mb/s) on each direction of HSTN–KSCY, a link of the TCP path: the
background alone overloads the network, and the TCP flow keeps at most 10 Mb/s after ESTOP. The paper's numbers say
otherwise: BIC and CUBIC keep ≈ 27 of the 30 Mb/s the CBR leaves them before ESTOP and ≈ 20 Mb/s after it at 50, 70 and
90 % alike, so the bottleneck of the new path carries about 20 Mb/s of CBR and nothing is overloaded. One ns-2 CBR
agent per link (a UDP agent at one end, a sink at the other) is the other literal reading, and <b>the runs use one flow
per link from its second SNDlib end to its first (<code>{PRIMARY_BACKGROUND}</code>)</b>: of the three readings, the
only one that leaves 20 Mb/s of CBR on the TCP path's bottleneck at every threshold (the offered loads below, measured
by background-only runs). The other orientation (<code>a_to_b</code>) does the same at 60–90 % but puts 30 Mb/s on
HSTN→KSCY, on the TCP path, at 50 %. The paper does not say which end sends: this choice is a calibration to its Table
IV, not a fact from its text."""
        + ("" if quick else " Table IV with the other two readings is in the sensitivity section."),
        f"""<b>ESTOP link sets.</b> The runs use the algorithmic ESTOP of the wattnet defaults
(<code>wattnet.estop.estop</code>). It gives the paper's Table V's links at 50, 60, 70 and 90 %; at 80 % it also switches off
(2;8) (λ₂ ratio {ratio_80:.4f} ≥ 0.8), where the paper lists only (9;10), (9;3); B2.80 and B3.80 report the difference
as failing. The paper's 80 % set is its 90 % set, so the 90 % column shows what the paper's 80 % row gives. 60, 70 and
the algorithmic 80 % switch off the same three links and share their runs.""",
        """<b>BIC and CUBIC.</b> ns-2 has BIC and CUBIC only as modules of its TCP-Linux agent, so the paper, which
names the Linux kernels they come from, most likely ran that agent (the wattnet defaults's simulator note: probable, not verified).
The agent "supports SACK" and is run with a SACK receiver (ns-2 manual, "Linux TCP"): BIC and CUBIC run with the ns2
profile plus SACK (RFC 6675 recovery), CUBIC with the β = 0.8 of the kernels the port carried. Tahoe, Reno,
NewReno and Vegas are ns-2's own agents, without SACK.""",
        """Throughput is the TCP flow's goodput (in-order bytes delivered to the receiver); before = [0, 30) s, after =
[30, 60) s with the 0.03 s transition; throughput loss = (before − after)/before × 100.""",
        f"""<b>Fig. 2 measures.</b> Mean cwnd before ESTOP over [{STEADY_FROM_S:g}, 30) s (the initial slow-start
overshoot left out) and after it over [30, 60) s. Peaks leave out loss recovery (from the first to the last fall of ≥
10 % between samples of a loss event, falls less than {LOSS_EVENT_GAP_S:g} s apart), where each duplicate ACK inflates
a Reno-style cwnd by a segment; the peak after ESTOP is taken once its first second is over. "Short deep drop": the
lowest cwnd in that second is at most half the mean before; "new stable state": the mean after it is at least twice
that lowest value. "Time to peak": with buffers above the BDP the AIMD sawtooth lasts ≈ 25 s, one per phase, so it is
read from the growth rate in congestion avoidance (segments/s, ≈ 1 per RTT) and the SRTT, before and after. Panel
letters follow the paper's text; which of Tahoe, Reno and NewReno is (a), (b) or (e) is assumed.""",
        f"""Vegas's collapse (B6) is a throughput loss ≥ {VEGAS_COLLAPSE_LOSS_PCT:g} % (less than a quarter left);
moderate is ≤ {VEGAS_MODERATE_LOSS_PCT:g} %. The paper reports 99.6, 98.8 and 28.8 %.""",
        """<b>Watts saved (B3).</b> the wattnet defaults's rule counts one set of ⌈40/2.5⌉ = 16 cards of 140 W per link
switched off (2240 W): 8960 W for 4 links, 4480 W for 2. The paper's 9072 and 4368 W are 2268 and 2184 W per link, which
no single per-link rule gives; both are within ±3 % of the rule. The engine puts a card set on each port, i.e. at both
ends of a link, so its measured saving is twice the rule.""",
    ]


def differences(iv: pd.DataFrame, runs: pd.DataFrame) -> str:
    """Where wattnet's numbers differ from the paper's, with the measured values and the likely reasons (HTML)."""
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    before = _by_variant(primary, TABLE_IV_THRESHOLDS[0], "before_mbps")
    after = primary.pivot_table(index="variant", columns="threshold_pct", values="after_mbps")
    main_runs = runs[runs["background"] == PRIMARY_BACKGROUND]
    timeouts = main_runs.groupby("variant")["timeouts"].mean()
    # Runs in which the window fell to one segment after ESTOP, per variant and number of links off.
    to_one = main_runs[main_runs["cwnd_min_after"] <= 1].groupby(["variant", "links_off"]).size()
    runs_per_set = main_runs.groupby(["variant", "links_off"]).size()

    def fell(variant: str, links_off: int) -> str:
        return f"{to_one.get((variant, links_off), 0)}/{runs_per_set[(variant, links_off)]}"

    return f"""<ul>
<li><b>Tahoe, Reno and NewReno before ESTOP</b> (paper 18.11, 20.82, 21.51 Mb/s; wattnet {before["Tahoe"]:.2f},
{before["Reno"]:.2f}, {before["NewReno"]:.2f}). The 300-packet buffers are above the ≈ 173-packet BDP of the 30 Mb/s
the CBR leaves at a 48 ms RTT: halving a window of ≈ 456 segments leaves ≈ 228, still above the BDP, so NewReno keeps
the path full (one loss event per phase, Fig. 2), and Tahoe's slow start back to ssthresh takes well under a second.
Reno is lower because its recovery of the many losses of the initial slow start ends in timeouts
({timeouts["Reno"]:.1f} per run). The paper's AIMD agents reach only 60–72 % of the 30 Mb/s; its text does not say what
held them back, so B1 fails for them, and B6's orderings among Tahoe, Reno and NewReno, which rest on those numbers,
fail with it.</li>
<li><b>BIC and CUBIC before ESTOP</b> (wattnet {before["BIC"]:.2f} and {before["CUBIC"]:.2f} Mb/s, paper 27.23 and
26.26): within B1's ±15 %, but below Tahoe, NewReno and Vegas: their initial slow start overshoots to ≈ 900 segments
and its recovery ends in timeouts ({timeouts["BIC"]:.1f} and {timeouts["CUBIC"]:.1f} per run in all; their window falls
to one segment after ESTOP at 70 % in {fell("BIC", 3)} and {fell("CUBIC", 3)} runs). After pruning at 50 and
70 % they are the two best, CUBIC first, as in the paper.</li>
<li><b>Throughput loss at 90 % is not lower than at 70 %</b> (B6.loss-falls). With the chosen background the bottleneck
of the TCP path carries 20 Mb/s of CBR after ESTOP at every threshold (table above), so the thresholds differ for the
TCP flow only in its RTT (5 hops at 90 %, 6 at 50–70 %) and in the transition. At 90 % the flow keeps its path, and
0.03 s after the switch-off KSCY→DNVR takes the re-routed SNVA→DNVR CBR while the flow's window, sized for 30 Mb/s, is
in flight: BIC and CUBIC fall to one segment after ESTOP in {fell("BIC", 2)} and {fell("CUBIC", 2)} runs at 90 %,
against {fell("BIC", 3)} and {fell("CUBIC", 3)} at 70 %, where the flow itself is re-routed (after ESTOP: BIC
{after[70].loc["BIC"]:.2f} Mb/s at 70 %, {after[90].loc["BIC"]:.2f} at 90 %; CUBIC {after[70].loc["CUBIC"]:.2f} and
{after[90].loc["CUBIC"]:.2f}). The paper's loss falls by 1–2 points per step: its background leaves more room at 90 %
than at 50 %, which none of the three readings does.</li>
<li><b>BIC and CUBIC at the transition</b> (B5.bic-cubic-above-1, th = 70 %). The 0.03 s black hole drops the tail of
the window, which leaves no later segment to raise duplicate ACKs or SACK blocks; then only the retransmission timer
recovers and cwnd restarts from one segment.</li>
<li><b>Vegas after pruning at 50 and 70 %</b> (paper 0.1 and 0.32 Mb/s): wattnet's Vegas collapses too, to
{after[50].loc["Vegas"]:.2f} and {after[70].loc["Vegas"]:.2f} Mb/s. Its baseRTT stays at the old path's ≈ 48 ms and the
new path adds ≈ 8 ms of propagation, so it shrinks cwnd until cwnd·(rtt − baseRTT)/rtt ≤ β = 3 segments, about 20
segments or ≈ 3 Mb/s. The paper's 0.1–0.3 Mb/s is a cwnd of one or two segments, deeper than that rule gives for these
delays, so B1.Vegas fails after pruning while the collapse itself (B6.vegas-collapse) is reproduced.</li>
</ul>"""


def report(
    out: Path, config: Grid, quick: bool, runs: pd.DataFrame, iv: pd.DataFrame, v: pd.DataFrame,
    loads_summary: pd.DataFrame, check_list: list[dict[str, Any]], figures: list[Path],
) -> Path:  # fmt: skip
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    sections = [
        ("Table IV — average throughput and throughput loss, wattnet (paper)",
         table_html(table_iv_wide(primary))
         + "<p>Means over replications, with 95 % CI half-widths in <code>tables/table_iv</code>. The paper has no "
         "60 and 80 % columns.</p>"),
        ("Table V — ESTOP link sets, energy saving and watts saved", table_html(v)),
        ("Background load alone (background-only runs; offered load per port, Mb/s)",
         table_html(loads_summary)
         + "<p>The TCP path's ports follow the engine's routing rule (hop count, lowest next-hop id), recomputed with "
         "networkx; its hop counts (<code>tcp_path_hops_after</code>) are the engine's (<code>hops_after</code> in the "
         "runs).</p>"),
        ("Where wattnet differs from the paper, and the likely reasons", differences(iv, runs)),
    ]  # fmt: skip
    others = iv[iv["background"] != PRIMARY_BACKGROUND]
    if len(others):
        columns = ["background", "variant", "threshold_pct", "before_mbps", "after_mbps", "loss_pct", "paper_loss_pct"]
        sections.append(("Sensitivity: Table IV with the other background readings (replication 0)",
                         table_html(others[columns])))  # fmt: skip
    run_columns = ["background", "replication", "variant", "links_off", "throughput_before_mbps",
                   "throughput_after_mbps", "hops_before", "hops_after", "retransmissions", "timeouts",
                   "cwnd_mean_before", "cwnd_mean_after", "cwnd_min_after", "line_card_watts_saved"]  # fmt: skip
    sections.append((
        "Runs",
        table_html(runs[run_columns])
        + "<p>Tables (CSV and Parquet): <code>tables/table_iv</code>, <code>tables/table_v</code>, "
        "<code>tables/runs</code>, <code>tables/background_loads</code>, <code>tables/background_load_summary</code>, "
        "<code>tables/fig2_cwnd</code>; run stores under <code>store/</code>.</p>",
    ))  # fmt: skip
    background_runs = len(loads_summary)
    return write_report(
        out,
        paper=GREENED_NETWORK_PAPER,
        title=NAME,
        reference_note=(
            "The ns-2.35 column: the same links, delays, buffers, CBR background and ESTOP link sets, written out by "
            "<code>validation/studies/greened_network/run.py</code> for <code>abilene.tcl</code>, with ns-2.35's own "
            "Tahoe, Reno, NewReno and Vegas agents and its TCP-Linux agent (bic, cubic) with a SACK receiver, one run "
            "per variant at 50, 70 and 90 %. Fidelity: ns-2.35's Session routing re-routes at the instant the links go "
            "down (wattnet after the paper's 30 ms), and its ties between equal-length paths may break differently."
        ),
        intro=f"{len(runs)} TCP runs of {DURATION_S:g} s and {background_runs} background-only runs"
        + (" (quick: every variant and threshold, one replication, the checked background only)." if quick else "."),
        quick=quick,
        parameters=parameters(config, quick),
        interpretations=interpretations(v, quick),
        checks=check_list,
        figures=figures,
        sections=sections,
    )


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def reproduce(
    out: str | Path, quick: bool = False, *, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> Path:
    """Runs the study (resuming from ``out/store``) and writes tables, figures, checks.json and
    report.html under ``out``; returns the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = QUICK if quick else FULL
    network = greened_abilene()
    estop_rows = estop_table(network)
    # One run per distinct set of links switched off, keyed by its size: on ABILENE the sets are
    # nested (2, 3 and 4 links), so a size names one set.
    link_sets: dict[int, tuple[Link, ...]] = {len(off): off for off in estop_rows["off_link_names"]}
    if len(link_sets) != len(set(estop_rows["off_links"])):
        raise RuntimeError("two thresholds switch off different links of the same number")

    stage(NAME, "sweeping the variants, thresholds and backgrounds")
    frames = []
    for reading in config["backgrounds"]:
        replications = config["replications"] if reading == PRIMARY_BACKGROUND else 1
        for replication in range(replications):
            frames.append(run_tcp(out, reading, replication, link_sets, executor, workers, progress))
    runs = pd.concat(frames, ignore_index=True)
    loads = run_background_loads(out, link_sets, network, executor, workers, progress)

    per_threshold = by_threshold(runs, estop_rows)
    iv = table_iv(per_threshold)
    v = table_v(estop_rows, runs)
    loads_summary = load_summary(loads, estop_rows)
    traces = fig2_traces(out, per_threshold)
    write_tables(out, {
        "runs": runs, "table_iv": iv, "table_v": v, "background_loads": loads,
        "background_load_summary": loads_summary, "fig2_cwnd": traces,
    })  # fmt: skip

    stage(NAME, "figures")
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    figures = [
        *figure2(traces, out / "figures" / "fig2_cwnd"),
        *figure3(primary, v, out / "figures" / "fig3_throughput_loss", ns2_table_iv()),
        *figure4(primary, out / "figures" / "fig4_vegas"),
    ]
    stage(NAME, "checks and report")
    check_list = judge(checks(network, iv, v, per_threshold), ns2_checks(network), explanations=EXPLANATIONS)
    write_checks(out, check_list)
    return report(out, config, quick, runs, iv, v, loads_summary, check_list, figures)


COMPUTED = "ESTOP's link sets and the line-card power are computed outside the simulator: ns-2.35 has no counterpart."
EXPLANATIONS = {id: COMPUTED for id in ("B2.50", "B2.60", "B2.70", "B2.80", "B2.90", "B3.50", "B3.80", "B3.90")}


def ns2_table_iv() -> pd.DataFrame | None:
    rows = reference_rows(NAME)
    return None if rows is None else table_iv(rows)


def ns2_checks(network: Topology) -> dict[str, dict[str, Any] | None]:
    """B1, B4, B5 and B6 computed from ns-2.35's runs of the same scenario (one per variant at 50, 70
    and 90 %, the primary background)."""
    rows = reference_rows(NAME)
    if rows is None:
        return {}
    iv = table_iv(rows)
    return reference_checks({"B1": lambda: b1_checks(iv), "B4": lambda: b4_checks(network, rows),
                             "B5": lambda: b5_checks(rows), "B6": lambda: b6_checks(iv)})  # fmt: skip
