//! wattnet-engine: a deterministic packet-level simulator of energy-aware networks.
//!
//! A [`Scenario`] (the contract with the Python front end) is built into a [`Simulation`],
//! run to its end, and turned into columnar [`Results`].

pub mod admission;
pub mod aqm;
pub mod available_bandwidth;
pub mod bench;
pub mod control;
pub mod energy;
pub mod error;
pub mod event;
pub mod host;
pub mod packet;
pub mod pcap;
pub mod port;
mod prefetch;
pub mod queue;
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

/// The package version and a hash of the engine's sources, e.g. `0.1.0+9f86d081884c7d65`.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "+", env!("WATTNET_SOURCE_HASH"));
