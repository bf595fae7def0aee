"""The report: parameters with their sources, interpretation choices and the sections whose prose quotes the measured numbers."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments import CAPACITY_SCALING_PAPER
from wattnet.experiments.capacity_scaling.params import (
    BACKGROUND_PEAK_BPS,
    BASE_SEED,
    BN_S,
    BON_S,
    NAME,
    PRACTRA,
    PRIMARY_RWND,
    R_MAX,
    RATES_BPS,
    RECORDER_BIN_S,
    RWND_READINGS,
    SAMPLE_1MS_S,
    TARGETS,
    TRANSITION_S,
    Grid,
)
from wattnet.experiments.capacity_scaling.scenario import rwnd_label
from wattnet.experiments.capacity_scaling.sweeps import a3_readings, sampling_table
from wattnet.experiments.report import REPRODUCED, table_html, write_report
from wattnet.topology.chain import bdp_buffer_packets

PACKET_BYTES = 1500  # MSS 1460 B + 40 B of headers: every TCP data packet on the chain
PACKET_BITS = PACKET_BYTES * 8
# ns-2.35's Agent/TCP window_ default, in packets (validation/studies/ns2_defaults.tcl prints it).
NS2_WINDOW_PACKETS = 20
# The "64 KB" receive window: the largest without window scaling (RFC 7323 §2).
UNSCALED_WINDOW_BYTES = 65535


def report(out: Path, config: Grid, quick: bool, runs: pd.DataFrame, summary: pd.DataFrame,
           check_list: list[dict[str, Any]], figures: list[Path], ns2_summary: pd.DataFrame | None,
           ns2_replications: int = 1) -> Path:  # fmt: skip
    """``ns2_replications``: how many replications ns-2.35 stores per background and bottleneck point."""
    e = html.escape
    reduced = " (reduced: --quick)" if quick else ""
    rtt_hi = max(config["rtts_s"]) * 1000
    ns2_window_mbps = NS2_WINDOW_PACKETS * PACKET_BITS / (rtt_hi / 1000) / 1e6
    params = [
        ("topology", "S — N1 — N2 — N3 — D; N1→N2 and N2→N3 10 Mb/s", "paper"),
        ("access links", "100 Mb/s, 0 delay", "wattnet default"),
        ("one-way delays", "RTT/4 on N1–N2 and on N2–N3", "interpretation (the paper gives the RTT)"),
        ("RTT", ", ".join(f"{r * 1000:g} ms" for r in config["rtts_s"]), "paper" + reduced),
        ("mRCI", ", ".join(f"{m * 1000:g} ms" for m in config["mrcis_s"]), "paper"),
        ("duration", f"{config['duration_s']:g} s", "paper (300 s)" + (" shortened: --quick" if quick else "")),
        ("replications", str(config["replications"]), "wattnet default (10)" + (" (1: --quick)" if quick else "")),
        ("buffers N1, N2, N3", "⌈10 Mb/s·RTT / 1500 B⌉ packets, at least 2", "paper (BDP)"),
        ("host buffers", "1000 packets", "wattnet default"),
        ("MTU", "1500 B (MSS 1460 B)", "paper"),
        ("TCP", "NewReno, no SACK, bulk S → D", "paper"),
        ("initial window, delayed ACKs, RTO", "2 segments, none (TCPSink), initial 3 s and minimum 0.2 s",
         "ns-2.35 default (windowInit_ 2, Agent/TCPSink, rtxcur_init_ 3, minrto_ 0.2)"),
        ("loss response", ("limited transmit on the first two duplicate ACKs; a loss halves cwnd with its fraction "
         "(ssthresh truncated); the ACK that ends fast recovery grows cwnd once"),
         "ns-2.35 default (singledup_ 1, precisionReduce_ true, tcp.cc recv_newack_helper())"),
        ("receive window", f"{rwnd_label(PRIMARY_RWND)} ({' and '.join(rwnd_label(r) for r in RWND_READINGS if r != PRIMARY_RWND)} beside it)",
         (f"interpretation: ns-2.35's window_ of {NS2_WINDOW_PACKETS} packets would cap RTT {rtt_hi:g} ms at "
         f"{ns2_window_mbps:.1f} Mb/s, which the paper's Fig. 4b excludes")),
        ("practRA rates", (f"{{{RATES_BPS[0] / 1e6:g}, …, {RATES_BPS[-1] / 1e6:g}}} Mb/s, single steps, initial rate "
         f"{R_MAX / 1e6:g} Mb/s"), "paper"),
        ("practRA d, δ, w", f"{PRACTRA['delay_bound_s'] * 1000:g} ms, {TRANSITION_S * 1000:g} ms, {PRACTRA['ewma_weight']:g}",
         "wattnet default"),
        ("practRA T_s", f"= mRCI (one EWMA sample of the arrival rate per mRCI); {SAMPLE_1MS_S * 1000:g} ms beside it",
         "wattnet default"),
        ("recorder bin", f"{RECORDER_BIN_S * 1000:g} ms", "wattnet default"),
        ("background (case bON, §6.2)", f"B → D UDP on-off: a burst every 1 s (fixed phase), length Exp(bON = {BON_S * 1000:g} ms) truncated at 1 s, CBR {BACKGROUND_PEAK_BPS / 1e6:g} Mb/s, 1500 B packets", "paper (bON, 1 s cycle) + wattnet default (peak rate)"),
        ("bottleneck (case BN, §6.3)", f"N2 → N3 available bandwidth redrawn from U[1, 10] Mb/s every Exp(BN = {BN_S * 1000:g} ms), initially 10 Mb/s; with the bON = {BON_S * 1000:g} ms background", "paper"),
        ("base seed", f"{BASE_SEED}; replication r uses derive_seed(base, r) in TCPonly and TCP+PC alike", "wattnet default"),
    ]  # fmt: skip
    a3 = summary[(summary["case"] == "single") & (summary["rtt_ms"] == max(config["rtts_s"]) * 1000)][
        ["rwnd", "mrci_ms", "mean_rate_mbps", "goodput_mbps", "tcponly_goodput_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct"]
    ]  # fmt: skip
    run_cols = ["case", "rtt_ms", "mode", "mrci_ms", "rwnd", "replication", "mean_rate_mbps", "rate_changes", "goodput_mbps",
                "throughput_reduction_pct", "loss_pct", "tcp_packets_dropped", "data_packets_sent", "timeouts"]  # fmt: skip
    packet_s = PACKET_BITS / R_MAX
    # An unscaled window's worth of segments, each carrying its headers on the wire.
    unscaled_mbps = UNSCALED_WINDOW_BYTES / 1460 * PACKET_BITS / (rtt_hi / 1000) / 1e6
    episode = TARGETS["a5_episode"]
    interpretations = [
        f"""<b>practRA's sampling interval T_s = mRCI</b> (the default). Sampling every {SAMPLE_1MS_S * 1000:g} ms — shorter
