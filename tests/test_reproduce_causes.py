"""The reproductions' parameter files and the measured causes their verdicts quote."""

import math

import pandas as pd
import pytest
from wattnet.experiments.capacity_scaling import FULL, QUICK, causes
from wattnet.experiments.capacity_scaling.causes import explanations, seed_noise, traced
from wattnet.experiments.capacity_scaling.reference import ns2_frames, ns2_runs
from wattnet.experiments.data import load_parameters
from wattnet.experiments.ecn_efficiency.causes import error_causes, straggler_cause
from wattnet.experiments.ecn_efficiency.sweeps import cases_table
from wattnet.experiments.greened_network import PRIMARY_BACKGROUND
from wattnet.experiments.greened_network.causes import loss_based_as_ns2


def test_a_missing_parameter_file_is_named():
    with pytest.raises(FileNotFoundError, match="wattnet.experiments.g_router: its parameter file nothing.toml"):
        load_parameters("wattnet.experiments.g_router", "nothing.toml")


def test_every_study_reads_its_grids_from_its_parameter_file():
    for package in ("capacity_scaling", "ecn_efficiency", "g_router", "greened_network"):
        assert "grids" in load_parameters(f"wattnet.experiments.{package}")


def runs(changes: float) -> pd.DataFrame:
    """One TCPonly and one TCP+PC run per RTT of a 10 ms / 100 ms grid, single source only."""
    rows = []
    for rtt in (10.0, 100.0):
        common = {"case": "single", "rtt_ms": rtt, "rwnd": "unlimited (1 GiB)", "replication": 0, "loss_pct": 1.0}
        rows.append({**common, "mode": "TCPonly", "rate_changes": 0})
        rows.append({**common, "mode": "TCP+PC", "rate_changes": changes})
    return pd.DataFrame(rows)


def test_the_rate_change_cause_quotes_both_counts_when_they_differ_beyond_the_agreement_rule():
    # 835 against 806 changes: within 15 % of ns-2.35's count, so the counts agree and nothing is said.
    assert explanations(runs(835), runs(806), QUICK) == {}
    # 1036 against 806: 28.5 % more, a disagreement the sentence explains with both counts.
    causes = explanations(runs(1036), runs(806), QUICK)
    assert "RTT 10 ms wattnet 1036, ns-2.35 806; RTT 100 ms wattnet 1036, ns-2.35 806" in causes["A4"]
    assert "TCP+PC rate changes, single" in causes["A4"] and set(causes) == {"A4"}


def chain_runs(offered_packets: int, loss_at: dict[float, float]) -> pd.DataFrame:
    """The single source on a 1 ms / 100 ms grid: TCPonly offering ``offered_packets`` in 60 s and
    losing ``loss_at[rtt]`` %, TCP+PC at r̄ 10 Mb/s."""
    rows = []
    for rtt in (1.0, 100.0):
        common = {"case": "single", "rtt_ms": rtt, "rwnd": "unlimited (1 GiB)", "replication": 0, "rate_changes": 0}
        only = {
            "mode": "TCPonly",
            "data_packets_sent": offered_packets,
            "loss_pct": loss_at[rtt],
            "mean_rate_mbps": 10.0,
        }
        rows.append({**common, **only})
        rows.append({**common, **only, "mode": "TCP+PC"})
    return pd.DataFrame(rows)


def test_the_smallest_rtt_causes_quote_the_offered_load_and_the_buffers():
    config = {**QUICK, "rtts_s": [0.001, 0.1], "duration_s": 60.0}
    failed = [{"id": "A2", "pass": False}, {"id": "A4", "pass": False}]
    # 49 532 packets of 1500 B in 60 s: 9.91 Mb/s, above the first step down (9 Mb/s).
    ours = chain_runs(49_532, {1.0: 5.13, 100.0: 0.07})
    causes = explanations(ours, ours, config, failed, {})
    assert (
        "TCPonly offers N1 9.91 Mb/s in wattnet and 9.91 Mb/s in ns-2.35, above practRA's first step down"
        in causes["A2"]
    )
    # One BDP at 10 Mb/s: ⌈1250 B / 1500 B⌉ = 1, at least 2 packets; ⌈125 000 / 1500⌉ = 84.
    assert (
        "loses 5.13 % at RTT 1 ms (a one-BDP buffer of 2 packets) and 0.07 % at RTT 100 ms (84 packets)" in causes["A4"]
    )
    # 44 709 packets (8.94 Mb/s) would let practRA step down: no such cause; a target met has none.
    slower = chain_runs(44_709, {1.0: 0.07, 100.0: 0.07})
    assert explanations(slower, slower, config, failed, {}) == {}
    assert explanations(ours, ours, config, [{"id": "A2", "pass": True}], {}) == {}


