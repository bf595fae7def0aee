"""The paper's targets: each check computed from the runs' summaries (the same functions compute ns-2.35's or the fluid model's value from the reference's runs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from wattnet.estop import (
    SASSU_TABLE_V,
    SASSU_WATTS_SAVED,
)
from wattnet.experiments.greened_network.params import (
    AIMD,
    B1_TOLERANCE,
    B2_SAVING_POINTS,
    B3_TOLERANCE,
    B5_DEEP_DROP_FRACTION,
    B5_SETTLED_FACTOR,
    DURATION_S,
    FIG2_THRESHOLD,
    LOSS_BASED,
    PAPER_TABLE_IV,
    PRIMARY_BACKGROUND,
    STEADY_FROM_S,
    SWITCH_OFF_S,
    TABLE_IV_THRESHOLDS,
    TRANSITION_WINDOW_S,
    VARIANTS,
    VEGAS_COLLAPSE_LOSS_PCT,
    VEGAS_MODERATE_LOSS_PCT,
)
from wattnet.experiments.report import (
    check,
    rounded,
)
from wattnet.topology import Topology


def _thresholds(thresholds: Sequence[int], last: str = ", ") -> str:
    """``[50, 70, 90]`` -> ``"50, 70, 90"`` (or ``"50, 70 and 90"`` with ``last=" and "``)."""
    names = [str(t) for t in thresholds]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + last + names[-1]


def _times(factor: float) -> str:
    """A factor in words where there is one: 0.5 -> "half", 2 -> "twice"."""
    return {0.5: "half", 2.0: "twice"}.get(factor, f"{factor:g} ×")


def _cell(table: pd.DataFrame, variant: str, threshold: int, column: str) -> float:
    return float(table[(table["variant"] == variant) & (table["threshold_pct"] == threshold)][column].iloc[0])


def _by_variant(table: pd.DataFrame, threshold: int, column: str) -> pd.Series:
    return table[table["threshold_pct"] == threshold].set_index("variant")[column]


def checks(network: Topology, iv: pd.DataFrame, v: pd.DataFrame, per_threshold: pd.DataFrame) -> list[dict[str, Any]]:
    """B1–B6 on the primary background reading: Table IV means over replications; Fig. 2's trends per run."""
    iv = iv[iv["background"] == PRIMARY_BACKGROUND]
    runs = per_threshold[per_threshold["background"] == PRIMARY_BACKGROUND]
    return [*b1_checks(iv), *b2_b3_checks(v), *b4_checks(network, runs), *b5_checks(runs), *b6_checks(iv)]


def b1_checks(iv: pd.DataFrame) -> list[dict[str, Any]]:
    """B1 (Table IV), one check per variant: every throughput within ±15 %, losses shown."""
    result = []
    for variant, (paper_before, paper_after) in PAPER_TABLE_IV.items():
        measured = {"before": _cell(iv, variant, TABLE_IV_THRESHOLDS[0], "before_mbps")}
        paper = {"before": paper_before}
        for t in TABLE_IV_THRESHOLDS:
            measured[f"after {t} %"] = _cell(iv, variant, t, "after_mbps")
            paper[f"after {t} %"] = paper_after[t]
        within = all(abs(measured[k] - paper[k]) <= B1_TOLERANCE * paper[k] for k in paper)
        losses = {f"loss {t} %": rounded(_cell(iv, variant, t, "loss_pct"), 1) for t in TABLE_IV_THRESHOLDS}
        paper_losses = {f"loss {t} %": rounded(_cell(iv, variant, t, "paper_loss_pct"), 1) for t in TABLE_IV_THRESHOLDS}
        result.append(check(
            f"B1.{variant}",
            f"Table IV: {variant} average throughput before ESTOP and after it at {_thresholds(TABLE_IV_THRESHOLDS)} % (Mb/s)",
            {**paper, **paper_losses},
            {**{k: rounded(x) for k, x in measured.items()}, **losses},
            f"each throughput within ±{B1_TOLERANCE * 100:g} % of the paper's (losses shown, the wattnet defaults §B)",
            within,
        ))  # fmt: skip
    return result


