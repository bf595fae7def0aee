"""The study's runs: each part of the grid swept into ``out/store/<part>`` and read back as one
table (one row per run, or per user, burst schedule, ...), and the measures taken from a run's
tables (energy, transfer time, SRTT, the burst shift score)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.mptcp_energy.params import BCUBE_SUBFLOWS, NAME, SHIFTERS, Config
from wattnet.experiments.mptcp_energy.scenario import (
    BURST_PATHS,
    burst_schedule,
    cloud,
    data_centre,
    host_power,
    pareto_bursts,
    two_bottleneck,
    wireless,
)
from wattnet.sweep import require_done, sweep


class Runner:
    """Sweeps one part of the study into ``out/store/<part>`` and reads back each run's tables."""

    def __init__(self, out: Path, executor: Any, workers: int | None, progress: bool):
        self.out, self.executor, self.workers, self.progress = out, executor, workers, progress

    def sweep(self, part: str, build: Callable[..., dict[str, Any]], grid: dict[str, list[Any]],
              replications: int = 1) -> list[tuple[dict[str, Any], Path]]:  # fmt: skip
        """(the run's grid point with its replication, its directory) for every run of the part."""
        store = self.out / "store" / part
        label = self.progress and f"{NAME} {part}"
        table = sweep(build=build, grid=grid, replications=replications, out=store, executor=self.executor,
                      workers=self.workers, progress=label)  # fmt: skip
        require_done(table, store)
        return [
            (
                {**{name: row[name] for name in grid}, "replication": int(row["replication"])},
                store / "runs" / row["key"],
            )
            for _, row in table.iterrows()
        ]


def first(frame: pd.DataFrame) -> pd.Series[Any]:
    """The first row of ``frame``."""
    row = frame.iloc[0]
    if not isinstance(row, pd.Series):
        raise TypeError(f"expected a row, got {type(row).__name__}")
    return row


def connections(run: Path) -> pd.DataFrame:
    return pd.read_parquet(run / "connections.parquet")


def completed(conns: pd.DataFrame, run: Path) -> pd.DataFrame:
    if not conns["completed_s"].notna().all():
        raise RuntimeError(f"{run}: {int(conns['completed_s'].isna().sum())} transfers did not complete")
    return conns


def mean_subflow_srtt_s(run: Path) -> float:
    subflows = pd.read_parquet(run / "subflows.parquet")
    return float(subflows["mean_srtt_s"].mean()) if len(subflows) else float("nan")


def host_power_runs(runner: Runner, c: Config) -> pd.DataFrame:
    """§III analogues: one transfer per run; mean power = host energy / transfer time."""
    parts: list[tuple[str, dict[str, list[Any]]]] = [
        ("tcp", {"setup": ["tcp"], "subflows_per_path": [1]}),
        ("mptcp", {"setup": ["mptcp"], "subflows_per_path": [1, 2, 3, 4]}),
        ("phone", {"setup": ["phone_tcp", "phone_mptcp"], "subflows_per_path": [1]}),
    ]
    rows = []
    for part, grid in parts:
        full = {**grid, "rate_bps": [0.0], "megabytes": [c["host_megabytes"]]}
        rows += [measure_transfer(point, run) for point, run in runner.sweep(f"host_{part}", host_power, full)]
    for setup, rates, megabytes in (("ethernet", c["ethernet_rates_bps"], c["ethernet_megabytes"]),
                                    ("wifi", c["wifi_rates_bps"], c["wifi_megabytes"])):  # fmt: skip
        sizes: dict[str, list[Any]] = {
            "setup": [setup],
            "subflows_per_path": [1],
            "rate_bps": rates,
            "megabytes": [megabytes],
        }
        rows += [measure_transfer(point, run) for point, run in runner.sweep(f"host_{setup}", host_power, sizes)]
    return pd.DataFrame(rows)


def measure_transfer(point: dict[str, Any], run: Path) -> dict[str, Any]:
    conn = first(completed(connections(run), run))
    energy, seconds = float(conn["host_energy_j"]), float(conn["transfer_time_s"])
    srtt = (
        mean_subflow_srtt_s(run)
        if "mptcp" in point["setup"] or point["setup"] in ("ethernet", "wifi")
        else float(conn["srtt_s"])
    )
    return {**point, "energy_j": energy, "transfer_time_s": seconds, "power_w": energy / seconds,
            "goodput_bps": float(conn["goodput_bps"]), "mean_srtt_s": srtt}  # fmt: skip


