"""The study's parameters, read from ``parameters.toml`` beside this file: the chain, practRA's
settings, the background and bottleneck of §6.2–6.3, the receive-window readings and the grids."""

from __future__ import annotations

from typing import Any, TypedDict

from wattnet.experiments.data import load_parameters

_DATA = load_parameters(__package__ or "wattnet.experiments.capacity_scaling")

NAME = "capacity-scaling"
PORT: str = _DATA["scenario"]["port"]
R_MAX: float = _DATA["scenario"]["max_rate_bps"]
RATES_BPS = [m * 1e6 for m in _DATA["scenario"]["rates_mbps"]]
PRACTRA = {key: _DATA["practra"][key] for key in ("delay_bound_s", "ewma_weight")}
# ns-2.35's loss-response defaults the ``ns2`` profile leaves off (``flows[].tcp`` fields).
TCP_NS2: dict[str, bool] = dict(_DATA["tcp"])
TRANSITION_S: float = _DATA["scenario"]["transition_s"]
RECORDER_BIN_S: float = _DATA["scenario"]["recorder_bin_s"]


class Grid(TypedDict):
    """A run grid: the RTTs and mRCIs swept, each run's duration and the replications per point."""

    rtts_s: list[float]
    mrcis_s: list[float]
    duration_s: float
    replications: int


def _grid(table: dict[str, Any]) -> Grid:
    return {
        "rtts_s": list(table["rtts_s"]),
        "mrcis_s": list(table["mrcis_s"]),
        "duration_s": table["duration_s"],
        "replications": table["replications"],
    }


FULL: Grid = _grid(_DATA["grids"]["full"])
QUICK: Grid = _grid(_DATA["grids"]["quick"])


def _window(value: int | str) -> int | None:
    # "unlimited" is the 1 GiB default window: the flow never meets it.
    return None if value == "unlimited" else int(value)


RWND_READINGS: list[int | None] = [_window(v) for v in _DATA["receive_window"]["readings"]]
PRIMARY_RWND: int | None = _window(_DATA["receive_window"]["primary"])
BON_S: float = _DATA["background"]["on_mean_s"]
BACKGROUND_PEAK_BPS: float = _DATA["background"]["peak_bps"]
BN_S: float = _DATA["bottleneck"]["mean_interval_s"]
# Each case: (background bON, bottleneck BN); None leaves that disturbance out. "Ts1ms" is the
# single source again with practRA sampling the arrival rate every 1 ms instead of once per mRCI.
CASES = {"single": (None, None), "bON": (BON_S, None), "BN": (BON_S, BN_S), "Ts1ms": (None, None)}
SAMPLE_1MS_S: float = _DATA["practra"]["sample_1ms_s"]
BASE_SEED: int = _DATA["scenario"]["base_seed"]
# The targets' paper numbers and tolerances (see the [targets] table).
TARGETS: dict[str, Any] = _DATA["targets"]
