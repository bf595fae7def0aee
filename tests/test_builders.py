"""Composed scenarios: topology builders and traffic generators in TOML are their Python twins,
and ``wattnet expand`` prints what they make."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from wattnet import Scenario, ScenarioError, load_scenario
from wattnet import traffic as generators
from wattnet.builders import BUILDERS, traffic_rng
from wattnet.sweep import sparse_dump
from wattnet.toml_writer import to_toml
from wattnet.topology import (
    abilene,
    access_network,
    bcube,
    chain,
    dumbbell,
    fattree,
    from_graphml,
    from_sndlib,
    to_graphml,
    vl2,
)

RUN = {"seed": 7, "duration_s": 1.0}

SNDLIB_TEXT = """NODES (
  A ( 0.0 0.0 )
  B ( 1.0 0.0 )
  C ( 1.0 1.0 )
)
LINKS (
  AB ( A B ) 0.00 0.00 0.00 0.00 ( 40.0 1.0 )
  BC ( B C ) 0.00 0.00 0.00 0.00 ( 40.0 1.0 )
)
"""


def builder_cases(tmp_path: Path):
    """(TOML topology table, the Python builder's Topology), one per builder."""
    graphml = tmp_path / "net.graphml"
    to_graphml(abilene(), graphml)
    sndlib = tmp_path / "net.txt"
    sndlib.write_text(SNDLIB_TEXT)
    return [
        ({"builder": "dumbbell", "n_pairs": 2, "bottleneck_rate_bps": 1e7, "bottleneck_delay_s": 0.01,
          "access_rate_bps": 1e8, "access_delay_s": 0.001, "buffer_packets": 50},
         dumbbell(2, 1e7, 0.01, 1e8, 0.001, 50)),
        ({"builder": "chain", "rtt_s": 0.1}, chain(0.1)),
        ({"builder": "access", "n_sources": 3}, access_network(3)),
        ({"builder": "abilene", "rate_bps": 1e7}, abilene(rate_bps=1e7)),
        ({"builder": "fattree", "k": 4, "rate_bps": 1e9, "delay_s": 5e-6}, fattree(4, rate_bps=1e9, delay_s=5e-6)),
        ({"builder": "vl2", "d_a": 4, "d_i": 4, "servers_per_tor": 2}, vl2(4, 4, 2)),
        ({"builder": "bcube", "n": 2, "k": 1}, bcube(2, 1)),
        ({"builder": "graphml", "path": "net.graphml", "default_rate_bps": 1e8, "default_delay_s": 0.001,
          "buffer_packets": 100},
         from_graphml(graphml, default_rate_bps=1e8, default_delay_s=0.001, buffer_packets=100)),
        ({"builder": "sndlib", "source": "net.txt", "default_rate_bps": 1e8, "buffer_packets": 100},
         from_sndlib(sndlib, default_rate_bps=1e8, buffer_packets=100)),
    ]  # fmt: skip


def write_toml(path: Path, data: dict) -> Path:
    path.write_text(to_toml(data))
    return path


def test_every_builder_in_toml_makes_the_scenario_of_its_python_builder(tmp_path):
    cases = builder_cases(tmp_path)
    assert sorted(case["builder"] for case, _ in cases) == sorted(BUILDERS)
    for spec, topology in cases:
        loaded = load_scenario(write_toml(tmp_path / f"{spec['builder']}.toml", {**RUN, "topology": spec}))
        assert loaded.to_engine_json() == topology.scenario(**RUN).to_engine_json(), spec["builder"]


def test_explicit_nodes_links_and_flows_stay_beside_a_builder(tmp_path):
    data = {
        **RUN,
        "topology": {"builder": "chain", "rtt_s": 0.1},
        "nodes": [{"name": "X"}],
        "links": [{"a": "X", "b": "N2", "rate_bps": 1e6, "delay_s": 0.001}],
        "flows": [{"name": "x", "src": "X", "dst": "D", "traffic": {"type": "cbr", "rate_bps": 1e5}}],
    }
    scenario = load_scenario(write_toml(tmp_path / "s.toml", data))
    built = chain(0.1)
    assert [n.name for n in scenario.nodes] == built.names + ["X"]
    assert len(scenario.links) == len(built.links) + 1 and scenario.links[-1].a == "X"
    assert [f.name for f in scenario.flows] == ["x"]


GENERATOR_CASES = [
    ("permutation", {}, generators.permutation),
    ("all_to_all", {"traffic": {"type": "transfer", "bytes": 10_000}}, generators.all_to_all),
    ("incast", {"senders": 5, "start_s": 0.1}, generators.incast),
    ("random_pairs", {"flows": 7, "tcp": {"profile": "linux"}}, generators.random_pairs),
    ("web", {"requests_per_s": 5.0, "mean_segments": 10.0, "shape": 1.2, "servers": 2}, generators.web),
]


@pytest.mark.parametrize(("name", "parameters", "function"), GENERATOR_CASES)
def test_every_generator_in_toml_makes_the_flows_of_its_python_function(tmp_path, name, parameters, function):
    # Generator i draws from traffic_rng(seed, i): here the second, after a link_cbr generator.
    data = {
        **RUN,
        "topology": {"builder": "fattree", "k": 4},
        "traffic": [{"generator": "link_cbr", "load": 0.1}, {"generator": name, **parameters}],
    }
    scenario = load_scenario(write_toml(tmp_path / "s.toml", data))
    t = fattree(4)
    flows = generators.link_cbr_flows(t, traffic_rng(7, 0), load=0.1)
    flows += function(t.hosts, traffic_rng(7, 1), **parameters)
    assert scenario.to_engine_json() == t.scenario(**RUN, flows=flows).to_engine_json()


def test_the_generators_make_the_traffic_matrices_they_name():
    hosts = [f"h{i}" for i in range(16)]
    rng = np.random.default_rng(1)
    perm = generators.permutation(hosts, rng)
    assert sorted(f["src"] for f in perm) == sorted(hosts) == sorted(f["dst"] for f in perm)
    assert all(f["src"] != f["dst"] for f in perm)
    assert len(generators.all_to_all(hosts)) == 16 * 15
    incast = generators.incast(hosts, rng, senders=15)
    assert len({f["dst"] for f in incast}) == 1 and len({f["src"] for f in incast}) == 15
    pairs = generators.random_pairs(hosts, rng, flows=240)  # every ordered pair, each once
    assert len({(f["src"], f["dst"]) for f in pairs}) == 240 and all(f["src"] != f["dst"] for f in pairs)
    web = generators.web(hosts, rng, requests_per_s=1.0, mean_segments=4.0, shape=1.5, servers=3)
    servers = web[0]["traffic"]["senders"]
    assert len(web) == 13 and len(servers) == 3 and not {f["dst"] for f in web} & set(servers)


def test_bad_builder_and_generator_parameters_name_their_field(tmp_path):
    cases = [
        ({"topology": {"builder": "fattree", "k": 3}}, "topology.k"),
        ({"topology": {"builder": "fattree", "k": 4, "size": 2}}, "topology.size"),
        ({"topology": {"builder": "torus"}}, "topology.builder"),
        ({"topology": {"builder": "fattree", "k": 4}, "traffic": [{"generator": "incast", "senders": 99}]},
         "traffic[0].senders"),
        ({"topology": {"builder": "fattree", "k": 4}, "traffic": [{"generator": "gravity"}]}, "traffic[0].generator"),
    ]  # fmt: skip
    for extra, field in cases:
        with pytest.raises(ScenarioError) as caught:
            Scenario.from_dict({**RUN, **extra})
        assert caught.value.errors[0][0] == field, caught.value.errors


def test_wattnet_expand_prints_the_expanded_scenario_as_toml_and_json(tmp_path):
    path = write_toml(
        tmp_path / "s.toml",
        {**RUN, "topology": {"builder": "fattree", "k": 4}, "traffic": [{"generator": "permutation"}]},
    )
    expected = load_scenario(path).to_engine_json()
    command = [sys.executable, "-m", "wattnet", "expand", str(path)]
    printed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "topology" not in tomllib.loads(printed)
    assert Scenario.from_dict(tomllib.loads(printed)).to_engine_json() == expected
    printed = subprocess.run([*command, "--json"], capture_output=True, text=True, check=True).stdout
    assert json.dumps(json.loads(printed), sort_keys=True, separators=(",", ":")) == expected


def test_to_toml_round_trips_a_scenario():
    scenario = fattree(4).scenario(**RUN, flows=generators.permutation(fattree(4).hosts, traffic_rng(1, 0)))
    data = sparse_dump(scenario)
    assert tomllib.loads(to_toml(data)) == json.loads(json.dumps(data))