def b2_b3_checks(v: pd.DataFrame) -> list[dict[str, Any]]:
    """B2 (Table V per threshold, the algorithmic ESTOP the runs use) and B3 (watts saved)."""
    result = []
    for _, row in v.iterrows():
        threshold = int(row["threshold_pct"])
        saving_gap = abs(row["energy_saving_pct"] - row["paper_energy_saving_pct"])
        result.append(check(
            f"B2.{threshold}",
            f"Table V at {threshold} %: links switched off and energy saving",
            {"links": row["paper_off_links"], "energy_saving_pct": row["paper_energy_saving_pct"]},
            {"links": row["off_links"], "energy_saving_pct": rounded(row["energy_saving_pct"], 1),
             "lambda2_ratio": rounded(row["lambda2_ratio"], 4)},
            f"the same links; saving within {B2_SAVING_POINTS:g} points (the paper rounds to 0.1)",
            bool(row["same_links_as_paper"]) and saving_gap <= B2_SAVING_POINTS,
        ))  # fmt: skip
    for threshold, paper_watts in SASSU_WATTS_SAVED.items():
        row = v[v["threshold_pct"] == threshold].iloc[0]
        result.append(check(
            f"B3.{threshold}",
            f"Watts saved at {threshold} % at the original 40 Gb/s (140 W per 2.5 Gb/s card)",
            paper_watts,
            {"rule_one_card_set_per_link": rounded(row["watts_saved"], 1), "links_off": int(row["links_off"]),
             "engine_both_ends": rounded(row["engine_watts_saved_both_ends"], 1)},
            f"rule within ±{B3_TOLERANCE * 100:g} % of the paper",
            abs(row["watts_saved"] - paper_watts) <= B3_TOLERANCE * paper_watts,
        ))  # fmt: skip
    return result


def _distinct(values: pd.Series[Any]) -> list[Any]:
    return sorted(set(values))


def b4_checks(network: Topology, runs: pd.DataFrame) -> list[dict[str, Any]]:
    """B4: Table I's topology facts and Table II's path lengths, as the engine measured them."""
    degrees = [d for _, d in network.graph().degree()]
    facts = {"nodes": len(network.nodes), "links": len(network.links), "degree_min": min(degrees),
             "degree_mean": sum(degrees) / len(degrees), "degree_max": max(degrees)}  # fmt: skip
    paper_facts = {"nodes": 12, "links": 15, "degree_min": 1, "degree_mean": 2.5, "degree_max": 4}
    hops = runs.groupby("threshold_pct")[["hops_before", "hops_after"]].agg(_distinct)
    # The paper's "+1 hop" comes with (2;8) switched off; at its other thresholds the path keeps its 5 hops.
    with_2_8_off = [t for t, links in SASSU_TABLE_V.items() if (2, 8) in links]
    hops_ok = all(hops.loc[t, "hops_before"] == [5] and hops.loc[t, "hops_after"] == [6] for t in with_2_8_off)
    return [
        check(
            "B4.topology", "Table I: ABILENE nodes, links, degrees", paper_facts, facts, "exact", facts == paper_facts
        ),
        check(
            "B4.hops",
            "Table II: the TCP path 8 → 10 has 5 hops, and 1 more after ESTOP where (2;8) goes off",
            {"before": 5, "after": 6, "thresholds": with_2_8_off},
            {f"{t} %": f"{b[0]} → {a[0]}" for t, (b, a) in hops.iterrows()},
            f"exact at {', '.join(map(str, with_2_8_off))} % (the paper's sets with (2;8) off)",
            hops_ok,
        ),
    ]


