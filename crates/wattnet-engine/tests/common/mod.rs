//! Helpers shared by the integration tests: build, run and read results.
#![allow(dead_code)]

use serde_json::Value;
use wattnet_engine::{Results, Simulation};

pub fn run(scenario: Value) -> Results {
    let mut sim = Simulation::from_json(&scenario.to_string()).expect("valid scenario");
    sim.run();
    sim.results().expect("packets are conserved")
}

/// Row index of a port or flow by name.
pub fn row(results: &Results, table: &str, key: &str, name: &str) -> usize {
    match results.table(table).column(key) {
        Some(wattnet_engine::Column::Str(v)) => v.iter().position(|n| n == name).expect("row exists"),
        _ => panic!("no key column"),
    }
}

pub fn port_f64(r: &Results, port: &str, col: &str) -> f64 {
    r.table("ports").f64s(col)[row(r, "ports", "port", port)]
}

pub fn port_u64(r: &Results, port: &str, col: &str) -> u64 {
    r.table("ports").u64s(col)[row(r, "ports", "port", port)]
}

pub fn flow_f64(r: &Results, flow: &str, col: &str) -> f64 {
    r.table("flows").f64s(col)[row(r, "flows", "flow", flow)]
}

pub fn flow_u64(r: &Results, flow: &str, col: &str) -> u64 {
    r.table("flows").u64s(col)[row(r, "flows", "flow", flow)]
}
