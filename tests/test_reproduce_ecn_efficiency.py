"""`wattnet reproduce ecn-efficiency --quick`: the files, the targets' verdicts and the paper's
trends that wattnet reproduces."""

import pandas as pd
import pytest
from conftest import assert_checks, assert_reproduction_files
from wattnet.experiments.report import reference_rows

QUEUES = ["DT", "RED", "ECN"]


@pytest.fixture(scope="module")
def reproduction(quick_reproduction):
    return quick_reproduction("ecn-efficiency")


@pytest.fixture(scope="module")
def cases(reproduction):
    out, _ = reproduction
    return pd.read_parquet(out / "tables" / "cases.parquet")


def setting(cases, n, d_ms, errors, column):
    """One setting's ``column`` as a QL × queue table."""
    rows = cases[(cases["n"] == n) & (cases["d_ms"] == d_ms) & (cases["errors"] == errors)]
    return rows.pivot(index="ql", columns="queue", values=column)[QUEUES]


def test_writes_tables_figures_and_report(reproduction):
    report_texts = [
        "E1",
        "E11",
        "Interpretation choices",
        "ns-2.35 default",
        "m = 70",
        "Table 1",
        "corrupted",
        "Pentikousis",
        "dumbbell.tcl",
    ]
    figures = ["fig3", "fig4", "fig5", "fig6", "fig7"]
    assert_reproduction_files(*reproduction, ["runs", "cases", "confidence"], figures, report_texts)


def test_checks_are_e1_to_e11_with_the_six_fields(reproduction):
    assert_checks(*reproduction, [f"E{i}" for i in range(1, 12)])


def test_every_transfer_completes_and_a_drop_free_run_needs_no_extra_packets(cases):
    assert (cases["transfers"] == 11 * cases["n"]).all()
    # ACKs of data, the handshake's left out: with delayed ACKs the floor is ⌈m/2⌉ = 35 per transfer.
    assert (cases["acks_per_transfer"] >= 35).all()
    assert (cases["network_overhead_pct"] >= 0).all()
    # Five clients behind a 128-packet DropTail buffer lose nothing: no overhead, and exactly one handshake
    # ACK per transfer. Their ACKs of data are the floor plus those the 100 ms delayed-ACK timer sends, as
    # ns-2.35's on the same scenario (its stored runs: 37.6 per transfer; wattnet 38.0), within one.
    quiet = cases[(cases["n"] == 5) & (cases["queue"] == "DT") & (cases["ql"] == 128) & ~cases["errors"]]
    assert len(quiet) == 2
    assert (quiet["network_overhead_pct"] == 0).all() and (quiet["receiver_overhead_pct"] == 0).all()
    assert (quiet["handshake_acks_per_transfer"] == 1).all()
    ns2 = reference_rows("ecn-efficiency")
    ns2 = ns2[(ns2["n"] == 5) & (ns2["queue"] == "DT") & (ns2["ql"] == 128) & ~ns2["errors"]].set_index("d_ms")
    for row in quiet.itertuples():
        assert abs(row.acks_per_transfer - ns2.loc[row.d_ms, "acks_per_transfer"]) <= 1, row


@pytest.mark.parametrize("n", [10, 25])
def test_ecn_does_not_shorten_transfers_and_qls_barely_matter(cases, n):
    """E1 (§4.1, Fig. 3): no goodput gain from ECN, TT flat in QL, a busy bottleneck."""
    tt = setting(cases, n, 20, False, "tt_mean_s")
    assert ((tt["ECN"] / tt["DT"]) >= 0.95).all(), tt
    assert (((tt.max() - tt.min()) / tt.mean()) <= 0.10).all(), tt
    # Busy from QL 32 on; at QL 16 a run can end with one transfer's repeated timeouts after the others
    # finished: ns-2.35's own run at n = 25, DropTail QL 16 has 77.5 %, and with its Reno rules wattnet's
    # DropTail and RED at n = 25, QL 16 fall below 90 % too.
    utilisation = setting(cases, n, 20, False, "utilisation")
    assert (utilisation.loc[[32, 64, 128]] >= 0.90).all().all() and utilisation.min().min() >= 0.75, utilisation


