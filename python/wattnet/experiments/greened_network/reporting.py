"""The report: parameters with their sources, interpretation choices and the sections whose prose quotes the measured numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.estop import (
    LINE_CARD_CAPACITY_BPS,
    LINE_CARD_WATTS,
    SASSU_WATTS_SAVED,
    line_card_watts,
)
from wattnet.experiments import GREENED_NETWORK_PAPER
from wattnet.experiments.greened_network.params import (
    AIMD,
    B1_TOLERANCE,
    B3_TOLERANCE,
    B5_DEEP_DROP_FRACTION,
    B5_SETTLED_FACTOR,
    BACKGROUND_READINGS,
    CAPACITY_SCALE,
    CBR_LOAD,
    CBR_PACKET_BYTES,
    DURATION_S,
    LINK_RATE_BPS,
    LOSS_EVENT_GAP_S,
    MSS_BYTES,
    NAME,
    PAPER_TABLE_IV,
    PRIMARY_BACKGROUND,
    RECORDER_INTERVAL_S,
    REDUCTION_FRACTION,
    STEADY_FROM_S,
    SWITCH_OFF_S,
    TABLE_IV_THRESHOLDS,
    TCP_DESTINATION,
    TCP_SOURCE,
    TRANSITION_S,
    VEGAS_COLLAPSE_LOSS_PCT,
    VEGAS_MODERATE_LOSS_PCT,
    Grid,
)
from wattnet.experiments.greened_network.summaries import table_iv_wide
from wattnet.experiments.greened_network.targets import _by_variant
from wattnet.experiments.report import (
    REPRODUCED,
    table_html,
    write_report,
)

# ns-2.35's Agent/TCP/Vegas beta_ (segments): the study's Vegas runs with it (the variants table).
VEGAS_BETA = 3


def parameters(config: Grid, quick: bool) -> list[tuple[str, str, str]]:
    """(parameter, value, source) rows of the report."""
    readings = ", ".join(config["backgrounds"])
    return [
        ("topology", "SNDlib ABILENE, 12 nodes, 15 links, 0-based SNDlib ids", "paper"),
        ("links", (f"{LINK_RATE_BPS / 1e6:g} Mb/s both ways; delay = great-circle distance at 2×10⁵ km/s, "
                  "rounded to whole ms (1–11 ms)"), "paper + wattnet default"),
        ("buffers", "DropTail, 300 packets per port (the longest TCP path's BDP is ≈ 272 packets)",
         "paper (\"higher than the BDP\") + interpretation (300)"),
        ("background", (f"CBR over UDP at {CBR_LOAD:.0%} of the link: 10 Mb/s of {CBR_PACKET_BYTES} B packets, start "
                       f"offset uniform in one packet interval; {BACKGROUND_READINGS[PRIMARY_BACKGROUND]} "
                       f"({PRIMARY_BACKGROUND}, the checks); readings run: {readings}"),
         "paper (25 %) + wattnet default (1000 B) + interpretation"),
        ("TCP flow", (f"bulk (the 1 GB file outlasts the run), node {TCP_SOURCE} (NYCM) → node {TCP_DESTINATION} "
                     f"(STTL), 1040 B packets = {MSS_BYTES} B payload + 40 B header"), "paper"),
        ("TCP variants", ("Tahoe, Reno, NewReno, Vegas (α/β/γ = 1/3/1, diff = cwnd·(rtt − baseRTT)/rtt) as ns-2's "
                         "agents; BIC (β = 819/1024) and CUBIC (β = 0.8, C = 0.4, no HyStart) as ns-2's TCP-Linux "
                         "agent, with SACK"), "the paper's Table III + wattnet defaults + interpretation"),
        ("TCP profile", ("ns2: no SACK (BIC, CUBIC: SACK), no delayed ACKs, IW 2, initial RTO 3 s, min RTO 0.2 s, "
                        "10 ms tick"), "ns-2.35 default (windowInit_ 2, Agent/TCPSink, rtxcur_init_ 3, minrto_ 0.2, tcpTick_ 0.01)"),
        ("receive window", "1 GiB", ("interpretation: ns-2.35's window_ of 20 packets would cap the flow at ≈ 2 Mb/s, "
         "far below the paper's 27 Mb/s")),
        ("ESTOP", ("algorithmic: ascending initial edge betweenness; a removal is kept while the "
                  "graph stays connected with λ₂ ≥ th·λ₂(original)"), "interpretation of Cuomo et al.; thresholds 50–90 % from the paper"),
        ("ESTOP activation", f"t = {SWITCH_OFF_S:g} s, every link at once on every router", "paper"),
        ("re-routing", (f"global reconvergence: every router installs the new hop-count shortest paths "
                       f"{TRANSITION_S * 1000:g} ms after the switch-off (lowest next-hop id on ties, no ECMP); "
                       "packets sent over an off link meanwhile are lost"),
         "paper (0.03 s transition) + wattnet default"),
        ("duration", f"{DURATION_S:g} s; before = [0, 30) s, after = [30, 60) s", "paper"),
        ("line cards", f"per port ⌈40 Gb/s / 2.5 Gb/s⌉ × {LINE_CARD_WATTS:g} W = 2240 W while on, 0 W off",
         "paper (Cisco ONS 15600) + wattnet default (one set of cards per port)"),
        ("replications", f"{config['replications']} (the CBR start offsets are redrawn; nothing else is random)",
         "wattnet default (the paper ran one)" + (" (1: --quick)" if quick else "")),
        ("cwnd sampling", f"every {RECORDER_INTERVAL_S * 1000:g} ms; statistics before ESTOP from {STEADY_FROM_S:g} s",
         "wattnet default"),
    ]  # fmt: skip


def interpretations(v: pd.DataFrame, quick: bool) -> list[str]:
    """The report's list of the choices made where the paper is silent or ambiguous (HTML)."""
    ratio_80 = float(v[v["threshold_pct"] == 80]["lambda2_ratio"].iloc[0])
    vegas_before, vegas_after = PAPER_TABLE_IV["Vegas"]
    vegas_paper_losses = ", ".join(
        f"{100 * (vegas_before - after) / vegas_before:.1f}" for _, after in sorted(vegas_after.items())
    )
    free_mbps = LINK_RATE_BPS * (1 - CBR_LOAD) / 1e6
    # The paper's BIC and CUBIC: before ESTOP, and after it at every Table IV threshold.
    best = [PAPER_TABLE_IV[v] for v in ("BIC", "CUBIC")]
    best_before = sum(before for before, _ in best) / len(best)
    best_after = [after for _, row in best for after in row.values()]
    cards = LINK_RATE_BPS * CAPACITY_SCALE / LINE_CARD_CAPACITY_BPS
    per_link = line_card_watts(LINK_RATE_BPS * CAPACITY_SCALE)
    paper_watts = sorted(set(SASSU_WATTS_SAVED.values()), reverse=True)
    paper_links = [round(watts / per_link) for watts in paper_watts]
    return [
        f"""<b>Background traffic.</b> The paper: "CBR traffic on top of UDP using 25 % of the link capacity of every
link, before the links switch-off", re-routed by OSPF after it. wattnet's default reads it as a CBR flow in each
direction of every link. After pruning, that puts the flows of SNVA–STTL and SNVA–DNVR on KSCY→DNVR (30 Mb/s of CBR at
every threshold) and at 50 % five flows (50 Mb/s) on each direction of HSTN–KSCY, a link of the TCP path: the
background alone overloads the network, and the TCP flow keeps at most 10 Mb/s after ESTOP. The paper's numbers say
otherwise: BIC and CUBIC keep ≈ {best_before:.0f} of the {free_mbps:g} Mb/s the CBR leaves them before ESTOP and
{min(best_after):.0f}–{max(best_after):.0f} Mb/s after it at every threshold alike, so the bottleneck of the new path carries about 20 Mb/s of CBR and nothing is overloaded. One ns-2 CBR
agent per link (a UDP agent at one end, a sink at the other) is the other literal reading, and <b>the runs use one flow
per link from its second SNDlib end to its first (<code>{PRIMARY_BACKGROUND}</code>)</b>: of the three readings, the
only one that leaves 20 Mb/s of CBR on the TCP path's bottleneck at every threshold (the offered loads below, measured
by background-only runs). The other orientation (<code>a_to_b</code>) does the same at 60–90 % but puts 30 Mb/s on
HSTN→KSCY, on the TCP path, at 50 %. The paper does not say which end sends: this choice is a calibration to its Table
IV, not a fact from its text."""
        + ("" if quick else " Table IV with the other two readings is in the sensitivity section."),
        f"""<b>ESTOP link sets.</b> The runs use the algorithmic ESTOP of the wattnet defaults
(<code>wattnet.estop.estop</code>). It gives the paper's Table V's links at 50, 60, 70 and 90 %; at 80 % it also switches off
(2;8) (λ₂ ratio {ratio_80:.4f} ≥ 0.8), where the paper lists only (9;10), (9;3); B2.80 and B3.80 report the difference
as failing. The paper's 80 % set is its 90 % set, so the 90 % column shows what the paper's 80 % row gives. 60, 70 and
the algorithmic 80 % switch off the same three links and share their runs.""",
        """<b>BIC and CUBIC.</b> ns-2 has BIC and CUBIC only as modules of its TCP-Linux agent, so the paper, which
names the Linux kernels they come from, most likely ran that agent (the wattnet defaults's simulator note: probable, not verified).
The agent "supports SACK" and is run with a SACK receiver (ns-2 manual, "Linux TCP"): BIC and CUBIC run with the ns2
profile plus SACK (RFC 6675 recovery), CUBIC with the β = 0.8 of the kernels the port carried. Tahoe, Reno,
NewReno and Vegas are ns-2's own agents, without SACK.""",
        f"""Throughput is the TCP flow's goodput (in-order bytes delivered to the receiver); before = [0, {SWITCH_OFF_S:g}) s,
after = [{SWITCH_OFF_S:g}, {DURATION_S:g}) s with the {TRANSITION_S:g} s transition; throughput loss = (before − after)/before
× 100.""",
        f"""<b>Fig. 2 measures.</b> Mean cwnd before ESTOP over [{STEADY_FROM_S:g}, {SWITCH_OFF_S:g}) s (the initial
slow-start overshoot left out) and after it over [{SWITCH_OFF_S:g}, {DURATION_S:g}) s. Peaks leave out loss recovery (from
the first to the last fall of ≥ {(1 - REDUCTION_FRACTION) * 100:g} % between samples of a loss event, falls less than
{LOSS_EVENT_GAP_S:g} s apart), where each duplicate ACK inflates a Reno-style cwnd by a segment; the peak after ESTOP is
taken once its first second is over. "Short deep drop": the lowest cwnd in that second is at most
{B5_DEEP_DROP_FRACTION:g} × the mean before; "new stable state": the mean after it is at least {B5_SETTLED_FACTOR:g} × that
lowest value. "Time to peak": with buffers above the BDP the AIMD sawtooth lasts about one phase, so it is
read from the growth rate in congestion avoidance (segments/s, ≈ 1 per RTT) and the SRTT, before and after. Panel
letters follow the paper's text; which of Tahoe, Reno and NewReno is (a), (b) or (e) is assumed.""",
        f"""Vegas's collapse (B6) is a throughput loss ≥ {VEGAS_COLLAPSE_LOSS_PCT:g} % (less than a quarter left);
moderate is ≤ {VEGAS_MODERATE_LOSS_PCT:g} %. The paper's Table IV gives losses of {vegas_paper_losses} %.""",
        f"""<b>Watts saved (B3).</b> the wattnet defaults's rule counts one set of
⌈{LINK_RATE_BPS * CAPACITY_SCALE / 1e9:g}/{LINE_CARD_CAPACITY_BPS / 1e9:g}⌉ = {cards:.0f} cards of {LINE_CARD_WATTS:g} W per
link switched off ({per_link:g} W): {" and ".join(f"{n * per_link:g} W for {n} links" for n in paper_links)}. The paper's
{" and ".join(f"{w:g}" for w in paper_watts)} W are {" and ".join(f"{w / n:g}" for w, n in zip(paper_watts, paper_links))} W
per link, which no single per-link rule gives; both are within ±{B3_TOLERANCE * 100:g} % of the rule. The engine puts a
card set on each port, i.e. at both ends of a link, so its measured saving is twice the rule.""",
    ]


