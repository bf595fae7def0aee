//! A restartable timer with at most one pending event in the common case.
//!
//! Restarting a timer (an RTO reset on every ACK) only moves its deadline; the pending
//! event, when it fires early, re-arms itself at the deadline. This keeps the event queue
//! small however often timers are reset.

use crate::event::{EventKind, EventQueue};
use crate::time::{after, Time};

#[derive(Clone, Copy, Debug, Default)]
pub struct Timer {
    deadline: Option<Time>,
    /// The earliest pending event known to serve this timer.
    armed_at: Option<Time>,
}

impl Timer {
    pub fn set(&mut self, deadline: Time, events: &mut EventQueue, kind: EventKind) {
        self.deadline = Some(deadline);
        if self.armed_at.is_none_or(|a| deadline < a) {
            events.schedule(deadline, kind);
            self.armed_at = Some(deadline);
        }
    }

    /// `set` at `now + delay`, saturating at the clock's end (a deadline there never fires).
    pub fn set_after(&mut self, now: Time, delay: Time, events: &mut EventQueue, kind: EventKind) {
        self.set(after(now, delay), events, kind);
    }

    pub fn cancel(&mut self) {
        self.deadline = None;
    }

    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    /// Called when one of this timer's events fires: true if the timer expires now.
    pub fn fire(&mut self, now: Time, events: &mut EventQueue, kind: EventKind) -> bool {
        if self.armed_at == Some(now) {
            self.armed_at = None;
        }
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                true
            }
            Some(d) => {
                if self.armed_at.is_none() {
                    events.schedule(d, kind);
                    self.armed_at = Some(d);
                }
                false
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIND: EventKind = EventKind::Sample;

    /// Runs the queue, returning the times at which the timer expired.
    fn expiries(t: &mut Timer, q: &mut EventQueue, until: Time) -> Vec<Time> {
        let mut out = vec![];
        while let Some(ev) = q.pop_until(until) {
            if t.fire(ev.time, q, KIND) {
                out.push(ev.time);
            }
        }
        out
    }

    #[test]
    fn restarting_moves_the_deadline_without_extra_events() {
        let mut q = EventQueue::default();
        let mut t = Timer::default();
        t.set(10, &mut q, KIND);
        t.set(15, &mut q, KIND);
        t.set(20, &mut q, KIND);
        assert_eq!(q.len(), 1);
        assert_eq!(expiries(&mut t, &mut q, 100), vec![20]);
    }

    #[test]
    fn an_earlier_deadline_and_a_cancel_are_honoured() {
        let mut q = EventQueue::default();
        let mut t = Timer::default();
        t.set(20, &mut q, KIND);
        t.set(5, &mut q, KIND);
        assert_eq!(expiries(&mut t, &mut q, 10), vec![5]);
        t.set(30, &mut q, KIND);
        t.cancel();
        assert_eq!(expiries(&mut t, &mut q, 100), Vec::<Time>::new());
        t.set(40, &mut q, KIND);
        assert_eq!(expiries(&mut t, &mut q, 100), vec![40]);
    }

    #[test]
    fn a_deadline_past_the_clock_never_fires() {
        let mut q = EventQueue::default();
        let mut t = Timer::default();
        t.set_after(Time::MAX - 10, 60, &mut q, KIND);
        assert_eq!(t.deadline(), Some(Time::MAX));
        assert_eq!(expiries(&mut t, &mut q, crate::time::MAX_TIME), Vec::<Time>::new());
    }
}
