//! Runs one scenario in the engine alone, without Python: what `docs/forwarding.md` times as
//! "the engine alone". Prints one JSON line: link transmissions, events, the run's wall time
//! (setup excluded), its cost per link transmission, and a hash of every result table, so that
//! two builds can be checked to compute the same thing.
//!
//!     cargo run --release --example run_engine -- scenario.json
//!
//! `tools/paired_bench.py` writes the benchmarks' scenarios and compares two builds of this.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use wattnet_engine::results::{Column, Scalar};
use wattnet_engine::Simulation;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run_engine SCENARIO.json");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let mut sim = Simulation::from_json(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let started = Instant::now();
    sim.run();
    let run_s = started.elapsed().as_secs_f64();
    let results = sim.results().unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    // DefaultHasher's keys are fixed: the same results hash alike in every build of one toolchain.
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    for (name, value) in &results.summary {
        name.hash(&mut hash);
        match value {
            Scalar::Int(v) => v.hash(&mut hash),
            Scalar::Float(v) => v.to_bits().hash(&mut hash),
        }
    }
    for (name, table) in &results.tables {
        name.hash(&mut hash);
        for (column, values) in &table.columns {
            column.hash(&mut hash);
            match values {
                Column::F64(v) => v.iter().for_each(|x| x.to_bits().hash(&mut hash)),
                Column::U64(v) => v.hash(&mut hash),
                Column::Str(v) => v.hash(&mut hash),
            }
        }
    }
    let transmissions = results.scalar("packets");
    println!(
        "{{\"link_transmissions\": {transmissions}, \"events\": {}, \"run_s\": {run_s:.6}, \
         \"ns_per_link_transmission\": {:.2}, \"results_hash\": \"{:016x}\"}}",
        sim.events_processed(),
        run_s * 1e9 / transmissions as f64,
        hash.finish()
    );
}
