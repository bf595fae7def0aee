//! Samples chosen port quantities every Δt into a long (tidy) table.

use crate::port::{Port, PortId};
use crate::results::{Column, Table};
use crate::scenario::PortQuantity;
use crate::time::{to_secs, Time};

pub struct Recorder {
    pub interval: Time,
    ports: Vec<PortId>,
    quantities: Vec<PortQuantity>,
    /// Cumulative arrived / transmitted bytes per sampled port at the previous sample.
    last_arrived: Vec<u64>,
    last_sent: Vec<u64>,
    time_s: Vec<f64>,
    entity: Vec<u32>,
    quantity: Vec<u8>,
    value: Vec<f64>,
}

impl Recorder {
    pub fn new(interval: Time, ports: Vec<PortId>, quantities: Vec<PortQuantity>) -> Recorder {
        let n = ports.len();
        Recorder {
            interval,
            ports,
            quantities,
            last_arrived: vec![0; n],
            last_sent: vec![0; n],
            time_s: vec![],
            entity: vec![],
            quantity: vec![],
            value: vec![],
        }
    }

    pub fn sample(&mut self, now: Time, ports: &[Port]) {
        let dt = to_secs(self.interval);
        for (i, &pid) in self.ports.iter().enumerate() {
            let p = &ports[pid as usize];
            for (qi, q) in self.quantities.iter().enumerate() {
                let v = match q {
                    PortQuantity::QueuePackets => p.queue.len() as f64,
                    PortQuantity::QueueBytes => p.queue_bytes as f64,
                    PortQuantity::RateBps => p.rate_bps as f64,
                    PortQuantity::ArrivalRateBps => (p.stats.arrived_bytes - self.last_arrived[i]) as f64 * 8.0 / dt,
                    PortQuantity::DepartureRateBps => (p.stats.transmitted_bytes - self.last_sent[i]) as f64 * 8.0 / dt,
                };
                self.time_s.push(to_secs(now));
                self.entity.push(pid);
                self.quantity.push(qi as u8);
                self.value.push(v);
            }
            self.last_arrived[i] = p.stats.arrived_bytes;
            self.last_sent[i] = p.stats.transmitted_bytes;
        }
    }

    pub fn table(&self, ports: &[Port]) -> Table {
        let mut t = Table::default();
        t.add("time_s", Column::F64(self.time_s.clone()))
            .add("entity", Column::Str(self.entity.iter().map(|&p| ports[p as usize].name.clone()).collect()))
            .add("quantity", Column::Str(self.quantity.iter().map(|&q| self.quantities[q as usize].name().to_string()).collect()))
            .add("value", Column::F64(self.value.clone()));
        t
    }

    pub fn empty_table() -> Table {
        let mut t = Table::default();
        t.add("time_s", Column::F64(vec![]))
            .add("entity", Column::Str(vec![]))
            .add("quantity", Column::Str(vec![]))
            .add("value", Column::F64(vec![]));
        t
    }
}