def test_seed_noise_tests_one_run_against_the_prediction_interval_of_the_other_simulators_seeds():
    # Three seeds, mean 10, sample standard deviation 1: one more run's 95 % prediction interval is
    # 10 ± t(0.975, 2)·1·√(1 + 1/3) = 10 ± 4.303·1.155 = 10 ± 4.97.
    three = [{"x": 9.0}, {"x": 10.0}, {"x": 11.0}]
    within = seed_noise({"x": 10.0}, {"x": 6.0}, three, [{"x": 6.0}])
    assert within == (
        "wattnet ran 3 and ns-2.35 1 seeds per point: 1 of the 1 numbers that differ lie within the seed-to-seed "
        "spread at 95 % (x: wattnet 10 ± 5, ns-2.35 6)."
    )
    # 4.9 below the mean is inside, 5 below is not.
    assert "1 of the 1" in (seed_noise({"x": 10.0}, {"x": 5.1}, three, [{"x": 5.1}]) or "")
    outside = seed_noise({"x": 10.0}, {"x": 5.0}, three, [{"x": 5.0}])
    assert outside is not None and outside.endswith("0 of the 1 numbers that differ lie within the seed-to-seed "
                                                    "spread at 95 %; outside it: x: wattnet 10 ± 5, ns-2.35 5.")  # fmt: skip
    # The quick grid: wattnet's one run against ns-2.35's stored seeds.
    quick = seed_noise({"x": 6.0}, {"x": 10.0}, [{"x": 6.0}], three)
    assert quick is not None and "1 of the 1" in quick and "(x: ns-2.35 10 ± 5, wattnet 6)" in quick
    # 10 against 9.5 agree (within 15 %): nothing to explain; one seed in each: no spread to measure.
    assert seed_noise({"x": 10.0}, {"x": 9.5}, three, [{"x": 9.5}]) is None
    assert seed_noise({"x": 10.0}, {"x": 5.0}, three[:1], [{"x": 5.0}]) is None


def test_seed_noise_tests_two_means_by_welchs_interval_of_their_difference():
    # Means 10 and 8 of three seeds each, both with variance 1: the difference's standard error is
    # √(1/3 + 1/3) = 0.8165 with Welch's (2/3)² / ((1/3)²/2 + (1/3)²/2) = 4 degrees of freedom, so its
    # 95 % half-width is t(0.975, 4)·0.8165 = 2.776·0.8165 = 2.27: a difference of 2 is inside, 4 is not.
    ours = [{"x": 9.0}, {"x": 10.0}, {"x": 11.0}]
    close, far = [{"x": v} for v in (7.0, 8.0, 9.0)], [{"x": v} for v in (5.0, 6.0, 7.0)]
    inside = seed_noise({"x": 10.0}, {"x": 8.0}, ours, close)
    assert inside is not None and inside.startswith("wattnet ran 3 and ns-2.35 3 seeds per point: 1 of the 1")
    assert "(x: wattnet 10, ns-2.35 8, difference 2 ± 2.3)" in inside
    outside = seed_noise({"x": 10.0}, {"x": 6.0}, ours, far)
    assert outside is not None and outside.endswith("; outside it: x: wattnet 10, ns-2.35 6, difference 4 ± 2.3.")


def test_a_yes_no_is_within_the_spread_when_some_seed_of_either_simulator_gives_the_others_answer():
    ours, theirs = {"holds": True}, {"holds": False}
    mixed = seed_noise(ours, theirs, [{"holds": True}, {"holds": False}, {"holds": True}], [{"holds": False}])
    assert mixed is not None and "1 of the 1" in mixed
    assert "holds: ns-2.35's answer in 1 of wattnet's 3 seeds, wattnet's in 0 of ns-2.35's 1" in mixed
    flipping = seed_noise(ours, theirs, [{"holds": True}], [{"holds": False}, {"holds": True}])
    assert flipping is not None and "1 of the 1" in flipping and "wattnet's in 1 of ns-2.35's 2" in flipping
    apart = seed_noise(ours, theirs, [{"holds": True}, {"holds": True}], [{"holds": False}, {"holds": False}])
    assert apart is not None and "0 of the 1" in apart


