"""The reproductions' parameter files and the measured causes their verdicts quote."""

import pandas as pd
import pytest
from wattnet.experiments.capacity_scaling import QUICK
from wattnet.experiments.capacity_scaling.causes import explanations
from wattnet.experiments.data import load_parameters
from wattnet.experiments.greened_network import PRIMARY_BACKGROUND
from wattnet.experiments.greened_network.causes import loss_based_as_ns2


def test_a_missing_parameter_file_is_named():
    with pytest.raises(FileNotFoundError, match="wattnet.experiments.g_router: its parameter file nothing.toml"):
        load_parameters("wattnet.experiments.g_router", "nothing.toml")


def test_every_study_reads_its_grids_from_its_parameter_file():
    for package in ("capacity_scaling", "ecn_efficiency", "g_router", "greened_network"):
        assert "grids" in load_parameters(f"wattnet.experiments.{package}")


def runs(offered_packets: int, changes: float) -> pd.DataFrame:
    """One TCPonly and one TCP+PC run per RTT of a 1 ms / 100 ms grid, single source only."""
    rows = []
    for rtt in (1.0, 100.0):
        common = {"case": "single", "rtt_ms": rtt, "rwnd": "unlimited (1 GiB)", "replication": 0, "loss_pct": 1.0}
        rows.append({**common, "mode": "TCPonly", "data_packets_sent": offered_packets, "rate_changes": 0})
        rows.append({**common, "mode": "TCP+PC", "data_packets_sent": offered_packets, "rate_changes": changes})
    return pd.DataFrame(rows)


def test_the_smallest_rtt_cause_quotes_both_offered_loads_when_they_straddle_the_step_down_level():
    config = {**QUICK, "rtts_s": [0.001, 0.1], "duration_s": 60.0}
    # 44 709 and 49 532 packets of 1500 B in 60 s: 8.94 and 9.91 Mb/s, either side of 9 Mb/s.
    causes = explanations(runs(44_709, 929), runs(49_532, 0), config)
    assert "offers N1 8.94 Mb/s in wattnet and 9.91 Mb/s in ns-2.35" in causes["A1"]
    assert "wattnet 929, ns-2.35 0" in causes["A1"] and "A3" not in causes
    # Both above 9 Mb/s: practRA steps down in neither, and the cause does not apply.
    assert "A1" not in explanations(runs(49_000, 0), runs(49_532, 0), config)


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