than one {PACKET_BYTES} B packet at {R_MAX / 1e6:g} Mb/s ({packet_s * 1000:g} ms) — makes the samples alternate between 0 and
≈ {PACKET_BITS / SAMPLE_1MS_S / 1e6:g} Mb/s and the prediction swing, so a dip can fire the step-down rule whenever mRCI
allows a decision. The paper (§6.1) says a large mRCI "works on an average of the arrival rate calculated on longer time
intervals", so wattnet samples once per mRCI. Both readings run; the section <i>practRA sampling</i> shows them side by side
and marks where they differ.""",
        f"""<b>Receive window.</b> The paper gives no receiver window; ns-2.35's <code>Agent/TCP window_</code> defaults to
{NS2_WINDOW_PACKETS} packets ({ns2_window_mbps:.1f} Mb/s at RTT {rtt_hi:g} ms), and a 64 KB window caps a {rtt_hi:g} ms-RTT
flow at ≈ {unscaled_mbps:.1f} Mb/s. Its Fig. 4b shows TCPonly back at {R_MAX / 1e6:g} Mb/s at RTT {rtt_hi:g} ms, which neither
allows, so the checks and Fig. 4 use <b>{e(rwnd_label(PRIMARY_RWND))}</b>; Fig. 3 is drawn for each reading.""",
        smallest_buffer_note(config),
        "r̄ is the time average of N1→N2's configured rate over the whole run; δ-freezes count at the new rate.",
        (
            f"Energy saving (Fig. 3e) = 1 − r̄/{R_MAX / 1e6:g} Mb/s: the share of N1's maximum transmission capacity "
            "practRA switched off."
        ),
        "Loss % = packets of the TCP flow dropped anywhere / TCP data packets sent (retransmissions included) × 100.",
        "Throughput reduction compares goodputs of TCP+PC and TCPonly runs of the same RTT, window reading and replication seed.",
        f"""A5's recovery time is measured on the arrival rate at N1 ({episode["smoothing_bins"] * RECORDER_BIN_S:g} s moving
