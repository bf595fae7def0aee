//! The bare event-queue benchmark: the engine's upper limit on events per second.

use rand::Rng as _;

use crate::event::{EventKind, EventQueue};
use crate::rng::{domain, stream};

/// Classic "hold" model: keep `pending` events in the queue; each pop schedules one new
/// event a random 0–1 µs later. Returns the number of events processed.
pub fn event_queue(events: u64, pending: u32, seed: u64) -> u64 {
    let mut rng = stream(seed, domain::SOURCE, 0);
    let mut q = EventQueue::default();
    for id in 0..pending {
        q.schedule(rng.gen_range(0..1_000_000), EventKind::Bench { id });
    }
    let mut processed = 0;
    while processed < events {
        let Some(ev) = q.pop_until(u64::MAX) else { break };
        processed += 1;
        q.schedule(ev.time + rng.gen_range(0..1_000_000), ev.kind);
    }
    processed
}
