"""Congestion control written in Python runs inside the engine's loop: a Python Reno gives results
identical to the built-in one (with losses, timeouts and ECN marks), each connection gets its own
object seeing its subflows, and errors name the flow and the hook."""

from typing import ClassVar

import pytest
import wattnet
from test_python_policy import assert_same_results
from wattnet import ScenarioError, SimulationError
from wattnet.cc import Reno
from wattnet.topology import dumbbell

PYTHON_RENO = {"type": "external", "algorithm": "wattnet.cc:Reno"}


def dumbbell_run(cc: dict, *, ecn: bool = False, seed: int = 5, duration_s: float = 6.0) -> wattnet.Scenario:
    """Three flows over a 10 Mb/s, 10 ms bottleneck of 15 packets that also corrupts 0.2 % of the
    packets (losses beyond the queue's, so timeouts too): two bulk transfers and one of three
    serial 200 kB files (a connection each). With ``ecn``, a RED queue marks instead of dropping."""
    bottleneck: dict = {"error_rate": 0.002}
    if ecn:
        red = {"type": "red", "min_th": 3, "max_th": 9, "max_p": 0.1, "ecn": True, "limit_packets": 30}
        bottleneck = {"queue": red}
    net = dumbbell(3, 10e6, 0.01, 100e6, 0.001, 15, bottleneck_left_to_right=bottleneck)
    tcp = {"congestion_control": cc, "ecn": ecn}
    flows = [
        {"name": "bulk0", "src": "s0", "dst": "r0", "traffic": {"type": "bulk"}, "tcp": tcp},
        {"name": "bulk1", "src": "s1", "dst": "r1", "traffic": {"type": "bulk"}, "tcp": tcp, "start_s": 0.3},
        {"name": "files", "src": "s2", "dst": "r2", "traffic": {"type": "serial", "files": 3, "bytes": 200_000},
         "tcp": tcp},
    ]  # fmt: skip
    recorder = {"interval_s": 0.1, "ports": ["left->right"], "flows": ["bulk0"], "trace_flows": ["bulk0", "files"]}
    return net.scenario(seed=seed, duration_s=duration_s, flows=flows, recorder=recorder)


@pytest.mark.parametrize("ecn", [False, True], ids=["losses", "ecn"])
def test_a_python_reno_gives_the_built_in_results(ecn):
    builtin = wattnet.run(dumbbell_run({"type": "newreno"}, ecn=ecn))
    python = wattnet.run(dumbbell_run(PYTHON_RENO, ecn=ecn))
    c = builtin.connections
    # The comparison means something only if every hook acted: losses, timeouts or marks.
    assert len(c) == 5
    if ecn:
        assert c["ecn_reductions"].sum() > 5
    else:
        assert c["fast_retransmits"].sum() > 5 and c["timeouts"].sum() > 0
    assert_same_results(builtin, python)


class Recording(Reno):
    """Python Reno that keeps what each hook saw."""

    made: ClassVar[list["Recording"]] = []

    def __init__(self, connection, *, tag):
        super().__init__(connection)
        self.tag, self.seen = tag, []
        Recording.made.append(self)

    def on_ack(self, ack, subflows):
        self.seen.append(("on_ack", ack.acked, subflows.index, len(subflows), subflows[0].cwnd == subflows.cwnd))

    def on_loss(self, signal, subflows):
        self.seen.append((signal.kind, signal.flight, subflows[-1].state, subflows[0].losses))
        return super().on_loss(signal, subflows)

    def on_recovery_end(self, end, subflows):
        self.seen.append(("recovery_end", end.now_s, subflows.cwnd == subflows.ssthresh))


def test_each_connection_gets_its_own_object_seeing_its_subflows():
    Recording.made = []
    cc = {"type": "external", "algorithm": "recording", "params": {"tag": "t"}}
    results = wattnet.run(dumbbell_run(cc), algorithms={"recording": Recording})
    made = sorted((r.connection.flow, r.connection.index, r.connection.subflows, r.tag) for r in Recording.made)
    assert made == [("bulk0", 0, 1, "t"), ("bulk1", 0, 1, "t"), ("files", 0, 1, "t"), ("files", 1, 1, "t"),
                    ("files", 2, 1, "t")]  # fmt: skip
    bulk0 = next(r for r in Recording.made if r.connection.flow == "bulk0")
    acks = [s for s in bulk0.seen if s[0] == "on_ack"]
    assert acks and all(s[2:] == (0, 1, True) for s in acks)
    row = results.connections.set_index("flow").loc["bulk0"]
    kinds = [s[0] for s in bulk0.seen]
    # Each congestion signal reaches on_loss by its kind, seen before the sender counts it.
    assert kinds.count("fast_retransmit") == row["fast_retransmits"]
    assert kinds.count("timeout") <= row["timeouts"]  # a timeout inside a reduced window keeps ssthresh
    losses = [s for s in bulk0.seen if s[0] in ("fast_retransmit", "timeout")]
    assert [s[3] for s in losses] == sorted(s[3] for s in losses)
    assert all(s[1] > 0 and s[2] in ("open", "disorder", "recovery", "loss") for s in losses)
    # Fast recovery ends with cwnd = ssthresh (RFC 6582 §3.2 step 3).
    ends = [s for s in bulk0.seen if s[0] == "recovery_end"]
    assert len(ends) >= row["fast_retransmits"] and any(s[2] for s in ends)