def a12_single(saving_at: tuple[float, float], cost: float) -> dict:
    """A12's value with the single source's saving at RTT 10 and 100 ms and its reduction at mRCI 10 ms."""
    return {"single": {"saving_pct_by_rtt": {"RTT 10": saving_at[0], "RTT 100": saving_at[1]},
                       "holds": {"saving with RTT": saving_at[1] > saving_at[0]},
                       "reduction_pct_by_mrci": {"mRCI 10": cost, "mRCI 1000": 0.07}}}  # fmt: skip


def test_a12s_single_source_cause_quotes_the_near_tie_and_the_decision_instants():
    config = {**QUICK, "rtts_s": [0.01, 0.1], "mrcis_s": [0.01, 1.0]}
    frame = pd.DataFrame([
        {"case": "single", "rtt_ms": rtt, "mrci_ms": 10.0, "rwnd": "unlimited (1 GiB)", "rate_changes": changes}
        for rtt, changes in ((10.0, 835), (100.0, 153))
    ])  # fmt: skip
    ours, theirs = a12_single((1.72, 1.59), 4.62), a12_single((1.57, 1.57), 3.92)
    sentence = causes.single_source_trend(ours, theirs, frame, frame.assign(rate_changes=[806, 156]), config)
    # 1.59 − 1.72 = −0.13 and 0; (835 + 153)/2 = 494 changes against (806 + 156)/2 = 481.
    assert (
        sentence is not None
        and "moves by -0.13 points from RTT 10 to 100 ms in wattnet and +0.00 in ns-2.35" in sentence
    )
    assert (
        "changes the rate 494 against 481 times (mean over RTT) at a throughput cost of 4.62 against 3.92 %" in sentence
    )
    # Both say no (1.59 < 1.72 and 1.57 is not above 1.57): no tie to name; a yes against a no is one.
    assert "near tie" not in sentence
    tied = causes.single_source_trend(ours, a12_single((1.57, 1.58), 3.92), frame, frame, config)
    assert tied is not None and "+0.01 in ns-2.35, a near tie on which 'saving with RTT' turns" in tied
    # 4.62 against 4.5 % and the same savings agree (within 0.5 points): nothing to explain.
    assert causes.single_source_trend(ours, a12_single((1.72, 1.59), 4.5), frame, frame, config) is None


def test_per_seed_checks_each_replication_with_the_cases_run_once(monkeypatch):
    # ns-2.35's layout: the single source once (it draws no random number), the background three times.
    runs = pd.DataFrame([{"case": "single", "replication": 0}] + [{"case": "bON", "replication": r} for r in range(3)])
    seen = []

    def fake_checks(trace_of, alone, summary, config):
        seen.append(sorted(zip(alone["case"], alone["replication"])))
        return [{"id": "A7", "wattnet_value": {"bursts": float(len(alone))}}]

    monkeypatch.setattr(causes, "checks", fake_checks)
    monkeypatch.setattr(causes, "summarise", lambda frame: frame)
    assert causes.per_seed(lambda run: None, runs, QUICK) == {"A7": [{"bursts": 2.0}] * 3}
    # Every seed is read as the first replication, with the single source beside it.
    assert seen == [[("bON", 0), ("single", 0)]] * 3


@pytest.mark.parametrize("grid", [QUICK, FULL], ids=["quick", "full"])
def test_the_stored_reference_replicates_the_random_cases_and_runs_the_single_source_once(grid):
    every = ns2_runs(grid)
    assert every is not None
    counts = every.groupby(["case", "rtt_ms", "mode", "mrci_ms"], dropna=False)["replication"].nunique()
    # Every background and bottleneck point has the same replications, 0 … n − 1, several of them.
    stored = set(counts.loc[["bON", "BN"]])
    assert len(stored) == 1 and min(stored) >= 2 and set(counts.loc["single"]) == {1}
    assert set(every[every["case"] == "bON"]["replication"]) == set(range(min(stored)))
    if grid is QUICK:
        assert stored == {FULL["replications"]}
    # The checks read as many replications as wattnet runs (the quick grid's one).
    frames = ns2_frames(grid)
    assert frames is not None and set(frames[0]["replication"]) == set(range(min(grid["replications"], min(stored))))
    # The replications are independent draws: no two background runs at one point are the same.
    bon = every[(every["case"] == "bON") & (every["rtt_ms"] == 100.0) & (every["mode"] == "TCPonly")]
    assert bon["background_packets"].nunique() == len(bon) == min(stored)


