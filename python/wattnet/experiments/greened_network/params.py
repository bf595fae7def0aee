"""The study's parameters, read from ``parameters.toml`` beside this file: ABILENE's settings (the
paper's Table II), the TCP variants (Table III), the paper's Table IV, the cwnd measures'
thresholds, the targets' tolerances, the background readings and the grids."""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from wattnet.experiments.data import load_parameters

_DATA = load_parameters(__package__ or "wattnet.experiments.greened_network")
_NETWORK, _CWND, _TOLERANCES = _DATA["network"], _DATA["cwnd_measures"], _DATA["tolerances"]

NAME = "greened-network"
LINK_RATE_BPS: float = _NETWORK["link_rate_bps"]
CAPACITY_SCALE: int = _NETWORK["capacity_scale"]
CBR_LOAD: float = _NETWORK["cbr_load"]
TCP_SOURCE: int = _NETWORK["tcp_source"]
TCP_DESTINATION: int = _NETWORK["tcp_destination"]
DURATION_S: float = _NETWORK["duration_s"]
SWITCH_OFF_S: float = _NETWORK["switch_off_s"]
TRANSITION_S: float = _NETWORK["transition_s"]
THRESHOLDS: tuple[int, ...] = tuple(_NETWORK["thresholds"])
TABLE_IV_THRESHOLDS: tuple[int, ...] = tuple(_NETWORK["table_iv_thresholds"])
FIG2_THRESHOLD: int = _NETWORK["fig2_threshold"]
MSS_BYTES: int = _NETWORK["mss_bytes"]
CBR_PACKET_BYTES: int = _NETWORK["cbr_packet_bytes"]
RECORDER_INTERVAL_S: float = _NETWORK["recorder_interval_s"]
STEADY_FROM_S: float = _CWND["steady_from_s"]
TRANSITION_WINDOW_S: float = _CWND["transition_window_s"]
REDUCTION_FRACTION: float = _CWND["reduction_fraction"]
LOSS_EVENT_GAP_S: float = _CWND["loss_event_gap_s"]
B1_TOLERANCE: float = _TOLERANCES["b1_relative"]
B2_SAVING_POINTS: float = _TOLERANCES["b2_saving_points"]
B3_TOLERANCE: float = _TOLERANCES["b3_absolute"]
B5_DEEP_DROP_FRACTION: float = _TOLERANCES["b5_deep_drop_fraction"]
B5_SETTLED_FACTOR: float = _TOLERANCES["b5_settled_factor"]
VEGAS_COLLAPSE_LOSS_PCT: float = _TOLERANCES["vegas_collapse_loss_pct"]
VEGAS_MODERATE_LOSS_PCT: float = _TOLERANCES["vegas_moderate_loss_pct"]
VARIANTS: dict[str, dict[str, Any]] = {name: dict(settings) for name, settings in _DATA["variants"].items()}
LOSS_BASED: tuple[str, ...] = tuple(_DATA["classes"]["loss_based"])
AIMD: tuple[str, ...] = tuple(_DATA["classes"]["aimd"])
FIG2_PANELS: tuple[tuple[str, str], ...] = tuple((panel, variant) for panel, variant in _DATA["classes"]["fig2_panels"])
PAPER_TABLE_IV: dict[str, tuple[float, dict[int, float]]] = {
    variant: (row["before"], {int(threshold): value for threshold, value in row["after"].items()})
    for variant, row in _DATA["paper_table_iv"].items()
}

# Background readings: link_cbr_flows' ``directions``.
Reading = Literal["b_to_a", "a_to_b", "both"]
BACKGROUND_READINGS: dict[Reading, str] = {
    cast(Reading, reading): text for reading, text in _DATA["background_readings"].items()
}
PRIMARY_BACKGROUND: Reading = cast(Reading, _DATA["grids"]["primary_background"])


class Grid(TypedDict):
    """A run grid: the replications of the primary background and the background readings run."""

    replications: int
    backgrounds: tuple[Reading, ...]


FULL: Grid = {"replications": _DATA["grids"]["full_replications"], "backgrounds": tuple(BACKGROUND_READINGS)}
QUICK: Grid = {"replications": _DATA["grids"]["quick_replications"], "backgrounds": (PRIMARY_BACKGROUND,)}
BASE_SEED: int = _NETWORK["base_seed"]