def differences(iv: pd.DataFrame, runs: pd.DataFrame, check_list: list[dict[str, Any]]) -> str:
    """Where wattnet's numbers differ from the paper's, with the measured values and the likely reasons (HTML)."""
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    before = _by_variant(primary, TABLE_IV_THRESHOLDS[0], "before_mbps")
    after = primary.pivot_table(index="variant", columns="threshold_pct", values="after_mbps")
    main_runs = runs[runs["background"] == PRIMARY_BACKGROUND]
    timeouts = main_runs.groupby("variant")["timeouts"].mean()
    drops = main_runs.groupby("variant")["tcp_dropped_packets"].mean()
    peak_newreno = float(main_runs[main_runs["variant"] == "NewReno"]["cwnd_peak_before"].mean())
    # Vegas at 70 % (three links off, the flow re-routed): the RTT it keeps as its base and the one it meets.
    vegas = main_runs[(main_runs["variant"] == "Vegas") & (main_runs["links_off"] == 3)]
    vegas_base_ms = float(vegas["srtt_before_ms"].mean())
    vegas_extra_ms = float((vegas["srtt_after_ms"] - vegas["srtt_before_ms"]).mean())
    vegas_cwnd = VEGAS_BETA * (vegas_base_ms + vegas_extra_ms) / vegas_extra_ms
    vegas_mbps = vegas_cwnd * (MSS_BYTES + 40) * 8 / ((vegas_base_ms + vegas_extra_ms) / 1e3) / 1e6
    verdicts = {c["id"]: c["verdict"] for c in check_list}

    def verdict_of(id: str) -> str:
        verdict = verdicts.get(id, "not checked")
        return "is reproduced" if verdict == REPRODUCED else f"is not reproduced ({verdict})"

    loss_falls = verdict_of("B6.loss-falls")

    # Runs in which the window fell to one segment after ESTOP, per variant and number of links off.
    to_one = main_runs[main_runs["cwnd_min_after"] <= 1].groupby(["variant", "links_off"]).size()
    runs_per_set = main_runs.groupby(["variant", "links_off"]).size()

    def fell(variant: str, links_off: int) -> str:
        return f"{to_one.get((variant, links_off), 0)}/{runs_per_set[(variant, links_off)]}"

    def lowest(variant: str, links_off: int) -> str:
        runs = main_runs[(main_runs["variant"] == variant) & (main_runs["links_off"] == links_off)]
        return f"{runs['cwnd_min_after'].mean():.0f}"

    def paper_before(*variants: str) -> str:
        return ", ".join(f"{PAPER_TABLE_IV[v][0]:g}" for v in variants)

    free_mbps = LINK_RATE_BPS * (1 - CBR_LOAD) / 1e6
    bdp_packets = free_mbps * 1e6 * vegas_base_ms / 1e3 / ((MSS_BYTES + 40) * 8)
    aimd_shares = [100 * PAPER_TABLE_IV[v][0] / free_mbps for v in AIMD]
    hops = main_runs.groupby("links_off")["hops_after"].agg(lambda s: sorted(set(s)))
    paper_steps = [
        100 * (PAPER_TABLE_IV[v][1][a] - PAPER_TABLE_IV[v][1][b]) / PAPER_TABLE_IV[v][0]
        for v in PAPER_TABLE_IV
        if v != "Vegas"
        for a, b in zip(TABLE_IV_THRESHOLDS[1:], TABLE_IV_THRESHOLDS)
    ]

    # B5.bic-cubic-above-1 at 70 % (three links off): explained where a window fell to one segment.
    transition = (
        f"""<li><b>BIC and CUBIC at the transition</b> (B5.bic-cubic-above-1, th = 70 %). Their window
fell to one segment in {fell("BIC", 3)} and {fell("CUBIC", 3)} runs: the {TRANSITION_S:g} s black hole
drops the tail of the window, which leaves no later segment to raise duplicate ACKs or SACK blocks; then only the
retransmission timer recovers and cwnd restarts from one segment.</li>"""
        if to_one.get(("BIC", 3), 0) or to_one.get(("CUBIC", 3), 0)
        else ""
    )
    return f"""<ul>
<li><b>Tahoe, Reno and NewReno before ESTOP</b> (paper {paper_before(*AIMD)} Mb/s; wattnet {before["Tahoe"]:.2f},
{before["Reno"]:.2f}, {before["NewReno"]:.2f}). The 300-packet buffers are above the ≈ {
        bdp_packets:.0f}-packet BDP of the
{free_mbps:g} Mb/s the CBR leaves at a {
        vegas_base_ms:.0f} ms RTT (Vegas's SRTT, which holds only a few segments queued):
halving NewReno's peak window of ≈ {peak_newreno:.0f} segments leaves ≈ {peak_newreno / 2:.0f},
{
        "still above" if peak_newreno / 2 > bdp_packets else "below"
    } the BDP, so NewReno keeps the path full (one loss event per phase, Fig. 2), and Tahoe's slow start back to ssthresh takes well under a second.
Reno's recovery of the many losses of the initial slow start ends in timeouts ({timeouts["Reno"]:.1f} per run{
        ", which keeps it below Tahoe and NewReno" if before["Reno"] < min(before["Tahoe"], before["NewReno"]) else ""
    }). The paper's AIMD agents reach only {min(aimd_shares):.0f}–{max(aimd_shares):.0f} % of
the {free_mbps:g} Mb/s; its text does not say what
held them back: B1 {verdict_of("B1.Tahoe")} for Tahoe, {verdict_of("B1.Reno")} for Reno and {verdict_of("B1.NewReno")}
for NewReno, and B6's orderings among them, which rest on those numbers, {
        verdict_of("B6.reno-newreno-beat-tahoe")
    }.</li>
<li><b>BIC and CUBIC before ESTOP</b> (wattnet {before["BIC"]:.2f} and {before["CUBIC"]:.2f} Mb/s, paper
{paper_before("BIC", "CUBIC")}): B1 allows ±{B1_TOLERANCE * 100:g} %; their initial slow start overshoots far above the
path's BDP ({drops["BIC"]:.0f} and {drops["CUBIC"]:.0f} of their packets dropped per run), and SACK recovery with
ns-2.35's TCP-Linux rules (a retransmission dropped again is resent once data sent after it is SACKed, and every ACK
restarts the timer) repairs it with {timeouts["BIC"]:.1f} and {timeouts["CUBIC"]:.1f} timeouts per run in all (their
window falls to one segment after ESTOP at 70 % in {fell("BIC", 3)} and {fell("CUBIC", 3)} runs). The paper's two best,
before and
after pruning: B6.bic-cubic-best {verdict_of("B6.bic-cubic-best")}, and CUBIC best after pruning (B6.cubic-best-after)
{verdict_of("B6.cubic-best-after")}.</li>
<li><b>Throughput loss at 90 % against 70 %</b>: B6.loss-falls {loss_falls}. With the chosen background the bottleneck
of the TCP path carries 20 Mb/s of CBR after ESTOP at every threshold (table above), so the thresholds differ for the
TCP flow only in its RTT ({"; ".join(f"{'/'.join(map(str, h))} hops with {n} links off" for n, h in hops.items())})
and in the transition. At 90 % the flow keeps its path, and {
        TRANSITION_S:g} s after the switch-off KSCY→DNVR takes the re-routed SNVA→DNVR CBR while the flow's window, sized for 30 Mb/s, is
in flight, and drops its packets and their retransmissions: BIC's and CUBIC's lowest windows after ESTOP are {
        lowest("BIC", 2)
    } and {lowest("CUBIC", 2)} segments at 90 % (one segment in {fell("BIC", 2)} and {fell("CUBIC", 2)}
runs), against {lowest("BIC", 3)} and {lowest("CUBIC", 3)} at 70 %, where the flow itself is re-routed (after ESTOP: BIC
{after[70].loc["BIC"]:.2f} Mb/s at 70 %, {after[90].loc["BIC"]:.2f} at 90 %; CUBIC {after[70].loc["CUBIC"]:.2f} and
{after[90].loc["CUBIC"]:.2f}). The paper's loss falls by {min(paper_steps):.1f}–{max(paper_steps):.1f} points per
step: its background leaves more room at 90 %
than at 50 %, which none of the three readings does.</li>
{transition}
<li><b>Vegas after pruning at 50 and 70 %</b> (paper {PAPER_TABLE_IV["Vegas"][1][50]:g} and
{PAPER_TABLE_IV["Vegas"][1][70]:g} Mb/s): wattnet's Vegas collapses too, to
{after[50].loc["Vegas"]:.2f} and {after[70].loc["Vegas"]:.2f} Mb/s. Its baseRTT stays at the old path's ≈
{vegas_base_ms:.0f} ms (its SRTT before ESTOP) and the new path adds ≈ {vegas_extra_ms:.0f} ms, so it holds no more than
cwnd·(rtt − baseRTT)/rtt ≤ β = {VEGAS_BETA} segments, about {vegas_cwnd:.0f} segments or ≈ {
        vegas_mbps:.0f} Mb/s; whether it
settles there or at a few segments is decided by the round that spans its timeout (B1.Vegas's reason). The
paper's {PAPER_TABLE_IV["Vegas"][1][50]:g}–{
        PAPER_TABLE_IV["Vegas"][1][70]:g} Mb/s is a cwnd of one or two segments, deeper
than that rule gives for these delays: B1.Vegas {verdict_of("B1.Vegas")}, the collapse itself
(B6.vegas-collapse) {verdict_of("B6.vegas-collapse")}.</li>
</ul>"""