def table_iv_runs(afters: dict[str, list[float]]) -> pd.DataFrame:
    """One run per variant and Table IV threshold (50, 70, 90 %), the primary background: 30 Mb/s before the
    switch-off and the given throughputs after it, so a loss of (30 − after)/30."""
    return pd.DataFrame(
        [
            {"background": PRIMARY_BACKGROUND, "replication": 0, "variant": variant, "threshold_pct": threshold,
             "throughput_before_mbps": 30.0, "throughput_after_mbps": after, "hops_after": 6}
            for variant, per_threshold in afters.items()
            for threshold, after in zip((50, 70, 90), per_threshold)
        ]
    )  # fmt: skip


def test_the_trace_causes_quote_the_lowest_smoothed_arrival_and_practras_own_rate():
    config = {**QUICK, "rtts_s": [0.01, 0.1], "mrcis_s": [0.01, 1.0]}
    common = {"rtt_ms": 100.0, "rwnd": "unlimited (1 GiB)", "replication": 0}
    runs = pd.DataFrame([
        {**common, "case": "single", "mode": "TCPonly", "mrci_ms": float("nan"), "mean_rate_mbps": 10.0},
        {**common, "case": "bON", "mode": "TCP+PC", "mrci_ms": 10.0, "mean_rate_mbps": 6.5},
    ])  # fmt: skip
    # 8 Mb/s with ten 100 ms bins at 7.5 from 20 s: the 0.5 s average bottoms out at 7.5, above 7.
    time = pd.Index([k / 10 for k in range(600)], name="time_s")
    arrival = [7.5 if 200 <= k < 210 else 8.0 for k in range(600)]
    trace = pd.DataFrame({"rate_bps": 10.0, "arrival_rate_bps": arrival}, index=time)
    found = traced(runs, runs, config, {"A5", "A11"}, (lambda run: trace, lambda run: trace))
    assert "(its lowest: wattnet 7.50, ns-2.35 7.50 Mb/s)" in found["A5"]
    assert "its r̄ is 6.50 Mb/s in wattnet and 6.50 Mb/s in ns-2.35, below the 8 Mb/s" in found["A11"]
    # A dip below 7 Mb/s is an episode: A5's cause does not apply; targets met get none.
    dipped = trace.assign(arrival_rate_bps=[6.0 if 200 <= k < 210 else 8.0 for k in range(600)])
    assert "A5" not in traced(runs, runs, config, {"A5"}, (lambda run: dipped, lambda run: trace))
    assert traced(runs, runs, config, set(), (lambda run: trace, lambda run: trace)) == {}


# Losses 33.3/33.3/30 % for the loss-based variants (falling), Vegas 90/90/10 %.
AFTERS = {v: [20.0, 20.0, 21.0] for v in ("Tahoe", "Reno", "NewReno", "BIC", "CUBIC")} | {"Vegas": [3.0, 3.0, 27.0]}


def test_the_loss_falls_cause_applies_only_where_the_loss_based_trends_differ_by_tenths_of_a_point():
    # ns-2.35: BIC's losses 33.3, 33.3, 31.7 % (after 21.5 at 90 %): it falls in both simulators.
    theirs = AFTERS | {"BIC": [20.0, 20.0, 20.5], "Vegas": [3.0, 3.0, 27.6]}
    sentence = loss_based_as_ns2(table_iv_runs(AFTERS), table_iv_runs(theirs))
    assert sentence is not None and "at most 1.7 points apart, BIC at 90 %" in sentence
    assert "where one falls" not in sentence and sentence.endswith("Vegas:")
    # CUBIC's losses 33.0, 33.3, 33.0 % in ns-2.35 (flat, and not falling), 33.3, 33.3, 30 % in wattnet (falling
    # by 3.3 points): the trend differs by more than tenths of a point and the sentence does not apply.
    flat = AFTERS | {"CUBIC": [20.1, 20.0, 20.1]}
    assert loss_based_as_ns2(table_iv_runs(AFTERS), table_iv_runs(flat)) is None
    # Both flat within a point (33.3, 33.3, 33.0, falling, against 33.0, 33.3, 33.0): named, with both series.
    ours = AFTERS | {"CUBIC": [20.0, 20.0, 20.1]}
    sentence = loss_based_as_ns2(table_iv_runs(ours), table_iv_runs(flat))
    assert sentence is not None
    assert "(CUBIC: wattnet 33.3, 33.3, 33 %, ns-2.35 33, 33.3, 33 %) both stay within 1 point" in sentence
    assert loss_based_as_ns2(table_iv_runs(AFTERS), None) is None


