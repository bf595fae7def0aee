"""wattnet's side: a validation scenario as a wattnet scenario, run and read back as the same counters."""

from __future__ import annotations

from typing import Any

from wattnet.runner import run as run_scenario
from wattnet.scenario import Scenario, Tcp
from wattnet.validation.ns3 import BUFFER_BYTES
from wattnet.validation.scenarios import (
    ACCESS_BUFFER_PACKETS,
    ACCESS_RATE_BPS,
    RECEIVER_DELAY_S,
    ValidationScenario,
)

NS2_MSS = 1000
"""ns-2's packetSize_ (payload) and tcpip_base_hdr_size_ (40) below."""
NS2_HEADER = 40
NS3_MSS = 1448
"""ns-3 side: SegmentSize 1448 and IPv4 + TCP headers with the timestamp option (20 + 20 + 12)."""
NS3_HEADER = 52


def ns3_profile() -> str:
    """The profile the ns-3 comparisons use: ``ns3`` once the schema has it, ``linux`` until then."""
    profiles = getattr(Tcp.model_fields["profile"].annotation, "__args__", ())
    return "ns3" if "ns3" in profiles else "linux"


def tcp_table(scenario: ValidationScenario) -> dict[str, Any]:
    cc: dict[str, Any] = {"type": scenario.congestion_control}
    if scenario.reference == "ns2":
        header = NS2_HEADER
        if scenario.congestion_control == "vegas":
            # ns-2's Vegas: diff = cwnd·(rtt − baseRTT)/rtt, thresholds v_alpha_ 1, v_beta_ 3, v_gamma_ 1;
            # its output() puts packetSize_ bytes on the wire, without tcpip_base_hdr_size_ (traced).
            cc.update(alpha=1.0, beta=3.0, gamma=1.0, classic_diff=True)
            header = 0
        return {
            "profile": "ns2",
            "congestion_control": cc,
            "mss_bytes": NS2_MSS,
            "header_bytes": header,
            "receive_window_bytes": scenario.window_packets * NS2_MSS,
            # ns-2's reset() sets ssthresh_ to window_.
            "initial_ssthresh_segments": scenario.window_packets,
            "ecn": scenario.ecn,
        }
    return {
        "profile": ns3_profile(),
        "congestion_control": cc,
        "mss_bytes": NS3_MSS,
        "header_bytes": NS3_HEADER,
        # The ns-3 program's SndBufSize and RcvBufSize.
        "receive_window_bytes": BUFFER_BYTES,
        "ecn": scenario.ecn,
    }


def bottleneck_queue(scenario: ValidationScenario) -> dict[str, Any]:
    # Traced with a burst of 20 packets into an idle link whose queue limit is 5: ns-2.35's DropTail
    # accepts 5 (it refuses an arrival when length + 1 >= limit_, so the packet in transmission
    # counts), its RED accepts 6 (limit_ packets wait besides the one in transmission); ns-3
    # holds limit packets in the FIFO queue disc and one in the device's one-packet queue besides
    # the one in transmission.
    if scenario.reference == "ns3":
        limit, in_service = scenario.queue_limit_packets + 1, False
    else:
        limit, in_service = scenario.queue_limit_packets, scenario.queue == "droptail"
    if scenario.queue == "droptail":
        return {"type": "droptail", "limit_packets": limit, "count_in_service": in_service}
    red = scenario.red
    return {
        "type": "red",
        "min_th": red.min_th,
        "max_th": red.max_th,
        "max_p": red.max_p,
        "w_q": red.w_q,
        "gentle": red.gentle,
        "ecn": True,
        "mode": "packets",
        "mean_packet_bytes": red.mean_packet_bytes,
        "limit_packets": limit,
        "count_in_service": in_service,
    }


def render(scenario: ValidationScenario, seed: int = 1) -> Scenario:
    s = scenario
    access_queue = {"type": "droptail", "limit_packets": ACCESS_BUFFER_PACKETS}
    nodes = [{"name": "r1"}, {"name": "r2"}]
    links = [
        {
            "a": "r1",
            "b": "r2",
            "rate_bps": s.bottleneck_rate_bps,
            "delay_s": s.bottleneck_delay_s,
            "queue": bottleneck_queue(s),
        }
    ]
    flows = []
    for i, flow in enumerate(s.flows):
        nodes += [{"name": f"s{i}"}, {"name": f"d{i}"}]
        links += [
            {
                "a": f"s{i}",
                "b": "r1",
                "rate_bps": ACCESS_RATE_BPS,
                "delay_s": flow.access_delay_s,
                "queue": access_queue,
            },
            {"a": "r2", "b": f"d{i}", "rate_bps": ACCESS_RATE_BPS, "delay_s": RECEIVER_DELAY_S, "queue": access_queue},
        ]
        traffic = {"type": "serial", "files": flow.files, "bytes": flow.file_bytes} if flow.files else {"type": "bulk"}
        flows.append(
            {
                "name": f"f{i}",
                "src": f"s{i}",
                "dst": f"d{i}",
                "traffic": traffic,
                "tcp": tcp_table(s),
                "start_s": flow.start_s,
            }
        )
    return Scenario.from_dict(
        {"name": s.name, "seed": seed, "duration_s": s.duration_s, "nodes": nodes, "links": links, "flows": flows}
    )


def run(scenario: ValidationScenario) -> dict[str, Any]:
    """The run's counters, in the form the reference simulators' parsers return."""
    results = run_scenario(render(scenario))
    connections = results.connections
    flows = []
    for i in range(len(scenario.flows)):
        mine = connections[connections["flow"] == f"f{i}"]
        done = mine[mine["completed_s"].notna()] if scenario.flows[i].files else mine.iloc[0:0]
        flows.append(
            {
                "delivered_bytes": int(mine["delivered_bytes"].sum()),
                "retransmissions": int(mine["retransmissions"].sum()),
                "timeouts": int(mine["timeouts"].sum()),
                "transfers_completed": len(done),
                "transfer_time_s": float(done["transfer_time_s"].sum()) if len(done) else 0.0,
            }
        )
    ports = results.ports.set_index("port")
    bottleneck = ports.loc["r1->r2"]
    return {"flows": flows, "drops": int(bottleneck["dropped_packets"]), "marks": int(bottleneck["marked_packets"])}
