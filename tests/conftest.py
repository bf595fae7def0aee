import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))

# Three nodes in a line plus one link per direction of travel: the smallest scenario that
# exercises every section of the schema.
VALID_SCENARIO = {
    "name": "line",
    "seed": 3,
    "duration_s": 2.0,
    "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
    "links": [
        {"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3},
        {"a": "b", "b": "c", "rate_bps": 5e6, "delay_s": 2e-3, "queue": {"type": "droptail", "limit_bytes": 30_000}},
    ],
    "flows": [
        {"name": "f", "src": "a", "dst": "c", "traffic": {"type": "poisson", "rate_bps": 2e6}},
        {
            "name": "g",
            "src": "c",
            "dst": "a",
            "traffic": {"type": "on_off", "peak_rate_bps": 4e6, "on_mean_s": 0.1, "off_mean_s": 0.2},
            "start_s": 0.5,
            "stop_s": 1.5,
        },
    ],
    "events": [{"action": "set_rate", "at_s": 1.0, "port": "b->c", "rate_bps": 2e6}],
    "recorder": {"interval_s": 0.1},
}


@pytest.fixture
def scenario_dict():
    return copy.deepcopy(VALID_SCENARIO)


def lowest_id_next_hops(graph):
    """Per (router, destination) the next hop without ECMP: among the neighbours on a shortest
    hop-count path, the lowest node id."""
    ids = {node: i for i, node in enumerate(graph.nodes)}
    distance = dict(nx.all_pairs_shortest_path_length(graph))
    return {
        (u, d): min((v for v in graph[u] if distance[v].get(d) == distance[u][d] - 1), key=ids.get)
        for u in graph
        for d in distance[u]
        if d != u
    }


WATTNET = Path(sys.executable).with_name("wattnet")


@pytest.fixture(scope="session")
def quick_reproduction(tmp_path_factory):
    """``quick_reproduction(study) -> (out, stdout)``: ``wattnet reproduce STUDY --quick`` run
    once per test session, shared by the study's own tests and the report-rendering test."""
    done = {}

    def reproduce(study):
        if study not in done:
            out = tmp_path_factory.mktemp(study)
            proc = subprocess.run(
                [WATTNET, "reproduce", study, "--quick", "--out", out],
                check=False,
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert proc.returncode == 0, proc.stderr
            done[study] = (out, proc.stdout)
        return done[study]

    return reproduce


CHECK_FIELDS = {
    "id", "description", "paper_value", "wattnet_value", "tolerance", "pass",
    "ns2_value", "ns2_pass", "reference", "verdict", "reason",
}  # fmt: skip


def assert_reproduction_files(out, stdout, tables, figures, report_texts):
    """What every ``wattnet reproduce`` writes: the named tables (CSV and non-empty Parquet), the
    named figures (PNG and SVG), a report whose every image is a file beside it and which holds
    ``report_texts``, and the report's path on stdout."""
    for name in tables:
        assert (out / "tables" / f"{name}.csv").stat().st_size > 0, name
        assert len(pd.read_parquet(out / "tables" / f"{name}.parquet")) > 0, name
    for name in figures:
        assert (out / "figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
        assert "<svg" in (out / "figures" / f"{name}.svg").read_text(), name
    report = (out / "report.html").read_text()
    images = re.findall(r'<img src="([^"]+)"', report)
    assert sorted(images) == sorted(f"figures/{name}.png" for name in figures)
    assert all((out / image).is_file() for image in images)
    for text in report_texts:
        assert text in report, text
    assert "report: " in stdout


def assert_checks(out, stdout, ids):
    """checks.json has exactly ``ids``, in order, each with the paper's, the reference's and
    wattnet's values and a verdict from the fixed vocabulary that agrees with them; every target is
    printed with its verdict (a missed target is shown, with its reason, not dropped) and the
    console ends with the verdict counts."""
    from wattnet.experiments.report import REPRODUCED, VERDICTS, summary_line

    checks = json.loads((out / "checks.json").read_text())
    assert [c["id"] for c in checks] == list(ids)
    for check in checks:
        assert set(check) == CHECK_FIELDS
        assert isinstance(check["pass"], bool)
        assert check["wattnet_value"] not in (None, {}, [])
        assert check["verdict"] in VERDICTS
        assert (check["verdict"] == REPRODUCED) == check["pass"], check["id"]
        assert check["verdict"] == REPRODUCED or check["reason"], check["id"]
        assert re.search(rf"^ *{re.escape(check['id'])}  {re.escape(check['verdict'])} ", stdout, re.MULTILINE), check[
            "id"
        ]
    assert summary_line(checks) in stdout
    return checks
