"""The scenario schema: defaults mirror the engine's, and each malformed scenario names its field."""

import json
import pickle

import pytest
from conftest import EXAMPLES
from wattnet import Scenario, ScenarioError, load_scenario


def test_valid_scenario_round_trips_through_engine_json(scenario_dict):
    scenario = Scenario.from_dict(scenario_dict)
    engine_json = scenario.to_engine_json()
    assert Scenario.from_dict(json.loads(engine_json)).to_engine_json() == engine_json


def test_defaults_are_the_engines(scenario_dict):
    # The values of the serde defaults in crates/wattnet-engine/src/scenario.rs.
    engine = json.loads(Scenario.from_dict(scenario_dict).to_engine_json())
    assert engine["routing"] == {"metric": "hops", "ttl": 64, "ecmp": False, "reconvergence": None}
    assert engine["links"][0]["queue"] == {
        "type": "droptail",
        "limit_packets": 1000,
        "limit_bytes": None,
        "count_in_service": True,
    }
    assert engine["links"][0]["transition_s"] == 0.0
    assert engine["links"][0]["error_rate"] == 0.0
    assert engine["links"][0]["a_to_b"] is None
    assert engine["flows"][0]["packet_size"] == {"type": "fixed", "bytes": 1000}
    assert engine["flows"][0]["start_s"] == 0.0 and engine["flows"][0]["stop_s"] is None
    assert engine["flows"][0]["tcp"] is None
    assert engine["recorder"] == {
        "interval_s": 0.1,
        "ports": [],
        "quantities": ["queue_packets", "rate_bps", "arrival_rate_bps"],
        "flows": [],
        "flow_quantities": ["cwnd_segments", "ssthresh_segments"],
        "trace_flows": [],
    }


