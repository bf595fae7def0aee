"""What every output of a run means: each table's columns and each summary field, with its unit.

The engine decides which columns exist (a test checks that this reference lists exactly the
columns it sends); the documentation's output reference is generated from these tables.
A unit of ``""`` marks a name or a label; ``"1"`` a dimensionless ratio.
"""

from __future__ import annotations

from typing import NamedTuple


class Column(NamedTuple):
    """One documented output field."""

    unit: str
    """Its unit: ``s``, ``b/s``, ``B`` (bytes), ``J``, ``W``, ``packets``, ``segments``; ``""`` for a label."""
    meaning: str
    """What it counts or measures."""


SUMMARY: dict[str, Column] = {
    "scenario_name": Column("", "The scenario's `name` (free text)."),
    "scenario_hash": Column(
        "", "SHA-256 of the scenario's canonical JSON (seed included): equal hashes, equal results."
    ),
    "seed": Column("", "The seed every random stream of the run derives from."),
    "engine_version": Column("", "Version of the engine that ran it."),
    "wall_time_s": Column("s", "Wall-clock time the run took (the only field that differs between identical runs)."),
    "duration_s": Column("s", "Simulated time at the end of the run."),
    "events": Column("events", "Events the engine processed."),
    "packets": Column("packets", "Packet transmissions over all ports (packet-hops)."),
    "packets_sent": Column("packets", "Packets the flows' sources sent (data, ACKs, SYNs)."),
    "packets_received": Column("packets", "Packets delivered to their destinations."),
    "packets_dropped": Column(
        "packets", "Packets dropped anywhere: queues, AQM, corruption, no route, TTL, link down."
    ),
    "dropped_no_route": Column("packets", "Packets dropped because a router had no route to their destination."),
    "dropped_ttl": Column("packets", "Packets dropped because their TTL reached zero (routing loops)."),
    "dropped_link_down": Column("packets", "Packets lost in queues or on the wire of links that went down."),
    "route_installs": Column("tables", "Routing tables installed after link changes (rows of `routing_events`)."),
    "energy_j": Column(
        "J",
        "Energy of every port with a power model. Left out of the summary when no port has one "
        "(a run without power models has no energy, not zero energy).",
    ),
    "full_rate_energy_j": Column(
        "J",
        "Energy the same ports would use at their initial rate, never asleep: the baseline of energy "
        "savings. Left out, like `energy_j`, when no port has a power model.",
    ),
    "packets_in_network": Column(
        "packets", "Packets still queued or in flight at the end (sent = received + dropped + in network)."
    ),
    "rate_changes": Column("changes", "Changes of any port's service rate (rows of `rate_changes`)."),
}

TABLE_MEANINGS: dict[str, str] = {
    "ports": 'One row per port, named `"from->to"` after the link direction it sends along.',
    "flows": "One row per flow of the scenario.",
    "timeseries": "The recorder's samples in long form: one row per (time, entity, quantity).",
    "rate_changes": "One row per change of a port's service rate.",
    "connections": "One row per TCP connection (a flow opens one, or one per transfer for `serial` and `web`).",
    "cwnd_trace": "cwnd and ssthresh at every change, for the flows in `recorder.trace_flows`.",
    "subflows": "One row per subflow of every Multipath TCP connection (empty without MPTCP flows).",
    "routing_events": "One row per routing table a router installed after a link changed state.",
    "rate_time": "For each port with a power model, the time it spent at each rate.",
    "nodes": "One row per node.",
}

_METERED = " NaN for a port without a power model."