@pytest.mark.parametrize("n", [10, 25])
def test_ecn_cuts_network_and_receiver_overhead_below_droptail(cases, n):
    """§4.2, Fig. 4: ECN's network overhead is the lowest of the three at QL 16–64, its receiver
    overhead below DropTail's; DropTail's overhead falls as the buffer grows."""
    network = setting(cases, n, 20, False, "network_overhead_pct")
    receiver = setting(cases, n, 20, False, "receiver_overhead_pct")
    for ql in [16, 32, 64]:
        assert network.loc[ql, "ECN"] < network.loc[ql, "DT"], network
        # With 25 clients at QL 16 ECN and RED tie (24.4 and 24.0 %) under ns-2.35's loss response,
        # where ns-2.35 has 15.0 and 27.6 (docs/ns2-compatibility.md).
        if (n, ql) != (25, 16):
            assert network.loc[ql, "ECN"] < network.loc[ql, "RED"], network
        assert receiver.loc[ql, "ECN"] < receiver.loc[ql, "DT"], receiver
    assert network["DT"].is_monotonic_decreasing, network


def test_e2_overheads_at_25_clients_follow_ns2(cases):
    """E2 with ns-2.35's Reno rules: each queue's overhead within 15 % of ns-2.35's run of the case (the
    verdicts' agreement tolerance), so RED above DropTail as in ns-2.35 where the paper has it below, and ECN
    saving at least half of DropTail's, as in the paper."""
    network = setting(cases, 25, 20, False, "network_overhead_pct").loc[64]
    ns2 = reference_rows("ecn-efficiency")
    ns2 = ns2[(ns2["n"] == 25) & (ns2["d_ms"] == 20) & (ns2["ql"] == 64) & ~ns2["errors"]]
    ns2 = ns2.set_index("queue")["network_overhead_pct"]
    for queue in ["DT", "RED"]:
        assert abs(network[queue] / ns2[queue] - 1) <= 0.15, (network, ns2)
    assert ns2["RED"] > ns2["DT"] and network["RED"] > network["DT"], (network, ns2)
    assert (network["DT"] - network["ECN"]) / network["DT"] >= 0.5, network


def test_overhead_causes_are_computed_from_the_cases():
    """E2–E6's reasons: per-drop costs and drop totals summed over the cases, the widest gap named."""
    from wattnet.experiments.ecn_efficiency.reference import overhead_causes

    def row(n, queue, ql, extra, drops, extra_ns2, drops_ns2):
        return {"n": n, "d_ms": 20.0, "queue": queue, "ql": ql, "extra_packets_sent": extra,
                "bottleneck_drops": drops, "extra_packets_sent_ns2": extra_ns2, "bottleneck_drops_ns2": drops_ns2}  # fmt: skip

    clean = pd.DataFrame([
        row(10, "DT", 64, 130, 100, 139, 100), row(25, "DT", 64, 260, 200, 150, 120),
        row(10, "RED", 64, 50, 40, 60, 40), row(10, "ECN", 64, 12, 10, 30, 20),
    ])  # fmt: skip
    causes = overhead_causes(clean)
    # DropTail: (130 + 260)/(100 + 200) = 1.30 against (139 + 150)/(100 + 120) = 1.31; RED 1.25 and 1.50;
    # ECN 1.20 and 1.50; the widest drop gap is n 25's 200 against 120.
    assert "1.30 extra packets against ns-2.35's 1.31 with DT" in causes["E2"]
    assert "1.25 extra packets against ns-2.35's 1.50 with RED" in causes["E2"]
    assert "300 packets against 220 with DT" in causes["E2"]
    assert "the widest gap at n 25, QL 64 with DT (200 against 120)" in causes["E2"]
    # E3 reads n 10, QL 64, DropTail and ECN, both present here.
    assert causes["E3"].startswith("n 10, d 20 ms, DT QL 64: 130 extra packets and 100 drops against ns-2.35's 139")
    assert "ECN QL 64: 12 extra packets and 10 drops against ns-2.35's 30 and 20" in causes["E3"]
    # E6 reads n 5 at d 2 ms, which these cases lack: only the common part.
    assert causes["E6"].startswith("Over the error-free cases")


def test_ecn_sends_fewer_acks_and_more_so_with_larger_buffers(cases):
    """E9 (§4.6, Fig. 7), with errors: at n = 25, d = 2 ms ECN sends fewer ACKs than DT at every QL,
    the saving grows with QL up to 64 (ns-2.35's means over as many runs: 4.5, 11.5 and 14.9 %, then 8.4 % at QL 128);
    ECN sends fewer than RED in every error case."""
    acks = setting(cases, 25, 2, True, "acks_per_transfer")
    saving = (acks["DT"] - acks["ECN"]) / acks["DT"]
    assert (saving > 0).all() and saving.loc[[16, 32, 64]].is_monotonic_increasing, acks
    noisy = cases[cases["errors"] & cases["n"].isin([10, 25])].pivot_table(
        index=["n", "d_ms", "ql"], columns="queue", values="acks_per_transfer"
    )
    # With ns-2.35's RED (the ns2 preset) also at 25 clients, d 20 ms, QL 16: 48.1 against 50.7 (ns-2.35 52.7
    # and 57.2, means over the runs), where a RED counting packets tied in one run (51.0 and 51.0).
    assert (noisy["ECN"] < noisy["RED"]).all(), noisy


