"""The scenarios: the study's topology, traffic and controllers as wattnet scenarios."""

from __future__ import annotations

from typing import Any

from wattnet.experiments.ecn_efficiency.params import (
    ACCESS_DELAY_S,
    ACCESS_RATE_BPS,
    BASE_SEED,
    BOTTLENECK_PORT,
    BOTTLENECK_RATE_BPS,
    DATA_PACKET_BYTES,
    ERROR_RATE,
    FILES_PER_CLIENT,
    LARGE_BUFFER_PACKETS,
    RECORDER_INTERVAL_S,
    RED_PARAMETERS,
    RED_THRESHOLDS,
    SEGMENTS_PER_TRANSFER,
    SERVER,
    TCP,
    TRANSFER_BYTES,
)
from wattnet.scenario import Scenario
from wattnet.topology.dumbbell import dumbbell


def bottleneck_queue(queue: str, ql: int) -> dict[str, Any]:
    """Router B's output queue toward A: DropTail of QL packets, or RED on the
    same physical buffer with the Table 1 thresholds, marking instead of dropping for ECN."""
    if queue == "DT":
        return {"type": "droptail", "limit_packets": ql}
    min_th, max_th = RED_THRESHOLDS[ql]
    return {"type": "red", "min_th": min_th, "max_th": max_th, **RED_PARAMETERS, "ecn": queue == "ECN",
            "limit_packets": ql}  # fmt: skip


def queue_label(config: dict[str, Any]) -> str:
    if config["type"] == "droptail":
        return "DT"
    return "ECN" if config["ecn"] else "RED"


def minimum_duration_s(n: int) -> float:
    """The time the bottleneck needs to carry the 11·n transfers' minimum segments."""
    return n * FILES_PER_CLIENT * SEGMENTS_PER_TRANSFER * DATA_PACKET_BYTES * 8 / BOTTLENECK_RATE_BPS


def base_scenario(n: int, delay_ms: float, errors: bool, ecn: bool) -> Scenario:
    """The dumbbell with n serial-download clients; the run's end is set well past
    the bottleneck's minimum busy time, and ``run_metrics`` checks that every transfer completed.
    The bottleneck queue here is a stand-in: each sweep's grid sets it."""
    topology = dumbbell(
        n, BOTTLENECK_RATE_BPS, delay_ms / 1000, ACCESS_RATE_BPS, ACCESS_DELAY_S, LARGE_BUFFER_PACKETS,
        n_senders=1, bottleneck_left_to_right={"queue": bottleneck_queue("DT", max(RED_THRESHOLDS))},
        receiver_access_error_rate=ERROR_RATE if errors else 0.0,
    )  # fmt: skip
    flows = [
        {
            "name": f"client {client}", "src": SERVER, "dst": client,
            "traffic": {"type": "serial", "files": FILES_PER_CLIENT, "bytes": TRANSFER_BYTES},
            "tcp": {**TCP, "ecn": ecn},
        }
        for client in topology.groups["receivers"]
    ]  # fmt: skip
    return topology.scenario(
        name=f"ecn-efficiency-n{n}-d{delay_ms:g}ms{'-errors' if errors else ''}{'-ecn' if ecn else ''}",
        seed=BASE_SEED,
        duration_s=3 * minimum_duration_s(n) + 60,
        flows=flows,
        recorder={
            "interval_s": RECORDER_INTERVAL_S,
            "ports": [BOTTLENECK_PORT],
            "quantities": ["queue_packets", "arrival_rate_bps", "red_average"],
        },
    )


def queue_path(scenario: Scenario) -> str:
    index = next(i for i, link in enumerate(scenario.links) if link.port_names()[0] == BOTTLENECK_PORT)
    return f"links[{index}].a_to_b.queue"