def two_bottleneck_runs(runner: Runner, c: Config) -> pd.DataFrame:
    """Fig. 6: one row per MPTCP user (its energy and transfer time) per (N, algorithm)."""
    grid: dict[str, list[Any]] = {"users": c["users"], "algorithm": list(SHIFTERS), "user_bytes": [c["user_bytes"]]}
    rows = []
    for point, run in runner.sweep("two_bottleneck", two_bottleneck, grid):
        conns = completed(connections(run), run)
        for _, conn in conns[conns["flow"].str.startswith("mptcp")].iterrows():
            rows.append({"users": point["users"], "algorithm": point["algorithm"], "user": conn["flow"],
                         "energy_j": float(conn["host_energy_j"]), "transfer_time_s": float(conn["transfer_time_s"]),
                         "goodput_bps": float(conn["goodput_bps"])})  # fmt: skip
    return pd.DataFrame(rows)


def burst_runs(runner: Runner, c: Config) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 7–9: per (algorithm, burst schedule) the energy, goodput and shift score; and the
    MPTCP rate per path over time."""
    grid: dict[str, list[Any]] = {"algorithm": [*SHIFTERS, "dts"], "burst_seed": list(range(c["burst_seeds"])),
            "megabytes": [c["burst_megabytes"]], "duration_s": [c["burst_duration_s"]]}  # fmt: skip
    rows, traces = [], []
    for point, run in runner.sweep("pareto_bursts", pareto_bursts, grid):
        conns = completed(connections(run), run)
        conn = first(conns[conns["flow"] == "mptcp"])
        series = pd.read_parquet(run / "timeseries.parquet")
        rates = series[series["quantity"] == "departure_rate_bps"].pivot_table(
            index="time_s", columns="entity", values="value"
        )
        rates = rates[rates.index <= float(conn["completed_s"])]
        bursting = {i: burst_mask(rates.index.to_numpy(), burst_schedule(point["burst_seed"], i, point["duration_s"]))
                    for i in BURST_PATHS}  # fmt: skip
        for i in BURST_PATHS:
            traces.append(pd.DataFrame({"algorithm": point["algorithm"], "burst_seed": point["burst_seed"],
                                        "path": i, "time_s": rates.index, "rate_bps": rates[f"s->r{i}"].to_numpy(),
                                        "burst": bursting[i]}))  # fmt: skip
        rows.append({"algorithm": point["algorithm"], "burst_seed": point["burst_seed"],
                     "energy_j": float(conn["host_energy_j"]), "transfer_time_s": float(conn["transfer_time_s"]),
                     "goodput_bps": float(conn["goodput_bps"]),
                     "shift_score": shift_score(rates, bursting)})  # fmt: skip
    return pd.DataFrame(rows), pd.concat(traces, ignore_index=True)


def burst_mask(times: np.ndarray[Any, Any], bursts: list[tuple[float, float]]) -> np.ndarray[Any, Any]:
    """Whether a burst was on during the sample interval ending at each time (any overlap)."""
    mask = np.zeros(len(times), dtype=bool)
    for start, end in bursts:
        mask |= (times > start) & (times - 0.5 < end)
    return mask


def shift_score(rates: pd.DataFrame, bursting: dict[int, np.ndarray[Any, Any]]) -> float:
    """Traffic shifting (Fig. 7): over the samples where exactly one path has a burst, the mean
    share of the MPTCP rate carried by the other path (0.5: no shifting, 1: all of it)."""
    one_bad = bursting[1] ^ bursting[2]
    total = rates["s->r1"] + rates["s->r2"]
    good = np.where(bursting[1], rates["s->r2"], rates["s->r1"])
    usable = one_bad & (total.to_numpy() > 0)
    return float(np.mean(good[usable] / total.to_numpy()[usable])) if usable.any() else float("nan")


def cloud_runs(runner: Runner, c: Config) -> pd.DataFrame:
    """Fig. 10: aggregate host energy and mean goodput over the 40 connections."""
    grid: dict[str, list[Any]] = {"algorithm": ["reno", "dctcp", "lia", "dts"], "megabytes": [c["cloud_megabytes"]]}
    rows = []
    for point, run in runner.sweep("cloud", cloud, grid):
        conns = completed(connections(run), run)
        rows.append({"algorithm": point["algorithm"], "energy_j": float(conns["host_energy_j"].sum()),
                     "mean_goodput_bps": float(conns["goodput_bps"].mean()),
                     "last_completion_s": float(conns["completed_s"].max())})  # fmt: skip
    return pd.DataFrame(rows)


def dc_runs(runner: Runner, c: Config) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 12–16: per (topology, algorithm, subflows, permutation) the aggregate host energy,
    delivered bits and energy per gigabit, and one run ``dc_steady_factor`` times longer; and
    every run's aggregate goodput per time window."""
    rows, windows = [], []
    for topology in ("fattree", "vl2", "bcube"):
        subflows = [s for s in c["dc_subflows"] if topology != "bcube" or s in BCUBE_SUBFLOWS]
        grid: dict[str, list[Any]] = {
            "topology": [topology],
            "algorithm": c["dc_algorithms"],
            "subflows": subflows,
            "duration_s": [c["dc_duration_s"]],
            "run": list(range(c["dc_runs"])),
            "small": [c["dc_small"]],
        }
        for point, run in runner.sweep(f"dc_{topology}", data_centre, grid):
            rows.append({**dc_measure(point, run), "steady_state_check": False})
            windows.append(dc_windows(point, run, steady_state_check=False))
    steady: dict[str, list[Any]] = {
        "topology": ["fattree"],
        "algorithm": ["lia"],
        "subflows": [max(c["dc_subflows"])],
        "duration_s": [c["dc_duration_s"] * c["dc_steady_factor"]],
        "run": [0],
        "small": [c["dc_small"]],
    }
    for point, run in runner.sweep("dc_steady_state", data_centre, steady):
        rows.append({**dc_measure(point, run), "steady_state_check": True})
        windows.append(dc_windows(point, run, steady_state_check=True))
    return pd.DataFrame(rows), pd.concat(windows, ignore_index=True)


