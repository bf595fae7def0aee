"""The study's parameters, read from ``parameters.toml`` beside this file: the dumbbell, the
transfers, TCP, RED's settings (the paper's Table 1), the values the paper's text gives for its
figures' bars, and the grids."""

from __future__ import annotations

from typing import Any, TypedDict

from wattnet.experiments.data import load_parameters

_DATA = load_parameters(__package__ or "wattnet.experiments.ecn_efficiency")
_DUMBBELL, _TRANSFERS = _DATA["dumbbell"], _DATA["transfers"]

NAME = "ecn-efficiency"
SERVER: str = _DUMBBELL["server"]
ROUTER_A: str = _DUMBBELL["router_a"]
BOTTLENECK_PORT: str = _DUMBBELL["bottleneck_port"]
BOTTLENECK_RATE_BPS: float = _DUMBBELL["bottleneck_rate_bps"]
ACCESS_RATE_BPS: float = _DUMBBELL["access_rate_bps"]
ACCESS_DELAY_S: float = _DUMBBELL["access_delay_s"]
LARGE_BUFFER_PACKETS: int = _DUMBBELL["large_buffer_packets"]
FILES_PER_CLIENT: int = _TRANSFERS["files_per_client"]
MSS_BYTES: int = _TRANSFERS["mss_bytes"]
HEADER_BYTES: int = _TRANSFERS["header_bytes"]
SEGMENTS_PER_TRANSFER: int = _TRANSFERS["segments_per_transfer"]
TRANSFER_BYTES = SEGMENTS_PER_TRANSFER * MSS_BYTES
DATA_PACKET_BYTES = MSS_BYTES + HEADER_BYTES
ERROR_RATE: float = _DUMBBELL["error_rate"]
RED_THRESHOLDS: dict[int, tuple[int, int]] = {
    int(ql): (low, high) for ql, (low, high) in _DATA["red"]["thresholds"].items()
}
RED_PARAMETERS: dict[str, Any] = dict(_DATA["red"]["parameters"])
# ns-2.35's Agent/TCP/Reno rules the ``ns2`` profile leaves off (``flows[].tcp`` fields).
NS2_AGENT_RULES = (
    "limited_transmit",
    "precision_reduce",
    "grow_on_recovery_exit",
    "rtt_in_ticks",
    "ecn_cwnd_below_one",
)
TCP: dict[str, Any] = {
    "profile": _DATA["tcp"]["profile"], "congestion_control": dict(_DATA["tcp"]["congestion_control"]),
    "mss_bytes": MSS_BYTES, "header_bytes": HEADER_BYTES, "delayed_ack_s": _DATA["tcp"]["delayed_ack_s"],
    "receive_window_bytes": _DATA["tcp"]["receive_window_bytes"], "opener": _DATA["tcp"]["opener"],
    **{field: bool(_DATA["tcp"][field]) for field in NS2_AGENT_RULES},
}  # fmt: skip
QUEUES = ("DT", "RED", "ECN")
QUEUE_LETTERS = {"DT": "D", "RED": "R", "ECN": "E"}
QUEUE_COLOURS = {"DT": "tab:blue", "RED": "tab:orange", "ECN": "tab:green"}
RECORDER_INTERVAL_S: float = _DUMBBELL["recorder_interval_s"]
BASE_SEED: int = _DUMBBELL["base_seed"]

# A setting is (clients n, bottleneck delay d in ms, errors on the client access links).
Setting = tuple[int, float, bool]


class Grid(TypedDict):
    """The settings and QLs of the grid, the runs of each case with errors, and the settings and QL
    of the confidence-interval runs (E10)."""

    settings: list[Setting]
    qls: list[int]
    ci_settings: list[Setting]
    ci_ql: int
    ci_replications: int
    error_replications: int


def _settings(rows: list[list[Any]]) -> list[Setting]:
    return [(int(n), d, bool(errors)) for n, d, errors in rows]


_FULL, _QUICK = _DATA["grids"]["full"], _DATA["grids"]["quick"]
FULL: Grid = {
    "settings": [(n, d, errors) for errors in (False, True) for n in _FULL["clients"] for d in _FULL["delays_ms"]],
    "qls": list(_FULL["qls"]),
    "ci_settings": [(n, _FULL["ci_delay_ms"], errors) for errors in (False, True) for n in _FULL["ci_clients"]],
    "ci_ql": _FULL["ci_ql"],
    "ci_replications": _FULL["ci_replications"],
    "error_replications": _FULL["error_replications"],
}
QUICK: Grid = {
    "settings": _settings(_QUICK["settings"]),
    "qls": list(_QUICK["qls"]),
    "ci_settings": _settings(_QUICK["ci_settings"]),
    "ci_ql": _QUICK["ci_ql"],
    "ci_replications": _QUICK["ci_replications"],
    "error_replications": _QUICK["error_replications"],
}
E7_DELAY_MS: int = _DATA["targets"]["e7_delay_ms"]
# The checks' tolerances (the [tolerances] table).
TOLERANCES: dict[str, Any] = _DATA["tolerances"]
# (column, n, d ms, errors, queue, QL) → the paper's value.
PAPER_POINTS: dict[tuple[str, int, float, bool, str, int], float] = {
    (p["column"], p["n"], p["d_ms"], p["errors"], p["queue"], p["ql"]): p["value"] for p in _DATA["paper_points"]
}
