"""The targets: each check names what the paper says, its value, wattnet's and the band accepted
(from ``parameters.toml``); §III–§VI-C1's EC2 runs were testbeds, checked on simulated analogues
(``reference.ANALOGUES``)."""

from __future__ import annotations

import itertools
from typing import Any, cast

import numpy as np
import pandas as pd

from wattnet.experiments.mptcp_energy.params import SHIFTERS, TARGETS, band, within
from wattnet.experiments.mptcp_energy.scenario import LABELS
from wattnet.experiments.report import check, rounded


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
    t = TARGETS["host_power"]
    eth_band, wifi_band = t["ethernet_power_rise_band_pct"], t["wifi_power_rise_band_pct"]
    r2_min = t["wifi_linear_fit_r2_min"]
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
              {"power_rise_pct": t["ethernet_power_rise_pct"], "energy": "falls"},
              {"power_rise_pct": rounded(rise_eth, 1), "energy_falls": falls,
               "energy_j": [rounded(e, 1) for e in eth["energy_j"]]},
              f"energy strictly falling over the rates; power rise within {band(eth_band)} %",
              falls and within(rise_eth, eth_band)),
        check("power +90 %, about linear (WiFi)", "§III-B, Fig. 3b: 500 MB over WiFi at 10–50 Mb/s: power up to +90 %, "
              "about linear in the throughput", {"power_rise_pct": t["wifi_power_rise_pct"], "shape": "linear"},
              {"power_rise_pct": rounded(rise_wifi, 1), "linear_fit_r2": rounded(fit, 4)},
              f"rise within {band(wifi_band)} %; R² of a linear fit ≥ {r2_min:g}",
              within(rise_wifi, wifi_band) and fit >= r2_min),
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
    t = TARGETS["bursts"]
    return [
        check("LIA shifts traffic best among the existing algorithms",
              "§VI-B, Fig. 7: with bursts on both paths (Bad/Good states at random), LIA outperforms the other "
              "existing algorithms in traffic shifting", "LIA the best shifter of LIA, OLIA, Balia, ecMTCP",
              {"shift_score": {LABELS[str(a)]: rounded(v, 3) for a, v in score.items()}, "best": LABELS[best]},
              "LIA's mean shift score the highest of the four", best == "lia"),
        check("DTS saves up to 20 % energy vs LIA without lower throughput",
              "§VI-B, Figs. 8–9: DTS reduces energy by up to 20 % against LIA without degrading throughput",
              {"saving_max_pct": t["dts_saving_max_pct"], "throughput": "not lower"},
              {"saving_pct_by_schedule": [rounded(s, 1) for s in savings], "dts_over_lia_goodput": rounded(goodput, 3)},
              f"largest saving over the burst schedules within {band(t['dts_saving_band_pct'])} %, mean saving > 0, "
              f"DTS goodput ≥ {t['dts_goodput_over_lia_min']:g} × LIA's",
              within(max(savings), t["dts_saving_band_pct"]) and float(np.mean(savings)) > 0
              and goodput >= t["dts_goodput_over_lia_min"]),
    ]  # fmt: skip


