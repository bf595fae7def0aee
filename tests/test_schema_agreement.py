"""The engine's scenario format and the Python models agree field by field: every object's fields,
whether each is required or may be null, the defaults both state, every tagged union's tags and
every enumeration's values. The engine's JSON Schema is derived from its serde types (schemars);
the Python one is pydantic's. docs/schema-agreement.md says how and why."""

import copy
import json

import pytest
from schema_shapes import differences, root_shape
from wattnet import _engine
from wattnet.scenario import Scenario


@pytest.fixture(scope="module")
def schemas():
    return json.loads(_engine.scenario_schema()), Scenario.model_json_schema()


def test_the_engine_and_the_python_models_agree_field_by_field(schemas):
    engine, python = schemas
    assert differences(root_shape(engine), root_shape(python)) == []


def definition(schema, field):
    """The definition (in ``$defs``) of the object that has ``field``, with links' rate_bps, say."""
    (found,) = [
        d for d in schema["$defs"].values() if field in d.get("properties", {}) and "delay_s" in d["properties"]
    ]
    return found


def test_a_field_added_on_one_side_only_is_found(schemas):
    engine, python = copy.deepcopy(schemas)
    definition(python, "rate_bps")["properties"]["mtu_bytes"] = {"type": "integer", "default": 1500}
    definition(engine, "rate_bps")["properties"]["jitter_s"] = {"type": "number", "default": 0.0}
    assert differences(root_shape(engine), root_shape(python)) == [
        "scenario.links[].jitter_s: field only in the engine",
        "scenario.links[].mtu_bytes: field only in Python",
    ]


def test_a_changed_default_a_tag_and_an_enumeration_value_are_found(schemas):
    engine, python = copy.deepcopy(schemas)
    definition(python, "rate_bps")["properties"]["transition_s"]["default"] = 0.5
    queues = next(d for name, d in engine["$defs"].items() if name.startswith("Queue"))
    queues["oneOf"][0]["properties"]["type"]["const"] = "fifo"
    metric = next(d for name, d in python["$defs"].items() if name == "Routing")["properties"]["metric"]
    metric["enum"] = [*metric["enum"], "latency"]
    # A link's queue and its two directions' overrides are the same union.
    assert differences(root_shape(engine), root_shape(python)) == [
        "scenario.links[].a_to_b.queue<droptail>: type only in Python",
        "scenario.links[].a_to_b.queue<fifo>: type only in the engine",
        "scenario.links[].b_to_a.queue<droptail>: type only in Python",
        "scenario.links[].b_to_a.queue<fifo>: type only in the engine",
        "scenario.links[].queue<droptail>: type only in Python",
        "scenario.links[].queue<fifo>: type only in the engine",
        "scenario.links[].transition_s: default 0.0 in the engine, 0.5 in Python",
        "scenario.routing.metric: values only in the engine [], only in Python ['latency']",
    ]


def test_optionality_and_null_are_compared(schemas):
    engine, python = copy.deepcopy(schemas)
    link = definition(python, "rate_bps")
    link["required"].append("transition_s")
    link["properties"]["delay_s"] = {"anyOf": [link["properties"]["delay_s"], {"type": "null"}]}
    assert differences(root_shape(engine), root_shape(python)) == [
        "scenario.links[].delay_s: Python accepts null, the engine does not",
        "scenario.links[].transition_s: optional in the engine, required in Python",
    ]
