"""TCP through the Python front end: the schema's TCP fields, and a run's connection tables."""

import pytest
from conftest import ROOT
from wattnet import Scenario, ScenarioError, load_scenario, run


def tcp_scenario(**flow):
    return {
        "seed": 1,
        "duration_s": 5.0,
        "nodes": [{"name": "s"}, {"name": "r"}],
        "links": [
            {"a": "s", "b": "r", "rate_bps": 10e6, "delay_s": 0.01, "queue": {"type": "droptail", "limit_packets": 50}}
        ],
        "flows": [{"name": "f", "src": "s", "dst": "r", "traffic": {"type": "bulk"}, **flow}],
    }


# (what is wrong, the flow's fields, the field named, words of the problem)
MALFORMED_TCP = [
    ("tcp on UDP traffic", {"traffic": {"type": "cbr", "rate_bps": 1e6}, "tcp": {}}, "flows[0]", "tcp applies to TCP"),
    ("stop_s on a bulk transfer", {"stop_s": 2.0}, "flows[0]", "stop_s applies to UDP and web"),
    ("unknown algorithm", {"tcp": {"congestion_control": {"type": "hybla"}}}, "flows[0].tcp.congestion_control.type", "hybla"),
    ("unknown CUBIC parameter", {"tcp": {"congestion_control": {"type": "cubic", "betta": 0.7}}},
     "flows[0].tcp.congestion_control.betta", "unknown field"),
    ("CUBIC beta out of range", {"tcp": {"congestion_control": {"type": "cubic", "beta": 1.5}}},
     "flows[0].tcp.congestion_control.beta", "less than 1"),
    ("Vegas alpha above beta", {"tcp": {"congestion_control": {"type": "vegas", "alpha": 4, "beta": 2}}},
     "flows[0].tcp.congestion_control", "alpha"),
    ("classic_diff with ns-2's Vegas", {"tcp": {"congestion_control": {"type": "vegas", "classic_diff": True,
                                                                       "variant": "ns2"}}},
     "flows[0].tcp.congestion_control", "linux variant only"),
    ("DCTCP without ECN", {"tcp": {"congestion_control": {"type": "dctcp"}, "ecn": False}}, "flows[0].tcp.ecn",
     "which needs ECN"),
    ("RTO bounds crossed", {"tcp": {"min_rto_s": 1.0, "max_rto_s": 0.5}}, "flows[0].tcp.max_rto_s", "at least min_rto_s"),
    ("HyStart bounds crossed", {"tcp": {"hystart_delay_min_s": 0.02, "hystart_delay_max_s": 0.01}},
     "flows[0].tcp.hystart_delay_max_s", "at least hystart_delay_min_s (0.02)"),
    ("delayed ACK of half a second", {"tcp": {"delayed_ack_s": 0.5}}, "flows[0].tcp.delayed_ack_s", "less than 0.5"),
    ("unknown profile", {"tcp": {"profile": "bsd"}}, "flows[0].tcp.profile", "'ns2'"),
    ("zero-byte transfer", {"traffic": {"type": "transfer", "bytes": 0}}, "flows[0].traffic.bytes", "greater than or equal to 1"),
    ("web shape at 1", {"traffic": {"type": "web", "requests_per_s": 1, "mean_segments": 10, "shape": 1.0}},
     "flows[0].traffic.shape", "greater than 1"),
    ("web sender unknown", {"traffic": {"type": "web", "requests_per_s": 1, "mean_segments": 10, "shape": 1.5,
                                        "senders": ["nowhere"]}}, "flows[0].traffic.senders[0]", "unknown node"),
]  # fmt: skip


@pytest.mark.parametrize("flow, field, problem", [c[1:] for c in MALFORMED_TCP], ids=[c[0] for c in MALFORMED_TCP])
def test_malformed_tcp_settings_name_their_field(flow, field, problem):
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(tcp_scenario(**flow))
    assert any(f == field and problem in p for f, p in raised.value.errors), raised.value.errors


def test_the_ns2_profile_resolves_vegas_to_ns2s_agent_which_has_no_classic_diff():
    # Valid for the schema (the variant is left to the profile); the engine resolves ns-2's Vegas.
    with pytest.raises(ScenarioError) as raised:
        run(tcp_scenario(tcp={"profile": "ns2", "congestion_control": {"type": "vegas", "classic_diff": True}}))
    assert any(f == "flows[0].tcp.congestion_control" and "linux variant only" in p for f, p in raised.value.errors)


def test_recorder_flows_must_be_tcp_flows():
    data = tcp_scenario()
    data["flows"].append({"name": "u", "src": "r", "dst": "s", "traffic": {"type": "cbr", "rate_bps": 1e5}})
    data["recorder"] = {"interval_s": 0.1, "flows": ["u"], "trace_flows": ["missing"]}
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(data)
    assert ("recorder.flows[0]", "flow 'u' is not a TCP flow") in raised.value.errors
    assert ("recorder.trace_flows[0]", "unknown flow 'missing'") in raised.value.errors


def test_the_engine_agrees_with_the_schema_on_tcp_defaults():
    # A TCP flow without a tcp table runs with the rfc profile and NewReno: IW 3, no SACK.
    results = run(tcp_scenario(traffic={"type": "transfer", "bytes": 14600}))
    [conn] = results.connections.itertuples()
    assert conn.delivered_bytes == 14600 and conn.state == "closed"
    # 10 segments, no loss: no retransmission; delayed ACKs (RFC 5681): one ACK per two
    # segments (the sender opened, so the handshake's third segment was the sender's).
    assert conn.data_packets_sent == 10 and conn.retransmissions == 0
    assert conn.acks_sent == 5
    assert conn.handshake_acks == 0


def test_a_receiver_that_opens_counts_its_handshake_ack_apart():
    # The receiver sends the SYN and, on the SYN-ACK, the handshake's third segment: 1 handshake ACK
    # beside the 5 ACKs of 10 segments (one per two, RFC 5681 delayed ACKs), 6 in all.
    results = run(tcp_scenario(traffic={"type": "transfer", "bytes": 14600}, tcp={"opener": "receiver"}))
    [conn] = results.connections.itertuples()
    assert conn.delivered_bytes == 14600 and conn.retransmissions == 0
    assert (conn.acks_sent, conn.handshake_acks) == (6, 1)


def test_dumbbell_example_runs_and_shares_the_bottleneck():
    results = run(load_scenario(ROOT / "examples" / "dumbbell_tcp.toml"))
    bulk = results.connections[results.connections.flow.isin(["newreno", "cubic"])]
    assert len(bulk) == 2
    # Together the two bulk flows and the web requests keep the 20 Mb/s bottleneck busy.
    bottleneck = results.ports.set_index("port").loc["left->right"]
    assert bottleneck.utilization > 0.9
    assert (results.connections.flow == "web").sum() > 30
    assert len(results.cwnd_trace) > 100 and set(results.cwnd_trace.flow) == {"newreno"}
    cwnd = results.timeseries[results.timeseries.quantity == "cwnd_segments"]
    assert set(cwnd.entity) == {"newreno", "cubic"}