TABLES: dict[str, dict[str, Column]] = {
    "ports": {
        "port": Column("", 'The port, "from->to".'),
        "from": Column("", "The node that sends through it."),
        "to": Column("", "The node at the other end of the link."),
        "enqueued_packets": Column("packets", "Packets accepted into its queue."),
        "enqueued_bytes": Column("B", "Bytes accepted into its queue."),
        "dropped_packets": Column("packets", "Packets dropped at its queue (tail drops and early drops)."),
        "dropped_bytes": Column("B", "Bytes dropped at its queue."),
        "early_dropped_packets": Column("packets", "Of the dropped packets, those the AQM (RED) dropped early."),
        "marked_packets": Column("packets", "Packets the AQM marked Congestion Experienced (ECN) instead of dropping."),
        "transmitted_packets": Column("packets", "Packets it finished transmitting."),
        "transmitted_bytes": Column("B", "Bytes it finished transmitting."),
        "link_down_drops": Column("packets", "Packets lost in its queue or on its wire when the link went down."),
        "corrupted_packets": Column("packets", "Packets corrupted on the wire (the link's error rate) and discarded."),
        "corrupted_bytes": Column("B", "Bytes of the corrupted packets."),
        "busy_time_s": Column("s", "Time spent transmitting."),
        "utilization": Column("1", "Busy time over the run's duration."),
        "mean_queue_packets": Column("packets", "Time-average queue length."),
        "mean_queue_bytes": Column("B", "Time-average queue length in bytes."),
        "mean_rate_bps": Column("b/s", "Time-average service rate."),
        "final_rate_bps": Column("b/s", "Service rate at the end of the run."),
        "rate_changes": Column("changes", "Changes of its service rate."),
        "frozen_time_s": Column("s", "Time it could not send because a rate change was in progress (`transition_s`)."),
        "rate_tunes": Column("changes", "Continuous rate adjustments by a tuning controller (C-EARTH)."),
        "energy_j": Column("J", "Energy its power model integrated over the run." + _METERED),
        "mean_power_w": Column("W", "Energy over the run's duration." + _METERED),
        "full_rate_energy_j": Column("J", "Energy at its initial rate, never asleep: the baseline." + _METERED),
        "asleep_time_s": Column("s", "Time spent asleep (sleep events, down links, opportunistic sleep)." + _METERED),
        "low_power_idle_time_s": Column("s", "Time spent in IEEE 802.3az low-power idle." + _METERED),
        "sleeps": Column("sleeps", "Times it went to sleep."),
    },
    "flows": {
        "flow": Column("", "The flow's name."),
        "src": Column("", "Its source node."),
        "dst": Column("", "Its destination node."),
        "sent_packets": Column("packets", "Packets it sent, both directions for TCP (data, ACKs, SYNs)."),
        "sent_bytes": Column("B", "Bytes it sent."),
        "received_packets": Column("packets", "Packets of it delivered at either end."),
        "received_bytes": Column("B", "Bytes of it delivered."),
        "dropped_packets": Column("packets", "Packets of it dropped anywhere."),
        "in_network_packets": Column("packets", "Packets of it still queued or in flight at the end."),
        "mean_delay_s": Column("s", "Mean one-way delay of its delivered packets; NaN if none arrived."),
        "delivered_bytes": Column("B", "Application bytes delivered: UDP payloads, or TCP data delivered in order."),
        "path_hops_start": Column("hops", "Hops of its path at the start; NaN without a route."),
        "path_hops_end": Column("hops", "Hops of its path at the end (after re-routing); NaN without a route."),
        "goodput_bps": Column("b/s", "Delivered bytes × 8 over the time since it started."),
    },
    "timeseries": {
        "time_s": Column("s", "Sampling instant (every `recorder.interval_s`)."),
        "entity": Column("", 'The port ("from->to") or flow sampled.'),
        "quantity": Column("", "What was sampled: one of the quantities below."),
        "value": Column("(the quantity's)", "The sample, in the unit its quantity's name carries."),
    },
    "rate_changes": {
        "time_s": Column("s", "When the rate changed."),
        "port": Column("", "The port."),
        "old_rate_bps": Column("b/s", "Rate before the change."),
        "new_rate_bps": Column("b/s", "Rate after the change."),
    },
    "connections": {
        "flow": Column("", "The flow the connection belongs to."),
        "connection": Column("", "Its index within the flow (0 for the first)."),
        "sender": Column("", "The node sending the data."),
        "receiver": Column("", "The node receiving the data."),
        "transfer_bytes": Column("B", "Bytes to transfer; 0 for a bulk transfer with no end."),
        "opened_s": Column("s", "When the sender opened it (sent its SYN)."),
        "completed_s": Column("s", "When the receiver had every byte; NaN if unfinished."),
        "transfer_time_s": Column("s", "Completion time minus opening time; NaN if unfinished."),
        "delivered_bytes": Column("B", "Data delivered in order to the receiving application."),
        "goodput_bps": Column("b/s", "Delivered bytes × 8 over the time from opening to completion (or the end)."),
        "data_packets_sent": Column("packets", "Data segments sent, retransmissions included (all subflows)."),
        "retransmissions": Column("packets", "Data segments sent again."),
        "timeouts": Column("timeouts", "Retransmission timer expiries (RFC 6298)."),
        "fast_retransmits": Column("events", "Fast retransmissions (RFC 5681 §3.2)."),
        "ecn_reductions": Column("events", "Window reductions in response to ECN-Echo (RFC 3168 §6.1.2)."),
        "syn_retries": Column("packets", "SYNs and SYN-ACKs sent again after their timer expired (RFC 6298 §5)."),
        "data_packets_received": Column("packets", "Data segments that reached the receiver."),
        "duplicate_packets": Column("packets", "Of those, segments it already had."),
        "ce_marked_packets": Column("packets", "Of those, segments marked Congestion Experienced."),
        "acks_sent": Column("packets", "ACKs the receiver sent."),
        "handshake_acks": Column("packets", "Of acks_sent, those answering a SYN-ACK (the handshake's third segment)."),
        "final_cwnd_segments": Column("segments", "Congestion window at the end (summed over MPTCP subflows)."),
        "srtt_s": Column(
            "s", "Smoothed round-trip time at the end (RFC 6298; MPTCP: the first subflow's); NaN before a sample."
        ),
        "host_energy_j": Column("J", "Energy charged to it by its sender's host model; NaN without one."),
        "subflows": Column("subflows", "Its subflows: 1 for TCP, the path manager's count for MPTCP."),
        "reinjected_bytes": Column(
            "B", "MPTCP: bytes resent on another subflow (opportunistic retransmission, after a timeout)."
        ),
        "state": Column(
            "", "The sender's state at the end (e.g. `established`, `closed`; MPTCP: the first subflow not closed)."
        ),
    },
    "cwnd_trace": {
        "time_s": Column("s", "When the window changed."),
        "flow": Column("", "The flow."),
        "connection": Column("", "The connection's number in the run."),
        "subflow": Column("", "The subflow's index in its connection (0 for TCP)."),
        "cwnd_segments": Column("segments", "Congestion window after the change."),
        "ssthresh_segments": Column("segments", "Slow-start threshold after the change."),
    },
    "subflows": {
        "flow": Column("", "The flow."),
        "connection": Column("", "Its connection's index within the flow, as in the connections table."),
        "subflow": Column("", "The subflow's index in its connection."),
        "path": Column(
            "", 'The ports it takes from the sender, e.g. `"a->b b->c"` (its ECMP path at the end if not pinned).'
        ),
        "bytes_sent": Column("B", "Data bytes it sent (first transmissions)."),
        "bytes_acked": Column("B", "Data bytes its receiver acknowledged."),
        "retransmissions": Column("packets", "Data segments it sent again."),
        "fast_retransmits": Column("events", "Fast retransmissions (RFC 5681 §3.2)."),
        "timeouts": Column("timeouts", "Retransmission timer expiries (RFC 6298)."),
        "srtt_s": Column("s", "Its smoothed round-trip time at the end (RFC 6298); NaN before a sample."),
        "mean_srtt_s": Column("s", "Mean of its smoothed RTT over its RTT samples; NaN without one."),
        "min_rtt_s": Column("s", "Its lowest RTT sample; NaN without one."),
        "final_cwnd_segments": Column("segments", "Its congestion window at the end."),
        "goodput_bps": Column(
            "b/s", "Bytes acknowledged × 8 over the connection's life (opening to completion or the end)."
        ),
        "host_energy_j": Column("J", "Energy charged to it by its sender's host model; NaN without one."),
    },
    "routing_events": {
        "time_s": Column("s", "When the router installed its new table."),
        "node": Column("", "The router."),
        "changed_destinations": Column("destinations", "Destinations whose next hop changed."),
    },
    "rate_time": {
        "port": Column("", "The port."),
        "rate_bps": Column("b/s", "A rate it ran at."),
        "time_s": Column("s", "Total time spent at that rate."),
    },
    "nodes": {
        "node": Column("", "The node."),
        "packets_sent": Column("packets", "Packets its applications and TCP endpoints sent."),
        "packets_received": Column("packets", "Packets delivered to it."),
        "ports_energy_j": Column("J", "Energy of its output ports; NaN if none has a power model."),
        "host_energy_j": Column("J", "Its host model's energy; NaN without a host model."),
    },
}

TIMESERIES_QUANTITIES: dict[str, Column] = {
    "queue_packets": Column("packets", "Port: packets in its queue."),
    "queue_bytes": Column("B", "Port: bytes in its queue."),
    "rate_bps": Column("b/s", "Port: service rate."),
    "arrival_rate_bps": Column("b/s", "Port: bits that arrived since the previous sample over the interval."),
    "departure_rate_bps": Column("b/s", "Port: bits transmitted since the previous sample over the interval."),
    "power_w": Column("W", "Port: power drawn (its power model's)."),
    "red_average": Column("packets or B", "Port: RED's average queue, in its queue's unit; NaN for other queues."),
    "cwnd_segments": Column("segments", "TCP flow: congestion window."),
    "ssthresh_segments": Column("segments", "TCP flow: slow-start threshold."),
    "srtt_s": Column("s", "TCP flow: smoothed round-trip time."),
    "in_flight_bytes": Column("B", "TCP flow: bytes sent and not yet acknowledged."),
    "delivered_bytes": Column("B", "TCP flow: bytes delivered in order so far."),
}
