//! Power management inside the simulation: what a port's policy sees, how its commands act
//! on the port, and the ports' energy meters following their rate and state.

use super::Simulation;
use crate::control::{Command, PortView};
use crate::energy::PowerMode;
use crate::event::EventKind;
use crate::packet::{flags, PacketId, NO_CONNECTION};
use crate::port::PortId;

/// Which observation a policy gets.
#[derive(Clone, Copy)]
pub(super) enum Observation {
    Arrival,
    Departure,
    Tick,
}

impl Simulation {
    fn port_view(&self, id: PortId) -> PortView {
        let p = &self.ports[id as usize];
        PortView {
            now: self.now,
            queue_bits: p.queue_bytes * 8,
            queue_packets: p.queue.len() as u32,
            rate_bps: p.rate_bps,
            arrived_bytes: p.stats.arrived_bytes,
            departed_bytes: p.stats.transmitted_bytes,
            frozen_until: p.frozen_until,
        }
    }

    /// Lets the port's policy observe and act; a no-op for ports without one.
    #[inline]
    pub(super) fn observe(&mut self, id: PortId, what: Observation) {
        if self.ports[id as usize].controller.is_none() {
            return;
        }
        let view = self.port_view(id);
        let controller = self.ports[id as usize].controller.as_mut().expect("checked");
        let command = match what {
            Observation::Arrival => controller.on_arrival(&view),
            Observation::Departure => controller.on_departure(&view),
            Observation::Tick => controller.on_tick(&view),
        };
        match command {
            Some(Command::SetRate(rate)) => self.set_port_rate(id, rate),
            Some(Command::Tune(rate)) => self.tune_port_rate(id, rate),
            None => {}
        }
    }

    /// The policy's periodic tick, rescheduled while the run lasts.
    pub(super) fn controller_tick(&mut self, id: PortId) {
        self.observe(id, Observation::Tick);
        if let Some(interval) = self.ports[id as usize].controller.as_ref().and_then(|c| c.tick_interval()) {
            if self.now + interval <= self.end {
                self.events.schedule(self.now + interval, EventKind::ControllerTick { port: id });
            }
        }
    }

    /// A continuous rate adjustment: immediate, without a transition, not logged.
    fn tune_port_rate(&mut self, id: PortId, rate_bps: u64) {
        let now = self.now;
        let port = &mut self.ports[id as usize];
        if rate_bps == port.rate_bps || rate_bps == 0 {
            return;
        }
        port.integrate(now);
        port.rate_bps = rate_bps;
        port.stats.rate_tunes += 1;
        if let Some(meter) = &mut port.energy {
            meter.set_rate(now, rate_bps);
        }
    }

    /// AWM (power.md §6): an ACK coming back over port `via` gets the managing policy's window
    /// if that is smaller.
    #[inline]
    pub(super) fn rewrite_window(&mut self, via: PortId, pkt: PacketId) {
        let Some(manager) = self.ports[via as usize].window_rewriter else { return };
        let p = self.pool.get_mut(pkt);
        if p.conn == NO_CONNECTION || p.tcp.len > 0 || !p.tcp.has(flags::ACK) || p.tcp.has(flags::SYN) {
            return;
        }
        let controller = self.ports[manager as usize].controller.as_ref().expect("a window manager");
        p.tcp.window = controller.rewrite_window(p.tcp.window);
    }

    /// A port that goes down sleeps in the energy accounting (switched off, pruned).
    pub(super) fn meter_power_mode(&mut self, id: PortId) {
        let now = self.now;
        let port = &mut self.ports[id as usize];
        let mode = if port.up { PowerMode::Active } else { PowerMode::Asleep };
        if let Some(meter) = &mut port.energy {
            meter.set_mode(now, mode);
        }
    }
}
