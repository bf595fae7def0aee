//! A port: one direction of a link. Queue discipline + transmitter serializing at the
//! port's current rate + a propagation pipe to the next node.
//!
//! The pipe is a FIFO of (arrival time, packet): the delay is the same for every packet,
//! so arrivals leave in order and only the head needs an event (as htsim's pipes do).

use std::collections::VecDeque;

use rand::Rng as _;

use crate::admission::QueueState;
use crate::available_bandwidth::AvailableBandwidth;
use crate::control::PortController;
use crate::energy::EnergyMeter;
use crate::event::EventQueue;
use crate::packet::PacketId;
use crate::queue::QueueDiscipline;
use crate::rng::Rng;
use crate::time::{serialization, Time, PS_PER_S};

pub type PortId = u32;

/// How many of a `Port`'s first cache lines are fetched ahead of a hop (`sim/lookahead.rs`).
pub(crate) const HOP_LINES_FETCHED: usize = 5;

/// Counters and integrals; `repr(C)` keeps the ones every packet updates first, together.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct PortStats {
    /// Every byte offered to the port, admitted or not.
    pub arrived_bytes: u64,
    pub enqueued_packets: u64,
    pub enqueued_bytes: u64,
    pub transmitted_packets: u64,
    pub transmitted_bytes: u64,
    /// Serialization time of transmissions started (the unfinished part is removed at the end).
    pub busy_time: Time,
    /// ∫ waiting packets dt and ∫ waiting bytes dt, in unit·ps.
    pub queue_packets_area: u128,
    pub queue_bytes_area: u128,
    /// ∫ configured rate dt, in bit/s·ps.
    pub rate_area: u128,
    /// Every drop at this queue: overflow and AQM (early) drops.
    pub dropped_packets: u64,
    pub dropped_bytes: u64,
    /// The part of `dropped_packets` the AQM chose (RED probabilistic and forced drops).
    pub early_dropped_packets: u64,
    /// Packets enqueued with CE set by the AQM (or arriving with CE where it would mark).
    pub marked_packets: u64,
    /// Packets lost because the link was down: queued, in service or on the wire when it
    /// went down, or arriving while it was down (not in `dropped_*`).
    pub link_down_drops: u64,
    /// Packets corrupted on the wire and discarded at the far end (not in `dropped_*`).
    pub corrupted_packets: u64,
    pub corrupted_bytes: u64,
    pub rate_changes: u64,
    /// Continuous rate adjustments (C-EARTH), neither logged nor frozen.
    pub rate_tunes: u64,
    pub frozen_time: Time,
    /// Times the port entered low-power idle or sleep (an LPI port starts there: counted).
    pub sleeps: u64,
}

/// `repr(C)`: what every packet touches comes first, in the order a hop reads it (state,
/// queue, transmitter, pipe, where it leads, the tests for a policy, an error model or a
/// window rewriter, the discipline, then the counters, whose per-packet ones lead), so that a
/// hop touches the first five cache lines and nothing after; names, models after. Aligned to
/// a line, so that those are five lines wherever the port lies in its array.
#[repr(C, align(64))]
pub struct Port {
    /// False while the link is down or switched off.
    pub up: bool,
    pub to: u32,
    /// Where the port is in its sleep cycle; always `Active` without `sleep`.
    pub sleep_state: SleepState,
    pub queue_bytes: u64,
    /// The waiting packets, each with its size (read when it starts, without the packet).
    pub queue: VecDeque<(PacketId, u32)>,
    /// The transmission under way, if any.
    pub in_service: Option<InService>,
    /// The port sends nothing before this time (rate transition).
    pub frozen_until: Time,
    /// Packets on their way to `to`, with their arrival times: a packet enters when its
    /// transmission starts.
    pub pipe: VecDeque<(Time, PacketId)>,
    /// Set only through `set_rate`, which keeps `ps_per_byte` in step.
    pub rate_bps: u64,
    /// 8·10¹²/rate when that is a whole number of picoseconds (of at most 2³² ps, so that a
    /// u32 size times it fits in 64 bits), else 0: serialization by one multiply.
    ps_per_byte: u64,
    pub delay: Time,
    /// When the transmitter last finished a packet: with nothing waiting or in service, the
    /// port has been idle since then (RED's q_time; 0 before any transmission, as ns-2).
    pub last_tx_end: Time,
    /// When the queue-length integrals were last brought up to date.
    last_change: Time,
    /// The port whose policy rewrites the windows of ACKs arriving over this one (AWM: the
    /// reverse direction of the managed port).
    pub window_rewriter: Option<PortId>,
    /// Bernoulli corruption on the wire; None when the error rate is 0 (boxed: rarely used).
    pub error_model: Option<Box<PacketErrorModel>>,
    /// The power-management policy in charge of this port's rate, if any.
    pub controller: Option<Box<dyn PortController>>,
    pub discipline: QueueDiscipline,
    /// How the port sleeps (802.3az LPI or a sleeping policy); None: it never does (boxed:
    /// rarely used).
    pub sleep: Option<Box<Sleep>>,
    pub stats: PortStats,
    /// When the rate's integral was last brought up to date.
    rate_since: Time,
    pub from: u32,
    pub transition: Time,
    pub name: String,
    /// The port's power draw, integrated; None without a power model.
    pub energy: Option<EnergyMeter>,
    /// A bottleneck elsewhere redrawing this port's rate over time, if any.
    pub available_bandwidth: Option<Box<AvailableBandwidth>>,
}

