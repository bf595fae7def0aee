"""The cross-validation against ns-2.35 and ns-3.44: wattnet's runs against the stored references.

The reference results live in validation/reference (``make validate`` regenerates them with the
simulators installed); these tests need neither simulator.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from wattnet.runner import run as run_scenario
from wattnet.validation import compare, ns2, ns3, report, wattnet_side
from wattnet.validation.scenarios import REPLICAS, SCENARIOS, replicas


def test_every_scenario_has_a_stored_reference_with_its_simulator_and_script():
    for name, scenario in SCENARIOS.items():
        stored = compare.load_reference(name)
        assert stored["scenario"] == name
        assert ("ns-2 2.35" if scenario.reference == "ns2" else "ns-3.44") in stored["simulator"]
        assert stored["script"], name
        assert len(stored["counters"]) == REPLICAS
        assert stored["metrics"] == pytest.approx(compare.mean_metrics(scenario, stored["counters"]))


def test_wattnet_matches_the_stored_references_within_tolerance():
    rows = compare.compare_all()
    assert len(rows) == sum(len(compare.load_reference(name)["metrics"]) for name in SCENARIOS)
    failed = [row for row in rows if row.verdict == "FAIL"]
    assert not failed, "rows outside their tolerance and not known differences:\n" + report.console_table(failed)
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert report.readme_block(rows) in readme, "README's validation summary is stale: wattnet validate --readme"


def test_the_readme_summary_replaces_only_its_block_and_refuses_a_readme_without_one(tmp_path: Path):
    row = compare.Row("ns2-single-newreno-rtt22", "drops", 10.0, 11.0, "±20 % (≥3)", True, "")
    readme = tmp_path / "README.md"
    readme.write_text(f"# t\n\n{report.README_BEGIN}\nstale\n{report.README_END}\n\nafter\n")
    report.write_readme_summary([row], readme)
    assert readme.read_text() == (
        f"# t\n\n{report.README_BEGIN}\n| scenarios | reference | rows | pass | known difference | fail |\n"
        f"|---|---|---:|---:|---:|---:|\n| ns2-single | ns-2.35 | 1 | 1 | 0 | 0 |\n{report.README_END}\n\nafter\n"
    )
    readme.write_text("# no block\n")
    with pytest.raises(ValueError, match="no validation summary block"):
        report.write_readme_summary([row], readme)


def test_scenario_families_drop_the_variant_rtt_and_window():
    assert report.scenario_family("ns2-dumbbell-newreno-red-ecn") == "ns2-dumbbell-red-ecn"
    assert report.scenario_family("ns3-single-cubic-rtt202") == "ns3-single"
    assert report.scenario_family("ns2-single-newreno-window20") == "ns2-single"
    assert report.scenario_family("ns2-serial-newreno") == "ns2-serial"


def test_every_known_difference_names_a_row_and_explains_it_in_one_sentence():
    rows = {(name, metric) for name in SCENARIOS for metric in compare.load_reference(name)["metrics"]}
    for key, why in compare.load_known().items():
        scenario, metric = key.split(" ")
        assert (scenario, metric) in rows, f"{key}: no such row"
        assert why.endswith(".") and why.count(". ") == 0, f"{key}: not one sentence: {why}"


def test_jain_index_by_hand():
    assert compare.jain([2.0, 2.0, 2.0]) == 1.0
    assert compare.jain([1.0, 0.0]) == 0.5
    # (1 + 2 + 3)² / (3 · (1 + 4 + 9)) = 36 / 42
    assert compare.jain([1.0, 2.0, 3.0]) == pytest.approx(36 / 42)


def test_tolerances_at_their_edges():
    assert compare.within("goodput_mbps.f0", 10.0, 10.5)
    assert not compare.within("goodput_mbps.f0", 10.0, 10.51)
    assert compare.within("jain", 0.90, 0.95)
    assert not compare.within("jain", 0.90, 0.951)
    assert compare.within("drops", 100, 120) and not compare.within("drops", 100, 121)
    # The absolute slack of 3 events for small counts.
    assert compare.within("timeouts", 0, 3) and not compare.within("timeouts", 0, 4)
    assert not compare.within("marks", 10, float("nan"))


def test_metrics_from_counters_by_hand():
    scenario = SCENARIOS["ns2-serial-newreno"]
    counters = {
        "flows": [
            {
                "delivered_bytes": 30_000_000,
                "retransmissions": 5,
                "timeouts": 1,
                "transfers_completed": 0,
                "transfer_time_s": 0,
            },
            {
                "delivered_bytes": 3_750_000,
                "retransmissions": 7,
                "timeouts": 2,
                "transfers_completed": 4,
                "transfer_time_s": 2.0,
            },
        ],
        "drops": 9,
        "marks": 0,
    }
    m = compare.metrics(scenario, counters)
    # 30 MB in 30 s = 8 Mb/s; 3.75 MB = 1 Mb/s; Jain (8 + 1)² / (2 · 65) = 81 / 130.
    assert m["goodput_mbps.f0"] == pytest.approx(8.0)
    assert m["goodput_mbps.f1"] == pytest.approx(1.0)
    assert m["jain"] == pytest.approx(81 / 130)
    # Both start at 0: 33.75 MB in 30 s.
    assert m["goodput_mbps.total"] == pytest.approx(9.0)
    assert (m["transfers.f1"], m["mean_transfer_s.f1"]) == (4, 0.5)
    assert (m["drops"], m["retransmissions"], m["timeouts"]) == (9, 12, 3)
    assert "marks" not in m  # DropTail: no ECN


def test_replicas_shift_each_flow_by_its_own_milliseconds():
    scenario = SCENARIOS["ns2-dumbbell-reno-droptail"]
    starts = [[flow.start_s for flow in replica.flows] for replica in replicas(scenario)]
    assert starts[0] == [0.0, 0.5, 1.0, 1.5]
    assert starts[2] == pytest.approx([0.002, 0.504, 1.006, 1.508])


def test_the_ns2_script_states_what_differs_from_ns2_defaults():
    tcl = ns2.render_tcl(SCENARIOS["ns2-dumbbell-vegas-red-ecn"], "trace.tr")
    for line in (
        "Agent/TCP/Vegas set window_ 1000",
        "Queue/RED set bytes_ false",
        "Queue/RED set thresh_ 5.0",
        "Queue/RED set linterm_ 10",
        "Queue/RED set setbit_ true",
        "$ns queue-limit $r1 $r2 50",
        "    $tcp set ecn_ 1",
    ):
        assert line in tcl.splitlines(), line


def test_the_ns3_command_line_carries_every_flow():
    command = ns3.command(SCENARIOS["ns3-serial-cubic"])
    assert "--flows=0.01:0.0:0:0,0.01:0.0:1000:100000" in command
    assert "--cc=cubic" in command and "--limit=84" in command


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 is not installed (make ns2)")
def test_ns2_reproduces_its_stored_reference():
    name = "ns2-single-newreno-window20"
    scenario = replicas(SCENARIOS[name])[0]
    assert ns2.run(scenario) == json.loads(compare.reference_path(name).read_text())["counters"][0]


def test_a_wattnet_data_segment_takes_as_many_bytes_as_in_ns3():
    # ns-3.44 with SegmentSize 1448 and timestamps puts 1448 + 12 (option) + 20 (TCP) + 20 (IPv4) + 2 (PPP)
    # = 1502 bytes on a point-to-point link. The first second of one flow: a SYN and the handshake's ACK
    # (42 + 12 bytes each, no data), then only data segments cross r1 -> r2.
    scenario = replace(SCENARIOS["ns3-single-cubic-rtt22"], duration_s=1.0)
    port = run_scenario(wattnet_side.render(scenario)).ports.set_index("port").loc["r1->r2"]
    data_packets = int(port["transmitted_packets"]) - 2
    assert data_packets > 100
    assert int(port["transmitted_bytes"]) - 2 * 54 == 1502 * data_packets
