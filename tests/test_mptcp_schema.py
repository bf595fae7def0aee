"""The Multipath TCP table of a flow (``flows[i].mptcp``): defaults, field-named errors, explicit
paths checked port by port, and single-path scenarios' JSON unchanged by its absence."""

import json

import pytest
from wattnet.errors import ScenarioError
from wattnet.scenario import Mptcp, Scenario


def two_paths(**flow):
    """A host with two interfaces (a->r1, a->r2) and a receiver b behind both routers."""
    links = [{"a": x, "b": y, "rate_bps": 1e6, "delay_s": 0.001} for x, y in
             (("a", "r1"), ("r1", "b"), ("a", "r2"), ("r2", "b"))]  # fmt: skip
    base = {"name": "m", "src": "a", "dst": "b", "traffic": {"type": "transfer", "bytes": 1000}}
    return {"seed": 1, "duration_s": 1.0, "nodes": [{"name": n} for n in ("a", "r1", "r2", "b")], "links": links,
            "flows": [{**base, **flow}]}  # fmt: skip


def problems(data):
    with pytest.raises(ScenarioError) as error:
        Scenario.from_dict(data)
    return dict(error.value.errors)


def test_an_empty_table_takes_the_contract_defaults():
    m = Mptcp()
    assert (m.subflows_per_path, m.paths, m.scheduler) == (1, None, "min_rtt")
    assert m.opportunistic_retransmission and m.penalisation and m.receive_buffer_bytes is None
    flow = json.loads(Scenario.from_dict(two_paths(mptcp={})).to_engine_json())["flows"][0]
    assert flow["mptcp"] == {"subflows_per_path": 1, "paths": None, "scheduler": "min_rtt",
                             "opportunistic_retransmission": True, "penalisation": True,
                             "receive_buffer_bytes": None}  # fmt: skip


def test_a_single_path_flow_leaves_mptcp_out_of_the_engine_json():
    assert "mptcp" not in json.loads(Scenario.from_dict(two_paths()).to_engine_json())["flows"][0]


def test_explicit_paths_are_checked_port_by_port_and_named():
    good = [["a->r1", "r1->b"], ["a->r2", "r2->b"]]
    assert Scenario.from_dict(two_paths(mptcp={"paths": good, "subflows_per_path": 2})).flows[0].mptcp.paths == good
    found = problems(two_paths(mptcp={"paths": [good[0], ["a->r2", "r1->b"]]}))
    assert "does not start at the previous port's end" in found["flows[0].mptcp.paths[1][1]"]
    found = problems(two_paths(mptcp={"paths": [["a->r1"], ["a->r9", "r9->b"]]}))
    assert "ends at 'r1'" in found["flows[0].mptcp.paths[0]"]
    assert "unknown port 'a->r9'" in found["flows[0].mptcp.paths[1][0]"]
    assert "flows[0].mptcp.paths" in problems(two_paths(mptcp={"paths": []}))


def test_bad_values_name_their_field():
    found = problems(two_paths(mptcp={"subflows_per_path": 0, "scheduler": "fastest", "receive_buffer_bytes": 0}))
    assert {"flows[0].mptcp.subflows_per_path", "flows[0].mptcp.scheduler",
            "flows[0].mptcp.receive_buffer_bytes"} <= set(found)  # fmt: skip
    assert "flows[0].mptcp.penalty" in problems(two_paths(mptcp={"penalty": True}))


def test_mptcp_only_on_bulk_transfer_and_serial_tcp_flows_without_a_pinned_path():
    web = {"type": "web", "requests_per_s": 1.0, "mean_segments": 2.0, "shape": 1.5}
    assert "web" in problems(two_paths(traffic=web, mptcp={}))["flows[0].mptcp"]
    cbr = {"type": "cbr", "rate_bps": 1e5}
    assert "not TCP" in problems(two_paths(traffic=cbr, mptcp={}))["flows[0].mptcp"]
    pinned = problems(two_paths(path=["a->r1", "r1->b"], mptcp={}))
    assert "mptcp.paths" in pinned["flows[0].path"]
    for traffic in ({"type": "bulk"}, {"type": "serial", "files": 2, "bytes": 100}):
        assert Scenario.from_dict(two_paths(traffic=traffic, mptcp={})).flows[0].mptcp is not None