/// The transmission under way: its packet's size (so that an arrival's admission need not
/// read the packet, already in the pipe) and when it ends. The end is an event only when
/// something needs it (docs/forwarding.md, *A transmission's end*); it has its place in the
/// order of events all the same, reserved when the transmission starts.
#[derive(Clone, Copy, Debug)]
pub struct InService {
    pub size_bytes: u32,
    /// When its serialization finishes.
    pub done: Time,
    /// The end's place among events at `done` (`EventQueue::reserve`).
    pub end_seq: u64,
    /// Whether the end is scheduled as a `TxDone` event.
    pub end_scheduled: bool,
}

impl Port {
    /// Time spent transmitting up to `now`: a transmission under way counts only its elapsed part.
    pub fn busy_time(&self, now: Time) -> Time {
        self.stats.busy_time - self.in_service.map_or(0, |s| s.done.saturating_sub(now))
    }

    pub fn new(
        name: String,
        from: u32,
        to: u32,
        rate_bps: u64,
        delay: Time,
        transition: Time,
        discipline: QueueDiscipline,
    ) -> Port {
        Port {
            name,
            from,
            to,
            rate_bps,
            ps_per_byte: ps_per_byte(rate_bps),
            delay,
            transition,
            discipline,
            queue: VecDeque::new(),
            queue_bytes: 0,
            in_service: None,
            frozen_until: 0,
            pipe: VecDeque::new(),
            error_model: None,
            last_tx_end: 0,
            up: true,
            energy: None,
            sleep: None,
            sleep_state: SleepState::Active,
            controller: None,
            available_bandwidth: None,
            window_rewriter: None,
            stats: PortStats::default(),
            last_change: 0,
            rate_since: 0,
        }
    }

    /// Counts a transmission that has ended.
    #[inline]
    pub fn finish_transmission(&mut self, s: InService) {
        self.last_tx_end = s.done;
        self.stats.transmitted_packets += 1;
        self.stats.transmitted_bytes += s.size_bytes as u64;
    }

    /// Completes the transmission under way if it has ended by the current point of the run
    /// without an event, as its `TxDone` would have (its counters, its end time).
    #[inline]
    pub fn settle(&mut self, events: &EventQueue) {
        if let Some(s) = self.in_service.filter(|s| !s.end_scheduled && events.has_run(s.done, s.end_seq)) {
            self.in_service = None;
            self.finish_transmission(s);
        }
    }

    /// Changes the service rate (the caller handles integrals, logs and transitions).
    pub fn set_rate(&mut self, rate_bps: u64) {
        self.rate_bps = rate_bps;
        self.ps_per_byte = ps_per_byte(rate_bps);
    }

    /// Time to serialize `bytes` at the current rate, as `time::serialization` computes it.
    #[inline]
    pub fn serialization(&self, bytes: u32) -> Time {
        match self.ps_per_byte {
            0 => serialization(bytes, self.rate_bps),
            ps => bytes as u64 * ps,
        }
    }

    /// What the queue discipline sees when a packet arrives.
    #[inline]
    pub fn queue_state(&self) -> QueueState {
        QueueState {
            waiting_packets: self.queue.len() as u32,
            waiting_bytes: self.queue_bytes,
            in_service_bytes: self.in_service.map(|s| s.size_bytes),
            last_tx_end: self.last_tx_end,
            rate_bps: self.rate_bps,
        }
    }

    /// Brings the queue-length integrals up to `now`; call before the queue changes.
    #[inline]
    pub fn integrate_queue(&mut self, now: Time) {
        let dt = (now - self.last_change) as u128;
        if dt > 0 {
            self.stats.queue_packets_area += self.queue.len() as u128 * dt;
            self.stats.queue_bytes_area += self.queue_bytes as u128 * dt;
            self.last_change = now;
        }
    }

    /// Brings every integral up to `now` (the rate's, which the packet path leaves alone,
    /// included); call before the rate changes and before reading them.
    pub fn integrate(&mut self, now: Time) {
        self.integrate_queue(now);
        self.stats.rate_area += self.rate_bps as u128 * (now - self.rate_since) as u128;
        self.rate_since = now;
    }

    /// True when the transmitter may start the next packet now.
    #[inline]
    pub fn can_start(&self, now: Time) -> bool {
        !self.queue.is_empty() && self.transmitter_free(now)
    }

    /// True when the transmitter could send a packet now: up, awake, not in a rate
    /// transition, and idle.
    #[inline]
    pub fn transmitter_free(&self, now: Time) -> bool {
        self.up
            && self.in_service.is_none()
            && now >= self.frozen_until
            && matches!(self.sleep_state, SleepState::Active)
    }

