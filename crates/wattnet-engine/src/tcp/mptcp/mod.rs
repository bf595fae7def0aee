//! Multipath TCP (RFC 8684) at the level a simulator needs: a connection's data carried over
//! several TCP subflows, each a full [`Sender`](super::sender::Sender) /
//! [`Receiver`](super::receiver::Receiver) pair with its own path, window, RTT and loss
//! recovery.
//!
//! - The **data level** ([`DataSender`]): the connection's bytes are numbered by data sequence
//!   numbers (DSNs, RFC 8684 §3.3.1); the scheduler hands each segment to a subflow, which maps
//!   it onto its own sequence numbers. DATA_ACKs (§3.3.2) advance the connection's send window
//!   and complete it.
//! - The **connection-level receive buffer** ([`DataReceiver`]): one buffer shared by the
//!   subflows, its window relative to the DATA_ACK (§3.3.4), so a segment held up on a slow
//!   subflow stalls the others (head-of-line blocking).
//! - **Schedulers** (Linux MPTCP v0.90 `mptcp_sched.c`, `mptcp_rr.c`, `mptcp_redundant.c`) and
//!   the receive-buffer remedies of Raiciu et al., "How Hard Can It Be? Designing and
//!   Implementing a Deployable Multipath TCP" (NSDI 2012, §4.2): opportunistic retransmission and
//!   penalisation.
//!
//! `docs/models/mptcp.md` describes the model and the readings chosen where RFC 8684 leaves
//! room.

mod data_receiver;
mod data_sender;
#[cfg(test)]
mod tests;

pub use data_receiver::DataReceiver;
pub use data_sender::DataSender;

use super::TcpConfig;
use crate::error::ScenarioError;
use crate::scenario::{MptcpSpec, SchedulerSpec};

/// Which subflow gets the connection's next segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    /// Linux's default: the subflow with the lowest smoothed RTT among those with a free
    /// congestion window.
    MinRtt,
    /// One segment to each subflow with a free window in turn (Linux `mptcp_rr.c`,
    /// `num_segments` 1, `cwnd_limited`).
    RoundRobin,
    /// Every segment on every subflow (Linux `mptcp_redundant.c`).
    Redundant,
}

/// A multipath connection's settings, resolved from the scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct MptcpConfig {
    pub scheduler: Scheduler,
    /// Raiciu et al. (NSDI 2012) §4.2: a subflow blocked by the receive window resends the
    /// segment holding it up.
    pub opportunistic_retransmission: bool,
    /// Raiciu et al. (NSDI 2012) §4.2: the subflow holding up the window has its window halved.
    pub penalisation: bool,
    /// The connection-level receive buffer, in bytes.
    pub receive_buffer: u64,
}

/// Subflows of one connection at most: the data level keeps which subflows carried a segment
/// as bits of a `u64` (as Linux's `path_mask`).
pub const MAX_SUBFLOWS: usize = 64;

impl MptcpConfig {
    /// Resolves `field` (a flow's `mptcp` table) for connections configured by `tcp`.
    pub fn from_spec(spec: &MptcpSpec, tcp: &TcpConfig, field: &str) -> Result<MptcpConfig, ScenarioError> {
        let receive_buffer = spec.receive_buffer_bytes.unwrap_or(tcp.receive_window);
        if receive_buffer < tcp.mss as u64 {
            return Err(ScenarioError::new(
                format!("{field}.receive_buffer_bytes"),
                format!("must hold at least one segment ({} bytes), got {receive_buffer}", tcp.mss),
            ));
        }
        Ok(MptcpConfig {
            scheduler: match spec.scheduler {
                SchedulerSpec::MinRtt => Scheduler::MinRtt,
                SchedulerSpec::RoundRobin => Scheduler::RoundRobin,
                SchedulerSpec::Redundant => Scheduler::Redundant,
            },
            opportunistic_retransmission: spec.opportunistic_retransmission,
            penalisation: spec.penalisation,
            receive_buffer,
        })
    }
}
