//! Power management inside the simulation: what a port's policy sees, how its commands act
//! on the port, and the ports' energy meters following their rate and state.

use super::{Network, Simulation};
use crate::control::{Command, PortView};
use crate::energy::PowerMode;
use crate::event::EventKind;
use crate::packet::{flags, PacketId, NO_CONNECTION};
use crate::port::{PortId, Sleep, SleepState};
use crate::time::{after, Time};

/// Which observation a policy gets.
#[derive(Clone, Copy)]
pub(super) enum Observation {
    Arrival,
    Departure,
    Tick,
}

impl Network {
    /// What a port's policy sees of it at `now`.
    fn port_view(&self, id: PortId, now: Time) -> PortView {
        let p = &self.ports[id as usize];
        PortView {
            now,
            queue_bits: p.queue_bytes * 8,
            queue_packets: p.queue.len() as u32,
            rate_bps: p.rate_bps,
            arrived_bytes: p.stats.arrived_bytes,
            departed_bytes: p.stats.transmitted_bytes,
            frozen_until: p.frozen_until,
            transmitting: p.in_service.is_some(),
        }
    }
}

impl Simulation {
    /// Lets the port's policy observe and act; a no-op for ports without one (inlined into
    /// the packet path, so that a port without a policy costs one test).
    #[inline(always)]
    pub(super) fn observe(&mut self, id: PortId, what: Observation) {
        if self.net.ports[id as usize].controller.is_some() {
            self.run_policy(id, what);
        }
    }

    fn run_policy(&mut self, id: PortId, what: Observation) {
        let view = self.net.port_view(id, self.now);
        let controller = self.net.ports[id as usize].controller.as_mut().expect("checked");
        let command = match what {
            Observation::Arrival => controller.on_arrival(&view),
            Observation::Departure => controller.on_departure(&view),
            Observation::Tick => controller.on_tick(&view),
        };
        match command {
            Some(Command::SetRate(rate)) => self.set_port_rate(id, rate),
            Some(Command::Tune(rate)) => self.tune_port_rate(id, rate),
            Some(Command::Sleep) => self.sleep_port(id),
            None => {}
        }
    }

    /// The policy's periodic tick, rescheduled while the run lasts.
    pub(super) fn controller_tick(&mut self, id: PortId) {
        self.observe(id, Observation::Tick);
        if let Some(interval) = self.net.ports[id as usize].controller.as_ref().and_then(|c| c.tick_interval()) {
            if after(self.now, interval) <= self.end {
                self.events.schedule(after(self.now, interval), EventKind::ControllerTick { port: id });
            }
        }
    }

    /// The new available bandwidth applies at once, without a transition (the
    /// packet in service finishes at the old rate); the next change is scheduled.
    pub(super) fn available_bandwidth_change(&mut self, id: PortId) {
        let bandwidth = self.net.ports[id as usize].available_bandwidth.as_mut().expect("scheduled for ports with one");
        let (rate, gap) = (bandwidth.draw_rate_bps(), bandwidth.next_gap());
        self.tune_port_rate(id, rate);
        if after(self.now, gap) <= self.end {
            self.events.schedule(after(self.now, gap), EventKind::AvailableBandwidthChange { port: id });
        }
    }

    /// A continuous rate adjustment: immediate, without a transition, not logged.
    fn tune_port_rate(&mut self, id: PortId, rate_bps: u64) {
        let now = self.now;
        let port = &mut self.net.ports[id as usize];
        if rate_bps == port.rate_bps || rate_bps == 0 {
            return;
        }
        port.integrate(now);
        port.set_rate(rate_bps);
        port.stats.rate_tunes += 1;
        if let Some(meter) = &mut port.energy {
            meter.set_rate(now, rate_bps);
        }
    }

    /// AWM (Barbera et al., ICC 2007, as the G-router of Lombardo, Panarello, Schembra uses it): an ACK coming back over port `via` gets the managing policy's window
    /// if that is smaller.
    #[inline]
    pub(super) fn rewrite_window(&mut self, via: PortId, pkt: PacketId) {
        let Some(manager) = self.net.ports[via as usize].window_rewriter else { return };
        let p = self.pool.get_mut(pkt);
        if p.conn == NO_CONNECTION || p.tcp.len > 0 || !p.tcp.has(flags::ACK) || p.tcp.has(flags::SYN) {
            return;
        }
        let controller = self.net.ports[manager as usize].controller.as_ref().expect("a window manager");
        p.tcp.window = controller.rewrite_window(p.tcp.window);
    }