class Raising(Reno):
    """Raises in ``hook`` of the second connection of flow ``files``."""

    def __init__(self, connection, *, hook):
        super().__init__(connection)
        self.hook = hook if (connection.flow, connection.index) == ("files", 1) else None

    def grow(self, ack, subflows):
        if self.hook == "grow":
            raise ZeroDivisionError("the algorithm's own bug")
        return super().grow(ack, subflows)

    def on_loss(self, signal, subflows):
        if self.hook == "on_loss":
            raise KeyError("the algorithm's own bug")
        return super().on_loss(signal, subflows)


def run_with(cls, **params):
    cc = {"type": "external", "algorithm": "mine", "params": params}
    return wattnet.run(dumbbell_run(cc, duration_s=2.0), algorithms={"mine": cls})


@pytest.mark.parametrize(("hook", "error"), [("grow", ZeroDivisionError), ("on_loss", KeyError)])
def test_an_exception_in_a_hook_names_the_flow_and_the_hook(hook, error):
    with pytest.raises(error, match="the algorithm's own bug") as caught:
        run_with(Raising, hook=hook)
    (note,) = caught.value.__notes__
    assert note.startswith(f"in the congestion control of flow 'files' (its connection 1), hook {hook}, at t = ")


class Answering(Reno):
    def __init__(self, connection, *, cwnd):
        super().__init__(connection)
        self.cwnd = cwnd

    def grow(self, ack, subflows):
        return self.cwnd


@pytest.mark.parametrize("answer", [None, 0.5, float("nan"), float("inf"), "3", True, (2.0, 0.0), (2.0,)])
def test_a_bad_window_is_named(answer):
    with pytest.raises(ValueError, match="grow returns the new cwnd") as caught:
        run_with(Answering, cwnd=answer)
    assert "hook grow" in caught.value.__notes__[0]


class Unmakeable(Reno):
    def __init__(self, connection):
        raise RuntimeError("cannot be made")


def test_a_failed_construction_stops_the_run_and_leaves_no_results():
    from wattnet.runner import build_simulation

    scenario = dumbbell_run({"type": "external", "algorithm": "mine"}, duration_s=2.0)
    simulation = build_simulation(scenario, algorithms={"mine": Unmakeable})
    with pytest.raises(RuntimeError, match="cannot be made") as caught:
        simulation.run_until(1.0)
    assert caught.value.__notes__ == ["making the congestion control of flow 'bulk0' (its connection 0)"]
    with pytest.raises(SimulationError, match="no results"):
        simulation.results()


def test_unknown_classes_and_bad_parameters_are_scenario_errors():
    field = "flows[0].tcp.congestion_control.algorithm"
    with pytest.raises(ScenarioError, match=field.replace("[", r"\[")) as caught:
        wattnet.run(dumbbell_run({"type": "external", "algorithm": "nowhere:Nothing"}))
    assert "No module named 'nowhere'" in str(caught.value)
    with pytest.raises(ScenarioError, match="missing a required argument: 'cwnd'"):
        run_with(Answering)
    with pytest.raises(ScenarioError, match="unexpected keyword argument 'beta'"):
        run_with(Reno, beta=0.5)
    with pytest.raises(ScenarioError, match="has no grow or on_loss method"):
        run_with(object)
    with pytest.raises(ScenarioError, match="congestion_control.algorithm"):
        dumbbell_run({"type": "external", "algorithm": ""})


class SmallStart(Reno):
    """Python Reno whose connections start with ssthresh = 4 segments."""

    initial_ssthresh = 4


def test_an_initial_ssthresh_attribute_replaces_the_senders():
    results = run_with(SmallStart)
    trace = results.cwnd_trace[results.cwnd_trace["flow"] == "bulk0"]
    # The rfc profile's initial window (RFC 5681: 3 segments of 1460 B) with ssthresh 4 from the
    # start (the trace records the change from the sender's 2^31 at once); slow start stops at
    # 4, then cwnd grows by 1/cwnd per ACK.
    assert trace["ssthresh_segments"].iloc[:4].tolist() == [4] * 4
    assert trace["cwnd_segments"].iloc[:4].tolist() == [3, 4, 4 + 1 / 4, 4.25 + 1 / 4.25]