def dc_measure(point: dict[str, Any], run: Path) -> dict[str, Any]:
    conns = connections(run)
    bits = float(conns["delivered_bytes"].sum()) * 8
    energy = float(conns["host_energy_j"].sum())
    return {**point, "energy_j": energy, "delivered_gb": bits / 1e9, "energy_per_gb_j": energy / (bits / 1e9),
            "aggregate_goodput_bps": bits / point["duration_s"], "hosts": len(conns)}  # fmt: skip


def dc_windows(point: dict[str, Any], run: Path, steady_state_check: bool) -> pd.DataFrame:
    """The run's aggregate goodput in each window between the samples of every flow's delivered bytes."""
    series = pd.read_parquet(run / "timeseries.parquet")
    delivered = series[series["quantity"] == "delivered_bytes"].groupby("time_s")["value"].sum().sort_index()
    ends = delivered.index.to_numpy()
    starts = np.concatenate([[0.0], ends[:-1]])
    bits = np.diff(np.concatenate([[0.0], delivered.to_numpy()])) * 8
    keys = {name: point[name] for name in ("topology", "algorithm", "subflows", "duration_s", "run")}
    return pd.DataFrame({**keys, "steady_state_check": steady_state_check, "window": range(len(ends)),
                         "window_end_s": ends, "goodput_bps": bits / (ends - starts)})  # fmt: skip


def wireless_runs(runner: Runner, c: Config) -> pd.DataFrame:
    """Fig. 17: the sender's energy and goodput over the run, per algorithm and cross-traffic draw."""
    grid: dict[str, list[Any]] = {"algorithm": ["lia", "dts", "dts_phi"], "duration_s": [c["wireless_duration_s"]]}
    rows = []
    for point, run in runner.sweep("wireless", wireless, grid, replications=c["wireless_runs"]):
        conns = connections(run)
        conn = first(conns[conns["flow"] == "mptcp"])
        rows.append({**point, "energy_j": float(conn["host_energy_j"]),
                     "goodput_bps": float(conn["delivered_bytes"]) * 8 / point["duration_s"]})  # fmt: skip
    return pd.DataFrame(rows)