    /// Packets held by the port: waiting, and in the pipe (from the start of their
    /// transmission on).
    pub fn held_packets(&self) -> usize {
        self.queue.len() + self.pipe.len()
    }
}

fn ps_per_byte(rate_bps: u64) -> u64 {
    const PS_PER_BYTE_AT_1BPS: u64 = 8 * PS_PER_S;
    match PS_PER_BYTE_AT_1BPS.checked_rem(rate_bps) {
        Some(0) if PS_PER_BYTE_AT_1BPS / rate_bps <= u32::MAX as u64 => PS_PER_BYTE_AT_1BPS / rate_bps,
        _ => 0,
    }
}

/// Where a port is in its sleep cycle (sleeping: Nedevschi et al., "Reducing Network Energy Consumption via Sleeping and Rate-Adaptation", NSDI 2008; low-power idle: IEEE 802.3az-2010). Only a port with [`Sleep`] leaves `Active`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SleepState {
    /// Awake: it may transmit.
    #[default]
    Active,
    /// Going to sleep until `until` (802.3az T_s, or δ): active power, nothing sent; a packet
    /// arriving now waits for the end of it and then for the wake time.
    GoingToSleep { until: Time },
    /// In 802.3az low-power idle (quiet and refresh), or asleep; the next arrival wakes it.
    LowPower,
    /// Waking until `until` (802.3az T_w, or δ): active power, nothing sent.
    Waking { until: Time },
}

/// How a port sleeps and wakes: 802.3az low-power idle, or sleeping on a policy's command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleep {
    /// Going to sleep: T_s (LPI) or δ.
    pub to_sleep: Time,
    /// Waking: T_w (LPI) or δ.
    pub to_wake: Time,
    /// The port goes to sleep whenever its transmitter falls idle with nothing queued (802.3az,
    /// or a scheduled sleep mode); otherwise it sleeps only on a policy's command.
    pub when_idle: bool,
    /// 802.3az: asleep, the meter counts low-power idle (quiet and refresh); otherwise sleep power.
    pub lpi: bool,
}

/// Bernoulli packet errors on a link direction (as Pentikousis and Badr's error runs, "On the Resource Efficiency of Explicit Congestion Notification", Networking 2004): each packet independently
/// corrupted with probability `rate`, drawn from the port's LINK_ERROR stream.
#[derive(Clone, Debug)]
pub struct PacketErrorModel {
    rate: f64,
    rng: Rng,
}

impl PacketErrorModel {
    /// `rate` in (0, 1).
    pub fn new(rate: f64, rng: Rng) -> PacketErrorModel {
        assert!(rate > 0.0 && rate < 1.0, "packet error rate {rate} outside (0, 1)");
        PacketErrorModel { rate, rng }
    }

    #[inline]
    pub fn corrupts(&mut self) -> bool {
        self.rng.gen_bool(self.rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admission::Limit;
    use crate::queue::QueueDiscipline;

    #[test]
    fn serialization_by_multiply_matches_the_division() {
        let q = QueueDiscipline::drop_tail(Limit::Packets(1), true);
        let mut port = Port::new("a->b".into(), 0, 1, 10_000_000_000, 0, 0, q);
        // 10 Gb/s: 800 ps per byte, a multiply; 3 b/s: no whole number, the division.
        for rate in [10_000_000_000, 1_000_000_000, 100_000_000, 3, 1, 7_000_000_000] {
            port.set_rate(rate);
            for bytes in [0, 1, 40, 1500, 9000, u32::MAX] {
                assert_eq!(port.serialization(bytes), serialization(bytes, rate), "{bytes} B at {rate} b/s");
            }
        }
        port.set_rate(10_000_000_000);
        assert_eq!(port.ps_per_byte, 800);
        assert_eq!(port.serialization(1500), 1_200_000);
    }

    #[test]
    fn a_hop_touches_the_first_five_lines_the_lookahead_fetches() {
        use std::mem::offset_of;
        let stat = |field: usize| offset_of!(Port, stats) + field;
        // The last fields a packet's hop writes: the queue-length integrals.
        let hop_end = stat(offset_of!(PortStats, queue_bytes_area)) + 16;
        assert!(hop_end <= HOP_LINES_FETCHED * 64, "a hop's fields end at byte {hop_end}");
        assert_eq!(std::mem::align_of::<Port>(), 64);
        // And what it reads before them: the discipline, the sleep and policy tests, the pipe.
        for (name, end) in [
            ("discipline", offset_of!(Port, discipline) + std::mem::size_of::<QueueDiscipline>()),
            ("sleep", offset_of!(Port, sleep) + std::mem::size_of::<Option<Box<Sleep>>>()),
            ("pipe", offset_of!(Port, pipe) + std::mem::size_of::<std::collections::VecDeque<(Time, PacketId)>>()),
        ] {
            assert!(end <= offset_of!(Port, stats), "{name} ends at byte {end}, among the counters");
        }
    }
}
