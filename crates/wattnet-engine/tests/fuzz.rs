//! Property-based fuzzing of the scenario boundary: valid scenarios mutated at random (extreme
//! numbers, wrong types, removed and unknown fields, odd names) go through deserialisation,
//! validation and a bounded run. Each must give an error naming a field the input contains,
//! or a run whose packets are conserved; never a panic. A fixed seed keeps it reproducible.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use wattnet_engine::Simulation;

/// Values that sit on an edge somewhere: the clock's end, int64 and u64 limits, rates below
/// 1 bit/s or above 1 Pb/s, sub-picosecond times, names that look like markup or ports.
fn nasty() -> Vec<Value> {
    vec![
        json!(0),
        json!(-1),
        json!(0.0),
        json!(-1e-9),
        json!(1e-13),
        json!(4e-13),
        json!(0.008),
        json!(1.5),
        json!(2e7),
        json!(18_446_744.0),
        json!(18_446_745.0),
        json!(1e15),
        json!(1e16),
        json!(1e308),
        json!(-1e308),
        json!(i64::MAX as u64 + 1),
        json!(u64::MAX),
        json!(u32::MAX),
        json!(""),
        json!("a"),
        json!("zz"),
        json!("a->b"),
        json!("[/bold] x"),
        json!("\u{1b}]0;T\u{7}"),
        json!(true),
        Value::Null,
        json!([]),
        json!({}),
    ]
}

fn bases() -> Vec<Value> {
    vec![
        json!({
            "name": "udp", "seed": 3, "duration_s": 2.0,
            "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
            "links": [
                {"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001,
                 "power": {"type": "line_card", "card_capacity_bps": 2.5e6, "card_w": 10.0}},
                {"a": "b", "b": "c", "rate_bps": 5e6, "delay_s": 0.002,
                 "queue": {"type": "red", "min_th": 5.0, "max_th": 15.0, "limit_packets": 50},
                 "b_to_a": {"rate_bps": 4e6, "transition_s": 0.001}}
            ],
            "flows": [
                {"name": "f", "src": "a", "dst": "c", "traffic": {"type": "cbr", "rate_bps": 1e6},
                 "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": 0.1, "stop_s": 1.5},
                {"name": "g", "src": "c", "dst": "a", "traffic": {"type": "poisson", "rate_bps": 2e6},
                 "packet_size": {"type": "uniform", "min_bytes": 100, "max_bytes": 1500}},
                {"name": "h", "src": "a", "dst": "b",
                 "traffic": {"type": "on_off", "peak_rate_bps": 4e6, "on_mean_s": 0.1, "off_mean_s": 0.2}}
            ],
            "events": [{"action": "set_rate", "at_s": 1.0, "port": "b->c", "rate_bps": 2e6},
                       {"action": "link_down", "at_s": 1.2, "a": "a", "b": "b"}],
            "recorder": {"interval_s": 0.1, "ports": ["a->b"]}
        }),
        json!({
            "name": "tcp", "seed": 5, "duration_s": 2.0,
            "routing": {"reconvergence": {"model": "global", "delay_s": 0.03}},
            "nodes": [{"name": "s"}, {"name": "r"}, {"name": "d"}],
            "links": [{"a": "s", "b": "r", "rate_bps": 20e6, "delay_s": 0.005},
                      {"a": "r", "b": "d", "rate_bps": 10e6, "delay_s": 0.01,
                       "queue": {"type": "droptail", "limit_packets": 30}}],
            "flows": [
                {"name": "bulk", "src": "s", "dst": "d", "traffic": {"type": "bulk"},
                 "tcp": {"profile": "linux", "congestion_control": {"type": "cubic"}}},
                {"name": "one", "src": "d", "dst": "s", "traffic": {"type": "transfer", "bytes": 100000},
                 "tcp": {"initial_rto_s": 1.0, "min_rto_s": 0.2, "delayed_ack_s": 0.04}, "start_s": 0.5},
                {"name": "web", "src": "s", "dst": "d",
                 "traffic": {"type": "web", "requests_per_s": 5.0, "mean_segments": 10.0, "shape": 1.5},
                 "stop_s": 1.5}
            ],
            "recorder": {"interval_s": 0.05, "flows": ["bulk"]}
        }),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Multiplies a number by a factor (a mostly valid change; other values stay).
    Scale(f64),
    Set(usize),
    Float(f64),
    Int(u64),
    Delete,
    UnknownKey,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        8 => (0.1..10.0).prop_map(Mutation::Scale),
        3 => (0..nasty().len()).prop_map(Mutation::Set),
        1 => any::<f64>().prop_map(Mutation::Float),
        1 => any::<u64>().prop_map(Mutation::Int),
        2 => Just(Mutation::Delete),
        1 => Just(Mutation::UnknownKey),
    ]
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    At(usize),
}