def b5_checks(runs: pd.DataFrame) -> list[dict[str, Any]]:
    """B5: Fig. 2's trends at th = 70 %, required in every run (the counts say how many hold)."""
    fig2 = runs[runs["threshold_pct"] == FIG2_THRESHOLD]
    means = fig2.groupby("variant").mean(numeric_only=True).reindex(list(VARIANTS))

    def runs_holding(holds: pd.Series) -> dict[str, str]:
        return {v: f"{int(group.sum())}/{len(group)}" for v, group in holds.groupby(fig2.loc[holds.index, "variant"])}

    lower = (fig2["cwnd_mean_after"] < fig2["cwnd_mean_before"]) & (fig2["cwnd_peak_after"] < fig2["cwnd_peak_before"])
    lower_runs = runs_holding(lower)
    aimd = fig2[fig2["variant"].isin(AIMD)]
    deep_drop = aimd["cwnd_min_transition"] <= B5_DEEP_DROP_FRACTION * aimd["cwnd_mean_before"]
    new_state = aimd["cwnd_mean_settled"] >= B5_SETTLED_FACTOR * aimd["cwnd_min_transition"]
    # A longer time to the peak: slower congestion-avoidance growth (≈ 1 segment per RTT) on a longer RTT.
    slower = aimd["ca_growth_after_per_s"] < aimd["ca_growth_before_per_s"]
    longer_rtt = aimd["srtt_after_ms"] > aimd["srtt_before_ms"]
    transition = deep_drop & new_state & slower & longer_rtt
    transition_runs = runs_holding(transition)
    bic_cubic = fig2[fig2["variant"].isin(["BIC", "CUBIC"])]
    above_1 = bic_cubic["cwnd_min_after"] > 1
    above_1_runs = runs_holding(above_1)
    lowest_after = bic_cubic.groupby("variant")["cwnd_min_after"].min()
    ratio = means["cwnd_mean_after"] / means["cwnd_mean_before"]
    transition_end_s = SWITCH_OFF_S + TRANSITION_WINDOW_S
    before_window = f"[{STEADY_FROM_S:g}, {SWITCH_OFF_S:g}) s"
    after_window = f"[{SWITCH_OFF_S:g}, {DURATION_S:g}) s"
    return [
        check(
            "B5.lower-cwnd",
            f"Fig. 2 ({FIG2_THRESHOLD} %): every variant has a lower mean and peak cwnd after ESTOP",
            "mean and peak lower after, all six variants",
            {v: {"mean": f"{r.cwnd_mean_before:.1f} → {r.cwnd_mean_after:.1f}",
                 "peak": f"{r.cwnd_peak_before:.0f} → {r.cwnd_peak_after:.0f}", "runs_holding": lower_runs[str(v)]}
             for v, r in means.iterrows()},
            f"in every run: mean over {after_window} < mean over {before_window}; peak outside loss recovery "
            f"over [{transition_end_s:g}, {DURATION_S:g}) s < over {before_window}",
            bool(lower.all()),
        ),
        check(
            "B5.aimd-transition",
            "Fig. 2: Tahoe, Reno, NewReno drop deep and briefly at the transition, settle in a new state, and take "
            "longer to reach their peak",
            "deep short drop, new stable state, longer time to peak (larger RTT)",
            {v: {"min_first_s": rounded(r.cwnd_min_transition, 1), "mean_before": rounded(r.cwnd_mean_before, 1),
                 "mean_settled": rounded(r.cwnd_mean_settled, 1),
                 "srtt_ms": f"{r.srtt_before_ms:.1f} → {r.srtt_after_ms:.1f}",
                 "ca_growth_per_s": f"{r.ca_growth_before_per_s:.2f} → {r.ca_growth_after_per_s:.2f}",
                 "runs_holding": transition_runs[str(v)]}
             for v, r in means.loc[list(AIMD)].iterrows()},
            f"in every run: min cwnd in [{SWITCH_OFF_S:g}, {transition_end_s:g}) s ≤ {_times(B5_DEEP_DROP_FRACTION)} the mean "
            f"before; mean after that ≥ {_times(B5_SETTLED_FACTOR)} "
            "that min; SRTT longer and congestion-avoidance growth (segments/s) slower after than before",
            bool(transition.all()),
        ),
        check(
            "B5.bic-cubic-above-1",
            "Fig. 2: BIC and CUBIC never set their cwnd to one segment after ESTOP",
            "cwnd > 1 segment",
            {v: {"lowest_cwnd": rounded(lowest_after[v], 2), "runs_holding": above_1_runs[v]}
             for v in ["BIC", "CUBIC"]},
            f"lowest cwnd over {after_window} > 1 segment in every run",
            bool(above_1.all()),
        ),
        check(
            "B5.vegas-steps-down",
            "Fig. 2: Vegas's cwnd steps down after ESTOP, by more than the loss-based variants'",
            "Vegas's drop larger than every loss-based variant's",
            {v: rounded(r, 3) for v, r in ratio.items()} | {"quantity": "mean cwnd after / before"},
            "Vegas's ratio below every loss-based variant's",
            bool(ratio["Vegas"] < ratio[list(LOSS_BASED)].min()),
        ),
    ]  # fmt: skip