def report(
    out: Path, config: Grid, quick: bool, runs: pd.DataFrame, iv: pd.DataFrame, v: pd.DataFrame,
    loads_summary: pd.DataFrame, check_list: list[dict[str, Any]], figures: list[Path],
) -> Path:  # fmt: skip
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    sections = [
        ("Table IV — average throughput and throughput loss, wattnet (paper)",
         table_html(table_iv_wide(primary))
         + "<p>Means over replications, with 95 % CI half-widths in <code>tables/table_iv</code>. The paper has no "
         "60 and 80 % columns.</p>"),
        ("Table V — ESTOP link sets, energy saving and watts saved", table_html(v)),
        ("Background load alone (background-only runs; offered load per port, Mb/s)",
         table_html(loads_summary)
         + "<p>The TCP path's ports follow the engine's routing rule (hop count, lowest next-hop id), recomputed with "
         "networkx; its hop counts (<code>tcp_path_hops_after</code>) are the engine's (<code>hops_after</code> in the "
         "runs).</p>"),
        ("Where wattnet differs from the paper, and the likely reasons", differences(iv, runs, check_list)),
    ]  # fmt: skip
    others = iv[iv["background"] != PRIMARY_BACKGROUND]
    if len(others):
        columns = ["background", "variant", "threshold_pct", "before_mbps", "after_mbps", "loss_pct", "paper_loss_pct"]
        sections.append(("Sensitivity: Table IV with the other background readings (replication 0)",
                         table_html(others[columns])))  # fmt: skip
    run_columns = ["background", "replication", "variant", "links_off", "throughput_before_mbps",
                   "throughput_after_mbps", "hops_before", "hops_after", "retransmissions", "timeouts",
                   "cwnd_mean_before", "cwnd_mean_after", "cwnd_min_after", "line_card_watts_saved"]  # fmt: skip
    sections.append((
        "Runs",
        table_html(runs[run_columns])
        + "<p>Tables (CSV and Parquet): <code>tables/table_iv</code>, <code>tables/table_v</code>, "
        "<code>tables/runs</code>, <code>tables/background_loads</code>, <code>tables/background_load_summary</code>, "
        "<code>tables/fig2_cwnd</code>; run stores under <code>store/</code>.</p>",
    ))  # fmt: skip
    background_runs = len(loads_summary)
    return write_report(
        out,
        paper=GREENED_NETWORK_PAPER,
        title=NAME,
        reference_note=(
            "The ns-2.35 column: the same links, delays, buffers, CBR background and ESTOP link sets, written out by "
            "<code>validation/studies/greened_network/run.py</code> for <code>abilene.tcl</code>, with ns-2.35's own "
            "Tahoe, Reno, NewReno and Vegas agents and its TCP-Linux agent (bic, cubic) with a SACK receiver, one run "
            f"per variant at 50, 70 and 90 % on each of the {config['replications']} background replication(s) wattnet "
            "runs here. Fidelity: ns-2.35's Session routing re-routes at the instant the links go "
            "down (wattnet after the paper's 30 ms), and its ties between equal-length paths may break differently."
        ),
        intro=f"{len(runs)} TCP runs of {DURATION_S:g} s and {background_runs} background-only runs"
        + (" (quick: every variant and threshold, one replication, the checked background only)." if quick else "."),
        quick=quick,
        parameters=parameters(config, quick),
        interpretations=interpretations(v, quick),
        checks=check_list,
        figures=figures,
        sections=sections,
    )
