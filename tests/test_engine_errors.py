"""The engine's own validation, reached with hand-written JSON: a ScenarioError naming the field, never a crash."""

import json

import pytest
import wattnet
from wattnet import Scenario, _engine

VALID = {
    "seed": 1,
    "duration_s": 1.0,
    "nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 1e-3}],
    "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 1e5}}],
}


def with_change(change):
    scenario = json.loads(json.dumps(VALID))
    change(scenario)
    return json.dumps(scenario)


def test_error_classes():
    assert issubclass(_engine.ScenarioError, ValueError)
    assert issubclass(_engine.SimulationError, RuntimeError)


def test_valid_json_builds():
    simulation = _engine.Simulation(json.dumps(VALID))
    assert (simulation.now_s, simulation.end_s, simulation.finished) == (0.0, 1.0, False)


@pytest.mark.parametrize(
    "engine_json, field, words",
    [
        (with_change(lambda s: s["links"][0].update(rate_bps=-1.0)), "links[0].rate_bps", "-1"),
        (with_change(lambda s: s["links"][0].update(delay_s=-1.0)), "links[0].delay_s", "-1"),
        (with_change(lambda s: s["links"][0].update(b="nowhere")), "links[0].b", "'nowhere'"),
        (with_change(lambda s: s["flows"][0].update(dst="nowhere")), "flows[0].dst", "'nowhere'"),
        (with_change(lambda s: s["links"][0].update(colour="red")), "links[0].colour", "unknown field"),
        (with_change(lambda s: s["flows"][0]["traffic"].update(type="tcp")), "flows[0].traffic.type", "tcp"),
        (with_change(lambda s: s.pop("duration_s")), "", "missing field `duration_s`"),
    ],
    ids=[
        "negative rate",
        "negative delay",
        "unknown node",
        "unknown flow node",
        "unknown field",
        "unknown traffic",
        "missing field",
    ],
)
def test_engine_names_the_field(engine_json, field, words):
    with pytest.raises(_engine.ScenarioError) as raised:
        _engine.Simulation(engine_json)
    message = str(raised.value)
    assert message.startswith(f"{field}: " if field else words)
    assert words in message


def test_not_json_is_a_scenario_error():
    with pytest.raises(_engine.ScenarioError):
        _engine.Simulation("this is not JSON")


@pytest.mark.parametrize(
    "profile, mss, window, fits",
    # The profiles' MSS (docs/tcp-profiles.md): ns2 1000 B, linux 1448 B; an explicit mss_bytes wins.
    [("ns2", None, 999, False), ("ns2", None, 1000, True), ("linux", None, 1447, False), ("linux", 500, 600, True)],
)
def test_the_receive_window_must_hold_one_segment_of_the_profiles_mss(profile, mss, window, fits):
    tcp = {"profile": profile, "receive_window_bytes": window, **({"mss_bytes": mss} if mss else {})}
    scenario = Scenario.from_dict(
        {**VALID, "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "bulk"}, "tcp": tcp}]}
    )
    if fits:
        wattnet.run(scenario)
        return
    with pytest.raises(wattnet.ScenarioError) as raised:
        wattnet.run(scenario)
    segment = mss or {"ns2": 1000, "linux": 1448}[profile]
    assert str(raised.value) == (
        f"flows[0].tcp.receive_window_bytes: must hold at least one segment ({segment} bytes), got {window}"
    )