def _measured(loss_pct: Any) -> float:
    """A throughput loss to one decimal, as the B6 checks compare and report it; a clear error if it is missing."""
    value = rounded(loss_pct, 1)
    if value is None:
        raise ValueError("B6: a variant has no measured throughput loss at a Table IV threshold")
    return value


def b6_checks(iv: pd.DataFrame) -> list[dict[str, Any]]:
    """B6: the paper's orderings, on Table IV's means at 50, 70 and 90 %."""
    before = _by_variant(iv, TABLE_IV_THRESHOLDS[0], "before_mbps")
    after = {t: _by_variant(iv, t, "after_mbps") for t in TABLE_IV_THRESHOLDS}
    loss = {t: _by_variant(iv, t, "loss_pct") for t in TABLE_IV_THRESHOLDS}
    paper_loss = {t: _by_variant(iv, t, "paper_loss_pct") for t in TABLE_IV_THRESHOLDS}

    tops = {"before": list(before.nlargest(2).index)} | {
        f"after {t} %": list(after[t].nlargest(2).index) for t in TABLE_IV_THRESHOLDS
    }
    best_after = {f"{t} %": after[t].idxmax() for t in TABLE_IV_THRESHOLDS}
    versus_tahoe, beat_tahoe = {}, True
    for t in TABLE_IV_THRESHOLDS:
        for variant in ["Reno", "NewReno"]:
            versus_tahoe[f"{variant} vs Tahoe {t} %"] = {
                "before": f"{before[variant]:.2f} vs {before['Tahoe']:.2f}",
                "after": f"{after[t][variant]:.2f} vs {after[t]['Tahoe']:.2f}",
                "loss": f"{loss[t][variant]:.1f} vs {loss[t]['Tahoe']:.1f}",
            }
            beat_tahoe &= bool(
                before[variant] > before["Tahoe"]
                and after[t][variant] > after[t]["Tahoe"]
                and loss[t][variant] < loss[t]["Tahoe"]
            )
    lowest_loss = {f"{t} %": list(loss[t][list(LOSS_BASED)].nsmallest(2).index) for t in TABLE_IV_THRESHOLDS}
    trend = {v: [_measured(loss[t][v]) for t in TABLE_IV_THRESHOLDS] for v in VARIANTS}
    falls = {v: losses[0] >= losses[1] >= losses[2] and losses[0] > losses[2] for v, losses in trend.items()}
    vegas = {f"{t} %": _measured(loss[t]["Vegas"]) for t in TABLE_IV_THRESHOLDS}
    # Vegas collapses at the lower thresholds of Table IV and is moderate at the highest (Fig. 4).
    *collapsing, moderate = TABLE_IV_THRESHOLDS
    collapses = all(vegas[f"{t} %"] >= VEGAS_COLLAPSE_LOSS_PCT for t in collapsing)
    every, every_and = _thresholds(TABLE_IV_THRESHOLDS), _thresholds(TABLE_IV_THRESHOLDS, " and ")
    return [
        check(
            "B6.bic-cubic-best", "BIC and CUBIC have the best throughput before and after ESTOP",
            "the two highest: BIC and CUBIC", tops, f"BIC and CUBIC the two highest of six, before and at {every} %",
            all(set(top) == {"BIC", "CUBIC"} for top in tops.values()),
        ),
        check(
            "B6.cubic-best-after", "CUBIC is best after pruning", f"CUBIC at {every} %", best_after,
            "CUBIC the highest after-throughput at each threshold", all(v == "CUBIC" for v in best_after.values()),
        ),
        check(
            "B6.reno-newreno-beat-tahoe", "Reno and NewReno beat Tahoe in throughput and in throughput loss",
            "higher throughput before and after, lower loss", versus_tahoe, f"at {every_and} %", beat_tahoe,
        ),
        check(
            "B6.reno-cubic-lowest-loss", "Reno and CUBIC have the lowest throughput loss (Fig. 3)",
            "the two lowest losses of the loss-based variants: Reno and CUBIC", lowest_loss, f"at {every_and} %",
            all(set(pair) == {"Reno", "CUBIC"} for pair in lowest_loss.values()),
        ),
        check(
            "B6.loss-falls", "All variants: the throughput loss falls as the threshold rises (Fig. 3)",
            {v: [rounded(paper_loss[t][v], 1) for t in TABLE_IV_THRESHOLDS] for v in VARIANTS},
            trend | {"falls": falls},
            f"loss % at {' ≥ '.join(map(str, TABLE_IV_THRESHOLDS))} % and {TABLE_IV_THRESHOLDS[0]} > {TABLE_IV_THRESHOLDS[-1]} %, "
            "every variant",
            all(falls.values()),
        ),
        check(
            "B6.vegas-collapse",
            f"Vegas collapses at {' % and '.join(map(str, collapsing))} % and is moderate at {moderate} % (Fig. 4)",
            {f"{t} %": rounded(paper_loss[t]["Vegas"], 1) for t in TABLE_IV_THRESHOLDS}, vegas,
            f"loss ≥ {VEGAS_COLLAPSE_LOSS_PCT:g} % at {_thresholds(collapsing, ' and ')} %, ≤ {VEGAS_MODERATE_LOSS_PCT:g} % "
            f"at {moderate} %",
            collapses and vegas[f"{moderate} %"] <= VEGAS_MODERATE_LOSS_PCT,
        ),
    ]  # fmt: skip


