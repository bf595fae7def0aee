"""The paper's targets: each check computed from the runs' summaries (the same functions compute ns-2.35's or the fluid model's value from the reference's runs)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.ecn_efficiency.params import E7_DELAY_MS, QUEUES, RECORDER_INTERVAL_S, TOLERANCES, Grid
from wattnet.experiments.ecn_efficiency.sweeps import pick
from wattnet.experiments.report import (
    check,
    rounded,
)


def within(value: float, target: float, relative: float, absolute: float = 0.0) -> bool:
    return abs(value - target) <= max(relative * abs(target), absolute)


def reduction_pct(reference: float, value: float) -> float:
    """(O_DT − O_ECN)/O_DT × 100."""
    return 100 * (reference - value) / reference if reference else float("nan")


def by_queue(frame: pd.DataFrame, column: str, digits: int = 2) -> dict[str, float | None]:
    return {queue: rounded(frame.loc[queue, column], digits) for queue in QUEUES if queue in frame.index}


def by_ql(frame: pd.DataFrame, column: str, digits: int = 2) -> dict[str, dict[str, float | None]]:
    """{"QL 16": {"DT": .., "RED": .., "ECN": ..}, ...} of a setting indexed by (queue, QL)."""
    qls = sorted(frame.index.get_level_values("ql").unique())
    return {f"QL {ql}": by_queue(_at_ql(frame, ql), column, digits) for ql in qls}


def _at_ql(frame: pd.DataFrame, ql: Any) -> pd.DataFrame:
    """The rows of ``frame`` (indexed by queue and QL) at ``ql``, indexed by queue."""
    rows = frame.xs(ql, level="ql")
    if not isinstance(rows, pd.DataFrame):
        raise TypeError(f"QL {ql}: expected a table of queues, got {type(rows).__name__}")
    return rows


def checks(cases: pd.DataFrame, confidence: pd.DataFrame, config: Grid) -> list[dict[str, Any]]:
    return [
        check_e1(cases), check_e2(cases), check_e3(cases), check_e4(cases), check_e5(cases), check_e6(cases),
        check_e7(cases), check_e8(cases), check_e9(cases), check_e10(confidence, config), check_e11(cases),
    ]  # fmt: skip


def check_e1(cases: pd.DataFrame) -> dict[str, Any]:
    """§4.1, Fig. 3: no goodput gain from ECN; TT flat in QL; utilisation in the mid-to-high 90s."""
    values, ok = {}, True
    t = TOLERANCES
    for n in (10, 25):
        setting = pick(cases, n, 20, False)
        tt = setting["tt_mean_s"].unstack("queue")
        ecn_vs_dt = tt["ECN"] / tt["DT"]
        spread = {queue: (tt[queue].max() - tt[queue].min()) / tt[queue].mean() for queue in QUEUES}
        utilisation = setting["utilisation"]
        values[f"n {n}"] = {
            "tt_mean_s": by_ql(setting, "tt_mean_s", 3),
            "tt_ecn_over_dt": {f"QL {ql}": rounded(v, 3) for ql, v in ecn_vs_dt.items()},
            "tt_spread_over_ql_pct": {queue: rounded(100 * v, 1) for queue, v in spread.items()},
            "utilisation_pct_min": rounded(100 * utilisation.min(), 2),
        }
        ok &= bool(
            (ecn_vs_dt >= t["e1_min_tt_ecn_over_dt"]).all()
            and max(spread.values()) <= t["e1_max_tt_spread"]
            and utilisation.min() >= t["e1_min_utilisation"]
        )
    return check(
        "E1",
        (
            "n = 10, 25, d = 20 ms: ECN does not shorten transfer times; TT hardly varies with QL; bottleneck "
            "utilisation in the mid-to-high 90s"
        ),
        "TT(ECN) not below TT(DT) (sometimes above); TT flat across QL 16–128; utilisation mid-to-high 90 %",
        values,
        (
            f"at every QL TT(ECN)/TT(DT) ≥ {t['e1_min_tt_ecn_over_dt']:g} (no gain beyond the paper's "
            f"±{(1 - t['e1_min_tt_ecn_over_dt']) * 100:g} % CI); (max − min)/mean of TT over QL ≤ "
            f"{t['e1_max_tt_spread'] * 100:g} % per queue; utilisation ≥ {t['e1_min_utilisation'] * 100:g} % in every case"
        ),
        ok,
    )  # fmt: skip


def overheads(setting: pd.DataFrame) -> dict[str, Any]:
    """A QL's network overheads by queue, ECN's reduction against DT and the points saved."""
    overhead = setting["network_overhead_pct"]
    return {
        "network_overhead_pct": by_queue(setting, "network_overhead_pct"),
        "extra_packets": by_queue(setting, "extra_packets_sent", 0),
        "reduction_ecn_vs_dt_pct": rounded(reduction_pct(overhead["DT"], overhead["ECN"]), 1),
        "fewer_packets_pp": rounded(overhead["DT"] - overhead["ECN"]),
    }


def check_e2(cases: pd.DataFrame) -> dict[str, Any]:
    setting = pick(cases, 25, 20, False, 64)
    paper = {"DT": 10.18, "RED": 7.32, "ECN": 2.78}
    o = setting["network_overhead_pct"]
    relative, points = TOLERANCES["overhead_relative"], TOLERANCES["overhead_points"]
    ok = all(within(o[q], paper[q], relative, points) for q in QUEUES) and o["DT"] > o["RED"] > o["ECN"]
    return check(
        "E2", "n = 25, d = 20 ms, QL = 64: network overhead of DT, RED and ECN",
        {"network_overhead_pct": paper, "extra_packets": {"DT": 1960, "ECN": 535}, "reduction_ecn_vs_dt_pct": 72,
         "fewer_packets_pp": 7.40},
        overheads(setting),
        f"each overhead within ±{relative * 100:g} % of the paper's (or ±{points:g} points); DT > RED > ECN",
        ok,
    )  # fmt: skip


def check_e3(cases: pd.DataFrame) -> dict[str, Any]:
    setting = pick(cases, 10, 20, False, 64)
    paper = {"DT": 445, "ECN": 149}
    extra = setting["extra_packets_sent"]
    relative = TOLERANCES["overhead_relative"]
    ok = all(within(extra[q], paper[q], relative) for q in paper)
    return check(
        "E3", "n = 10, d = 20 ms, QL = 64: extra packets sent by the server, DT vs ECN",
        {"extra_packets": paper, "network_overhead_pct": {"DT": 5.78, "ECN": 1.94}, "reduction_ecn_vs_dt_pct": 66},
        overheads(setting),
        f"extra packets of DT and ECN each within ±{relative * 100:g} % of the paper's",
        ok,
    )  # fmt: skip


def check_e4(cases: pd.DataFrame) -> dict[str, Any]:
    setting = pick(cases, 10, 20, False, 128)
    o = setting["network_overhead_pct"]
    dt_max, slack = TOLERANCES["e4_max_dt_overhead_pct"], TOLERANCES["ecn_slack_points"]
    ok = o["DT"] <= dt_max and o["RED"] > o["DT"] and o["ECN"] <= o["DT"] + slack
    return check(
        "E4", "n = 10, QL = 128 (d = 20 ms): DT almost drop-free; RED's overhead worse than DT's; ECN unaffected",
        "DT hardly any drops; O(RED) > O(DT); O(ECN) not above O(DT)",
        {"network_overhead_pct": by_queue(setting, "network_overhead_pct"),
         "bottleneck_drops": by_queue(setting, "bottleneck_drops", 0)},
        f"O(DT) ≤ {dt_max:g} %; O(RED) > O(DT); O(ECN) ≤ O(DT) + {slack:g} points",
        ok,
    )  # fmt: skip


def check_e5(cases: pd.DataFrame) -> dict[str, Any]:
    """§4.2: ECN ≤ DT with twice the buffer; receiver overhead; RED worse than DT at small QL."""
    values: dict[str, Any] = {}
    ok = True
    best_relative, best_points = -np.inf, -np.inf
    slack, min_relative = TOLERANCES["ecn_slack_points"], TOLERANCES["e5_min_receiver_reduction_pct"]
    paper_points, points_tolerance = TOLERANCES["e5_receiver_points"]
    for n in (10, 25):
        setting = pick(cases, n, 20, False)
        network = setting["network_overhead_pct"].unstack("queue")
        receiver = setting["receiver_overhead_pct"].unstack("queue")
        qls = list(network.index)
        doubled = {
            f"ECN QL {ql} vs DT QL {2 * ql}": [rounded(network["ECN"].loc[ql]), rounded(network["DT"].loc[2 * ql])]
            for ql in qls
            if 2 * ql in qls
        }
        for ecn, dt in doubled.values():
            if ecn is None or dt is None:
                raise ValueError(f"E5 (n = {n}): a network overhead of the doubled-buffer comparison is missing")
            ok &= ecn <= dt + slack
        ok &= bool((receiver["ECN"] <= receiver["DT"]).all())
        smallest = min(qls)
        ok &= bool(network["RED"].loc[smallest] > network["DT"].loc[smallest])
        relative = [reduction_pct(receiver["DT"].loc[ql], receiver["ECN"].loc[ql]) for ql in qls]
        best_relative = max(best_relative, *relative)
        best_points = max(best_points, (receiver["DT"] - receiver["ECN"]).max())
        values[f"n {n}"] = {
            "network_overhead_ecn_vs_dt_double_buffer": doubled,
            "receiver_overhead_pct": by_ql(setting, "receiver_overhead_pct"),
            f"network_overhead_pct_ql{smallest}": by_queue(pick(cases, n, 20, False, smallest), "network_overhead_pct"),
        }
    values["receiver_overhead_max_reduction_pct"] = rounded(best_relative, 1)
    values["receiver_overhead_max_reduction_points"] = rounded(best_points)
    ok &= best_relative >= min_relative and abs(best_points - paper_points) <= points_tolerance
    return check(
        "E5",
        (
            "d = 20 ms, n = 10, 25: ECN's overhead ≤ DT's with twice the buffer; ECN's receiver overhead below DT's (≈ "
            "2 points, up to 88 %); RED worse than DT at the smallest QL"
        ),
        {"ecn_vs_dt_double_buffer": "O(ECN, QL) ≤ O(DT, 2·QL)", "receiver_overhead_max_reduction_pct": 88,
         "receiver_overhead_max_reduction_points": 2, "under_provisioned": "O(RED) > O(DT)"},
        values,
        (
            f"O(ECN, QL) ≤ O(DT, 2·QL) + {slack:g} points for every QL pair; receiver overhead ECN ≤ DT in every case, the "
            f"largest relative reduction ≥ {min_relative:g} % (88 − {88 - min_relative:g}) and the largest absolute one "
            f"{paper_points:g} ± {points_tolerance:g} points; O(RED) > O(DT) at QL 16"
        ),
        ok,
    )  # fmt: skip


def check_e6(cases: pd.DataFrame) -> dict[str, Any]:
    values, gains, regions = {}, {}, {}
    max_gain, max_region = TOLERANCES["e6_max_gain_points"], TOLERANCES["e6_max_red_region"]
    for d in (2, 20):
        setting = pick(cases, 5, d, False)
        network = setting["network_overhead_pct"].unstack("queue")
        gains[d] = float((network["DT"] - network["ECN"]).mean())
        regions[d] = setting.xs("ECN", level="queue")["red_region_fraction"]
        values[f"d {d} ms"] = {
            "network_overhead_pct": by_ql(setting, "network_overhead_pct"),
            "mean_gain_dt_minus_ecn_points": rounded(gains[d]),
            "red_region_pct_ecn": {f"QL {ql}": rounded(100 * v, 1) for ql, v in regions[d].items()},
        }
    return check(
        "E6", "n = 5: at d = 2 ms the router is not in the RED region and ECN gains ≈ 0; at d = 20 ms a slight gain",
        "d = 2 ms: no RED-region operation, ECN's network-overhead gain ≈ 0; d = 20 ms: a slight gain",
        values,
        (
            f"d = 2 ms: |mean over QL of O(DT) − O(ECN)| ≤ {max_gain:g} point and RED's average in its region < "
            f"{max_region * 100:g} % of the time at every QL; d = 20 ms: mean gain > 0"
        ),
        abs(gains[2]) <= max_gain and bool((regions[2] < max_region).all()) and gains[20] > 0,
    )  # fmt: skip


def check_e7(cases: pd.DataFrame) -> dict[str, Any]:
    paper = {"DT": 3.07, "RED": 0.87, "ECN": 0.56}
    values = {}
    for d in sorted({2, 20}, key=lambda d: d != E7_DELAY_MS):  # the reading the check uses first
        setting = pick(cases, 25, d, True, 128)
        r = setting["receiver_overhead_pct"]
        values[f"d {d} ms"] = {
            "receiver_overhead_pct": by_queue(setting, "receiver_overhead_pct"),
            "reduction_ecn_vs_dt_pct": rounded(reduction_pct(r["DT"], r["ECN"]), 1),
            "fewer_packets_pp": rounded(r["DT"] - r["ECN"]),
            "with_corrupted_pct": by_queue(setting, "receiver_overhead_with_corrupted_pct"),
        }
    r = pick(cases, 25, E7_DELAY_MS, True, 128)["receiver_overhead_pct"]
    relative, points = TOLERANCES["overhead_relative"], TOLERANCES["overhead_points"]
    return check(
        "E7", f"errors 1 %, n = 25, QL = 128 (d = {E7_DELAY_MS} ms): receiver overhead of DT, RED and ECN",
        {"receiver_overhead_pct": paper, "reduction_ecn_vs_dt_pct": 82, "fewer_packets_pp": 2.5},
        values,
        (
            f"at d = {E7_DELAY_MS} ms each within ±{relative * 100:g} % of the paper's (or ±{points:g} points), counting "
            "the segments the clients' TCP received (corrupted ones not; the mean over the case's runs)"
        ),
        all(within(r[q], paper[q], relative, points) for q in QUEUES),
    )  # fmt: skip


def check_e8(cases: pd.DataFrame) -> dict[str, Any]:
    """§4.5, Fig. 6: with errors, n = 10 flat; n = 25 ECN better at QL 16, worse at QL 64 with d = 2 ms."""
    small = cases[(cases["n"] == 10) & cases["errors"]]["tt_mean_s"]
    spread = (small.max() - small.min()) / small.mean()
    tt_2 = pick(cases, 25, 2, True)["tt_mean_s"].unstack("queue")
    tt_20 = pick(cases, 25, 20, True)["tt_mean_s"].unstack("queue")
    better_16 = all(tt["ECN"].loc[16] < tt["DT"].loc[16] for tt in (tt_2, tt_20))
    worse_64 = tt_2["ECN"].loc[64] > tt_2["DT"].loc[64]
    return check(
        "E8",
        (
            "errors 1 %, d = 2 and 20 ms: n = 10 TT flat; n = 25 ECN slightly better at QL = 16 and worse at QL = 64 "
            "with d = 2 ms"
        ),
        "n = 10: hardly any variation; n = 25: TT(ECN) < TT(DT) at QL 16, TT(ECN) > TT(DT) at QL 64, d = 2 ms",
        {"n 10 tt_spread_pct": rounded(100 * spread, 1),
         "n 25 d 2 ms tt_mean_s": by_ql(pick(cases, 25, 2, True), "tt_mean_s", 3),
         "n 25 d 20 ms tt_mean_s": by_ql(pick(cases, 25, 20, True), "tt_mean_s", 3)},
        (
            f"n = 10: (max − min)/mean of TT over every queue, QL and d ≤ {TOLERANCES['e8_max_tt_spread'] * 100:g} %; "
            "n = 25: TT(ECN) < TT(DT) at QL 16 for both d, and TT(ECN) > TT(DT) at QL 64, d = 2 ms"
        ),
        spread <= TOLERANCES["e8_max_tt_spread"] and better_16 and worse_64,
    )  # fmt: skip


def check_e9(cases: pd.DataFrame) -> dict[str, Any]:
    """§4.6, Fig. 7: ACKs per transfer with errors."""
    acks = pick(cases, 25, 2, True)["acks_per_transfer"].unstack("queue")
    fewer = {ql: reduction_pct(acks["DT"].loc[ql], acks["ECN"].loc[ql]) for ql in acks.index}
    exceptions = []
    # Fig. 7, as every figure of the paper, shows n = 10 and 25 only (§4).
    shown = cases[cases["errors"] & cases["n"].isin([10, 25])]
    for (n, d), setting in shown.groupby(["n", "d_ms"]):
        per_ql = setting.set_index(["ql", "queue"])["acks_per_transfer"].unstack("queue")
        not_below = per_ql.index[per_ql["ECN"] >= per_ql["RED"]]
        exceptions += [f"n {n}, d {d:g} ms, QL {ql}" for ql in not_below]
    qls = sorted(fewer)
    t = TOLERANCES
    (low_128, high_128), (paper_64, points_64) = t["e9_fewer_pct_ql128"], t["e9_fewer_pct_ql64"]
    slack, acks_relative = t["e9_shrink_slack_points"], t["e9_acks_relative"]
    shrinking = all(fewer[a] <= fewer[b] + slack for a, b in itertools.pairwise(qls))
    ok = (within(acks["DT"].loc[128], 54, acks_relative) and within(acks["ECN"].loc[128], 44, acks_relative)
          and low_128 <= fewer[128] <= high_128
          and within(fewer[64], paper_64, 0, points_64) and shrinking and set(exceptions) <= {"n 10, d 2 ms, QL 32"})  # fmt: skip
    return check(
        "E9",
        (
            "errors 1 %, n = 25, d = 2 ms: ACKs per transfer DT ≈ 54, ECN ≈ 44 at QL 128; 10 % fewer at QL 64; gains "
            "shrink with QL; ECN < RED except QL 32, d 2 ms, n 10"
        ),
        {"acks_per_transfer_ql128": {"DT": 54, "ECN": 44}, "fewer_acks_pct": {"QL 128": "15–19", "QL 64": 10},
         "ecn_not_below_red": ["n 10, d 2 ms, QL 32"]},
        {"acks_per_transfer": by_ql(pick(cases, 25, 2, True), "acks_per_transfer", 1),
         "fewer_acks_pct": {f"QL {ql}": rounded(v, 1) for ql, v in fewer.items()},
         "ecn_not_below_red": exceptions},
        (
            f"QL 128: DT and ECN within ±{acks_relative * 100:g} % of 54 and 44, reduction {low_128:g}–{high_128:g} % (the "
            f"paper's 15 % and 44/54); QL 64: {paper_64:g} ± {points_64:g} %; reduction non-decreasing in QL "
            f"({slack:g} point slack); ECN < RED in every error case with n = 10 or 25 but the paper's exception"
        ),
        ok,
    )  # fmt: skip


def check_e10(confidence: pd.DataFrame, config: Grid) -> dict[str, Any]:
    half = confidence["tt_ci98_half_pct"]
    max_half = TOLERANCES["e10_max_half_width_pct"]
    return check(
        "E10",
        (
            f"{config['ci_replications']} replications (QL {config['ci_ql']}, d = 20 ms): 98 % CI of the mean transfer "
            f"time within ±{max_half:g} % of the mean"
        ),
        f"98 % CIs mostly within ±{max_half:g} % of the sample means",
        {f"n {r.n}, {'errors' if r.errors else 'no errors'}, {r.queue}": rounded(r.tt_ci98_half_pct, 2)
         for r in confidence.itertuples()},
        f"the 98 % half-width ≤ {max_half:g} % of the mean in most (more than half) of the replicated cases",
        bool((half <= max_half).mean() > 0.5),
    )  # fmt: skip


def check_e11(cases: pd.DataFrame) -> dict[str, Any]:
    """§4: the share of time RED's average is in its early-marking region, pooled over QL."""
    values, shares = {}, {}
    (low, high), n25 = TOLERANCES["e11_n10_region"], TOLERANCES["e11_n25_min_region"]
    for n in (10, 25):
        setting = pick(cases, n, 20, False)
        red = setting[setting.index.get_level_values("queue") != "DT"]
        # Pooled over QL and both RED queues, weighting each run by its length.
        shares[n] = float((red["red_region_fraction"] * red["experiment_s"]).sum() / red["experiment_s"].sum())
        queues, qls = red.index.get_level_values("queue"), red.index.get_level_values("ql")
        per_case = {
            f"{q} QL {ql}": rounded(100 * v, 1)
            for q, ql, v in zip(queues, qls, red["red_region_fraction"], strict=True)
        }
        values[f"n {n}"] = {"pooled_pct": rounded(100 * shares[n], 1), "per_case_pct": per_case}
    return check(
        "E11",
        (
            "d = 20 ms: with n = 10 the router is in the RED region most but not all of the time, with n = 25 "
            "virtually always"
        ),
        "n = 10: most, not all, of the time; n = 25: virtually all the time",
        values,
        (
            f"share of time min_th ≤ avg < 2·max_th (RED's average rebuilt from {RECORDER_INTERVAL_S * 1000:g} ms samples), "
            f"pooled over QL and RED/ECN: n = 10 in ({low * 100:g} %, {high * 100:g} %), n = 25 ≥ {n25 * 100:g} %"
        ),
        low < shares[10] < high and shares[25] >= n25,
    )  # fmt: skip
