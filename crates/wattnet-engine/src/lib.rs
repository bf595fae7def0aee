//! wattnet-engine: a deterministic packet-level simulator of energy-aware networks.
//!
//! A [`Scenario`] (the contract with the Python front end) is built into a [`Simulation`],
//! run to its end, and turned into columnar [`Results`].

pub mod aqm;
pub mod bench;
pub mod control;
pub mod energy;
pub mod error;
pub mod event;
pub mod packet;
pub mod pcap;
pub mod port;
pub mod queue;
pub mod recorder;
pub mod results;
pub mod rng;
pub mod routing;
pub mod scenario;
pub mod sim;
pub mod tcp;
pub mod time;
mod timer;
pub mod traffic;

pub use error::{RunError, ScenarioError};
pub use results::{Column, Results, Scalar, Table};
pub use scenario::Scenario;
pub use sim::Simulation;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
