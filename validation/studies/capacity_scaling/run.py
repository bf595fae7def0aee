"""ns-2.35 reference for the capacity-scaling study (Panarello et al., "Network interface power
management and TCP congestion control: a troubled marriage", AJEEE 13(1), 2016, §6.1): the
chain, TCPonly and TCP+PC (practRA emulated in Tcl, see chain.tcl), alone (§6.1), with the bursty
background (§6.2, bON = 100 ms) and with the varying bottleneck (§6.3, BN = 50 ms), at the RTTs and
mRCIs of the reproduction's grids — 300 s runs for the full grid, 60 s for the quick one — with the
100 ms traces the trace-based targets read at the largest RTT. The background and the bottleneck
are random: those cases run ``REPLICATIONS`` independent replications per point (chain.tcl's RNG
substreams), as many as wattnet's full grid, in both grids (the quick grid's stored spread costs
the reproduction nothing at run time); the single source draws no random number and runs once.
Writes ``reference.json`` beside this file.

    python validation/studies/capacity_scaling/run.py              # every point
    python validation/studies/capacity_scaling/run.py bON@300 BN@300  # those, keeping the rest
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from ns2 import run_ns, run_points, write_reference

SCRIPT = HERE / "chain.tcl"
PACKET_PAYLOAD_BYTES = 1460
# (RTTs, mRCIs, duration) of the reproduction's full and quick grids.
GRIDS = [
    ([0.001, 0.01, 0.05, 0.1], [0.01, 0.05, 0.1, 0.5, 1.0], 300.0),
    ([0.01, 0.1], [0.01, 0.05, 0.1, 0.5, 1.0], 60.0),
]


# Each case: (background bON, bottleneck BN) in seconds, 0 = absent; as the reproduction's CASES.
CASES = {"single": (0.0, 0.0), "bON": (0.1, 0.0), "BN": (0.1, 0.05)}
REPLICATIONS = 10


def traced(case: str, rtt: float, mrci: float, rtts: list[float], mrcis: list[float]) -> bool:
    """The runs whose 100 ms traces the targets read: at the largest RTT, TCPonly and both extreme
    mRCIs alone, the smallest mRCI with the background and with the bottleneck (every replication:
    the per-seed spread reads each one's trace)."""
    if rtt != max(rtts):
        return False
    return mrci in (0.0, min(mrcis), max(mrcis)) if case == "single" else mrci == min(mrcis)


def points() -> list[dict[str, Any]]:
    return [
        {"case": case, "rtt_s": rtt, "mrci_s": mrci, "duration_s": duration, "replication": replication,
         "trace": traced(case, rtt, mrci, rtts, mrcis)}
        for rtts, mrcis, duration in GRIDS
        for case in CASES
        for replication in range(1 if case == "single" else REPLICATIONS)
        for rtt in rtts
        for mrci in [0.0, *mrcis]
    ]  # fmt: skip


def measure(point: dict[str, Any], prefix: Path) -> dict[str, Any]:
    values = dict(line.split() for line in prefix.with_suffix(".out").read_text().splitlines())
    sent, dropped = int(values["data_packets_sent"]), int(values["dropped_packets"])
    pc = point["mrci_s"] > 0
    row = {
        "case": point["case"], "rtt_ms": point["rtt_s"] * 1000, "mode": "TCP+PC" if pc else "TCPonly",
        "mrci_ms": point["mrci_s"] * 1000 if pc else None, "rwnd": "unlimited (1 GiB)", "replication": point["replication"],
        "duration_s": point["duration_s"],
        "mean_rate_mbps": float(values["mean_rate_mbps"]), "rate_changes": int(values["rate_changes"]),
        "goodput_mbps": int(values["delivered_packets"]) * PACKET_PAYLOAD_BYTES * 8 / point["duration_s"] / 1e6,
        "data_packets_sent": sent, "tcp_packets_dropped": dropped, "loss_pct": 100 * dropped / sent if sent else None,
        "retransmissions": int(values["retransmissions"]), "timeouts": int(values["timeouts"]),
        "background_packets": int(values["background_packets"]), "trace": None,
    }  # fmt: skip
    if point["trace"]:
        lines = [line.split() for line in prefix.with_suffix(".trace").read_text().splitlines()]
        row["trace"] = {
            "time_s": [round(float(t), 3) for t, _, _ in lines],
            "arrival_rate_mbps": [round(float(a) / 1e6, 3) for _, a, _ in lines],
            "rate_mbps": [round(float(r) / 1e6, 3) for _, _, r in lines],
        }
    return row


def run(point: dict[str, Any]) -> dict[str, Any]:
    bon, bn = CASES[point["case"]]
    args = [point["rtt_s"], point["mrci_s"], point["mrci_s"], point["duration_s"], bon, bn, point["replication"],
            int(point["trace"])]  # fmt: skip
    return run_ns(SCRIPT, args, lambda prefix: measure(point, prefix))


def main(only: list[str]) -> None:
    """Every point; with ``only`` ("CASE@DURATION_S" items, e.g. "bON@300") just those cases at
    those durations, keeping the stored reference's other rows."""
    chosen = {(case, float(duration)) for case, duration in (item.split("@") for item in only)}
    if not chosen:
        write_reference(HERE, "capacity-scaling", [SCRIPT.name], run_points(points(), run))
        return
    kept = [row for row in json.loads((HERE / "reference.json").read_text())["rows"]
            if (row["case"], row["duration_s"]) not in chosen]  # fmt: skip
    rerun = [point for point in points() if (point["case"], point["duration_s"]) in chosen]
    write_reference(HERE, "capacity-scaling", [SCRIPT.name], kept + run_points(rerun, run))


if __name__ == "__main__":
    # Arguments only when run directly: run_all.py runs this file with its own.
    main(sys.argv[1:] if Path(sys.argv[0]).resolve() == Path(__file__).resolve() else [])
