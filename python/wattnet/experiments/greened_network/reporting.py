"""The report: parameters with their sources, interpretation choices and the sections whose prose quotes the measured numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.estop import (
    LINE_CARD_WATTS,
)
from wattnet.experiments import GREENED_NETWORK_PAPER
from wattnet.experiments.greened_network.params import (
    BACKGROUND_READINGS,
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
    table_html,
    write_report,
)


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
    return [
        f"""<b>Background traffic.</b> The paper: "CBR traffic on top of UDP using 25 % of the link capacity of every
link, before the links switch-off", re-routed by OSPF after it. wattnet's default reads it as a CBR flow in each
direction of every link. After pruning, that puts the flows of SNVA–STTL and SNVA–DNVR on KSCY→DNVR (30 Mb/s of CBR at
every threshold) and at 50 % five flows (50 Mb/s) on each direction of HSTN–KSCY, a link of the TCP path: the
background alone overloads the network, and the TCP flow keeps at most 10 Mb/s after ESTOP. The paper's numbers say
otherwise: BIC and CUBIC keep ≈ 27 of the 30 Mb/s the CBR leaves them before ESTOP and ≈ 20 Mb/s after it at 50, 70 and
90 % alike, so the bottleneck of the new path carries about 20 Mb/s of CBR and nothing is overloaded. One ns-2 CBR
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
        """Throughput is the TCP flow's goodput (in-order bytes delivered to the receiver); before = [0, 30) s, after =
[30, 60) s with the 0.03 s transition; throughput loss = (before − after)/before × 100.""",
        f"""<b>Fig. 2 measures.</b> Mean cwnd before ESTOP over [{STEADY_FROM_S:g}, 30) s (the initial slow-start
overshoot left out) and after it over [30, 60) s. Peaks leave out loss recovery (from the first to the last fall of ≥
10 % between samples of a loss event, falls less than {LOSS_EVENT_GAP_S:g} s apart), where each duplicate ACK inflates
a Reno-style cwnd by a segment; the peak after ESTOP is taken once its first second is over. "Short deep drop": the
lowest cwnd in that second is at most half the mean before; "new stable state": the mean after it is at least twice
that lowest value. "Time to peak": with buffers above the BDP the AIMD sawtooth lasts ≈ 25 s, one per phase, so it is
read from the growth rate in congestion avoidance (segments/s, ≈ 1 per RTT) and the SRTT, before and after. Panel
letters follow the paper's text; which of Tahoe, Reno and NewReno is (a), (b) or (e) is assumed.""",
        f"""Vegas's collapse (B6) is a throughput loss ≥ {VEGAS_COLLAPSE_LOSS_PCT:g} % (less than a quarter left);
moderate is ≤ {VEGAS_MODERATE_LOSS_PCT:g} %. The paper's Table IV gives losses of {vegas_paper_losses} %.""",
        """<b>Watts saved (B3).</b> the wattnet defaults's rule counts one set of ⌈40/2.5⌉ = 16 cards of 140 W per link
switched off (2240 W): 8960 W for 4 links, 4480 W for 2. The paper's 9072 and 4368 W are 2268 and 2184 W per link, which
no single per-link rule gives; both are within ±3 % of the rule. The engine puts a card set on each port, i.e. at both
ends of a link, so its measured saving is twice the rule.""",
    ]