    /// A port that goes down sleeps in the energy accounting (switched off, pruned); called
    /// when its state changes.
    pub(super) fn meter_power_mode(&mut self, id: PortId) {
        let now = self.now;
        let port = &mut self.net.ports[id as usize];
        let mode = if port.up { PowerMode::Active } else { PowerMode::Asleep };
        if let Some(meter) = &mut port.energy {
            meter.set_mode(now, mode);
        }
        // Down, the port leaves its sleep cycle (a pending transition's event goes stale); an
        // 802.3az port that comes up with nothing to send goes to sleep (IEEE 802.3az-2010).
        port.sleep_state = SleepState::Active;
        if port.up && port.sleep.as_deref().is_some_and(|s| s.when_idle) {
            self.begin_sleep(id);
        }
    }

    // ---- sleeping and waking (Nedevschi et al., NSDI 2008; IEEE 802.3az-2010 low-power idle) ----

    /// A scheduled `sleep`: from now on the port sleeps whenever it is idle and wakes on an
    /// arrival, each transition taking its transition time (δ) at full power; an 802.3az port
    /// keeps its own timings.
    pub(super) fn enter_sleep_mode(&mut self, id: PortId) {
        // A port that sleeps when idle watches its transmissions end, the one under way too.
        self.settle(id);
        self.schedule_end(id);
        let port = &mut self.net.ports[id as usize];
        let delta = port.transition;
        let sleep = port
            .sleep
            .get_or_insert_with(|| Box::new(Sleep { to_sleep: delta, to_wake: delta, when_idle: true, lpi: false }));
        sleep.when_idle = true;
        self.sleep_port(id);
    }

    /// A scheduled `wake`: the port wakes if asleep and stays awake (802.3az ports keep LPI).
    pub(super) fn leave_sleep_mode(&mut self, id: PortId) {
        let port = &mut self.net.ports[id as usize];
        if let Some(sleep) = &mut port.sleep {
            sleep.when_idle = sleep.lpi;
        }
        self.wake_port(id);
    }

    /// The port starts going to sleep (T_s, or δ): active power, nothing sent.
    pub(super) fn begin_sleep(&mut self, id: PortId) {
        let port = &mut self.net.ports[id as usize];
        let sleep = port.sleep.as_deref().expect("only a port that can sleep goes to sleep");
        let until = after(self.now, sleep.to_sleep);
        port.sleep_state = SleepState::GoingToSleep { until };
        self.events.schedule(until, EventKind::SleepTransitionEnd { port: id });
    }

    /// A policy's `Sleep`: obeyed only by an awake, idle port that can sleep.
    fn sleep_port(&mut self, id: PortId) {
        let p = &self.net.ports[id as usize];
        if p.sleep.is_some()
            && p.up
            && p.sleep_state == SleepState::Active
            && p.in_service.is_none()
            && p.queue.is_empty()
        {
            self.begin_sleep(id);
        }
    }

    /// A packet arrived at a port that is not awake. Asleep, it starts waking (T_w, or δ) at
    /// active power; going to sleep, it wakes once that ends; waking, it goes on.
    pub(super) fn wake_port(&mut self, id: PortId) {
        let now = self.now;
        let port = &mut self.net.ports[id as usize];
        if port.sleep_state != SleepState::LowPower {
            return;
        }
        let until = after(now, port.sleep.as_deref().expect("a sleeping port can wake").to_wake);
        port.sleep_state = SleepState::Waking { until };
        if let Some(meter) = &mut port.energy {
            meter.set_mode(now, PowerMode::Active);
        }
        self.events.schedule(until, EventKind::SleepTransitionEnd { port: id });
    }

    /// The end of going to sleep or of waking; events of a cycle the link's going down
    /// interrupted find the port in another state and do nothing.
    pub(super) fn sleep_transition_end(&mut self, id: PortId) {
        let now = self.now;
        let port = &mut self.net.ports[id as usize];
        let Some(&sleep) = port.sleep.as_deref() else { return };
        match port.sleep_state {
            SleepState::GoingToSleep { until } if until == now => {
                if port.queue.is_empty() {
                    port.sleep_state = SleepState::LowPower;
                    port.stats.sleeps += 1;
                    // IEEE 802.3az: low-power idle (quiet T_q, refresh T_r); a sleeping port: sleep power.
                    let mode = if sleep.lpi { PowerMode::LowPowerIdle { since: now } } else { PowerMode::Asleep };
                    if let Some(meter) = &mut port.energy {
                        meter.set_mode(now, mode);
                    }
                } else {
                    // IEEE 802.3az: a frame that arrived while going to sleep waits for T_s, then T_w.
                    let until = after(now, sleep.to_wake);
                    port.sleep_state = SleepState::Waking { until };
                    self.events.schedule(until, EventKind::SleepTransitionEnd { port: id });
                }
            }
            SleepState::Waking { until } if until == now => {
                port.sleep_state = SleepState::Active;
                self.try_start(id);
            }
            _ => {}
        }
    }
}