def test_replications_agree_and_droptail_alone_is_deterministic(reproduction):
    """E10 (§3.1): the 98 % CI of TT within ±5 %; without errors only RED draws random numbers, so
    DropTail's replications are identical."""
    out, _ = reproduction
    confidence = pd.read_parquet(out / "tables" / "confidence.parquet")
    assert (confidence["replications"] == 12).all()
    assert (confidence["tt_ci98_half_pct"] <= 5).all(), confidence
    runs = pd.read_parquet(out / "tables" / "runs.parquet")
    replicated = runs[(runs["sweep"] == "ci") & ~runs["errors"]]
    distinct = replicated.groupby("queue")["tt_mean_s"].nunique()
    assert distinct["DT"] == 1 and distinct["RED"] > 1 and distinct["ECN"] > 1, distinct


def test_the_router_works_in_the_red_region_under_load(cases):
    """E11 (§4): RED's average is in its marking region most of the time with 10 clients and
    virtually always with 25 (d = 20 ms, pooled over QL)."""
    red = cases[(cases["queue"] != "DT") & (cases["d_ms"] == 20) & ~cases["errors"]]
    in_region_s = (red["red_region_fraction"] * red["experiment_s"]).groupby(red["n"]).sum()
    share = in_region_s / red.groupby("n")["experiment_s"].sum()
    assert share[10] > 0.5 and share[25] >= 0.9, share


def test_a_second_run_reuses_the_stored_runs(reproduction):
    out, _ = reproduction
    before = {str(p): p.stat().st_mtime_ns for p in (out / "store").rglob("summary.json")}
    from wattnet.experiments import ecn_efficiency

    ecn_efficiency.reproduce(out, quick=True, workers=1)
    after = {str(p): p.stat().st_mtime_ns for p in (out / "store").rglob("summary.json")}
    # 4 settings without errors × 3 queues × 4 QLs, 4 with errors × 3 × 4 × 3 replications, and 12
    # replications of 3 queues at one setting and QL.
    assert before == after and len(before) == 4 * 3 * 4 + 4 * 3 * 4 * 3 + 12 * 3


def test_errored_cases_are_means_over_as_many_runs_as_ns2s_and_count_what_ns2_counts(cases):
    """With errors the checks read means over replications, ns-2.35's over as many runs (substreams of
    its error models); both count as received only the segments the clients' TCP got."""
    from wattnet.experiments.ecn_efficiency import FULL, QUICK, SEGMENTS_PER_TRANSFER, ns2_cases

    noisy, clean = cases[cases["errors"]], cases[~cases["errors"]]
    assert (noisy["replications"] == QUICK["error_replications"]).all() and (clean["replications"] == 1).all()
    ns2 = ns2_cases(QUICK)
    assert ns2 is not None
    # The stored reference has the full grid's runs of every errored case; quick mode reads its first ones.
    stored = reference_rows("ecn-efficiency")
    assert (stored[stored["errors"]].groupby(["n", "d_ms", "queue", "ql"]).size() == FULL["error_replications"]).all()
    assert (ns2.loc[ns2["errors"], "replications"] == QUICK["error_replications"]).all()
    for table in (cases, ns2):
        minimum = table["transfers"] * SEGMENTS_PER_TRANSFER
        # Conservation: the overhead counting corrupted segments exceeds the other by exactly those.
        extra = table["receiver_overhead_with_corrupted_pct"] - table["receiver_overhead_pct"]
        assert ((extra - 100 * table["corrupted_data_packets"] / minimum).abs() < 1e-9).all()
        # 1 % of the segments sent toward the clients is corrupted: ≈ 0.01 · (minimum + overhead), a
        # binomial count whose mean over three runs stays within 4 standard deviations of it.
        errored = table[table["errors"]]
        passed = errored["data_packets_received"] + errored["corrupted_data_packets"]
        sd = (0.01 * 0.99 * passed / QUICK["error_replications"]) ** 0.5
        assert ((errored["corrupted_data_packets"] - 0.01 * passed).abs() <= 4 * sd).all()
        assert (table.loc[~table["errors"], "corrupted_data_packets"] == 0).all()
