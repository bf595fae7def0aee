//! Samples chosen port and TCP-flow quantities every Δt into a long (tidy) table.

use super::{Connection, Flow};
use crate::port::{Port, PortId};
use crate::queue::QueueDiscipline;
use crate::results::{Column, Table};
use crate::scenario::{FlowQuantity, PortQuantity};
use crate::time::{to_secs, Time};

#[derive(Clone, Copy)]
enum Entity {
    Port(PortId),
    Flow(u32),
}

#[derive(Clone, Copy)]
enum Quantity {
    Port(PortQuantity),
    Flow(FlowQuantity),
}

impl Quantity {
    fn name(self) -> &'static str {
        match self {
            Quantity::Port(q) => q.name(),
            Quantity::Flow(q) => q.name(),
        }
    }
}

pub struct Recorder {
    pub interval: Time,
    pub(super) ports: Vec<PortId>,
    quantities: Vec<PortQuantity>,
    flows: Vec<u32>,
    flow_quantities: Vec<FlowQuantity>,
    /// Cumulative arrived / transmitted bytes per sampled port at the previous sample.
    last_arrived: Vec<u64>,
    last_sent: Vec<u64>,
    time_s: Vec<f64>,
    entity: Vec<Entity>,
    quantity: Vec<Quantity>,
    value: Vec<f64>,
}

impl Recorder {
    pub fn new(
        interval: Time,
        ports: Vec<PortId>,
        quantities: Vec<PortQuantity>,
        flows: Vec<u32>,
        flow_quantities: Vec<FlowQuantity>,
    ) -> Recorder {
        let n = ports.len();
        Recorder {
            interval,
            ports,
            quantities,
            flows,
            flow_quantities,
            last_arrived: vec![0; n],
            last_sent: vec![0; n],
            time_s: vec![],
            entity: vec![],
            quantity: vec![],
            value: vec![],
        }
    }

    pub fn sample(&mut self, now: Time, ports: &[Port], flows: &[Flow], connections: &[Connection]) {
        let dt = to_secs(self.interval);
        for i in 0..self.ports.len() {
            let pid = self.ports[i];
            let p = &ports[pid as usize];
            for qi in 0..self.quantities.len() {
                let q = self.quantities[qi];
                let v = match q {
                    PortQuantity::QueuePackets => p.queue.len() as f64,
                    PortQuantity::QueueBytes => p.queue_bytes as f64,
                    PortQuantity::RateBps => p.rate_bps as f64,
                    PortQuantity::ArrivalRateBps => (p.stats.arrived_bytes - self.last_arrived[i]) as f64 * 8.0 / dt,
                    PortQuantity::DepartureRateBps => (p.stats.transmitted_bytes - self.last_sent[i]) as f64 * 8.0 / dt,
                    PortQuantity::PowerW => p.energy.as_ref().map_or(f64::NAN, |m| m.power_w()),
                    PortQuantity::RedAverage => match &p.discipline {
                        QueueDiscipline::Red(red) => red.average(),
                        _ => f64::NAN,
                    },
                };
                self.push(now, Entity::Port(pid), Quantity::Port(q), v);
            }
            self.last_arrived[i] = p.stats.arrived_bytes;
            self.last_sent[i] = p.stats.transmitted_bytes;
        }
        for fi in 0..self.flows.len() {
            let f = self.flows[fi];
            // The flow's latest connection (a serial or web flow opens many in turn).
            let Some(&id) = flows[f as usize].tcp.as_ref().and_then(|t| t.connections.last()) else { continue };
            let c = &connections[id as usize];
            for qi in 0..self.flow_quantities.len() {
                let q = self.flow_quantities[qi];
                let v = match q {
                    FlowQuantity::CwndSegments => c.cwnd(),
                    FlowQuantity::SsthreshSegments => c.first().window.ssthresh,
                    FlowQuantity::SrttS => c.first().srtt().map_or(f64::NAN, to_secs),
                    FlowQuantity::InFlightBytes => c.sum(|s| s.in_flight()) as f64,
                    FlowQuantity::DeliveredBytes => c.receiver.bytes_delivered() as f64,
                };
                self.push(now, Entity::Flow(f), Quantity::Flow(q), v);
            }
        }
    }

    fn push(&mut self, now: Time, entity: Entity, quantity: Quantity, value: f64) {
        self.time_s.push(to_secs(now));
        self.entity.push(entity);
        self.quantity.push(quantity);
        self.value.push(value);
    }

    pub fn table(&self, ports: &[Port], flows: &[Flow]) -> Table {
        let name = |e: &Entity| match *e {
            Entity::Port(p) => ports[p as usize].name.clone(),
            Entity::Flow(f) => flows[f as usize].name.clone(),
        };
        let mut t = Table::default();
        t.add("time_s", Column::F64(self.time_s.clone()))
            .add("entity", Column::Str(self.entity.iter().map(name).collect()))
            .add("quantity", Column::Str(self.quantity.iter().map(|q| q.name().to_string()).collect()))
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
