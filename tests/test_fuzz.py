"""Property-based fuzzing of the Python side of the scenario boundary (Hypothesis, fixed seed).

Valid scenarios are mutated at random (extreme numbers, wrong types, removed and unknown
fields, odd names); each must give a ScenarioError whose every path names a field the input
contains (or, for a missing field, whose parent it contains), or a run that finishes and
conserves its packets. Anything else (another exception, a traceback) fails the test.
"""

import copy
import math
import warnings

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from wattnet import run
from wattnet.cost import estimate_cost
from wattnet.errors import ScenarioError
from wattnet.scenario import Scenario

NASTY = [
    0, -1, 0.0, -1e-9, 1e-13, 4e-13, 0.008, 1.5, 2e7, 18_446_744.0, 18_446_745.0, 1e15, 1e16, 1e308, -1e308,
    2**63, 2**64 - 1, 2**64, 2**32 - 1, "", "a", "zz", "a->b", "[/bold] x", "\x1b]0;T\x07", True, None, [], {},
    float("nan"), float("inf"),
]  # fmt: skip

BASES = [
    {
        "name": "udp",
        "seed": 3,
        "duration_s": 2.0,
        "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "links": [
            {"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001,
             "power": {"type": "line_card", "card_capacity_bps": 2.5e6, "card_w": 10.0}},
            {"a": "b", "b": "c", "rate_bps": 5e6, "delay_s": 0.002,
             "queue": {"type": "red", "min_th": 5.0, "max_th": 15.0, "limit_packets": 50},
             "b_to_a": {"rate_bps": 4e6, "transition_s": 0.001}},
        ],
        "flows": [
            {"name": "f", "src": "a", "dst": "c", "traffic": {"type": "cbr", "rate_bps": 1e6},
             "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": 0.1, "stop_s": 1.5},
            {"name": "g", "src": "c", "dst": "a", "traffic": {"type": "poisson", "rate_bps": 2e6},
             "packet_size": {"type": "uniform", "min_bytes": 100, "max_bytes": 1500}},
            {"name": "h", "src": "a", "dst": "b",
             "traffic": {"type": "on_off", "peak_rate_bps": 4e6, "on_mean_s": 0.1, "off_mean_s": 0.2}},
        ],
        "events": [
            {"action": "set_rate", "at_s": 1.0, "port": "b->c", "rate_bps": 2e6},
            {"action": "link_down", "at_s": 1.2, "a": "a", "b": "b"},
        ],
        "recorder": {"interval_s": 0.1, "ports": ["a->b"]},
    },
    {
        "name": "tcp",
        "seed": 5,
        "duration_s": 2.0,
        "routing": {"reconvergence": {"model": "global", "delay_s": 0.03}},
        "nodes": [{"name": "s"}, {"name": "r"}, {"name": "d"}],
        "links": [
            {"a": "s", "b": "r", "rate_bps": 20e6, "delay_s": 0.005},
            {"a": "r", "b": "d", "rate_bps": 10e6, "delay_s": 0.01, "queue": {"type": "droptail", "limit_packets": 30}},
        ],
        "flows": [
            {"name": "bulk", "src": "s", "dst": "d", "traffic": {"type": "bulk"},
             "tcp": {"profile": "linux", "congestion_control": {"type": "cubic"}}},
            {"name": "one", "src": "d", "dst": "s", "traffic": {"type": "transfer", "bytes": 100000},
             "tcp": {"initial_rto_s": 1.0, "min_rto_s": 0.2, "delayed_ack_s": 0.04}, "start_s": 0.5},
            {"name": "web", "src": "s", "dst": "d",
             "traffic": {"type": "web", "requests_per_s": 5.0, "mean_segments": 10.0, "shape": 1.5}, "stop_s": 1.5},
        ],
        "recorder": {"interval_s": 0.05, "flows": ["bulk"]},
    },
]  # fmt: skip

# Runs estimated above this many events are validated but not run (keeps the test bounded).
EVENT_BUDGET = 200_000

MUTATION = st.one_of(
    st.tuples(st.just("scale"), st.floats(0.1, 10.0)),
    st.tuples(st.just("scale"), st.floats(0.1, 10.0)),
    st.tuples(st.just("set"), st.sampled_from(NASTY)),
    st.tuples(st.just("set"), st.floats(allow_nan=False) | st.integers(-(2**70), 2**70)),
    st.tuples(st.just("delete"), st.none()),
    st.tuples(st.just("unknown"), st.none()),
)


def paths(value, prefix=()):
    """The path (a tuple of keys and indices) of every value inside ``value``."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, child in items:
        yield (*prefix, key)
        yield from paths(child, (*prefix, key))


def get(value, path):
    for step in path:
        value = value[step]
    return value


def mutate(data, at, kind, argument):
    all_paths = list(paths(data))
    path = all_paths[at % len(all_paths)]
    parent, last = get(data, path[:-1]), path[-1]
    if kind == "scale":
        if isinstance(parent[last], (int, float)) and not isinstance(parent[last], bool):
            parent[last] = parent[last] * argument
    elif kind == "set":
        parent[last] = argument
    elif kind == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent["zz_unknown"] = 1


def resolves(data, field: str) -> bool:
    """Whether ``field`` (as ``links[0].rate_bps``) names a value in ``data``; "" is the whole."""
    value = data
    for part in filter(None, field.replace("[", ".[").split(".")):
        if part.startswith("["):
            index = int(part.strip("[]"))
            if not isinstance(value, list) or index >= len(value):
                return False
            value = value[index]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return False
    return True


def names_input_field(data, field: str, problem: str) -> bool:
    if problem == "required field is missing":
        return resolves(data, field.rpartition(".")[0]) or resolves(data, field.rpartition("[")[0])
    return resolves(data, field)


@settings(max_examples=2000, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(base=st.sampled_from(range(len(BASES))), mutations=st.lists(st.tuples(st.integers(0, 10**6), MUTATION), min_size=1, max_size=2))  # fmt: skip
def test_mutated_scenarios_give_a_named_error_or_a_conserving_run(base, mutations):
    data = copy.deepcopy(BASES[base])
    for at, (kind, argument) in mutations:
        mutate(data, at, kind, argument)
    try:
        scenario = Scenario.from_dict(data)
        if estimate_cost(scenario).events > EVENT_BUDGET:
            event("validated, too large to run here")
            return
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            results = run(scenario)
    except ScenarioError as error:
        event("scenario error")
        for field, problem in error.errors:
            assert names_input_field(data, field, problem), f"error on {field!r} ({problem}) for {data}"
        return
    event("ran")
    s = results.summary
    assert s["packets_sent"] == s["packets_received"] + s["packets_dropped"] + s["packets_in_network"]
    # energy_j is absent from a run without power models.
    assert all(math.isfinite(s[key]) for key in ("energy_j", "duration_s") if key in s)


def test_field_paths_resolve_in_the_input():
    data = {"links": [{"rate_bps": 1}], "a": {"b": [[1, 2]]}}
    assert resolves(data, "") and resolves(data, "links[0].rate_bps") and resolves(data, "a.b[0][1]")
    assert not resolves(data, "links[1]") and not resolves(data, "links[0].delay_s")
    assert names_input_field(data, "links[0].delay_s", "required field is missing")
