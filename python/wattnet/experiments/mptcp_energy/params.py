"""The study's parameters, read from ``parameters.toml`` beside this file: the grids (``QUICK``,
``FULL``, ``CLUSTER``), the algorithms Fig. 7 compares, and the paper's target values with the
bands the checks accept (``TARGETS``)."""

from __future__ import annotations

from typing import Any, TypedDict, cast

from wattnet.experiments.data import load_parameters

_DATA = load_parameters(__package__ or "wattnet.experiments.mptcp_energy")

NAME = "mptcp-energy"
SHIFTERS: tuple[str, ...] = tuple(_DATA["shifters"])
BCUBE_SUBFLOWS: tuple[int, ...] = tuple(_DATA["bcube_subflows"])
TARGETS: dict[str, dict[str, Any]] = _DATA["targets"]


class Config(TypedDict):
    host_megabytes: float
    ethernet_rates_bps: list[float]
    ethernet_megabytes: float
    wifi_rates_bps: list[float]
    wifi_megabytes: float
    users: list[int]
    user_bytes: int
    burst_seeds: int
    burst_megabytes: float
    burst_duration_s: float
    cloud_megabytes: float
    dc_small: bool
    dc_algorithms: list[str]
    dc_subflows: list[int]
    dc_runs: int
    dc_duration_s: float
    dc_steady_factor: int
    wireless_runs: int
    wireless_duration_s: float


def _config(table: dict[str, Any]) -> Config:
    missing = set(Config.__annotations__) - set(table)
    if missing:
        raise ValueError(f"{NAME} parameters.toml: a grid lacks {', '.join(sorted(missing))}")
    return cast(Config, dict(table))


QUICK: Config = _config(_DATA["grids"]["quick"])
FULL: Config = _config(_DATA["grids"]["full"])
CLUSTER: Config = _config({**FULL, **_DATA["grids"]["cluster"]})


def band(low_high: list[float]) -> str:
    """A tolerance band as the checks print it, e.g. ``10–20``."""
    low, high = low_high
    return f"{low:g}–{high:g}"


def within(value: float, low_high: list[float]) -> bool:
    low, high = low_high
    return bool(low <= value <= high)