average of the {RECORDER_BIN_S * 1000:g} ms bins, the first {episode["skip_s"]:g} s left out): from a fall below
{episode["dropped_mbps"]:g} Mb/s (after being ≥ {episode["armed_mbps"]:g} Mb/s) back to ≥ {episode["recovered_mbps"]:g} Mb/s,
the median over the run's episodes.""",
    ]
    ns2_a3 = "" if ns2_summary is None else table_html(
        ns2_summary[(ns2_summary["case"] == "single") & (ns2_summary["rtt_ms"] == rtt_hi)][
            ["mrci_ms", "mean_rate_mbps", "goodput_mbps", "tcponly_goodput_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct"]])  # fmt: skip
    readings = a3_readings(runs, summary, rtt_hi)
    low_band, high_band = TARGETS["a3_band_mbps"]
    a3_check = next((c for c in check_list if c["id"] == "A3"), None)
    verdict = "Reproduced" if a3_check is not None and a3_check["verdict"] == REPRODUCED else "Not reproduced"
    a3_section = f"""<p>The paper: r̄ {low_band:g}–{high_band:g} Mb/s at RTT {rtt_hi:g} ms. <b>{verdict}</b> under the stated
parameters; no buffer or window reading is tuned to reach it. wattnet, per receive-window reading:</p>
{table_html(readings)}
{table_html(a3)}
<p>ns-2.35 on the same scenario (practRA emulated, unlimited window):</p>{ns2_a3 or "<p>–</p>"}
<p>In the paper's Fig. 4b TCPonly's sending rate falls after a loss at t ≈ 14 s and gets back to {R_MAX / 1e6:g} Mb/s about
{TARGETS["a5_recovery_s"]["tcponly"]:g} s later, and A4 has more loss at RTT {rtt_hi:g} ms than at small RTT.
{a3_readings_prose(readings, ns2_summary, rtt_hi)}</p>"""
    sampling = sampling_table(summary)
    sampling_section = (
        "<p>Single source, primary window: practRA sampling once per mRCI (the default) and every "
        f"{SAMPLE_1MS_S * 1000:g} ms. "
        f"They differ (r̄ by more than {TARGETS['sampling']['differ_rate_mbps']:g} Mb/s or the reduction by more than "
        f"{TARGETS['sampling']['differ_reduction_points']:g} point) at {int(sampling['differ'].sum())} "
        f"of {len(sampling)} points.</p>" + table_html(sampling)
    )
    return write_report(
        out,
        paper=CAPACITY_SCALING_PAPER,
        title=f"{NAME}, the paper's §6",
        intro=f"{len(runs)} runs.",
        quick=quick,
        parameters=params,
        interpretations=interpretations,
        checks=check_list,
        figures=figures,
        reference_note=(
            "The ns-2.35 column: the same chain in Tcl (<code>validation/studies/capacity_scaling/chain.tcl</code>) with "
            "ns-2.35's NewReno and TCPSink; ns-2.35 has no rate adaptation, so practRA is emulated by a Tcl procedure "
            "that polls N1's queue every 1 ms, samples the arrival rate once per mRCI and sets the link's "
            "<code>bandwidth_</code> by the same rules. Fidelity: decisions at 1 ms polls, also while the link idles, "
            "rather than at every packet and sample tick, a new rate applies from the next packet transmission, and the "
            "1 ms transition does not pause the link. ns-2.35 runs the background and bottleneck points "
            f"{ns2_replications} times (independent RNG substreams) and the single source, which draws no random "
            f"number, once; the checks read as many replications in both simulators (wattnet {config['replications']}), "
            "and the background targets' causes test the difference against both simulators' seed-to-seed spread."
        ),
        sections=[
            (f"A3: r̄ at RTT {rtt_hi:g} ms, and its sensitivity to the receive window", a3_section),
            ("practRA sampling: once per mRCI and every 1 ms", sampling_section),
            ("Fig. 3 / 5 / 7 summary (TCP+PC, by case; means and 95 % CI half-widths)", table_html(summary)),
            (
                "Runs",
                table_html(runs[run_cols])
                + "<p>Tables: <code>tables/runs.csv|parquet</code>, <code>tables/fig3_summary.csv|parquet</code>, "
                "<code>tables/sampling.csv|parquet</code>; run stores under <code>store/</code>.</p>",
            ),
        ],
    )


