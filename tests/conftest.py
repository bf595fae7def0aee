import copy
import subprocess
import sys
from pathlib import Path

import networkx as nx
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
    hop-count path, the lowest node id (routing.md §3)."""
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
                [WATTNET, "reproduce", study, "--quick", "--out", out], check=False, capture_output=True, text=True, timeout=900
            )
            assert proc.returncode == 0, proc.stderr
            done[study] = (out, proc.stdout)
        return done[study]

    return reproduce
