"""`wattnet reproduce g-router --quick`: the files, the checks' shape and the paper's trends that hold."""

import pandas as pd
import pytest
from conftest import assert_checks, assert_reproduction_files


@pytest.fixture(scope="module")
def reproduction(quick_reproduction):
    return quick_reproduction("g-router")


@pytest.fixture(scope="module")
def tables(reproduction):
    out, _ = reproduction
    names = ["runs", "summary", "phases", "flow_estimates"]
    return {name: pd.read_parquet(out / "tables" / f"{name}.parquet") for name in names}


def row(summary, case, configuration):
    return summary[(summary["case"] == case) & (summary["configuration"] == configuration)].iloc[0]


def test_writes_tables_figures_checks_and_report(reproduction):
    report_texts = ["C1", "C6", "Interpretation choices", "C_init", "wattnet default", "ns2 profile", "The 95 % bar",
                    "wattnet-only", "fluid model", "eq. 6", "Lombardo"]  # fmt: skip
    tables = ["runs", "summary", "phases", "flow_estimates", "fig2_traces", "fig3_traces", "fluid_traces",
              "fluid_comparison"]  # fmt: skip
    assert_reproduction_files(*reproduction, tables, ["fig2", "fig3", "fluid_model"], report_texts)


def test_checks_are_c1_to_c6_with_the_documented_fields(reproduction):
    assert_checks(*reproduction, [f"C{i}" for i in range(1, 7)])


def test_quick_mode_runs_each_configuration_once_at_half_length(tables):
    runs = tables["runs"]
    assert sorted(zip(runs["case"], runs["configuration"], strict=True)) == [
        (1, "AWM/C-EARTH"),
        (1, "over-provisioned"),
        (2, "AWM/C-EARTH"),
        (2, "not controlled"),
    ]
    # Half of the paper's windows: the ramp ends at 300 s.
    assert tables["phases"]["to_s"].max() == 300.0


def test_case_1_c_earth_follows_the_load_once_the_first_phase_is_over(tables):
    summary, phases = tables["summary"], tables["phases"]
    controlled, over = row(summary, 1, "AWM/C-EARTH"), row(summary, 1, "over-provisioned")
    # Over the 25-source phase and the ramp, C is within 5 % of the offered load (Fig. 2a).
    settled = phases[(phases["case"] == 1) & phases["window"].isin(["25 sources", "ramp 25 → 20"])]
    assert len(settled) == 2 and (settled["error_pct"].abs() <= 5).all(), settled
    # The 95 % throughput bar, and the utilisation from the end of the first phase on.
    assert controlled["throughput_ratio_pct"] >= 95
    assert controlled["utilisation_after_first_phase_pct"] >= 95
    # AWM holds the queue near T = 50 packets there; the over-provisioned router never queues.
    assert 40 <= controlled["mean_queue_after_first_phase_packets"] <= 60
    assert over["mean_queue_packets"] < 1 and over["g_router_drops"] == 0
    # Scaling C to the load spends far less capacity than over-provisioning.
    assert controlled["mean_rate_mbps"] < 0.3 * over["mean_rate_mbps"]
    assert controlled["utilisation_pct"] > 3 * over["utilisation_pct"]


def test_case_2_the_bottleneck_lowers_c_and_the_losses(tables):
    summary, phases = tables["summary"], tables["phases"]
    windows = phases[phases["case"] == 2].set_index("window")
    before, bottleneck = windows.loc["before the bottleneck (25 sources)"], windows.loc["bottleneck"]
    # Before the bottleneck C follows the load; after it, C comes down toward the Internet node's rate.
    assert abs(before["error_pct"]) <= 5
    assert bottleneck["c_mbps"] < 0.8 * before["c_mbps"]
    nc, controlled = row(summary, 2, "not controlled"), row(summary, 2, "AWM/C-EARTH")
    # Without control, the Internet node's buffer overflows from the bottleneck on (none in case 1).
    assert nc["internet_drops"] > 0 and nc["internet_full_pct_after_bottleneck"] > 25
    assert row(summary, 1, "over-provisioned")["internet_drops"] == 0
    # AWM/C-EARTH loses fewer packets than the uncontrolled router.
    assert controlled["drops_total"] < nc["drops_total"] and controlled["loss_reduction_pct"] > 0


def test_the_initial_flow_estimate_decides_between_a_held_queue_and_a_followed_load(tables):
    n0 = tables["flow_estimates"].set_index("n0")
    assert list(n0.index) == sorted(n0.index) and n0["study_default"].sum() == 1
    # RTT_k = N₀·swnd₀/C₀ = N₀ · 65 536 B / 2.5 MB/s.
    assert n0.loc[1.0, "rtt_estimate_ms"] == pytest.approx(26.2144)
    # N₀ = 1: AWM's window binds and holds the queue at T = 50 packets, but C stays far
    # below the demand (nothing in eq. 4 raises it at q = T) and the throughput collapses.
    spec = n0.loc[1.0]
    assert 45 <= spec["mean_queue_after_first_phase_packets"] <= 55
    assert spec["queue_std_after_first_phase_packets"] <= 10
    assert spec["throughput_ratio_pct"] < 50
    # The study's N₀ from eq. 6, RTT_k = 0.2 s + T/C₀ = 0.22 s: the window hardly binds, C follows
    # the load, the queue swings.
    study = n0[n0["study_default"]].iloc[0]
    assert study.name == pytest.approx(0.22 * 2.5e6 / 65536)
    assert study["rtt_estimate_ms"] == pytest.approx(220)
    assert study["throughput_ratio_pct"] >= 95
    assert study["queue_std_after_first_phase_packets"] > 2 * spec["queue_std_after_first_phase_packets"]