def ecn_cases(settings, qls, **columns):
    """One row per (n, d, queue, QL) of ``settings`` with the given constant columns, both simulators."""
    rows = [
        {"n": n, "d_ms": d, "errors": errors, "queue": queue, "ql": ql, **columns}
        for n, d, errors in settings
        for queue in ("DT", "RED", "ECN")
        for ql in qls
    ]
    frame = pd.DataFrame(rows)
    return frame.assign(**{f"{c}_ns2": frame[c] for c in columns})


def at(frame, column, value, **where):
    """``frame`` with ``column`` set to ``value`` on the rows matching ``where``."""
    rows = pd.Series(True, index=frame.index)
    for key, wanted in where.items():
        rows &= frame[key] == wanted
    frame.loc[rows, column] = value
    return frame


def test_the_straggler_cause_quotes_the_run_that_sets_ns2s_widest_spread_and_its_clients_in_progress():
    clean = ecn_cases([(10, 20, False), (25, 20, False)], [16, 32, 64, 128], tt_mean_s=10.0, transfers=275,
                      experiment_s=100.0, tt_mean_without_longest_s=10.0, tt_max_s=20.0, longest_transfer_timeouts=1,
                      utilisation=0.99)  # fmt: skip
    # ns-2.35's DropTail at n 25, QL 16: a 100 s transfer with 7 timeouts keeps the run going to 150 s
    # while the other transfers, sharing the bottleneck among fewer, average 8.7 s and the run's mean 9 s.
    straggler = {"queue": "DT", "n": 25, "ql": 16}
    for column, value in [("tt_mean_s_ns2", 9.0), ("tt_max_s_ns2", 100.0), ("longest_transfer_timeouts_ns2", 7),
                          ("experiment_s_ns2", 150.0), ("tt_mean_without_longest_s_ns2", 8.7),
                          ("utilisation_ns2", 0.775)]:  # fmt: skip
        at(clean, column, value, **straggler)
    at(clean, "utilisation", 0.95, queue="RED", n=10, ql=32)
    cause = straggler_cause(clean)
    # 10/9 − 1 = 11.1 %; the spread over QL (10 − 9)/mean(9, 10, 10, 10) = 1/9.75 = 10.3 %, none without QL 16.
    assert "within 11.1 % of ns-2.35's, but over QL 16–128 it spreads by up to 0.0 % in wattnet and 10.3 %" in cause
    assert "(DT, n 25); without QL 16 the largest spreads are 0.0 % and 0.0 %." in cause
    assert "QL 16 run there averages 9.00 s against 10.00–10.00 s at the other QLs" in cause
    assert "takes 100.0 s with 7 timeouts (wattnet's longest there: 20.0 s, 1), the run lasts 150.0 s" in cause
    # Little's law: 275 transfers × 9 s / 150 s = 16.5 in progress, against 275 × 10/100 = 27.5.
    assert "16.5 transfers are in progress on average against 27.5–27.5" in cause
    assert "among fewer clients, average 8.70 s" in cause
    assert "wattnet's 95.0 % (RED, n 10, QL 32) and ns-2.35's 77.5 % (DT, n 25, QL 16)" in cause


def errored_cases():
    """The errored settings of the quick grid, 4 runs of each case in both simulators."""
    settings = [(n, d, True) for n in (10, 25) for d in (2, 20)]
    return ecn_cases(settings, [16, 32, 64, 128], replications=4, transfers=275, tt_mean_s=10.0, tt_mean_s_sd=0.2,
                     receiver_overhead_pct=1.0, receiver_overhead_pct_sd=0.1, timeouts=275.0,
                     acks_per_transfer=40.0, acks_per_transfer_sd=0.5, data_packets_received=22000.0,
                     handshake_acks_per_transfer=1.01)  # fmt: skip