def differences(iv: pd.DataFrame, runs: pd.DataFrame) -> str:
    """Where wattnet's numbers differ from the paper's, with the measured values and the likely reasons (HTML)."""
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    before = _by_variant(primary, TABLE_IV_THRESHOLDS[0], "before_mbps")
    after = primary.pivot_table(index="variant", columns="threshold_pct", values="after_mbps")
    main_runs = runs[runs["background"] == PRIMARY_BACKGROUND]
    timeouts = main_runs.groupby("variant")["timeouts"].mean()
    # Runs in which the window fell to one segment after ESTOP, per variant and number of links off.
    to_one = main_runs[main_runs["cwnd_min_after"] <= 1].groupby(["variant", "links_off"]).size()
    runs_per_set = main_runs.groupby(["variant", "links_off"]).size()

    def fell(variant: str, links_off: int) -> str:
        return f"{to_one.get((variant, links_off), 0)}/{runs_per_set[(variant, links_off)]}"

    return f"""<ul>
<li><b>Tahoe, Reno and NewReno before ESTOP</b> (paper 18.11, 20.82, 21.51 Mb/s; wattnet {before["Tahoe"]:.2f},
{before["Reno"]:.2f}, {before["NewReno"]:.2f}). The 300-packet buffers are above the ≈ 173-packet BDP of the 30 Mb/s
the CBR leaves at a 48 ms RTT: halving a window of ≈ 456 segments leaves ≈ 228, still above the BDP, so NewReno keeps
the path full (one loss event per phase, Fig. 2), and Tahoe's slow start back to ssthresh takes well under a second.
Reno is lower because its recovery of the many losses of the initial slow start ends in timeouts
({timeouts["Reno"]:.1f} per run). The paper's AIMD agents reach only 60–72 % of the 30 Mb/s; its text does not say what
held them back, so B1 fails for them, and B6's orderings among Tahoe, Reno and NewReno, which rest on those numbers,
fail with it.</li>
<li><b>BIC and CUBIC before ESTOP</b> (wattnet {before["BIC"]:.2f} and {before["CUBIC"]:.2f} Mb/s, paper 27.23 and
26.26): within B1's ±15 %, but below Tahoe, NewReno and Vegas: their initial slow start overshoots to ≈ 900 segments
and its recovery ends in timeouts ({timeouts["BIC"]:.1f} and {timeouts["CUBIC"]:.1f} per run in all; their window falls
to one segment after ESTOP at 70 % in {fell("BIC", 3)} and {fell("CUBIC", 3)} runs). After pruning at 50 and
70 % they are the two best, CUBIC first, as in the paper.</li>
<li><b>Throughput loss at 90 % is not lower than at 70 %</b> (B6.loss-falls). With the chosen background the bottleneck
of the TCP path carries 20 Mb/s of CBR after ESTOP at every threshold (table above), so the thresholds differ for the
TCP flow only in its RTT (5 hops at 90 %, 6 at 50–70 %) and in the transition. At 90 % the flow keeps its path, and
0.03 s after the switch-off KSCY→DNVR takes the re-routed SNVA→DNVR CBR while the flow's window, sized for 30 Mb/s, is
in flight: BIC and CUBIC fall to one segment after ESTOP in {fell("BIC", 2)} and {fell("CUBIC", 2)} runs at 90 %,
against {fell("BIC", 3)} and {fell("CUBIC", 3)} at 70 %, where the flow itself is re-routed (after ESTOP: BIC
{after[70].loc["BIC"]:.2f} Mb/s at 70 %, {after[90].loc["BIC"]:.2f} at 90 %; CUBIC {after[70].loc["CUBIC"]:.2f} and
{after[90].loc["CUBIC"]:.2f}). The paper's loss falls by 1–2 points per step: its background leaves more room at 90 %
than at 50 %, which none of the three readings does.</li>
<li><b>BIC and CUBIC at the transition</b> (B5.bic-cubic-above-1, th = 70 %). The 0.03 s black hole drops the tail of
the window, which leaves no later segment to raise duplicate ACKs or SACK blocks; then only the retransmission timer
recovers and cwnd restarts from one segment.</li>
<li><b>Vegas after pruning at 50 and 70 %</b> (paper 0.1 and 0.32 Mb/s): wattnet's Vegas collapses too, to
{after[50].loc["Vegas"]:.2f} and {after[70].loc["Vegas"]:.2f} Mb/s. Its baseRTT stays at the old path's ≈ 48 ms and the
new path adds ≈ 8 ms of propagation, so it shrinks cwnd until cwnd·(rtt − baseRTT)/rtt ≤ β = 3 segments, about 20
segments or ≈ 3 Mb/s. The paper's 0.1–0.3 Mb/s is a cwnd of one or two segments, deeper than that rule gives for these
delays, so B1.Vegas fails after pruning while the collapse itself (B6.vegas-collapse) is reproduced.</li>
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
        ("Where wattnet differs from the paper, and the likely reasons", differences(iv, runs)),
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
            "per variant at 50, 70 and 90 %. Fidelity: ns-2.35's Session routing re-routes at the instant the links go "
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