def check_cloud(runs: pd.DataFrame) -> dict[str, Any]:
    e = runs.set_index("algorithm")["energy_j"]
    vs_tcp, vs_dctcp = saving_pct(e["dts"], e["reno"]), saving_pct(e["dts"], e["dctcp"])
    like_lia = abs(pct(e["dts"], e["lia"]))
    t = TARGETS["cloud"]
    return check(
        "DTS saves up to 70 % energy vs TCP and DCTCP; DTS ≈ LIA",
        "§VI-C1, Fig. 10: on EC2 (40 hosts × 4 ENIs at 256 Mb/s, 10 GB per connection) DTS saves up to 70 % of the "
        "aggregate energy of TCP and DCTCP and performs like LIA",
        {"saving_vs_tcp_pct": t["dts_saving_pct"], "saving_vs_dctcp_pct": t["dts_saving_pct"], "dts_vs_lia": "similar"},
        {"saving_vs_tcp_pct": rounded(vs_tcp, 1), "saving_vs_dctcp_pct": rounded(vs_dctcp, 1),
         "dts_vs_lia_energy_pct": rounded(like_lia, 1)},
        f"both savings within {band(t['dts_saving_band_pct'])} %; DTS's energy within "
        f"{t['dts_vs_lia_energy_max_pct']:g} % of LIA's",
        within(vs_tcp, t["dts_saving_band_pct"]) and within(vs_dctcp, t["dts_saving_band_pct"])
        and like_lia <= t["dts_vs_lia_energy_max_pct"],
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


def window_spread(windows: pd.DataFrame) -> pd.DataFrame:
    """Per run: the first window's goodput and the largest departure of a second-half window from
    the second half's mean, both relative to that mean (the run is steady when the second is small)."""
    keys = ["topology", "algorithm", "subflows", "duration_s", "run", "steady_state_check"]
    rows = []
    for key, w in windows.groupby(keys, sort=False):
        goodput = w.sort_values("window")["goodput_bps"].to_numpy()
        late = goodput[len(goodput) // 2 :]
        mean = float(late.mean())
        rows.append({**dict(zip(keys, cast(tuple[Any, ...], key), strict=True)),
                     "first_window_pct": 100 * float(goodput[0]) / mean,
                     "second_half_spread_pct": 100 * float(np.max(np.abs(late - mean))) / mean})  # fmt: skip
    return pd.DataFrame(rows)


def steady_runs(windows: pd.DataFrame) -> tuple[int, int]:
    """(runs whose second-half windows stay within the tolerance of their mean, runs)."""
    spread = window_spread(windows)
    tolerance = TARGETS["datacentre"]["steady_window_spread_pct"]
    return int((spread["second_half_spread_pct"] <= tolerance).sum()), len(spread)


def check_dc(dc: pd.DataFrame) -> list[dict[str, Any]]:
    means = dc_means(dc)
    lia = means.xs("lia", level="algorithm")["energy_per_gb_j"]
    ratio = {}
    for topology in ("fattree", "vl2", "bcube"):
        row = lia.xs(topology, level="topology")
        ratio[topology] = float(row.iloc[-1]) / float(row.iloc[0])
    steady = steady_state(dc)
    t = TARGETS["datacentre"]
    trend = ratio["bcube"] <= t["bcube_ratio_max"] and min(ratio["fattree"], ratio["vl2"]) >= t["flat_ratio_min"]
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
              {"energy_per_gb_at_most_over_one_subflow": {names[k]: rounded(r, 3) for k, r in ratio.items()},
               "steady_state": {k: rounded(v, 3) for k, v in steady.items()}},
              f"J/Gb at the most subflows ≤ {t['bcube_ratio_max']:g} × at one in BCube and ≥ {t['flat_ratio_min']:g} × "
              "in FatTree and VL2", trend),
        check("DTS with the energy price saves up to 20 % in FatTree and VL2",
              "§VI-C1, Fig. 15: extended DTS (the φ term), 8 subflows, saves up to 20 % of the energy costs",
              {"saving_max_pct": t["phi_saving_max_pct"]},
              {"saving_vs_lia_pct": {names[k]: rounded(v, 1) for k, v in phi.items()}, "subflows": top},
              f"the larger saving within {band(t['phi_saving_band_pct'])} %, neither negative",
              within(max(phi.values()), t["phi_saving_band_pct"]) and min(phi.values()) >= 0),
        check("DTS's aggregate throughput matches LIA's in FatTree and VL2",
              "§VI-C1, Fig. 16: DTS gets as good utilisation as LIA in FatTree and VL2", "DTS ≈ LIA",
              {"dts_vs_lia_throughput_pct": {names[k]: rounded(v, 2) for k, v in thr.items()}, "subflows": top},
              f"within ±{t['dts_throughput_within_pct']:g} % on both",
              all(abs(v) <= t["dts_throughput_within_pct"] for v in thr.values())),
    ]  # fmt: skip


def check_wireless(w: pd.DataFrame) -> dict[str, Any]:
    by = w.pivot_table(index="replication", columns="algorithm", values=["energy_j", "goodput_bps"])
    savings = [
        saving_pct(float(d), float(l)) for d, l in zip(by["energy_j"]["dts_phi"], by["energy_j"]["lia"], strict=True)
    ]
    goodput = float(by["goodput_bps"]["dts_phi"].mean()) / float(by["goodput_bps"]["lia"].mean())
    t = TARGETS["wireless"]
    return check(
        "DTS saves up to 30 % energy vs LIA over WiFi + 4G, at some throughput",
        "§VI-C2, Fig. 17 (ns-2.35): WiFi 10 Mb/s/40 ms + 4G 20 Mb/s/100 ms, DropTail 50, 64 KB receive buffer, cross "
        "traffic, 200 s: DTS saves up to 30 % energy against LIA, trading some throughput",
        {"saving_max_pct": t["saving_max_pct"], "throughput": "somewhat lower"},
        {"saving_pct_by_run": [rounded(s, 1) for s in savings], "dts_over_lia_goodput": rounded(goodput, 3)},
        f"largest saving within {band(t['saving_band_pct'])} %, mean saving > 0, DTS goodput below LIA's",
        within(max(savings), t["saving_band_pct"]) and float(np.mean(savings)) > 0 and goodput < 1,
    )