def test_the_noise_cause_sets_the_papers_orderings_against_the_standard_error_of_a_difference():
    noisy = errored_cases()
    # n 25, d 2 ms, QL 16: ECN 9.4 s (SD 0.3), DT 10 s (SD 0.4) over 4 runs: −0.60 ± √(0.09/4 + 0.16/4) = ± 0.25.
    at(noisy, "tt_mean_s", 9.4, n=25, d_ms=2, ql=16, queue="ECN")
    at(noisy, "tt_mean_s_sd", 0.3, n=25, d_ms=2, ql=16, queue="ECN")
    at(noisy, "tt_mean_s_sd", 0.4, n=25, d_ms=2, ql=16, queue="DT")
    # 10 clients: one case at 11 s, the rest at 10: spread 1/mean = 1/(10 + 1/24) = 9.96 %; SD 0.2 over 10 s = 2 %.
    at(noisy, "tt_mean_s_ns2", 11.0, n=10, d_ms=2, ql=16, queue="DT")
    cause = error_causes(noisy, noisy)["E8"]
    assert "Over 4 runs each, 10 clients' mean transfer times spread" in cause
    assert (
        "by 0.0 % in wattnet and 10.0 % in ns-2.35, while one case's mean varies from seed to seed by up to 2.0 %"
        in cause
    )
    # The other differences are 0 ± √(2 · 0.04/4) = ± 0.14: 5 of 6 within two standard errors.
    assert "QL 16, d 2 ms: wattnet -0.60 ± 0.25 s, ns-2.35 +0.00 ± 0.14 s" in cause
    assert ": 5 of these 6 differences are within two standard errors of zero, so most orderings" in cause
    # Every difference 1 s, at least 4 standard errors (0.25 s at most): none within, all beyond the noise.
    noisy.loc[noisy["queue"] == "ECN", ["tt_mean_s", "tt_mean_s_ns2"]] = 11.0
    beyond = error_causes(noisy, noisy)["E8"]
    assert beyond.endswith(
        ": 0 of these 6 differences are within two standard errors of zero, the others beyond the seed-to-seed noise."
    )


def test_the_ack_cause_splits_the_ack_gap_into_extra_segments_and_acks_per_segment():
    noisy = errored_cases()
    # ns-2.35 at n 25, d 2 ms: 45 ACKs per transfer and 24 750 segments per run of 275 transfers, 90 per transfer
    # against wattnet's 80 (22 000): 0.5 ACK per segment in both (45/90, 40/80), so the 5 more ACKs are
    # (90 − 80) · 0.5 = 5.0 from the extra segments and 90 · (0.5 − 0.5) = 0 from the rate.
    noisy["acks_per_transfer_ns2"] = 45.0
    noisy["data_packets_received_ns2"] = 24750.0
    # Without errors: 19 250 segments (70 per transfer), 36 ACKs per transfer in wattnet (36/70 = 0.514 per
    # segment) and 38.5 in ns-2.35 (0.550).
    clean = ecn_cases([(25, 20, False)], [16, 32, 64, 128], transfers=275, acks_per_transfer=36.0,
                      data_packets_received=19250.0).assign(acks_per_transfer_ns2=38.5)  # fmt: skip
    cause = error_causes(pd.concat([noisy, clean], ignore_index=True), noisy)["E9"]
    assert "wattnet's handshake ACKs (1.01 per transfer) are left out" in cause
    assert (
        "send DT 5.0, RED 5.0, ECN 5.0 more ACKs per transfer than wattnet's: DT 5.0, RED 5.0, ECN 5.0 of them" in cause
    )
    assert (
        "segments (duplicates), DT 0.0, RED 0.0, ECN 0.0 because they answer a segment with an ACK more often" in cause
    )
    assert "(DT 0.500, RED 0.500, ECN 0.500 ACKs per segment against DT 0.500, RED 0.500, ECN 0.500)" in cause
    assert "without errors (n 25) they send 0.550 ACKs per segment received against 0.514." in cause
    assert cause.endswith("vary from seed to seed by up to 0.5 (SD).")