def computed_causes(v: pd.DataFrame) -> dict[str, str]:
    """Why ESTOP's link set (B2) or its watts (B3) differ from the paper's Table V at a threshold, from the
    table of the algorithm's results; only thresholds where they differ get a sentence."""
    causes = {}
    for _, row in v[~v["same_links_as_paper"]].iterrows():
        threshold = int(row["threshold_pct"])
        causes[f"B2.{threshold}"] = (
            f"ESTOP as described (links in ascending edge betweenness, each switched off while λ₂ stays at least "
            f"{threshold} % of its original value) switches off {row['off_links']}: the last leaves λ₂ at "
            f"{row['lambda2_ratio']:.4f} of the original, above {threshold / 100:g}, where the paper lists "
            f"{row['paper_off_links']}; recomputing the betweenness after each removal or stopping at the first "
            "rejected link gives the same set (docs/models/routing-and-pruning.md), so the paper's row cannot come "
            "from the algorithm as its text describes it."
        )
        if threshold in SASSU_WATTS_SAVED:
            per_link = row["watts_saved"] / row["links_off"]
            paper_links = len(row["paper_off_links"].split("), ("))
            causes[f"B3.{threshold}"] = (
                f"The rule's watts follow the link count: {row['links_off']} links × {per_link:g} W = "
                f"{row['watts_saved']:g} W; the paper's {SASSU_WATTS_SAVED[threshold]:g} W are its "
                f"{paper_links}-link set, which the same rule puts at {paper_links * per_link:g} W (see B2.{threshold})."
            )
    return causes
