"""Running: the sweeps over the study's grid (cached and resumable under ``out/store``) and the per-run measures read back from each run's tables."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.estop import (
    Link,
    link_down_events,
)
from wattnet.experiments.greened_network.params import (
    BACKGROUND_READINGS,
    DURATION_S,
    FIG2_THRESHOLD,
    LOSS_EVENT_GAP_S,
    NAME,
    PRIMARY_BACKGROUND,
    REDUCTION_FRACTION,
    STEADY_FROM_S,
    SWITCH_OFF_S,
    TCP_DESTINATION,
    TCP_SOURCE,
    TRANSITION_WINDOW_S,
    VARIANTS,
    Reading,
)
from wattnet.experiments.greened_network.scenario import background_flows, base_scenario, lowest_id_path, tcp_settings
from wattnet.experiments.report import (
    row_of,
)
from wattnet.sweep import require_done, sweep
from wattnet.topology import Topology


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
    between samples, chained while less than LOSS_EVENT_GAP_S apart). An event whose last fall is
    less than LOSS_EVENT_GAP_S before the trace ends may still be inflating: it runs to the end."""
    values, times = cwnd.to_numpy(), cwnd.index.to_numpy()
    falls = times[1:][values[1:] < REDUCTION_FRACTION * values[:-1]]
    mask = np.zeros(len(times), dtype=bool)
    start = previous = None
    for t in [*falls, math.inf]:
        if previous is not None and t - previous >= LOSS_EVENT_GAP_S:
            end = times[-1] if times[-1] - previous < LOSS_EVENT_GAP_S else previous
            mask |= (times >= start) & (times <= end)
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