def test_the_receiver_cause_splits_the_overhead_into_timeouts_and_duplicates_per_timeout():
    noisy = errored_cases()
    # 1 % of 275 · 70 segments = 192.5 duplicates over 275 timeouts: 0.70 per timeout, 1 timeout per transfer.
    at(noisy, "timeouts_ns2", 137.5, n=25, d_ms=20, ql=128, queue="ECN")
    cause = error_causes(noisy, noisy)["E7"]
    assert "is DT 1.00 ± 0.10, RED 1.00 ± 0.10, ECN 1.00 ± 0.10 % in wattnet" in cause
    assert (
        "time out DT 1.00, RED 1.00, ECN 1.00 times per transfer against ns-2.35's DT 1.00, RED 1.00, ECN 0.50" in cause
    )
    assert "DT 0.70, RED 0.70, ECN 0.70 duplicates in wattnet against DT 0.70, RED 0.70, ECN 1.40 in ns-2.35" in cause


def test_the_cases_table_averages_the_replications_and_keeps_their_spread():
    key = {"sweep": "grid", "n": 25, "d_ms": 2.0, "errors": True, "queue": "ECN", "ql": 64}
    runs = pd.DataFrame([
        {**key, "replication": r, "seed": 100 + r, "tt_mean_s": tt, "receiver_overhead_pct": 1.0,
         "acks_per_transfer": acks}
        for r, (tt, acks) in enumerate([(9.0, 40.0), (10.0, 42.0), (11.0, 44.0)])
    ] + [{**key, "errors": False, "replication": 0, "seed": 7, "tt_mean_s": 5.0, "receiver_overhead_pct": 0.5,
          "acks_per_transfer": 36.0}])  # fmt: skip
    cases = cases_table(runs).set_index("errors")
    # Means 10 s and 42 ACKs; sample SDs √((1 + 0 + 1)/2) = 1 and √((4 + 0 + 4)/2) = 2.
    assert cases.loc[True, ["tt_mean_s", "acks_per_transfer", "replications"]].tolist() == [10.0, 42.0, 3]
    assert cases.loc[True, ["tt_mean_s_sd", "acks_per_transfer_sd", "receiver_overhead_pct_sd"]].tolist() == [
        1.0,
        2.0,
        0.0,
    ]
    # One run: its own values, no spread.
    assert cases.loc[False, "tt_mean_s"] == 5.0 and cases.loc[False, "replications"] == 1
    assert pd.isna(cases.loc[False, "tt_mean_s_sd"])


def burst_packets() -> tuple[float, float]:
    """Mean and variance of the packets in one background burst: a 10 Mb/s CBR of 1500 B packets
    (one every τ = 1.2 ms from the burst's start) for L = min(Exp(bON = 100 ms), 1 s) sends N = ⌈L/τ⌉
    packets, so P(N > k) = P(L > kτ) = e^(−kτ/bON) for kτ < 1 s and 0 beyond:
    E[N] = Σ P(N > k) = 83.83 and E[N²] = Σ (2k + 1)·P(N > k), Var[N] = 83.3²."""
    tau = 1500 * 8 / 10e6
    survive = [k for k in range(1000) if k * tau < 1.0]
    mean = sum(math.exp(-k * tau / 0.1) for k in survive)
    return mean, sum((2 * k + 1) * math.exp(-k * tau / 0.1) for k in survive) - mean**2


@pytest.mark.parametrize("grid", [QUICK, FULL], ids=["quick", "full"])
def test_ns2s_background_offers_the_analytic_load_and_is_common_to_both_random_cases(grid):
    every = ns2_runs(grid)
    assert every is not None
    only = every[(every["mode"] == "TCPonly") & (every["rtt_ms"] == 100.0)].set_index(["case", "replication"])
    # One burst a second; the replications are independent, so their mean per burst lies within three
    # standard errors of E[N] (σ/√(replications × bursts)).
    mean, variance = burst_packets()
    bursts = grid["duration_s"]
    per_burst = only.loc["bON", "background_packets"] / bursts
    assert abs(per_burst.mean() - mean) <= 3 * math.sqrt(variance / (len(per_burst) * bursts))
    # The bottleneck's generator is another stream: the bursts are the same with and without it.
    assert (only.loc["BN", "background_packets"] == only.loc["bON", "background_packets"]).all()