def test_aqm_defaults_are_the_engines(scenario_dict):
    # The serde defaults of QueueSpec::Red and QueueSpec::Threshold (ns-2's RED defaults).
    scenario_dict["links"][0]["queue"] = {"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 100}
    scenario_dict["links"][1]["queue"] = {"type": "threshold", "k_packets": 20, "limit_packets": 100}
    engine = json.loads(Scenario.from_dict(scenario_dict).to_engine_json())
    assert engine["links"][0]["queue"] == {
        "type": "red",
        "min_th": 5.0,
        "max_th": 15.0,
        "max_p": 0.1,
        "w_q": 0.002,
        "gentle": True,
        "wait": True,
        "ecn": False,
        "mode": "packets",
        "mean_packet_bytes": 500,
        "idle_decay": "ns2",
        "limit_packets": 100,
        "limit_bytes": None,
        "count_in_service": None,
        "preset": "wattnet",
        "admit_below_limit": None,
        "early_needs_backlog": None,
        "count_rule": None,
        "count_bytes": None,
        "use_mark_p": None,
        "mark_p": 0.1,
    }
    assert engine["links"][1]["queue"] == {
        "type": "threshold",
        "k_packets": 20,
        "k_bytes": None,
        "limit_packets": 100,
        "limit_bytes": None,
        "count_in_service": True,
    }


def test_engine_json_is_canonical(scenario_dict):
    shuffled = dict(reversed(list(scenario_dict.items())))
    assert Scenario.from_dict(shuffled).to_engine_json() == Scenario.from_dict(scenario_dict).to_engine_json()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_examples_are_valid(path):
    assert load_scenario(path).duration_s > 0


def test_reconvergence_defaults_are_the_contracts(scenario_dict):
    scenario_dict["routing"] = {"ecmp": True, "reconvergence": {"model": "link_state"}}
    scenario_dict["events"] += [
        {"action": "link_down", "at_s": 0.5, "a": "c", "b": "b"},
        {"action": "link_up", "at_s": 1.5, "a": "b", "b": "c"},
    ]
    engine = json.loads(Scenario.from_dict(scenario_dict).to_engine_json())
    assert engine["routing"]["ecmp"] is True
    assert engine["routing"]["reconvergence"] == {
        "model": "link_state",
        "detection_s": 0.0,
        "hop_processing_s": 0.001,
        "spf_delay_s": 0.0,
        "lsa_bytes": 100,
    }
    assert engine["events"][1:] == [
        {"action": "link_down", "at_s": 0.5, "a": "c", "b": "b"},
        {"action": "link_up", "at_s": 1.5, "a": "b", "b": "c"},
    ]
    scenario_dict["routing"] = {"reconvergence": {"model": "global"}}
    engine = json.loads(Scenario.from_dict(scenario_dict).to_engine_json())
    assert engine["routing"]["reconvergence"] == {"model": "global", "delay_s": 0.03}


def test_scenario_can_be_built_from_models():
    from wattnet.scenario import Cbr, Flow, Link, Node

    scenario = Scenario(
        seed=1,
        duration_s=1.0,
        nodes=[Node(name="a"), Node(name="b")],
        links=[Link(a="a", b="b", rate_bps=1e6, delay_s=0.0)],
        flows=[Flow(name="f", src="a", dst="b", traffic=Cbr(type="cbr", rate_bps=1e5))],
    )
    assert scenario.with_seed(9).seed == 9


def set_path(data, path, value):
    *parents, last = path
    for key in parents:
        data = data[key]
    data[last] = value


# (what is wrong, how to make it so, the field named, words of the problem)
MALFORMED = [
    (
        "negative rate",
        lambda d: set_path(d, ["links", 0, "rate_bps"], -1e6),
        "links[0].rate_bps",
        "greater than or equal to 1",
    ),
    (
        "zero rate",
        lambda d: set_path(d, ["links", 1, "rate_bps"], 0),
        "links[1].rate_bps",
        "greater than or equal to 1 (got 0)",
    ),
    (
        "sub-bit/s port rate",
        lambda d: set_path(d, ["links", 1, "rate_bps"], 0.5),
        "links[1].rate_bps",
        "greater than or equal to 1",
    ),
    ("NaN rate", lambda d: set_path(d, ["links", 0, "rate_bps"], float("nan")), "links[0].rate_bps", "finite"),
    (
        "negative delay",
        lambda d: set_path(d, ["links", 0, "delay_s"], -1e-3),
        "links[0].delay_s",
        "greater than or equal to 0",
    ),
    ("zero duration", lambda d: set_path(d, ["duration_s"], 0), "duration_s", "greater than 0"),
    ("missing seed", lambda d: d.pop("seed"), "seed", "required"),
    ("unknown top-level field", lambda d: set_path(d, ["colour"], "red"), "colour", "unknown field"),
    ("unknown link field", lambda d: set_path(d, ["links", 1, "delay_ms"], 2), "links[1].delay_ms", "unknown field"),
    ("unknown node in link", lambda d: set_path(d, ["links", 0, "b"], "z"), "links[0].b", "unknown node 'z'"),
    ("duplicate node name", lambda d: d["nodes"].append({"name": "b"}), "nodes[3].name", "duplicate node name 'b'"),
    ("arrow in node name", lambda d: set_path(d, ["nodes", 0, "name"], "a->b"), "nodes[0].name", "'->'"),
    ("self-loop link", lambda d: set_path(d, ["links", 1, "a"], "c"), "links[1].b", "self-loop"),
    (
        "parallel link",
        lambda d: d["links"].append({"a": "c", "b": "b", "rate_bps": 1e6, "delay_s": 0}),
        "links[2]",
        "duplicate link",
    ),
    (
        "unknown queue type",
        lambda d: set_path(d, ["links", 0, "queue"], {"type": "sfq"}),
        "links[0].queue.type",
        "unknown type 'sfq'",
    ),
    (
        "queue without type",
        lambda d: set_path(d, ["links", 0, "queue"], {"limit_packets": 5}),
        "links[0].queue.type",
        "required",
    ),
    (
        "droptail with both limits",
        lambda d: set_path(d, ["links", 1, "queue", "limit_packets"], 10),
        "links[1].queue",
        "exactly one of limit_packets and limit_bytes",
    ),
    (
        "droptail with no limit",
        lambda d: set_path(d, ["links", 1, "queue"], {"type": "droptail"}),
        "links[1].queue",
        "exactly one of limit_packets and limit_bytes",
    ),
    (
        "negative override rate",
        lambda d: set_path(d, ["links", 0, "a_to_b"], {"rate_bps": -5.0}),
        "links[0].a_to_b.rate_bps",
        "greater than or equal to 1",
    ),
    (
        "zero-packet override queue",
        lambda d: set_path(d, ["links", 0, "b_to_a"], {"queue": {"type": "droptail", "limit_packets": 0}}),
        "links[0].b_to_a.queue.limit_packets",
        "greater than or equal to 1",
    ),
    (
        "red thresholds upside down",
        lambda d: set_path(d, ["links", 0, "queue"], {"type": "red", "min_th": 15, "max_th": 5, "limit_packets": 100}),
        "links[0].queue.max_th",
        "greater than min_th (15.0)",
    ),
    (
        "red weight above 1",
        lambda d: set_path(
            d, ["links", 0, "queue"], {"type": "red", "min_th": 5, "max_th": 15, "w_q": 1.5, "limit_packets": 100}
        ),
        "links[0].queue.w_q",
        "less than or equal to 1",
    ),
    (
        "red min_th at the buffer size",
        lambda d: set_path(d, ["links", 0, "queue"], {"type": "red", "min_th": 8, "max_th": 24, "limit_packets": 8}),
        "links[0].queue.min_th",
        "below limit_packets (8)",
    ),
    (
        "red without a limit",
        lambda d: set_path(d, ["links", 0, "queue"], {"type": "red", "min_th": 5, "max_th": 15}),
        "links[0].queue",
        "exactly one of limit_packets and limit_bytes",
    ),
    (
        "red unknown mode",
        lambda d: set_path(
            d, ["links", 0, "queue"], {"type": "red", "min_th": 5, "max_th": 15, "mode": "bits", "limit_packets": 100}
        ),
        "links[0].queue.mode",
        "'packets' or 'bytes'",
    ),
    (
        "red ns-2 parameter name",
        lambda d: set_path(
            d, ["links", 0, "queue"], {"type": "red", "min_th": 5, "max_th": 15, "setbit": True, "limit_packets": 100}
        ),
        "links[0].queue.setbit",
        "unknown field",
    ),
    (
        "threshold with two thresholds",
        lambda d: set_path(
            d,
            ["links", 1, "b_to_a"],
            {"queue": {"type": "threshold", "k_packets": 20, "k_bytes": 30000, "limit_packets": 100}},
        ),
        "links[1].b_to_a.queue",
        "exactly one of k_packets and k_bytes",
    ),
    (
        "threshold at the buffer size",
        lambda d: set_path(d, ["links", 0, "queue"], {"type": "threshold", "k_packets": 100, "limit_packets": 100}),
        "links[0].queue.k_packets",
        "below limit_packets (100)",
    ),
    (
        "certain corruption",
        lambda d: set_path(d, ["links", 0, "error_rate"], 1.0),
        "links[0].error_rate",
        "less than 1",
    ),
    (
        "negative override error rate",
        lambda d: set_path(d, ["links", 1, "a_to_b"], {"error_rate": -0.01}),
        "links[1].a_to_b.error_rate",
        "greater than or equal to 0",
    ),
    ("unknown flow source", lambda d: set_path(d, ["flows", 0, "src"], "x"), "flows[0].src", "unknown node 'x'"),
    (
        "disconnected flow",
        lambda d: (d["nodes"].append({"name": "island"}), set_path(d, ["flows", 1, "dst"], "island")),
        "flows[1].dst",
        "not connected",
    ),
    ("flow to itself", lambda d: set_path(d, ["flows", 0, "dst"], "a"), "flows[0].dst", "same node as src"),
    ("duplicate flow name", lambda d: set_path(d, ["flows", 1, "name"], "f"), "flows[1].name", "duplicate flow name"),
    ("stop before start", lambda d: set_path(d, ["flows", 1, "stop_s"], 0.5), "flows[1].stop_s", "later than start_s"),
    ("start after the end", lambda d: set_path(d, ["flows", 0, "start_s"], 2.0), "flows[0].start_s", "end of the run"),
    (
        "unknown traffic type",
        lambda d: set_path(d, ["flows", 0, "traffic"], {"type": "tcp"}),
        "flows[0].traffic.type",
        "unknown type 'tcp'",
    ),
    (
        "negative traffic rate",
        lambda d: set_path(d, ["flows", 0, "traffic", "rate_bps"], -1),
        "flows[0].traffic.rate_bps",
        "greater than 0",
    ),
    (
        "zero event rate",
        lambda d: set_path(d, ["events", 0, "rate_bps"], 0),
        "events[0].rate_bps",
        "greater than or equal to 1",
    ),
    (
        "on-off with both off rules",
        lambda d: set_path(d, ["flows", 1, "traffic", "cycle_s"], 1.0),
        "flows[1].traffic",
        "exactly one of off_mean_s and cycle_s",
    ),
    (
        "uniform size upside down",
        lambda d: set_path(d, ["flows", 0, "packet_size"], {"type": "uniform", "min_bytes": 1500, "max_bytes": 64}),
        "flows[0].packet_size.max_bytes",
        "at least min_bytes",
    ),
    ("event after the end", lambda d: set_path(d, ["events", 0, "at_s"], 2.5), "events[0].at_s", "outside the run"),
    (
        "event before the start",
        lambda d: set_path(d, ["events", 0, "at_s"], -0.1),
        "events[0].at_s",
        "greater than or equal to 0",
    ),
    (
        "event on unknown port",
        lambda d: set_path(d, ["events", 0, "port"], "a->c"),
        "events[0].port",
        "unknown port 'a->c'",
    ),
    (
        "unknown event action",
        lambda d: set_path(d, ["events", 0, "action"], "hibernate"),
        "events[0].action",
        "unknown action 'hibernate'",
    ),
    (
        "recorder on unknown port",
        lambda d: set_path(d, ["recorder", "ports"], ["b->a", "c->a"]),
        "recorder.ports[1]",
        "unknown port",
    ),
    (
        "unknown recorder quantity",
        lambda d: set_path(d, ["recorder", "quantities"], ["cwnd"]),
        "recorder.quantities[0]",
        "'queue_packets'",
    ),
    ("zero TTL", lambda d: set_path(d, ["routing"], {"ttl": 0}), "routing.ttl", "greater than or equal to 1"),
    (
        "unknown reconvergence model",
        lambda d: set_path(d, ["routing"], {"reconvergence": {"model": "ospf"}}),
        "routing.reconvergence.model",
        "unknown model 'ospf'",
    ),
    (
        "reconvergence without model",
        lambda d: set_path(d, ["routing"], {"reconvergence": {"delay_s": 0.03}}),
        "routing.reconvergence.model",
        "required",
    ),
    (
        "negative global reconvergence delay",
        lambda d: set_path(d, ["routing"], {"reconvergence": {"model": "global", "delay_s": -0.03}}),
        "routing.reconvergence.delay_s",
        "greater than or equal to 0",
    ),
    (
        "link-state field on the global model",
        lambda d: set_path(d, ["routing"], {"reconvergence": {"model": "global", "spf_delay_s": 0.01}}),
        "routing.reconvergence.spf_delay_s",
        "unknown field",
    ),
    (
        "empty LSA",
        lambda d: set_path(d, ["routing"], {"reconvergence": {"model": "link_state", "lsa_bytes": 0}}),
        "routing.reconvergence.lsa_bytes",
        "greater than or equal to 1",
    ),
    (
        "link_down between unlinked nodes",
        lambda d: d["events"].append({"action": "link_down", "at_s": 1.0, "a": "a", "b": "c"}),
        "events[1].b",
        "no link between 'a' and 'c'",
    ),
    (
        "link_up on an unknown node",
        lambda d: d["events"].append({"action": "link_up", "at_s": 1.0, "a": "x", "b": "b"}),
        "events[1].a",
        "unknown node 'x'",
    ),
    (
        "link_down after the end",
        lambda d: d["events"].append({"action": "link_down", "at_s": 2.5, "a": "a", "b": "b"}),
        "events[1].at_s",
        "outside the run",
    ),
    (
        "unknown LPI preset",
        lambda d: set_path(d, ["links", 0, "lpi"], {"phy": "25gbase_t"}),
        "links[0].lpi.phy",
        "'1000base_t'",
    ),
    (
        "LPI timings without a preset",
        lambda d: set_path(d, ["links", 0, "a_to_b"], {"lpi": {"wake_s": 1e-5, "sleep_s": 1e-4, "quiet_s": 0.02}}),
        "links[0].a_to_b.lpi.refresh_s",
        "required unless phy names a preset",
    ),
    (
        "LPI power fraction above 1",
        lambda d: set_path(d, ["links", 1, "lpi"], {"phy": "10gbase_t", "power_fraction": 1.5}),
        "links[1].lpi.power_fraction",
        "less than or equal to 1",
    ),
    (
        "negative sleep transition",
        lambda d: set_path(
            d, ["links", 0, "b_to_a"], {"controller": {"type": "opportunistic_sleep", "transition_s": -1}}
        ),
        "links[0].b_to_a.controller.transition_s",
        "greater than or equal to 0",
    ),
    (
        "opportunistic sleep on an LPI port",
        lambda d: set_path(
            d,
            ["links", 0],
            {**d["links"][0], "lpi": {"phy": "1000base_t"}, "a_to_b": {"controller": {"type": "opportunistic_sleep"}}},
        ),
        "links[0].a_to_b.controller",
        "802.3az",
    ),
    (
        "battery host without idle power",
        lambda d: set_path(
            d, ["nodes", 0, "power"], {"type": "battery", "tx_j_per_packet": 1e-3, "rx_j_per_packet": 1e-3}
        ),
        "nodes[0].power.idle_w",
        "required",
    ),
    (
        "negative per-packet energy",
        lambda d: set_path(
            d, ["nodes", 2, "power"], {"type": "battery", "tx_j_per_packet": -1, "rx_j_per_packet": 0, "idle_w": 1}
        ),
        "nodes[2].power.tx_j_per_packet",
        "greater than or equal to 0",
    ),
    (
        "MPTCP host without preset or values",
        lambda d: set_path(
            d,
            ["nodes", 1, "power"],
            {"type": "mptcp_host", "base_w": 5, "rate_w": 1, "ref_rate_bps": 1e9, "gamma": 1, "ref_rtt_s": 0.1},
        ),
        "nodes[1].power.rtt_w",
        "required unless preset names one",
    ),
    (
        "unknown MPTCP host preset",
        lambda d: set_path(d, ["nodes", 1, "power"], {"type": "mptcp_host", "preset": "lte"}),
        "nodes[1].power.preset",
        "'ethernet'",
    ),
    (
        "unknown host model",
        lambda d: set_path(d, ["nodes", 1, "power"], {"type": "solar"}),
        "nodes[1].power.type",
        "unknown type 'solar'",
    ),
    (
        "link_down naming a port",
        lambda d: d["events"].append({"action": "link_down", "at_s": 1.0, "a": "a", "b": "b", "port": "a->b"}),
        "events[1].port",
        "unknown field",
    ),
]


@pytest.mark.parametrize(
    "mutate, field, problem", [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED]
)
def test_malformed_scenario_names_its_field(scenario_dict, mutate, field, problem):
    mutate(scenario_dict)
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(scenario_dict)
    assert len(raised.value.errors) == 1, raised.value.errors
    [(named_field, named_problem)] = raised.value.errors
    assert named_field == field
    assert problem in named_problem
    assert str(raised.value) == f"{field}: {named_problem}"


def test_every_fault_is_reported_at_once(scenario_dict):
    scenario_dict["links"][0]["rate_bps"] = -1
    scenario_dict["flows"][1]["traffic"]["peak_rate_bps"] = 0
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(scenario_dict)
    assert [field for field, _ in raised.value.errors] == ["links[0].rate_bps", "flows[1].traffic.peak_rate_bps"]


def test_scenario_error_is_a_value_error_and_pickles():
    error = ScenarioError([("links[0].rate_bps", "must be positive"), ("", "no nodes")])
    assert isinstance(error, ValueError)
    assert pickle.loads(pickle.dumps(error)).errors == error.errors
    assert str(error) == "links[0].rate_bps: must be positive\nno nodes"


def test_invalid_toml_is_a_scenario_error(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("seed = \n")
    with pytest.raises(ScenarioError, match="invalid TOML"):
        load_scenario(path)
