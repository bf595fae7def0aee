"""ns-2.35 reference for the ECN study (Pentikousis and Badr, "On the Resource Efficiency of
Explicit Congestion Notification", NETWORKING 2002): the cases its checks read, one run each
without errors and ERROR_REPLICATIONS runs (error-model substreams) with them, measured as the
reproduction measures wattnet's runs. Writes ``reference.json`` beside this file.

    python validation/studies/ecn_efficiency/run.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from ns2 import run_ns, run_points, write_reference

SCRIPT = HERE / "dumbbell.tcl"
SERVER, ROUTER_B, ROUTER_A, FIRST_CLIENT = 0, 1, 2, 3
# The paper's scenario, as the reproduction sets it (the package python/wattnet/experiments/ecn_efficiency/, its parameters.toml).
FILES_PER_CLIENT = 11
SEGMENTS_PER_TRANSFER = 70
DATA_PACKET_BYTES = 1500
BOTTLENECK_RATE_BPS = 1.5e6
BASE_SEED = 4
QUEUES = ("DT", "RED", "ECN")
QLS = (16, 32, 64, 128)
RED_THRESHOLDS = {16: (5, 15), 32: (10, 30), 64: (20, 60), 128: (40, 120)}
# The (n, d ms, errors) settings the checks read (the reproduction's quick grid).
SETTINGS = [(10, 20, False), (25, 20, False), (5, 2, False), (5, 20, False)] + [
    (n, d, True) for n in (10, 25) for d in (2, 20)
]
# Runs of each case with errors: the reproduction's full grid's error_replications (its quick grid reads the first ones).
ERROR_REPLICATIONS = 5
TRACE_COLUMNS = ["event", "time", "src", "dst", "type", "size", "flags", "fid", "from", "to", "seq", "id"]


def points() -> list[dict[str, Any]]:
    return [
        {"n": n, "d_ms": d, "errors": errors, "queue": queue, "ql": ql, "replication": replication}
        for n, d, errors in SETTINGS
        for queue in QUEUES
        for ql in QLS
        for replication in range(ERROR_REPLICATIONS if errors else 1)
    ]


def measure(point: dict[str, Any], prefix: Path) -> dict[str, Any]:
    """The reproduction's per-run metrics, from the packet trace and the transfer log."""
    n = point["n"]
    trace = pd.read_csv(prefix.with_suffix(".tr"), sep=" ", header=None, names=TRACE_COLUMNS)
    transfers = pd.read_csv(
        prefix.with_suffix(".tt"), sep=" ", header=None, names=["client", "file", "start", "end", "timeouts"]
    )
    expected = n * FILES_PER_CLIENT
    if len(transfers) != expected:
        raise RuntimeError(f"{point}: {len(transfers)} of {expected} transfers completed")
    data = trace[(trace["type"] == "tcp") & (trace["size"] == DATA_PACKET_BYTES)]
    clients = trace["dst"] >= FIRST_CLIENT
    sent = int(((data["event"] == "+") & (data["src"] == SERVER)).sum())
    to_clients = data[clients.loc[data.index] & (data["src"] == ROUTER_A)]
    # The error model sits after the queue: an errored segment leaves it and is never received.
    dequeued = int((to_clients["event"] == "-").sum())
    received = int((to_clients["event"] == "r").sum())
    # Every ACK a client's sink sends enters its access link's queue, errored ones included.
    acks = trace[(trace["type"] == "ack") & (trace["event"] == "+") & (trace["src"] >= FIRST_CLIENT)]
    tt = transfers["end"] - transfers["start"]
    longest = tt.idxmax()
    minimum = expected * SEGMENTS_PER_TRANSFER
    end_s = float(transfers["end"].max())
    bottleneck = trace[(trace["src"] == ROUTER_B) & (trace["dst"] == ROUTER_A)]
    # The bottleneck's busy time: every departure's transmission at 1.5 Mb/s, up to the last transfer's end.
    departures = bottleneck[(bottleneck["event"] == "-") & (bottleneck["time"] <= end_s)]
    row = {
        "sweep": "grid", **point, "transfers": expected,
        "tt_mean_s": float(tt.mean()),
        "tt_std_s": float(tt.std(ddof=1)),
        "tt_max_s": float(tt.max()),
        "tt_mean_without_longest_s": float(tt.drop(longest).mean()),
        "longest_transfer_timeouts": int(transfers.loc[longest, "timeouts"]),
        "timeouts": int(transfers["timeouts"].sum()),
        "experiment_s": end_s,
        "data_packets_sent": sent,
        "extra_packets_sent": sent - minimum,
        "network_overhead_pct": 100 * (sent - minimum) / minimum,
        "data_packets_received": received,
        "corrupted_data_packets": dequeued - received,
        "receiver_overhead_pct": 100 * (received - minimum) / minimum,
        "receiver_overhead_with_corrupted_pct": 100 * (dequeued - minimum) / minimum,
        "acks_per_transfer": len(acks) / expected,
        "bottleneck_drops": int((bottleneck["event"] == "d").sum()),
        "utilisation": float(departures["size"].sum() * 8 / BOTTLENECK_RATE_BPS / end_s),
        "red_region_fraction": None,
    }  # fmt: skip
    if point["queue"] != "DT":
        row["red_region_fraction"] = red_region_fraction(prefix.with_suffix(".ave"), point["ql"], end_s)
    return row


def red_region_fraction(path: Path, ql: int, end_s: float) -> float:
    """The time share, to ``end_s``, of RED's average in [min_th, 2·max_th) (gentle's early region)."""
    ave = pd.read_csv(path, sep=" ", header=None, names=["name", "time", "value"])
    ave = ave[ave["time"] <= end_s]
    low, high = RED_THRESHOLDS[ql]
    times = list(ave["time"]) + [end_s]
    inside = (ave["value"] >= low) & (ave["value"] < 2 * high)
    durations = pd.Series(times[1:]) - pd.Series(times[:-1])
    return float((durations.to_numpy() * inside.to_numpy()).sum() / end_s)


def run(point: dict[str, Any]) -> dict[str, Any]:
    args = [point["n"], point["d_ms"], int(point["errors"]), point["queue"], point["ql"], BASE_SEED, point["replication"]]
    return run_ns(SCRIPT, args, lambda prefix: measure(point, prefix))


def main() -> None:
    rows = run_points(points(), run)
    write_reference(HERE, "ecn-efficiency", [SCRIPT.name], rows)


if __name__ == "__main__":
    main()
