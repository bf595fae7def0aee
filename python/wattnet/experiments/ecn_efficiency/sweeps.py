"""Running: the sweeps over the study's grid (cached and resumable under ``out/store``) and the per-run measures read back from each run's tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.ecn_efficiency.params import (
    BOTTLENECK_PORT,
    FILES_PER_CLIENT,
    HEADER_BYTES,
    MSS_BYTES,
    NAME,
    QUEUES,
    ROUTER_A,
    SEGMENTS_PER_TRANSFER,
)
from wattnet.experiments.ecn_efficiency.scenario import base_scenario, bottleneck_queue, queue_label, queue_path
from wattnet.experiments.report import (
    row_of,
)
from wattnet.sweep import mean_ci, require_done, sweep


def run_settings(
    out: Path,
    settings: list[tuple[int, float, bool]],
    qls: list[int],
    replications: int,
    error_replications: int,
    sweep_name: str,
    executor: Any = "local",
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Sweeps D, R and E over ``qls`` for each setting (TCP without ECN for D and R, with ECN for
    E: one store each under ``out/store/<sweep_name>``), ``replications`` runs of each case without
    errors and ``error_replications`` with them, and returns one row per run with its metrics."""
    rows = []
    for n, delay_ms, errors in settings:
        for ecn, queues in ((False, ("DT", "RED")), (True, ("ECN",))):
            base = base_scenario(n, delay_ms, errors, ecn)
            path = queue_path(base)
            grid = {path: [bottleneck_queue(queue, ql) for queue in queues for ql in qls]}
            setting_name = f"n{n}_d{delay_ms:g}ms_{'errors' if errors else 'clean'}_{'ecn' if ecn else 'tcp'}"
            store = out / "store" / sweep_name / setting_name
            label = progress and f"{NAME} {sweep_name} {setting_name}"
            runs = error_replications if errors else replications
            table = sweep(base, grid, runs, out=store, executor=executor, workers=workers, progress=label)
            require_done(table, store)
            for _, run in table.iterrows():
                queue = run[path]
                queue = json.loads(queue) if isinstance(queue, str) else queue
                rows.append({
                    "sweep": sweep_name, "n": n, "d_ms": delay_ms, "errors": errors,
                    "queue": queue_label(queue), "ql": int(queue["limit_packets"]),
                    "replication": int(run["replication"]), "seed": int(run["seed"]),
                    **run_metrics(store / "runs" / run["key"], n, queue),
                    "key": run["key"], "store": str(store.relative_to(out)),
                })  # fmt: skip
    return pd.DataFrame(rows)


def run_metrics(run_dir: Path, n: int, queue: dict[str, Any]) -> dict[str, Any]:
    """The measures for one run (11·n transfers of m segments each)."""
    connections = pd.read_parquet(run_dir / "connections.parquet")
    transfers = n * FILES_PER_CLIENT
    done = connections["completed_s"].notna()
    if len(connections) != transfers or not done.all():
        raise RuntimeError(f"{run_dir}: {int(done.sum())} of {transfers} transfers completed before the run ended")
    minimum = transfers * SEGMENTS_PER_TRANSFER
    ports = pd.read_parquet(run_dir / "ports.parquet").set_index("port")
    downlinks = ports[(ports["from"] == ROUTER_A) & (ports["to"].isin(connections["receiver"]))]
    corrupted_data = corrupted_data_packets(
        int(downlinks["corrupted_packets"].sum()), int(downlinks["corrupted_bytes"].sum())
    )
    tt = connections["transfer_time_s"]
    longest = int(tt.to_numpy().argmax())
    sent = int(connections["data_packets_sent"].sum())
    received = int(connections["data_packets_received"].sum())
    end_s = float(connections["completed_s"].max())
    bottleneck = row_of(ports, BOTTLENECK_PORT)
    metrics: dict[str, Any] = {
        "transfers": transfers,
        "tt_mean_s": float(tt.mean()),
        "tt_std_s": float(tt.std(ddof=1)),
        # The run's straggler: its longest transfer, the mean without it and its timeouts (E1).
        "tt_max_s": float(tt.max()),
        "tt_mean_without_longest_s": float(tt.drop(tt.index[longest]).mean()),
        "longest_transfer_timeouts": int(connections["timeouts"].to_numpy()[longest]),
        "experiment_s": end_s,
        "data_packets_sent": sent,
        "extra_packets_sent": sent - minimum,
        "network_overhead_pct": 100 * (sent - minimum) / minimum,
        "data_packets_received": received,
        "corrupted_data_packets": corrupted_data,
        # Segments the client's TCP received; a corrupted one is discarded before it, as ns-2.35's
        # ErrorModel drops it (docs/validation-studies.md, E7).
        "receiver_overhead_pct": 100 * (received - minimum) / minimum,
        # The reading that also counts the corrupted segments the client's interface took in.
        "receiver_overhead_with_corrupted_pct": 100 * (received + corrupted_data - minimum) / minimum,
        "duplicate_packets": int(connections["duplicate_packets"].sum()),
        # ACKs of data: ns-2.35's one-way agents, which the paper ran, have no handshake (E9).
        "acks_per_transfer": float((connections["acks_sent"] - connections["handshake_acks"]).mean()),
        "handshake_acks_per_transfer": float(connections["handshake_acks"].mean()),
        "timeouts": int(connections["timeouts"].sum()),
        "fast_retransmits": int(connections["fast_retransmits"].sum()),
        "ecn_reductions": int(connections["ecn_reductions"].sum()),
        "bottleneck_drops": int(bottleneck["dropped_packets"]),
        "bottleneck_early_drops": int(bottleneck["early_dropped_packets"]),
        "bottleneck_marks": int(bottleneck["marked_packets"]),
        "utilisation": float(bottleneck["busy_time_s"]) / end_s,
        "red_region_fraction": np.nan,
    }
    if queue["type"] == "red":
        series = pd.read_parquet(run_dir / "timeseries.parquet")
        metrics["red_region_fraction"] = red_region_fraction(series, queue, end_s)
    return metrics


