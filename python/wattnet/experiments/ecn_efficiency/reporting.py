"""The report: parameters with their sources, interpretation choices and the sections whose prose quotes the measured numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments import ECN_PAPER
from wattnet.experiments.ecn_efficiency.params import (
    BASE_SEED,
    E7_DELAY_MS,
    ERROR_RATE,
    FILES_PER_CLIENT,
    LARGE_BUFFER_PACKETS,
    MSS_BYTES,
    NAME,
    RECORDER_INTERVAL_S,
    RED_PARAMETERS,
    RED_THRESHOLDS,
    SEGMENTS_PER_TRANSFER,
    TRANSFER_BYTES,
    Grid,
)
from wattnet.experiments.report import (
    table_html,
    write_report,
)

CASE_COLUMNS = [
    "n", "d_ms", "errors", "queue", "ql", "tt_mean_s", "tt_std_s", "network_overhead_pct", "extra_packets_sent",
    "receiver_overhead_pct", "receiver_overhead_with_corrupted_pct", "acks_per_transfer", "handshake_acks_per_transfer",
    "utilisation", "red_region_fraction", "bottleneck_drops", "bottleneck_early_drops", "bottleneck_marks", "timeouts",
    "duplicate_packets", "corrupted_data_packets", "tt_max_s", "longest_transfer_timeouts", "replications",
    "tt_mean_s_sd", "receiver_overhead_pct_sd", "acks_per_transfer_sd",
]  # fmt: skip


def report(out: Path, config: Grid, quick: bool, runs: pd.DataFrame, cases: pd.DataFrame,
           confidence: pd.DataFrame, check_list: list[dict[str, Any]], figure_paths: list[Path],
           against: pd.DataFrame) -> Path:  # fmt: skip
    reduced = " (reduced: --quick)" if quick else ""

    def named(settings: list[tuple[int, float, bool]]) -> str:
        return ", ".join(f"n {n} d {d:g} ms{' errors' if errors else ''}" for n, d, errors in settings)

    params = [
        ("topology", "server —(10 Mb/s, 0.5 ms)— B —(1.5 Mb/s, d)— A —(10 Mb/s, 0.5 ms each)— n clients", "paper"),
        ("settings (n, d, errors)", named(config["settings"]), "paper" + reduced),
        ("QL at router B", (f"{', '.join(map(str, config['qls']))} packets; DropTail counts the packet in service, RED "
         "lets QL packets wait besides it"), "paper + ns-2.35 (DropTail and RED's limit_)"),
        ("other queues", f"DropTail {LARGE_BUFFER_PACKETS} packets (never drop)", "interpretation (the paper: no loss there)"),
        ("RED thresholds", "min_th/max_th " + ", ".join(f"{low}/{high}" for low, high in RED_THRESHOLDS.values())
         + " packets (Table 1)", "paper"),
        ("RED w_q, max_p", f"{RED_PARAMETERS['w_q']:g}, {RED_PARAMETERS['max_p']:g}", "paper"),
        ("RED gentle, idle decay, mean packet", "gentle, ns-2's idle decay, 500 B", "ns-2.35 default (gentle_ true, mean_pktsize_ 500)"),
        ("RED's rules", ("ns-2.35's (preset ns2): no early drop or mark while at most one packet waits; drops spaced by "
         "the bytes since the last one ÷ 500 B and their probability scaled by size/500 B"),
         "ns-2.35 default (red.cc, bytes_ true)"),
        ("ECN (E)", ("RED marks ECT packets instead of dropping while its probability is at most 0.1 (below max_th) and "
         "drops above it; overflows drop; TCP/ECN at every host (retransmissions not ECT)"),
         "paper + ns-2.35 default (setbit_, mark_p_ 0.1, use_mark_p_ true)"),
        ("TCP", "Reno, no SACK, MSS 1460 B, 40 B headers, receive window 65535 B", "paper"),
        ("initial window", "2 segments", "ns-2.35 default (windowInit_ 2)"),
        ("loss response", ("limited transmit on the first two duplicate ACKs, also resending after a timeout as "
         "send_one() does; a loss halves cwnd with its fraction (ssthresh truncated); the ACK that ends fast recovery "
         "grows cwnd once; an ECN-Echo halves cwnd, below one segment the sender waits for its timer"),
         "ns-2.35 default (singledup_ 1, precisionReduce_ true, tcp.cc recv_newack_helper() and ecn())"),
        ("RTO", ("initial 3 s, minimum 0.2 s; one timed segment per RTT, counted in 10 ms ticks, RTO = "
         "floor(SRTT + 4·RTTVAR) ticks"), "ns-2.35 default (rtxcur_init_, minrto_, tcpTick_, tcp.cc rtt_update())"),
        ("delayed ACKs", "an ACK every second full segment, 100 ms timeout",
         "paper (delayed ACKs) + ns-2.35 default (DelAck interval_ 100 ms)"),
        ("handshake", "the client's 40 B SYN for every transfer, the server's 40 B SYN-ACK", "paper"),
        ("transfers", (f"{FILES_PER_CLIENT} serial per client, each {TRANSFER_BYTES} B = m = {SEGMENTS_PER_TRANSFER} "
         f"segments of {MSS_BYTES} B"), "paper + interpretation (m = 70)"),
        ("errors", f"Bernoulli {ERROR_RATE:.0%} per packet, both directions of every client access link",
         "paper (§4.4) + interpretation (both directions)"),
        ("replications", (f"1 without errors, {config['error_replications']} with them (base seed {BASE_SEED}, "
         f"derive_seed); {config['ci_replications']} for E10 at QL "
         f"{config['ci_ql']}: {named(config['ci_settings'])}"), "paper (§3.1)" + reduced),
        ("run length", ("until every transfer completes (checked); the run's end is set at 3 × the bottleneck's "
         "minimum busy time + 60 s"), "paper (§3)"),
    ]  # fmt: skip
    interpretations = [
        (f"A 100 KB transfer is m = {SEGMENTS_PER_TRANSFER} full segments ({TRANSFER_BYTES} B): with m = 70 the paper's "
         "10.18 % and 2.78 % follow from its 1960 and 535 extra packets."),
        ("Network overhead = data segments the server sent (retransmissions included) − 11·n·m, over 11·n·m. Receiver "
         "overhead = data segments the clients' TCP received, duplicates included, − 11·n·m, over 11·n·m: a corrupted "
         "segment is not counted, as the paper ran ns-2, whose error model drops it before the receiver, and as its "
         "E7 values (0.56 % for ECN with 1 % errors) are below the 1 % of segments the errors alone corrupt. The "
         "reading that counts corrupted segments too is shown beside as "
         "<code>receiver_overhead_with_corrupted_pct</code>."),
        ("Corrupted data segments are told from corrupted control packets by their size (1500 B against 40 B) on the "
         "links toward the clients."),
        ("ACKs per transfer = pure ACKs of data a client sends per connection: the handshake's third segment (and its "
         "repeats, <code>handshake_acks_per_transfer</code>) and the FIN exchange excluded, as the paper's ns-2 agents "
         "have no handshake."),
        ("With errors every case runs several times (error-model seeds) and the tables and checks read the means; "
         "<code>*_sd</code> columns are their seed-to-seed standard deviations. ns-2.35 runs as many replications, "
         "each from its own substream of every error model's RNG."),
        "TT = time from the client's SYN to the last data byte; mean and sample STD over the 11·n transfers of a run.",
        "Utilisation = the bottleneck's busy time over the experiment (to the last completion).",
        f"E7 reads d = {E7_DELAY_MS} ms (the paper's text gives no d there); the check also shows the other d.",
        (f"E6, E11: RED's average is sampled every {RECORDER_INTERVAL_S * 1000:g} ms as the engine holds it (updated "
         "at each arrival, as ns-2's "
         "<code>ave_</code>). The RED region is min_th ≤ avg &lt; 2·max_th (gentle: where early marking is in effect)."),
        ("Fig. 2 (the CDF of CE marks over sequence numbers) is not drawn: the engine counts CE marks per connection, "
         "not per sequence number."),
    ]  # fmt: skip
    clean, noisy = cases[~cases["errors"]], cases[cases["errors"]]
    files = (
        "<p>Tables: <code>tables/cases.csv|parquet</code> (the single-replication cases), "
        "<code>tables/runs.csv|parquet</code> (every run, replications included), "
        "<code>tables/confidence.csv|parquet</code>; run stores under <code>store/</code>.</p>"
    )
    return write_report(
        out,
        paper=ECN_PAPER,
        title=f"{NAME}, the paper's §3–4",
        reference_note=(
            "The ns-2.35 column: the same dumbbell, queues, RED parameters, Reno with ns-2.35's own agents "
            "(<code>Agent/TCP/Reno</code>, <code>TCPSink/DelAck</code> with its 100 ms interval, <code>windowInit_</code> "
            "2, 64 KB window, its one-way SYN) and 1 % <code>ErrorModel</code> losses on both directions of every "
            "client access link, one run per case without errors and as many as wattnet's with them, each from its own "
            "substream of the error models' RNGs (<code>validation/studies/ecn_efficiency/dumbbell.tcl</code>). "
            "ns-2.35 drops an errored packet after the queue where wattnet's client discards it corrupted; neither "
            "counts it as received."
        ),
        intro=f"{len(runs)} runs, {len(cases)} single-replication cases. Queue labels: D = DropTail, R = RED, "
        "E = RED + ECN (TCP/ECN at every host).",
        quick=quick,
        parameters=params,
        interpretations=interpretations,
        checks=check_list,
        figures=figure_paths,
        sections=[
            ("Cases without errors (Figs. 3, 4)", table_html(clean[CASE_COLUMNS])),
            ("Cases with 1 % errors on the client access links (Figs. 5, 6, 7)", table_html(noisy[CASE_COLUMNS])),
            ("E10: transfer time over replications (98 % Student-t CI)", table_html(confidence)),
            ("wattnet against ns-2.35, case by case", table_html(against) if len(against) else "<p>–</p>"),
            ("Files", files),
        ],
    )
