"""The cross-validation scenarios, each described once and rendered for wattnet, ns-2.35 and ns-3.44.

Every scenario is a dumbbell: sender ``s<i>`` reaches router ``r1`` over its own access link
(whose delay sets the flow's round-trip time), ``r1``–``r2`` is the bottleneck, and ``r2``
reaches receiver ``d<i>`` over a 1 ms access link. The bottleneck queue is DropTail or RED
with ECN marking; access links have buffers large enough never to drop. A flow is an endless
transfer or a series of equal downloads, each opened when the previous one completes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

Reference = Literal["ns2", "ns3"]
QueueKind = Literal["droptail", "red-ecn"]

ACCESS_RATE_BPS = 100e6
RECEIVER_DELAY_S = 0.001
ACCESS_BUFFER_PACKETS = 1000
REPLICAS = 5
"""Runs per scenario and simulator; each metric is their mean."""
REPLICA_SHIFT_S = 0.001
"""Replica k starts flow i k·(i+1) ms late: flows of one RTT share a link in proportions set by the
phase of their losses, which a millisecond changes by up to 10 % in ns-2 itself, so a single run's
per-flow goodput is no stable quantity to compare."""


@dataclass(frozen=True)
class FlowSpec:
    access_delay_s: float
    """One-way delay of the sender's access link."""
    start_s: float = 0.0
    files: int = 0
    """0: an endless transfer; otherwise this many downloads of ``file_bytes``, back to back."""
    file_bytes: int = 0


@dataclass(frozen=True)
class Red:
    """RED's parameters, all given (ns-2.35's own defaults compute thresholds from the link)."""

    min_th: float = 5.0
    max_th: float = 15.0
    max_p: float = 0.1
    """1/linterm_ in ns-2, 1/LInterm in ns-3."""
    w_q: float = 0.002
    gentle: bool = True
    mean_packet_bytes: int = 1000


@dataclass(frozen=True)
class ValidationScenario:
    name: str
    reference: Reference
    congestion_control: str
    """tahoe, reno, newreno, vegas (ns-2); newreno, cubic (ns-3)."""
    queue: QueueKind
    flows: tuple[FlowSpec, ...]
    duration_s: float
    description: str
    bottleneck_rate_bps: float = 10e6
    bottleneck_delay_s: float = 0.01
    queue_limit_packets: int = 50
    red: Red = field(default_factory=Red)
    window_packets: int = 1000
    """ns-2's window_ (the sender's window cap, 20 by default): here large unless stated."""

    @property
    def ecn(self) -> bool:
        return self.queue == "red-ecn"

    def base_rtt_s(self, flow: FlowSpec) -> float:
        return 2 * (flow.access_delay_s + self.bottleneck_delay_s + RECEIVER_DELAY_S)


def _bulk(n: int, access_delay_s: float = 0.01, stagger_s: float = 0.5) -> tuple[FlowSpec, ...]:
    return tuple(FlowSpec(access_delay_s=access_delay_s, start_s=i * stagger_s) for i in range(n))


def _scenarios() -> list[ValidationScenario]:
    out: list[ValidationScenario] = []
    # Four flows of one TCP on 10 Mb/s, RTT 42 ms, starts 0.5 s apart: the one-way agents of
    # ns-2 over DropTail (50 packets, ns-2's default limit_) and over RED with ECN.
    for cc in ("tahoe", "reno", "newreno", "vegas"):
        for queue in ("droptail", "red-ecn"):
            out.append(
                ValidationScenario(
                    name=f"ns2-dumbbell-{cc}-{queue}",
                    reference="ns2",
                    congestion_control=cc,
                    queue=queue,
                    flows=_bulk(4),
                    duration_s=60.0,
                    description=f"4 {cc} flows, 10 Mb/s, RTT 42 ms, {queue}",
                )
            )
    # One NewReno flow at three round-trip times; the last keeps ns-2's default window_ of 20.
    for rtt_ms, delay in ((22, 0.0), (102, 0.04), (202, 0.09)):
        out.append(
            ValidationScenario(
                name=f"ns2-single-newreno-rtt{rtt_ms}",
                reference="ns2",
                congestion_control="newreno",
                queue="droptail",
                flows=(FlowSpec(access_delay_s=delay),),
                duration_s=30.0,
                description=f"1 NewReno flow, RTT {rtt_ms} ms, DropTail 50",
            )
        )
    out.append(
        ValidationScenario(
            name="ns2-single-newreno-window20",
            reference="ns2",
            congestion_control="newreno",
            queue="droptail",
            flows=(FlowSpec(access_delay_s=0.04),),
            duration_s=20.0,
            window_packets=20,
            description="1 NewReno flow, RTT 102 ms, ns-2's default window_ 20",
        )
    )
    # Serial 100 KB downloads against one endless transfer.
    out.append(
        ValidationScenario(
            name="ns2-serial-newreno",
            reference="ns2",
            congestion_control="newreno",
            queue="droptail",
            flows=(FlowSpec(access_delay_s=0.01), FlowSpec(access_delay_s=0.01, files=1000, file_bytes=100_000)),
            duration_s=30.0,
            description="serial 100 KB NewReno downloads beside one bulk NewReno flow",
        )
    )
    for cc in ("newreno", "cubic"):
        queues: tuple[QueueKind, ...] = ("droptail", "red-ecn")
        for queue in queues:
            out.append(
                ValidationScenario(
                    name=f"ns3-dumbbell-{cc}-{queue}",
                    reference="ns3",
                    congestion_control=cc,
                    queue=queue,
                    flows=_bulk(4),
                    duration_s=60.0,
                    queue_limit_packets=84,
                    red=Red(mean_packet_bytes=1500),
                    description=f"4 {cc} flows, 10 Mb/s, RTT 42 ms, {queue}, 84 packets",
                )
            )
    for rtt_ms, delay in ((22, 0.0), (102, 0.04), (202, 0.09)):
        out.append(
            ValidationScenario(
                name=f"ns3-single-cubic-rtt{rtt_ms}",
                reference="ns3",
                congestion_control="cubic",
                queue="droptail",
                flows=(FlowSpec(access_delay_s=delay),),
                duration_s=30.0,
                queue_limit_packets=84,
                description=f"1 CUBIC flow, RTT {rtt_ms} ms, DropTail 84",
            )
        )
    out.append(
        ValidationScenario(
            name="ns3-serial-cubic",
            reference="ns3",
            congestion_control="cubic",
            queue="droptail",
            flows=(FlowSpec(access_delay_s=0.01), FlowSpec(access_delay_s=0.01, files=1000, file_bytes=100_000)),
            duration_s=30.0,
            queue_limit_packets=84,
            description="serial 100 KB CUBIC downloads beside one bulk CUBIC flow",
        )
    )
    return out


SCENARIOS: dict[str, ValidationScenario] = {s.name: s for s in _scenarios()}


def replicas(scenario: ValidationScenario) -> list[ValidationScenario]:
    """The scenario's ``REPLICAS`` runs, replica k with flow i starting k·(i+1)·``REPLICA_SHIFT_S`` late."""
    return [
        replace(
            scenario,
            flows=tuple(
                replace(flow, start_s=flow.start_s + k * (i + 1) * REPLICA_SHIFT_S)
                for i, flow in enumerate(scenario.flows)
            ),
        )
        for k in range(REPLICAS)
    ]