def smallest_buffer_note(config: Grid) -> str:
    """What practRA can do with the smallest RTT's one-BDP buffer: the rates at which a full buffer
    (all but the packet in transmission waiting) holds more than d of traffic, the only ones at which
    it can step up (HTML)."""
    rtt_s = min(config["rtts_s"])
    buffer = bdp_buffer_packets(R_MAX, rtt_s)
    waiting_bits = (buffer - 1) * PACKET_BITS
    delay_bound = PRACTRA["delay_bound_s"]
    rates = [r / 1e6 for r in RATES_BPS[:-1] if waiting_bits / r > delay_bound]
    where = f"at {', '.join(f'{r:g}' for r in rates)} Mb/s only" if rates else "at no rate"
    if len(rates) == len(RATES_BPS) - 1:
        return (
            f"<b>RTT {rtt_s * 1000:g} ms.</b> A one-BDP buffer is {buffer} packets: full, it holds more than "
            f"d = {delay_bound * 1000:g} ms of traffic at every rate below r_MAX, so practRA can step up from any rate."
        )
    return (
        f"<b>RTT {rtt_s * 1000:g} ms.</b> A one-BDP buffer is {buffer} packets; with the one in transmission counted, "
        f"a full buffer holds {waiting_bits / 1000:g} kb waiting, more than d = {delay_bound * 1000:g} ms of traffic "
        f"{where}: once practRA has stepped down it steps up again only from there, so at this RTT r̄ depends on "
        "whether the first step down happens at all (see the causes under the targets)."
    )


def a3_readings_prose(readings: pd.DataFrame, ns2_summary: pd.DataFrame | None, rtt_ms: float) -> str:
    """What the receive-window readings at ``rtt_ms`` show (``a3_readings``), in words (HTML)."""
    low_band, high_band = TARGETS["a3_band_mbps"]
    band = f"{low_band:g}–{high_band:g} Mb/s"
    in_band = readings[readings["r_bar_in_a3_band"]]
    lossy = readings[~readings["tcponly_window_limited"]]
    sentences = []
    if len(in_band):
        limited = in_band["tcponly_window_limited"].all()
        sentences.append(
            f"The readings with r̄ in the {band} band ({', '.join(map(html.escape, in_band['rwnd']))}) "
            + (
                f"are window-limited (last column true): TCPonly loses nothing and reaches at most "
                f"{in_band['tcponly_goodput_mbps'].max():.2f} Mb/s, so such a window contradicts A4 and A5."
                if limited
                else "are not all window-limited (last column)."
            )
        )
    else:
        sentences.append(f"No reading puts every mRCI's r̄ in the {band} band.")
    if len(lossy):
        sentences.append(
            f"With a window large enough for losses ({', '.join(map(html.escape, lossy['rwnd']))}) r̄ is "
            f"{lossy['r_bar_min_mbps'].min():.2f}–{lossy['r_bar_max_mbps'].max():.2f} Mb/s in wattnet"
        )
        if ns2_summary is not None:
            ns2 = ns2_summary[(ns2_summary["case"] == "single") & (ns2_summary["rtt_ms"] == rtt_ms)]["mean_rate_mbps"]
            if len(ns2):
                sentences[-1] += f" and {ns2.min():.2f}–{ns2.max():.2f} Mb/s in ns-2.35"
        sentences[-1] += "."
    return " ".join(sentences)