def corrupted_data_packets(packets: int, size_bytes: int) -> int:
    """Of the packets corrupted toward the clients, the data segments: each is MSS + header bytes,
    every other packet (SYN-ACK, FIN, ACK) header bytes alone, so the bytes tell them apart."""
    data, rest = divmod(int(size_bytes) - HEADER_BYTES * int(packets), MSS_BYTES)
    if rest or not 0 <= data <= packets:
        raise RuntimeError(f"{packets} corrupted packets of {size_bytes} B are not full segments and bare headers")
    return data


def red_region_fraction(series: pd.DataFrame, queue: dict[str, Any], end_s: float) -> float:
    """The share of the experiment (to its last completion) RED's average spends where early
    marking or dropping is in effect: min_th ≤ avg < 2·max_th (gentle), the paper's §2 and §4."""
    samples = series[(series["entity"] == BOTTLENECK_PORT) & (series["quantity"] == "red_average")]
    average = samples.set_index("time_s")["value"]
    average = average[average.index <= end_s]
    return float(((average >= queue["min_th"]) & (average < 2 * queue["max_th"])).mean())


CASE_KEY = ["n", "d_ms", "errors", "queue", "ql"]
# The measures whose seed-to-seed spread the cases table carries (the errored cases' replications).
SPREAD_COLUMNS = ["tt_mean_s", "receiver_overhead_pct", "acks_per_transfer"]


def cases_table(runs: pd.DataFrame) -> pd.DataFrame:
    """The grid's runs, one row per (n, d, errors, queue, QL): each measure's mean over the case's
    replications (one without errors, as the paper's; several with them), their number, and the
    sample standard deviation over replications of the ``SPREAD_COLUMNS`` (``<column>_sd``)."""
    grid = runs[runs["sweep"] == "grid"]
    measures = [c for c in grid.select_dtypes("number").columns if c not in CASE_KEY + ["replication", "seed"]]
    groups = grid.groupby(CASE_KEY, sort=False)
    cases = groups[measures].mean()
    cases["replications"] = groups.size()
    for column in SPREAD_COLUMNS:
        cases[f"{column}_sd"] = groups[column].std(ddof=1)
    cases = cases.reset_index()
    return cases.sort_values(["errors", "n", "d_ms", "ql", "queue"], key=_queue_order).reset_index(drop=True)


def _queue_order(column: pd.Series) -> pd.Series:
    return column.map(QUEUES.index) if column.name == "queue" else column


def confidence_table(runs: pd.DataFrame) -> pd.DataFrame:
    """E10: per replicated case, the mean over replications of the run's mean transfer time and
    the 98 % Student-t half-width relative to it."""
    replicated = runs[runs["sweep"] == "ci"]
    rows = []
    for (n, d, errors, queue, ql), group in replicated.groupby(["n", "d_ms", "errors", "queue", "ql"], sort=False):
        mean, half = mean_ci(group["tt_mean_s"].to_numpy(), confidence=0.98)
        rows.append({"n": n, "d_ms": d, "errors": errors, "queue": queue, "ql": ql, "replications": len(group),
                     "tt_mean_s": mean, "tt_ci98_half_s": half, "tt_ci98_half_pct": 100 * half / mean})  # fmt: skip
    return pd.DataFrame(rows)


def pick(cases: pd.DataFrame, n: int, d_ms: float, errors: bool, ql: int | None = None) -> pd.DataFrame:
    """The rows of one setting (and QL), indexed by queue (and QL when ``ql`` is None)."""
    rows = cases[(cases["n"] == n) & (cases["d_ms"] == d_ms) & (cases["errors"] == errors)]
    if ql is not None:
        return rows[rows["ql"] == ql].set_index("queue")
    return rows.set_index(["queue", "ql"])