/// The path of every value in `v` (the root excluded).
fn paths(v: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    let children: Vec<(Step, &Value)> = match v {
        Value::Object(m) => m.iter().map(|(k, c)| (Step::Key(k.clone()), c)).collect(),
        Value::Array(a) => a.iter().enumerate().map(|(i, c)| (Step::At(i), c)).collect(),
        _ => vec![],
    };
    for (step, child) in children {
        prefix.push(step);
        out.push(prefix.clone());
        paths(child, prefix, out);
        prefix.pop();
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::At(i) => &mut v[*i],
    })
}

fn apply(v: &mut Value, at: &Index, m: &Mutation) {
    let mut all = vec![];
    paths(v, &mut vec![], &mut all);
    let path = &all[at.index(all.len())];
    let (last, parent) = path.split_last().expect("not the root");
    match m {
        Mutation::Scale(factor) => {
            let target = get_mut(v, path);
            if let Some(x) = target.as_f64() {
                *target = json!(x * factor);
            }
        }
        Mutation::Set(i) => *get_mut(v, path) = nasty()[*i].clone(),
        Mutation::Float(f) => *get_mut(v, path) = json!(f),
        Mutation::Int(n) => *get_mut(v, path) = json!(n),
        Mutation::Delete => match (get_mut(v, parent), last) {
            (Value::Object(o), Step::Key(k)) => {
                o.remove(k);
            }
            (Value::Array(a), Step::At(i)) => {
                a.remove(*i);
            }
            _ => unreachable!("a path step matches its parent"),
        },
        Mutation::UnknownKey => {
            if let Value::Object(o) = get_mut(v, parent) {
                o.insert("zz_unknown".into(), json!(1));
            }
        }
    }
}

/// Whether `field` (as `links[0].rate_bps`) names a value present in `input`; "" is the whole.
fn names_input_field(input: &Value, field: &str) -> bool {
    let mut v = input;
    for part in field.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            match v.get(key) {
                Some(c) => v = c,
                None => return false,
            }
        }
        for index in indices.split('[').filter(|s| !s.is_empty()) {
            let Ok(i) = index.trim_end_matches(']').parse::<usize>() else { return false };
            match v.get(i) {
                Some(c) => v = c,
                None => return false,
            }
        }
    }
    true
}

/// Events a fuzzed run may process before it is left unfinished (keeps the test bounded).
const EVENT_BUDGET: u64 = 200_000;
const SLICE: u64 = 20_000;

#[test]
fn mutated_scenarios_give_a_named_error_or_a_conserving_run() {
    let config = Config { cases: 3000, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]));
    let strategy = (0..bases().len(), prop::collection::vec((any::<Index>(), mutation()), 1..3));
    let (errors, finished, unfinished) = (Cell::new(0), Cell::new(0), Cell::new(0));
    runner
        .run(&strategy, |(base, mutations)| {
            let mut input = bases()[base].clone();
            for (at, m) in &mutations {
                apply(&mut input, at, m);
            }
            match Simulation::from_json(&input.to_string()) {
                Err(e) => {
                    errors.set(errors.get() + 1);
                    prop_assert!(
                        names_input_field(&input, &e.field),
                        "error on {:?} ({}) for {input}",
                        e.field,
                        e.message
                    );
                }
                Ok(mut sim) => {
                    let mut processed = 0;
                    while !sim.run_slice(sim.end(), SLICE) {
                        processed += SLICE;
                        if processed >= EVENT_BUDGET {
                            unfinished.set(unfinished.get() + 1);
                            return Ok(());
                        }
                    }
                    finished.set(finished.get() + 1);
                    prop_assert!(sim.results().is_ok(), "packets not conserved for {input}");
                }
            }
            Ok(())
        })
        .unwrap();
    // Both outcomes are exercised, not one alone.
    eprintln!("{} errors, {} runs finished, {} left unfinished", errors.get(), finished.get(), unfinished.get());
    assert!(errors.get() >= 500 && finished.get() >= 500, "{} errors, {} runs", errors.get(), finished.get());
}

#[test]
fn field_paths_resolve_in_the_input() {
    let input = json!({"links": [{"rate_bps": 1}], "a": {"b": [[1, 2]]}});
    assert!(names_input_field(&input, ""));
    assert!(names_input_field(&input, "links[0].rate_bps"));
    assert!(names_input_field(&input, "a.b[0][1]"));
    assert!(!names_input_field(&input, "links[1]"));
    assert!(!names_input_field(&input, "links[0].delay_s"));
}
