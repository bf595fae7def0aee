"""Zhao, Liu, Wang, "On Energy-Efficient Congestion Control for Multipath TCP" (IEEE, 2017): host
energy of Multipath TCP under eight coupled congestion controls and the paper's DTS, in every
scenario of its §III and §VI (``mptcp_energy_scenarios`` builds them).

    wattnet reproduce mptcp-energy --quick --out out/mptcp
    wattnet reproduce mptcp-energy --scheduler tcp://host:8786     # the full data-centre grid

The paper measured §III, §VI-A, §VI-B and the EC2 runs of §VI-C1 on testbeds (Linux MPTCP v0.90,
RAPL): those targets are *not simulable*, and each names its simulated analogue, whose outcome the
reason states. The data-centre runs (htsim) and the wireless runs (ns-2.35's MPTCP patch) were
simulations; ns-2.35 itself has no Multipath TCP, so no target has an ns-2.35 value, and a target
wattnet misses *differs from the paper*. Host energy is the engine's model of the paper's eq. 2
(docs/models/energy.md), with the Ethernet preset on wired hosts and the WiFi preset on the phone
and the wireless sender.

Grids: ``QUICK`` (minutes on one machine: shorter transfers, 16-host data centres), ``FULL`` (the
paper's sizes where affordable; the data-centre sweep reduced to four algorithms, 1–8 subflows in
powers of two and one permutation) and, with ``executor`` a Dask scheduler, ``CLUSTER`` (the
data-centre sweep in full: eight algorithms plus DTS, 1–8 subflows, ten permutations). The
data-centre flows run for ``dc_duration_s`` instead of the paper's 1000 s; one configuration also
runs ``dc_steady_factor`` times longer, and the report shows that its energy per bit is the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict, cast

import numpy as np
import pandas as pd

from wattnet.experiments import MPTCP_PAPER
from wattnet.experiments.mptcp_energy_scenarios import (
    BURST_PATHS,
    EXISTING,
    LABELS,
    burst_schedule,
    cloud,
    data_centre,
    host_power,
    pareto_bursts,
    two_bottleneck,
    wireless,
)
from wattnet.experiments.report import (
    check,
    judge,
    plt,
    rounded,
    save_figure,
    stage,
    table_html,
    write_checks,
    write_report,
    write_tables,
)
from wattnet.sweep import require_done, sweep

NAME = "mptcp-energy"
SHIFTERS = ("lia", "olia", "balia", "ecmtcp")  # the existing algorithms Fig. 7 compares


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


QUICK: Config = {
    "host_megabytes": 20, "ethernet_rates_bps": [200e6, 600e6, 1000e6], "ethernet_megabytes": 100,
    "wifi_rates_bps": [10e6, 30e6, 50e6], "wifi_megabytes": 10, "users": [10, 20], "user_bytes": 4_000_000,
    "burst_seeds": 2, "burst_megabytes": 300, "burst_duration_s": 60, "cloud_megabytes": 50, "dc_small": True,
    "dc_algorithms": ["lia", "dts", "dts_phi"], "dc_subflows": [1, 2, 4], "dc_runs": 1, "dc_duration_s": 5.0,
    "dc_steady_factor": 4, "wireless_runs": 2, "wireless_duration_s": 60,
}  # fmt: skip
FULL: Config = {
    "host_megabytes": 200, "ethernet_rates_bps": [200e6, 400e6, 600e6, 800e6, 1000e6], "ethernet_megabytes": 1000,
    "wifi_rates_bps": [10e6, 20e6, 30e6, 40e6, 50e6], "wifi_megabytes": 50, "users": [10, 20, 50, 100],
    "user_bytes": 16_000_000, "burst_seeds": 5, "burst_megabytes": 1500, "burst_duration_s": 240,
    "cloud_megabytes": 1000, "dc_small": False, "dc_algorithms": ["lia", "olia", "dts", "dts_phi"],
    "dc_subflows": [1, 2, 4, 8], "dc_runs": 1, "dc_duration_s": 5.0, "dc_steady_factor": 4, "wireless_runs": 5,
    "wireless_duration_s": 200,
}  # fmt: skip
CLUSTER: Config = {
    **FULL, "dc_algorithms": [*EXISTING, "dts", "dts_phi"], "dc_subflows": list(range(1, 9)), "dc_runs": 10,
    "dc_duration_s": 20.0,
}  # fmt: skip
BCUBE_SUBFLOWS = (1, 2, 3, 4, 8)  # 4 interfaces: one parallel path each, or all four twice


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


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


def dc_runs(runner: Runner, c: Config) -> pd.DataFrame:
    """Figs. 12–16: per (topology, algorithm, subflows, permutation) the aggregate host energy,
    delivered bits and energy per gigabit, and one run ``dc_steady_factor`` times longer."""
    rows = []
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
        rows += [{**dc_measure(point, run), "steady_state_check": False}
                 for point, run in runner.sweep(f"dc_{topology}", data_centre, grid)]  # fmt: skip
    steady: dict[str, list[Any]] = {
        "topology": ["fattree"],
        "algorithm": ["lia"],
        "subflows": [max(c["dc_subflows"])],
        "duration_s": [c["dc_duration_s"] * c["dc_steady_factor"]],
        "run": [0],
        "small": [c["dc_small"]],
    }
    rows += [{**dc_measure(point, run), "steady_state_check": True}
             for point, run in runner.sweep("dc_steady_state", data_centre, steady)]  # fmt: skip
    return pd.DataFrame(rows)


def dc_measure(point: dict[str, Any], run: Path) -> dict[str, Any]:
    conns = connections(run)
    bits = float(conns["delivered_bytes"].sum()) * 8
    energy = float(conns["host_energy_j"].sum())
    return {**point, "energy_j": energy, "delivered_gb": bits / 1e9, "energy_per_gb_j": energy / (bits / 1e9),
            "aggregate_goodput_bps": bits / point["duration_s"], "hosts": len(conns)}  # fmt: skip


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


# ---------------------------------------------------------------------------------------------
# Checks: named by what the paper says; §III–§VI-C1 EC2 were testbeds (simulated analogues)
# ---------------------------------------------------------------------------------------------

ANALOGUES = {
    "MPTCP draws more power than TCP, more with more subflows": (
        "a two-NIC host (2 × 100 Mb/s) and a WiFi + LTE phone transferring with TCP and with MPTCP (LIA, 1–4 "
        "subflows per path), their mean host power from the Ethernet and WiFi models"
    ),
    "energy falls with throughput, power +15 % (Ethernet)": (
        "one MPTCP connection over one path of 200–1000 Mb/s with the Ethernet model (calibrated to this "
        "statement, so the analogue checks the energy integral, not the hardware)"
    ),
    "power +90 %, about linear (WiFi)": (
        "one MPTCP connection over one path of 10–50 Mb/s with the WiFi model (calibrated to this statement)"
    ),
    "higher-RTT paths draw more power": "1 vs 2 subflows per path on the two-NIC host: their SRTT and mean power",
    "OLIA has the lowest mean energy, the gap growing with N": (
        "Fig. 5a simulated: N MPTCP and 2N Reno users over two 100 Mb/s bottlenecks, 16 MB each, Ethernet model"
    ),
    "LIA shifts traffic best among the existing algorithms": (
        "Fig. 5b simulated: two 100 Mb/s paths, each with 45 Mb/s bursts (Pareto lengths, mean 5 s, about every "
        "10 s); shift score = share of the MPTCP rate on the burst-free path while one path bursts"
    ),
    "DTS saves up to 20 % energy vs LIA without lower throughput": "the same simulated Fig. 5b, DTS against LIA",
    "DTS saves up to 70 % energy vs TCP and DCTCP; DTS ≈ LIA": (
        "40 hosts with four 256 Mb/s interfaces on four subnet switches, permutation traffic, Ethernet model"
    ),
}
NO_REFERENCE = (
    "ns-2.35 has no Multipath TCP and htsim no energy model, so no simulator the paper used gives a reference "
    "value; host energy is wattnet's model of the paper's eq. 2 (docs/models/energy.md)."
)


def pct(new: float, old: float) -> float:
    return 100 * (new - old) / old


def saving_pct(energy: float, baseline: float) -> float:
    return 100 * (baseline - energy) / baseline


def check_host_power(h: pd.DataFrame) -> list[dict[str, Any]]:
    power = {(s, k): float(p) for s, k, p in zip(h["setup"], h["subflows_per_path"], h["power_w"], strict=True)}
    tcp_w, mptcp_w = power[("tcp", 1)], [power[("mptcp", k)] for k in (1, 2, 3, 4)]
    phone = (power[("phone_tcp", 1)], power[("phone_mptcp", 1)])
    more = mptcp_w[0] > tcp_w and all(b >= a for a, b in itertools.pairwise(mptcp_w))
    more = more and mptcp_w[-1] > mptcp_w[0] and phone[1] > phone[0]
    eth = h[h["setup"] == "ethernet"].sort_values("rate_bps")
    rise_eth = pct(float(eth["power_w"].iloc[-1]), float(eth["power_w"].iloc[0]))
    falls = bool(np.all(np.diff(eth["energy_j"].to_numpy()) < 0))
    wifi = h[h["setup"] == "wifi"].sort_values("rate_bps")
    rise_wifi = pct(float(wifi["power_w"].iloc[-1]), float(wifi["power_w"].iloc[0]))
    fit = np.corrcoef(wifi["rate_bps"], wifi["power_w"])[0, 1] ** 2
    mp = h[h["setup"] == "mptcp"].set_index("subflows_per_path")
    rtt = {k: float(mp["mean_srtt_s"][k]) * 1e3 for k in (1, 2)}
    return [
        check("MPTCP draws more power than TCP, more with more subflows",
              "§III-A, Figs. 1–2: MPTCP consumes more CPU power than TCP, more with more subflows; MPTCP raises a "
              "phone's power", "P(MPTCP) > P(TCP), rising with subflows; phone P(MPTCP) > P(TCP)",
              {"tcp_w": rounded(tcp_w, 3), "mptcp_w_by_subflows_per_path": [rounded(p, 3) for p in mptcp_w],
               "phone_tcp_w": rounded(phone[0], 3), "phone_mptcp_w": rounded(phone[1], 3)},
              "P(MPTCP, 1) > P(TCP); non-decreasing from 1 to 4 subflows per path and higher at 4; phone likewise",
              more),
        check("energy falls with throughput, power +15 % (Ethernet)",
              "§III-B, Fig. 3a: 10 GB over Ethernet at 200–1000 Mb/s: energy falls, power rises only about 15 %",
              {"power_rise_pct": 15, "energy": "falls"},
              {"power_rise_pct": rounded(rise_eth, 1), "energy_falls": falls,
               "energy_j": [rounded(e, 1) for e in eth["energy_j"]]},
              "energy strictly falling over the rates; power rise within 10–20 %", falls and 10 <= rise_eth <= 20),
        check("power +90 %, about linear (WiFi)", "§III-B, Fig. 3b: 500 MB over WiFi at 10–50 Mb/s: power up to +90 %, "
              "about linear in the throughput", {"power_rise_pct": 90, "shape": "linear"},
              {"power_rise_pct": rounded(rise_wifi, 1), "linear_fit_r2": rounded(fit, 4)},
              "rise within 75–105 %; R² of a linear fit ≥ 0.98", 75 <= rise_wifi <= 105 and fit >= 0.98),
        check("higher-RTT paths draw more power", "§III-B, Fig. 4: 2 subflows per path raise the path delay, and the "
              "flow on high-RTT paths draws more CPU power", "RTT and power higher with 2 subflows per path",
              {"srtt_ms": {"1 per path": rounded(rtt[1], 3), "2 per path": rounded(rtt[2], 3)},
               "power_w": {"1 per path": rounded(mptcp_w[0], 3), "2 per path": rounded(mptcp_w[1], 3)}},
              "SRTT and power both higher with 2 subflows per path", rtt[2] > rtt[1] and mptcp_w[1] > mptcp_w[0]),
    ]  # fmt: skip


def check_olia(users: pd.DataFrame) -> dict[str, Any]:
    grouped = users.groupby(["users", "algorithm"])["energy_j"].mean().unstack("algorithm")
    means: dict[int, dict[str, float]] = {
        int(cast(int, n)): {str(a): float(v) for a, v in row.items()}
        for n, row in grouped.to_dict(orient="index").items()
    }
    gaps = {n: pct(min(v for a, v in row.items() if a != "olia"), row["olia"]) for n, row in means.items()}
    lowest = all(min(row, key=lambda a: row[a]) == "olia" for row in means.values())
    ns = sorted(gaps)
    return check(
        "OLIA has the lowest mean energy, the gap growing with N",
        "§VI-A, Fig. 6: N MPTCP + 2N TCP users over two bottlenecks; of LIA, OLIA, Balia, ecMTCP, OLIA consumes the "
        "least mean energy, especially as N grows",
        "OLIA lowest at every N; the gap to the next grows with N",
        {"mean_energy_j": {f"N {n}": {LABELS[a]: rounded(v, 2) for a, v in row.items()} for n, row in means.items()},
         "gap_to_next_pct": {f"N {n}": rounded(g, 2) for n, g in gaps.items()}},
        "OLIA's mean the lowest at every N, and its gap to the next at the largest N above that at the smallest",
        lowest and gaps[ns[-1]] > gaps[ns[0]],
    )  # fmt: skip


def check_bursts(bursts: pd.DataFrame) -> list[dict[str, Any]]:
    score = bursts.groupby("algorithm")["shift_score"].mean()
    best = str(score[list(SHIFTERS)].idxmax())
    by_seed = bursts.pivot_table(index="burst_seed", columns="algorithm", values=["energy_j", "goodput_bps"])
    savings = [saving_pct(float(e), float(lia)) for e, lia in zip(by_seed["energy_j"]["dts"], by_seed["energy_j"]["lia"],
                                                                   strict=True)]  # fmt: skip
    goodput = float(by_seed["goodput_bps"]["dts"].mean()) / float(by_seed["goodput_bps"]["lia"].mean())
    return [
        check("LIA shifts traffic best among the existing algorithms",
              "§VI-B, Fig. 7: with bursts on both paths (Bad/Good states at random), LIA outperforms the other "
              "existing algorithms in traffic shifting", "LIA the best shifter of LIA, OLIA, Balia, ecMTCP",
              {"shift_score": {LABELS[str(a)]: rounded(v, 3) for a, v in score.items()}, "best": LABELS[best]},
              "LIA's mean shift score the highest of the four", best == "lia"),
        check("DTS saves up to 20 % energy vs LIA without lower throughput",
              "§VI-B, Figs. 8–9: DTS reduces energy by up to 20 % against LIA without degrading throughput",
              {"saving_max_pct": 20, "throughput": "not lower"},
              {"saving_pct_by_schedule": [rounded(s, 1) for s in savings], "dts_over_lia_goodput": rounded(goodput, 3)},
              "largest saving over the burst schedules within 10–30 %, mean saving > 0, DTS goodput ≥ 0.95 × LIA's",
              10 <= max(savings) <= 30 and float(np.mean(savings)) > 0 and goodput >= 0.95),
    ]  # fmt: skip


def check_cloud(runs: pd.DataFrame) -> dict[str, Any]:
    e = runs.set_index("algorithm")["energy_j"]
    vs_tcp, vs_dctcp = saving_pct(e["dts"], e["reno"]), saving_pct(e["dts"], e["dctcp"])
    like_lia = abs(pct(e["dts"], e["lia"]))
    return check(
        "DTS saves up to 70 % energy vs TCP and DCTCP; DTS ≈ LIA",
        "§VI-C1, Fig. 10: on EC2 (40 hosts × 4 ENIs at 256 Mb/s, 10 GB per connection) DTS saves up to 70 % of the "
        "aggregate energy of TCP and DCTCP and performs like LIA",
        {"saving_vs_tcp_pct": 70, "saving_vs_dctcp_pct": 70, "dts_vs_lia": "similar"},
        {"saving_vs_tcp_pct": rounded(vs_tcp, 1), "saving_vs_dctcp_pct": rounded(vs_dctcp, 1),
         "dts_vs_lia_energy_pct": rounded(like_lia, 1)},
        "both savings within 55–85 %; DTS's energy within 10 % of LIA's",
        55 <= vs_tcp <= 85 and 55 <= vs_dctcp <= 85 and like_lia <= 10,
    )  # fmt: skip


def dc_means(dc: pd.DataFrame) -> pd.DataFrame:
    regular = dc[~dc["steady_state_check"]]
    return regular.groupby(["topology", "algorithm", "subflows"])[["energy_per_gb_j", "aggregate_goodput_bps"]].mean()


def steady_state(dc: pd.DataFrame) -> dict[str, float]:
    """J/Gb of the steady-state configuration in the regular run and in the longer one."""
    long = dc[dc["steady_state_check"]].iloc[0]
    short = dc[~dc["steady_state_check"] & (dc["topology"] == long["topology"]) & (dc["algorithm"] == long["algorithm"])
               & (dc["subflows"] == long["subflows"]) & (dc["run"] == 0)].iloc[0]  # fmt: skip
    return {"duration_s": float(short["duration_s"]), "long_duration_s": float(long["duration_s"]),
            "energy_per_gb_j": float(short["energy_per_gb_j"]), "long_energy_per_gb_j": float(long["energy_per_gb_j"]),
            "difference_pct": pct(float(long["energy_per_gb_j"]), float(short["energy_per_gb_j"]))}  # fmt: skip


def check_dc(dc: pd.DataFrame) -> list[dict[str, Any]]:
    means = dc_means(dc)
    lia = means.xs("lia", level="algorithm")["energy_per_gb_j"]
    ratio = {}
    for topology in ("fattree", "vl2", "bcube"):
        row = lia.xs(topology, level="topology")
        ratio[topology] = float(row.iloc[-1]) / float(row.iloc[0])
    steady = steady_state(dc)
    trend = ratio["bcube"] <= 0.8 and ratio["fattree"] >= 0.95 and ratio["vl2"] >= 0.95
    top = int(dc["subflows"].max())
    phi, thr = {}, {}
    for topology in ("fattree", "vl2"):
        at = means.xs((topology, top), level=("topology", "subflows"))
        phi[topology] = saving_pct(float(at["energy_per_gb_j"]["dts_phi"]), float(at["energy_per_gb_j"]["lia"]))
        thr[topology] = pct(float(at["aggregate_goodput_bps"]["dts_phi"]), float(at["aggregate_goodput_bps"]["lia"]))
    names = {"fattree": "FatTree", "vl2": "VL2", "bcube": "BCube"}
    return [
        check("more subflows cut the energy overhead in BCube, not in FatTree or VL2",
              "§VI-C1, Figs. 12–14 (htsim, LIA): increasing the number of subflows greatly reduces the energy overhead "
              "in BCube but fails to save energy in FatTree and VL2",
              {"BCube": "greatly reduced", "FatTree": "not reduced", "VL2": "not reduced"},
              {"energy_per_gb_at_most_over_one_subflow": {names[t]: rounded(r, 3) for t, r in ratio.items()},
               "steady_state": {k: rounded(v, 3) for k, v in steady.items()}},
              "J/Gb at the most subflows ≤ 0.8 × at one in BCube and ≥ 0.95 × in FatTree and VL2", trend),
        check("DTS with the energy price saves up to 20 % in FatTree and VL2",
              "§VI-C1, Fig. 15: extended DTS (the φ term), 8 subflows, saves up to 20 % of the energy costs",
              {"saving_max_pct": 20}, {"saving_vs_lia_pct": {names[t]: rounded(v, 1) for t, v in phi.items()},
                                       "subflows": top},
              "the larger saving within 10–30 %, neither negative", 10 <= max(phi.values()) <= 30 and min(phi.values()) >= 0),
        check("DTS's aggregate throughput matches LIA's in FatTree and VL2",
              "§VI-C1, Fig. 16: DTS gets as good utilisation as LIA in FatTree and VL2", "DTS ≈ LIA",
              {"dts_vs_lia_throughput_pct": {names[t]: rounded(v, 2) for t, v in thr.items()}, "subflows": top},
              "within ±10 % on both", all(abs(v) <= 10 for v in thr.values())),
    ]  # fmt: skip


def check_wireless(w: pd.DataFrame) -> dict[str, Any]:
    by = w.pivot_table(index="replication", columns="algorithm", values=["energy_j", "goodput_bps"])
    savings = [
        saving_pct(float(d), float(l)) for d, l in zip(by["energy_j"]["dts_phi"], by["energy_j"]["lia"], strict=True)
    ]
    goodput = float(by["goodput_bps"]["dts_phi"].mean()) / float(by["goodput_bps"]["lia"].mean())
    return check(
        "DTS saves up to 30 % energy vs LIA over WiFi + 4G, at some throughput",
        "§VI-C2, Fig. 17 (ns-2.35): WiFi 10 Mb/s/40 ms + 4G 20 Mb/s/100 ms, DropTail 50, 64 KB receive buffer, cross "
        "traffic, 200 s: DTS saves up to 30 % energy against LIA, trading some throughput",
        {"saving_max_pct": 30, "throughput": "somewhat lower"},
        {"saving_pct_by_run": [rounded(s, 1) for s in savings], "dts_over_lia_goodput": rounded(goodput, 3)},
        "largest saving within 20–40 %, mean saving > 0, DTS goodput below LIA's",
        20 <= max(savings) <= 40 and float(np.mean(savings)) > 0 and goodput < 1,
    )


def explanations(check_list: list[dict[str, Any]]) -> dict[str, str]:
    """Beside each verdict: for a testbed target, whether its analogue shows the paper's result;
    for a simulated one, why there is no reference value."""
    out = {}
    for c in check_list:
        if c["id"] in ANALOGUES:
            out[c["id"]] = (
                "The analogue shows the paper's result."
                if c["pass"]
                else ("The analogue does not show the paper's result (see the values).")
            )
        else:
            out[c["id"]] = NO_REFERENCE
    return out


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def figures(out: Path, host: pd.DataFrame, users: pd.DataFrame, bursts: pd.DataFrame, traces: pd.DataFrame,
            cloud_table: pd.DataFrame, dc: pd.DataFrame, wl: pd.DataFrame) -> list[Path]:  # fmt: skip
    pyplot = plt()
    paths: list[Path] = []

    fig, axes = pyplot.subplots(1, 4, figsize=(18, 3.8))
    mp = host[host["setup"] == "mptcp"].sort_values("subflows_per_path")
    tcp_w = float(host.loc[host["setup"] == "tcp", "power_w"].iloc[0])
    axes[0].plot(mp["subflows_per_path"], mp["power_w"], "o-", label="MPTCP (LIA)")
    axes[0].axhline(tcp_w, color="black", ls="--", label="TCP")
    axes[0].set(xlabel="subflows per path", ylabel="mean host power (W)", title="Fig. 1 analogue")
    axes[0].legend(fontsize=8)
    for ax, setup, title in (
        (axes[1], "ethernet", "Fig. 3a analogue (Ethernet)"),
        (axes[2], "wifi", "Fig. 3b analogue (WiFi)"),
    ):
        rows = host[host["setup"] == setup].sort_values("rate_bps")
        ax.plot(rows["rate_bps"] / 1e6, rows["power_w"], "o-", color="tab:red", label="power")
        ax.set(xlabel="path rate (Mb/s)", ylabel="W", title=title)
        twin = ax.twinx()
        twin.plot(rows["rate_bps"] / 1e6, rows["energy_j"], "s--", color="tab:blue", label="energy")
        twin.set_ylabel("J")
    axes[3].bar(["1 per path", "2 per path"], mp["power_w"].iloc[:2])
    axes[3].set(ylabel="mean host power (W)", title="Fig. 4 analogue: SRTT " + ", ".join(
        f"{v * 1e3:.2f}" for v in mp["mean_srtt_s"].iloc[:2]) + " ms")  # fmt: skip
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig1_4_host_power")

    ns = sorted(users["users"].unique())
    fig, axes = pyplot.subplots(1, len(ns), figsize=(4.5 * len(ns), 3.8), squeeze=False)
    for ax, n in zip(axes[0], ns, strict=True):
        rows = users[users["users"] == n]
        ax.boxplot([rows.loc[rows["algorithm"] == a, "energy_j"] for a in SHIFTERS], whis=1.5)
        ax.set_xticks(range(1, len(SHIFTERS) + 1), [LABELS[a] for a in SHIFTERS])
        ax.set(title=f"N = {n}", ylabel="energy per MPTCP user (J)")
    fig.suptitle("Fig. 6 — per-user energy, N MPTCP + 2N TCP users over two bottlenecks")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig6_energy_per_user")

    fig, axes = pyplot.subplots(2, 2, figsize=(13, 7))
    for ax, algorithm in zip(axes[0], ("lia", "dts"), strict=True):
        rows = traces[(traces["algorithm"] == algorithm) & (traces["burst_seed"] == 0)]
        for path in BURST_PATHS:
            one = rows[rows["path"] == path]
            ax.plot(one["time_s"], one["rate_bps"] / 1e6, label=f"path {path}")
            ax.fill_between(one["time_s"], 0, 100, where=one["burst"], alpha=0.12, step="pre")
        ax.set(title=f"Fig. 8 — {LABELS[algorithm]}: MPTCP rate per path (shaded: bursts)", xlabel="time (s)",
               ylabel="Mb/s")  # fmt: skip
        ax.legend(fontsize=8)
    means = bursts.groupby("algorithm")[["energy_j", "goodput_bps", "shift_score"]].mean()
    order = [a for a in (*SHIFTERS, "dts") if a in means.index]
    axes[1][0].bar([LABELS[a] for a in order], means.loc[order, "shift_score"])
    axes[1][0].set(title="Fig. 7 — shift score (share on the burst-free path)", ylim=(0, 1))
    axes[1][1].bar([LABELS[a] for a in order], means.loc[order, "energy_j"])
    axes[1][1].set(title="Fig. 9 — host energy of the transfer (J)")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig7_9_bursts")

    fig, axes = pyplot.subplots(1, 2, figsize=(10, 3.6))
    c = cloud_table.set_index("algorithm")
    labels = [LABELS[a] for a in c.index]
    axes[0].bar(labels, c["energy_j"] / 1e3)
    axes[0].set(title="Fig. 10 — aggregate host energy", ylabel="kJ")
    axes[1].bar(labels, c["mean_goodput_bps"] / 1e6)
    axes[1].set(title="mean goodput per connection", ylabel="Mb/s")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig10_cloud")

    means_dc = dc_means(dc).reset_index()
    fig, axes = pyplot.subplots(1, 5, figsize=(22, 3.8))
    for ax, topology, title in zip(axes[:3], ("bcube", "fattree", "vl2"), ("Fig. 12 — BCube", "Fig. 13 — FatTree",
                                                                      "Fig. 14 — VL2"), strict=True):  # fmt: skip
        for name, rows in means_dc[means_dc["topology"] == topology].groupby("algorithm"):
            ax.plot(rows["subflows"], rows["energy_per_gb_j"], "o-", label=LABELS[str(name)])
        ax.set(title=title, xlabel="subflows", ylabel="host energy per Gb delivered (J)")
        ax.legend(fontsize=7)
    top = int(means_dc["subflows"].max())
    at = means_dc[(means_dc["subflows"] == top) & means_dc["topology"].isin(["fattree", "vl2"])]
    for ax, column, title in (
        (axes[3], "energy_per_gb_j", f"Fig. 15 — J/Gb, {top} subflows"),
        (axes[4], "aggregate_goodput_bps", f"Fig. 16 — aggregate goodput, {top} subflows"),
    ):
        pivot = at.pivot_table(index="topology", columns="algorithm", values=column)
        pivot.rename(columns=LABELS).plot.bar(ax=ax, rot=0)
        ax.set(title=title, xlabel="")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig12_16_datacentre")

    fig, axes = pyplot.subplots(1, 2, figsize=(10, 3.6))
    m = wl.groupby("algorithm")[["energy_j", "goodput_bps"]].mean()
    axes[0].bar([LABELS[a] for a in m.index], m["energy_j"])
    axes[0].set(title="Fig. 17 — sender energy over the run", ylabel="J")
    axes[1].bar([LABELS[a] for a in m.index], m["goodput_bps"] / 1e6)
    axes[1].set(title="goodput", ylabel="Mb/s")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig17_wireless")
    return paths


# ---------------------------------------------------------------------------------------------
# Report and entry point
# ---------------------------------------------------------------------------------------------


def report(out: Path, config: Config, quick: bool, cluster: bool, check_list: list[dict[str, Any]],
           figure_paths: list[Path], tables: dict[str, pd.DataFrame]) -> Path:  # fmt: skip
    grid = "the full grid (cluster)" if cluster else "reduced (one machine)" if not quick else "quick"
    params = [
        ("host power", "P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, integrated over each connection's life",
         "paper (eq. 2) + interpretation (docs/models/energy.md)"),
        ("Ethernet preset", "20 W, γ = ½, +15 % from 200 to 1000 Mb/s, +5 % of P_base per 100 ms of RTT",
         "paper (§III-B) + wattnet default (P_base)"),
        ("WiFi preset", "1 W, γ = 1, +90 % from 10 to 50 Mb/s", "paper (§III-B) + wattnet default (P_base)"),
        ("TCP", ("Linux profile on the testbed scenarios, RFC profile without delayed ACKs for htsim, ns-2 profile for "
         "the wireless pair; single-path users Reno"), "interpretation"),
        ("Fig. 5a", (f"N ∈ {config['users']}, {config['user_bytes'] / 1e6:g} MB per user, bottlenecks 100 Mb/s, 5 ms, "
         "100 packets"), "paper (N, 16 MB) + interpretation (rates, delays, buffers)" + (" (reduced)" if quick else "")),
        ("Fig. 5b", (f"45 Mb/s bursts, Pareto lengths mean 5 s (shape 1.5), exponential gaps mean 5 s; "
         f"{config['burst_megabytes']:g} MB transfer; {config['burst_seeds']} burst schedules"),
         "paper (rate, 10 s, 5 s) + ns-2.35 default (Pareto shape) + interpretation"),
        ("EC2 cloud", (f"40 hosts × 4 interfaces of 256 Mb/s, permutation, {config['cloud_megabytes']:g} MB per "
         "connection (the paper: 10 GB; energy per byte does not depend on it once slow start is amortised)"),
         "paper + interpretation (size)"),
        ("data centres", (f"FatTree k = 8, VL2 (8, 8, 8), BCube(4, 3) cut to 128 servers{' (16 hosts)' if config['dc_small'] else ''}; "
         f"subflows {config['dc_subflows']}; {', '.join(LABELS[a] for a in config['dc_algorithms'])}; "
         f"{config['dc_runs']} permutation(s); {config['dc_duration_s']:g} s per run instead of 1000 s — {grid}"),
         "paper (topologies, 1–8 subflows, 10 runs) + interpretation (duration: see the steady state)"),
        ("wireless pair", (f"WiFi 10 Mb/s/40 ms, 4G 20 Mb/s/100 ms, DropTail 50, 64 KB receive buffer, on-off cross "
         f"traffic at half each link's rate, {config['wireless_duration_s']:g} s, {config['wireless_runs']} runs"),
         "paper (§VI-C2) + interpretation (cross traffic)"),
    ]  # fmt: skip
    interpretations = [
        "Energy overhead (Figs. 12–16) is read as host energy per gigabit delivered, summed over all hosts.",
        (
            "Traffic shifting (Fig. 7) is measured as the share of the MPTCP rate on the burst-free path while exactly one "
            "path bursts (0.5: none)."
        ),
        (
            "DTS takes its exact sigmoid ε (the paper's Taylor form is defective); the extended DTS adds the energy price φ "
            "with the engine's defaults; both are compared with LIA."
        ),
        (
            "BCube subflows follow BCube's parallel paths (Guo et al., SIGCOMM 2009), one per interface; FatTree and VL2 "
            "subflows are spread by their own ECMP hashes."
        ),
        (
            "The paper's 1000 s data-centre flows are shortened; the steady-state table compares the energy per bit of "
            f"a {config['dc_steady_factor']}× longer run."
        ),
    ]
    steady = steady_state(tables["datacentre"])
    sections = [
        ("Steady state of the shortened data-centre flows", table_html(pd.DataFrame([steady]))),
        ("Host power analogues (§III)", table_html(tables["host_power"])),
        (
            "Fig. 6: per-user energy",
            table_html(tables["two_bottleneck"].groupby(["users", "algorithm"])["energy_j"].describe().reset_index()),
        ),
        ("Figs. 7–9: bursts", table_html(tables["bursts"])),
        ("Fig. 10: cloud", table_html(tables["cloud"])),
        ("Figs. 12–16: data centres (means)", table_html(dc_means(tables["datacentre"]).reset_index())),
        ("Fig. 17: wireless", table_html(tables["wireless"])),
    ]
    return write_report(
        out, paper=MPTCP_PAPER, title=f"{NAME}, the paper's §III and §VI", quick=quick, parameters=params,
        intro=("Host energy of Multipath TCP under LIA, OLIA, Balia, ecMTCP, EWTCP, Coupled, DWC, wVegas and the "
               "paper's DTS, in every scenario of §III and §VI. Testbed measurements are reproduced as simulated "
               "analogues and marked <i>not simulable</i>."),
        reference_note=("This study has no ns-2.35 column: ns-2.35 has no Multipath TCP (the paper used a patch), and "
                        "htsim has no energy model; a target wattnet misses <i>differs from the paper</i>."),
        interpretations=interpretations, checks=check_list, figures=figure_paths, sections=sections,
    )  # fmt: skip


def reproduce(
    out: str | Path, quick: bool = False, *, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> Path:
    """Runs the study (resuming from ``out/store``) and writes tables, figures, checks.json and
    report.html under ``out``; returns the report's path. A Dask scheduler as ``executor`` runs
    the full data-centre grid (``CLUSTER``) unless ``quick``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cluster = not quick and executor not in ("local", "serial")
    config = QUICK if quick else CLUSTER if cluster else FULL
    runner = Runner(out, executor, workers, progress)
    stage(NAME, "host power analogues (§III)")
    host = host_power_runs(runner, config)
    stage(NAME, "two bottlenecks (Fig. 6)")
    users = two_bottleneck_runs(runner, config)
    stage(NAME, "bursts (Figs. 7–9)")
    bursts, traces = burst_runs(runner, config)
    stage(NAME, "cloud (Fig. 10)")
    cloud_table = cloud_runs(runner, config)
    stage(NAME, "data centres (Figs. 12–16)")
    dc = dc_runs(runner, config)
    stage(NAME, "wireless (Fig. 17)")
    wl = wireless_runs(runner, config)
    tables = {"host_power": host, "two_bottleneck": users, "bursts": bursts, "burst_traces": traces,
              "cloud": cloud_table, "datacentre": dc, "wireless": wl}  # fmt: skip
    write_tables(out, tables)
    stage(NAME, "figures")
    figure_paths = figures(out, host, users, bursts, traces, cloud_table, dc, wl)
    stage(NAME, "checks and report")
    ours = [*check_host_power(host), check_olia(users), *check_bursts(bursts), check_cloud(cloud_table),
            *check_dc(dc), check_wireless(wl)]  # fmt: skip
    analogues = {id: ANALOGUES[id] for id in ANALOGUES}
    check_list = judge(ours, {}, reference_name=None, analogues=analogues, explanations=explanations(ours))
    write_checks(out, check_list)
    return report(out, config, quick, cluster, check_list, figure_paths, tables)
