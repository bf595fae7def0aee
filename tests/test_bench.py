"""The benchmark set's scenarios are the workloads they name, and --compare marks regressions."""

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest
from wattnet.bench import compare, dumbbell_10g_scenario, fattree_permutation_scenario, scenario_of


def test_the_permutation_is_htsims_workload():
    scenario = fattree_permutation_scenario(4, 0.01)
    hosts = [f"h{i}" for i in range(16)]
    assert sorted(f.src for f in scenario.flows) == sorted(hosts)
    assert sorted(f.dst for f in scenario.flows) == sorted(hosts)
    assert all(f.src != f.dst for f in scenario.flows)
    assert {(link.rate_bps, link.delay_s, link.queue.limit_packets) for link in scenario.links} == {(10e9, 1e-6, 8)}
    assert scenario.routing.ecmp


def test_the_10g_dumbbell_starts_every_flow_within_the_first_second():
    scenario = dumbbell_10g_scenario(100, 2.0, "linux")
    assert len(scenario.flows) == 100 and max(f.start_s for f in scenario.flows) == 0.99
    assert {link.rate_bps for link in scenario.links} == {10e9}
    assert scenario.links[0].queue.limit_packets == 16667  # 10 Gb/s · 20 ms / 1500 B


def test_compare_marks_what_got_worse_beyond_the_tolerance():
    before = [{"name": "a", "events_per_cpu_s": 100.0, "cpu_s": 2.0, "peak_rss_mb": 100.0}, {"name": "b", "cpu_s": 1.0}]
    now = [
        {"name": "a", "events_per_cpu_s": 94.0, "cpu_s": 2.1, "peak_rss_mb": 50.0},
        {"name": "b", "cpu_s": 1.04},
        {"name": "c", "cpu_s": 1.0},
    ]
    lines = compare(now, before)
    assert lines[0].startswith("REGRESSION a:") and "events_per_cpu_s 100 → 94 (×0.94, worse)" in lines[0]
    assert "cpu_s 2 → 2.1 (×1.05)" in lines[0] and "peak_rss_mb 100 → 50 (×0.50)" in lines[0]
    assert lines[1] == "b: cpu_s 1 → 1.04 (×1.04)"
    assert lines[2] == "c: not in the previous results"


def test_a_benchmarks_scenario_is_the_one_it_runs():
    ten_thousand = scenario_of("dumbbell10g_10000_ns2")
    assert (len(ten_thousand.flows), ten_thousand.duration_s) == (10_000, 10.0)
    assert {f.tcp.profile for f in ten_thousand.flows} == {"ns2"}
    fattree16 = json.loads(scenario_of("permutation_fattree16").to_engine_json())
    assert (len(fattree16["flows"]), fattree16["duration_s"]) == (1024, 0.02)  # k³/4 hosts
    with pytest.raises(ValueError, match="'event_queue' is not one scenario; these are: dumbbell10g_10000_ns2, "):
        scenario_of("event_queue")


def _fake_build(path, run_s, results_hash):
    """A stand-in for a build of run_engine: prints what it prints, with a fixed run time."""
    fields = {"events": 150, "run_s": run_s, "ns_per_link_transmission": run_s * 1e7, "results_hash": results_hash}
    line = json.dumps(fields)
    path.write_text(f"#!{sys.executable}\nprint({line!r})\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="paired runs need two cores")
def test_paired_bench_reports_the_ratio_and_whether_the_results_agree(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location(
        "paired_bench", Path(__file__).parents[1] / "tools" / "paired_bench.py"
    )
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    old = _fake_build(tmp_path / "old", 0.4, "ab")
    # Twice as fast, the same results: 0.2 / 0.4 in every pair.
    ratio, agree = tool.compare(old, _fake_build(tmp_path / "new", 0.2, "ab"), "scenario.json", 2)
    assert (ratio, agree) == (pytest.approx(0.5), True)
    assert "pair 2: old 4000000.0 ns, new 2000000.0 ns per link transmission, new/old 0.500" in capsys.readouterr().out
    assert tool.compare(old, _fake_build(tmp_path / "other", 0.4, "cd"), "scenario.json", 2)[1] is False
