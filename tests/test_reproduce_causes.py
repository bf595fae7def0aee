"""The reproductions' parameter files and the measured causes their verdicts quote."""

import pandas as pd
import pytest
from wattnet.experiments.capacity_scaling import QUICK
from wattnet.experiments.capacity_scaling.causes import explanations
from wattnet.experiments.data import load_parameters
from wattnet.experiments.greened_network import PRIMARY_BACKGROUND
from wattnet.experiments.greened_network.causes import late_timeouts


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


def lowest_windows(bic_at_90: float) -> pd.DataFrame:
    """BIC and CUBIC at 50 and 90 %, the primary background, with their lowest window after ESTOP."""
    return pd.DataFrame(
        [
            {"background": PRIMARY_BACKGROUND, "variant": variant, "threshold_pct": threshold, "cwnd_min_after": cwnd}
            for variant, threshold, cwnd in [
                ("BIC", 50, 296),
                ("BIC", 90, bic_at_90),
                ("CUBIC", 50, 303),
                ("CUBIC", 90, 184),
            ]
        ]
    )


def test_the_late_timeout_cause_names_the_cases_where_only_wattnet_falls_to_one_segment():
    sentence = late_timeouts(lowest_windows(1), lowest_windows(181))
    assert (
        sentence is not None
        and "(lowest window after ESTOP, segments: BIC at 90 %: wattnet 1, ns-2.35 181)" in sentence
        and "finds a retransmission lost only by its timer" in sentence
    )
    assert late_timeouts(lowest_windows(181), lowest_windows(181)) is None
    assert late_timeouts(lowest_windows(1), None) is None
