"""The study's parameters, read from ``parameters.toml`` beside this file: the G-router's settings
(the paper's §3), the sources of the two case studies, the comparison windows, the paper's target
values and the grids."""

from __future__ import annotations

from typing import Any, TypedDict

from wattnet.experiments.data import load_parameters

_DATA = load_parameters(__package__ or "wattnet.experiments.g_router")
_ROUTER, _SOURCES, _CASE2 = _DATA["router"], _DATA["sources"], _DATA["case_study_2"]

NAME = "g-router"
G_PORT: str = _DATA["ports"]["g_router"]
INTERNET_PORT: str = _DATA["ports"]["internet"]
PACKET_BYTES: int = _ROUTER["packet_bytes"]
MSS_BYTES: int = _ROUTER["mss_bytes"]
BUFFER_PACKETS: int = _ROUTER["buffer_packets"]
TARGET_BYTES = BUFFER_PACKETS * PACKET_BYTES / 2
GAMMA: float = _ROUTER["gamma"]
BETA_BPS: float = _ROUTER["beta_bps"]
C_INIT_BPS: float = _ROUTER["c_init_bps"]
C_MAX_BPS: float = _ROUTER["c_max_bps"]
# N₀ = RTT₀·C₀/swnd₀ = (0.2 s + 20 ms)·2.5 MB/s / 64 KB ≈ 8.39.
INITIAL_WINDOW_BYTES: float = _ROUTER["initial_window_bytes"]
ROUND_TRIP_PROPAGATION_S: float = _ROUTER["round_trip_propagation_s"]
RUN_S: float = _SOURCES["run_s"]
SOURCES: int = _SOURCES["count"]
GROUPS: list[tuple[int, float]] = [(int(first), float(at)) for first, at in _SOURCES["groups"]]
RAMP_S: tuple[float, float] = (_SOURCES["ramp_s"][0], _SOURCES["ramp_s"][1])
LEAVING: int = _SOURCES["leaving"]
STAGGER_S: float = _SOURCES["stagger_s"]
UPLINK_BPS: float = _SOURCES["uplink_bps"]
PAYLOAD_BYTES_PER_S = UPLINK_BPS / 8 * MSS_BYTES / PACKET_BYTES
START_UP_S: float = _SOURCES["start_up_s"]
WEB: dict[str, Any] = dict(_SOURCES["web"])
TCP: dict[str, Any] = {"profile": _SOURCES["tcp_profile"], "mss_bytes": MSS_BYTES}
BOTTLENECK_AT_S: float = _CASE2["bottleneck_at_s"]
BOTTLENECK_BPS: float = _CASE2["bottleneck_bps"]
FULL_FRACTION: float = _CASE2["full_fraction"]
PHASES: list[tuple[str, float, float]] = [(name, start, end) for name, start, end in _DATA["windows"]["phases"]]
CASE2_WINDOWS: list[tuple[str, float, float]] = [(name, start, end) for name, start, end in _DATA["windows"]["case2"]]
RECORDER_BIN_S: float = _DATA["recorder"]["bin_s"]
BASE_SEED: int = _DATA["recorder"]["base_seed"]


class Grid(TypedDict):
    """A run grid: the time scale of the runs, the replications and the N₀ values of the sensitivity table."""

    scale: float
    replications: int
    flow_estimates: list[float]


FULL: Grid = {
    "scale": _DATA["grids"]["full"]["scale"],
    "replications": _DATA["grids"]["full"]["replications"],
    "flow_estimates": list(_DATA["grids"]["full"]["flow_estimates"]),
}
QUICK: Grid = {
    "scale": _DATA["grids"]["quick"]["scale"],
    "replications": _DATA["grids"]["quick"]["replications"],
    "flow_estimates": list(_DATA["grids"]["quick"]["flow_estimates"]),
}
OVER, NC, CONTROLLED = "over-provisioned", "not controlled", "AWM/C-EARTH"
CASES = {1: [OVER, CONTROLLED], 2: [NC, CONTROLLED]}
PAPER_UTILISATION_PCT: float = _DATA["targets"]["utilisation_pct"]
PAPER_THROUGHPUT_PCT: float = _DATA["targets"]["throughput_pct"]
PAPER_LOSS_REDUCTION_PCT: float = _DATA["targets"]["loss_reduction_pct"]
# The checks' tolerances (the [tolerances] table).
TOLERANCES: dict[str, float] = _DATA["tolerances"]
