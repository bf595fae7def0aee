//! The network side of DTS's energy price (Zhao, Liu, Wang, "On energy-efficient congestion
//! control for multipath TCP", IEEE 2017, §V-C, eq. 6): each TCP data segment of a flow that
//! asked counts the switch-to-switch hops it enters and those whose queue exceeds the flow's
//! expected queue Q; the receiver echoes both counts (`tcp/receiver.rs`). Built only when some
//! flow uses DTS with `phi`; otherwise the simulation holds `None` and pays one branch per enqueue.

use crate::admission::{Limit, QueueState};
use crate::packet::TcpHeader;
use crate::port::Port;

use super::Flow;

pub(crate) struct PathFeedbackRule {
    /// Per port: both ends are switches (neither is a host).
    switch_to_switch: Vec<bool>,
    /// Per flow: Q as a fraction of a port's buffer, for the flows that asked.
    expected_queue: Vec<Option<f64>>,
}

impl PathFeedbackRule {
    /// `None` unless some flow asks. A host is a node with at most one port or an end of some
    /// flow (a multihomed host has several ports); every other node is a switch.
    pub(crate) fn build(nodes: usize, ports: &[Port], flows: &[Flow]) -> Option<PathFeedbackRule> {
        let expected_queue: Vec<Option<f64>> =
            flows.iter().map(|f| f.tcp.as_ref().and_then(|t| t.config.cc.path_feedback_threshold())).collect();
        if expected_queue.iter().all(Option::is_none) {
            return None;
        }
        let mut port_count = vec![0u32; nodes];
        for p in ports {
            port_count[p.from as usize] += 1;
        }
        let mut host: Vec<bool> = port_count.iter().map(|&n| n <= 1).collect();
        for f in flows {
            host[f.src as usize] = true;
            host[f.dst as usize] = true;
        }
        let switch_to_switch = ports.iter().map(|p| !host[p.from as usize] && !host[p.to as usize]).collect();
        Some(PathFeedbackRule { switch_to_switch, expected_queue })
    }

    /// A segment of `flow` admitted to `port`, which held `queue` when it arrived.
    pub(crate) fn on_enqueue(&self, port_id: usize, port: &Port, queue: &QueueState, flow: u32, tcp: &mut TcpHeader) {
        let Some(q) = self.expected_queue.get(flow as usize).copied().flatten() else { return };
        if tcp.len == 0 || !self.switch_to_switch[port_id] {
            return;
        }
        tcp.path.hops = tcp.path.hops.saturating_add(1);
        // The queue is what waits, not the packet being sent, against the buffer in its own unit.
        let (waiting, limit) = match port.discipline.buffer().limit {
            Limit::Packets(n) => (queue.waiting_packets as f64, n as f64),
            Limit::Bytes(n) => (queue.waiting_bytes as f64, n as f64),
        };
        if waiting > q * limit {
            tcp.path.congested = tcp.path.congested.saturating_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::packet::PathFeedback;
    use crate::sim::Simulation;

    /// h0 – s0 – s1 – s2 – h1; s1 → s2 is the 1 Mb/s bottleneck with 100 packets of buffer.
    fn chain(cc: &str) -> Simulation {
        let json = format!(
            r#"{{"seed": 1, "duration_s": 3.0,
            "nodes": [{{"name": "h0"}}, {{"name": "s0"}}, {{"name": "s1"}}, {{"name": "s2"}}, {{"name": "h1"}}],
            "links": [{{"a": "h0", "b": "s0", "rate_bps": 1e8, "delay_s": 0.001}},
                      {{"a": "s0", "b": "s1", "rate_bps": 1e8, "delay_s": 0.001}},
                      {{"a": "s1", "b": "s2", "rate_bps": 1e6, "delay_s": 0.001,
                        "queue": {{"type": "droptail", "limit_packets": 100}}}},
                      {{"a": "s2", "b": "h1", "rate_bps": 1e8, "delay_s": 0.001}}],
            "flows": [{{"name": "f", "src": "h0", "dst": "h1", "traffic": {{"type": "bulk"}},
                        "tcp": {{"congestion_control": {cc}}}}}]}}"#
        );
        let mut sim = Simulation::from_json(&json).unwrap();
        sim.run();
        sim
    }

    fn echo(sim: &Simulation) -> PathFeedback {
        sim.transport.connections[0].receiver.subflows[0].path_echo()
    }

    #[test]
    fn data_counts_the_switch_to_switch_hops_and_the_ones_queued_beyond_q() {
        // Two switch-to-switch ports on the way (s0→s1, s1→s2). Past slow start the bottleneck
        // s1→s2 always holds a queue (its BDP is a fraction of a packet), the 100 Mb/s hops never do.
        let busy = chain(r#"{"type": "dts", "phi": true, "expected_queue": 0.0}"#);
        assert_eq!(echo(&busy), PathFeedback { hops: 2, congested: 1 });
        // A queue can never exceed the whole buffer.
        let full = chain(r#"{"type": "dts", "phi": true, "expected_queue": 1.0}"#);
        assert_eq!(echo(&full), PathFeedback { hops: 2, congested: 0 });
    }

    #[test]
    fn without_a_flow_that_asks_the_network_counts_nothing() {
        for cc in [r#"{"type": "dts"}"#, r#"{"type": "lia"}"#] {
            let sim = chain(cc);
            assert!(sim.net.path_feedback.is_none());
            assert_eq!(echo(&sim), PathFeedback::default());
        }
    }
}
