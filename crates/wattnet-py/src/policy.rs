//! Power/rate policies written in Python: the engine's external-policy seam, implemented by
//! calling a Python object's `observe(view)` and reading back the command it returns. The same
//! source supplies the Python congestion controls (`cc.rs`).
//!
//! A Python exception cannot cross the engine: the first one is kept (with the port and time
//! noted on it), the failed policy stops acting, and the binding raises it once the engine
//! returns control.

use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use wattnet_engine::control::{Command, ExternalPolicy, PolicyPort, PolicySource, PortView, Trigger};
use wattnet_engine::tcp::cc::{CcFactory, CcFlow};
use wattnet_engine::time::to_secs;
use wattnet_engine::ScenarioError;

use crate::cc::PyCcFactory;

/// The first exception a Python policy raised, shared by a simulation's policies.
pub type Failure = Arc<Mutex<Option<PyErr>>>;

/// What a policy sees at each call: the engine's `PortView`, plus why it is called.
#[pyclass(module = "wattnet._engine", name = "PortView", frozen, get_all)]
pub struct PyPortView {
    /// "tick" (every control interval), "arrival" or "departure" (per-packet policies).
    event: &'static str,
    now_s: f64,
    /// The clock in picoseconds, exact.
    now_ps: u64,
    /// Bits waiting, not counting the packet in service.
    queue_bits: u64,
    queue_packets: u32,
    rate_bps: u64,
    /// Bytes offered to the port since the start, admitted or not.
    arrived_bytes: u64,
    /// Bytes transmitted since the start.
    departed_bytes: u64,
    /// The port sends nothing before this time (a rate transition under way), picoseconds.
    frozen_until_ps: u64,
    transmitting: bool,
}

/// A Python object with `observe(view) -> command`, as the engine's external policy.
pub struct PyPolicy {
    object: Py<PyAny>,
    port: String,
    failure: Failure,
}

impl std::fmt::Debug for PyPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyPolicy({})", self.port)
    }
}

impl PyPolicy {
    fn call(&self, py: Python<'_>, view: &PortView, trigger: Trigger) -> PyResult<Option<Command>> {
        let view = PyPortView {
            event: trigger.name(),
            now_s: to_secs(view.now),
            now_ps: view.now,
            queue_bits: view.queue_bits,
            queue_packets: view.queue_packets,
            rate_bps: view.rate_bps,
            arrived_bytes: view.arrived_bytes,
            departed_bytes: view.departed_bytes,
            frozen_until_ps: view.frozen_until,
            transmitting: view.transmitting,
        };
        let answer = self.object.call_method1(py, "observe", (view,))?;
        command(answer.bind(py))
    }
}

/// None, "sleep", or ("set_rate" | "tune", rate in whole bit/s ≥ 1) as a tuple or list: what
/// `wattnet.policy` makes.
fn command(answer: &Bound<'_, PyAny>) -> PyResult<Option<Command>> {
    if answer.is_none() {
        return Ok(None);
    }
    if let Ok(word) = answer.extract::<String>() {
        if word == "sleep" {
            return Ok(Some(Command::Sleep));
        }
    } else if (answer.is_instance_of::<PyTuple>() || answer.is_instance_of::<PyList>()) && answer.len()? == 2 {
        if let Ok(kind) = answer.get_item(0)?.extract::<String>() {
            let rate = answer.get_item(1)?;
            let rate = rate.extract::<u64>().ok().filter(|&r| r >= 1).ok_or_else(|| {
                PyValueError::new_err(format!("a policy's {kind} rate is a whole number of bit/s ≥ 1, got {rate}"))
            })?;
            match kind.as_str() {
                "set_rate" => return Ok(Some(Command::SetRate(rate))),
                "tune" => return Ok(Some(Command::Tune(rate))),
                _ => {}
            }
        }
    }
    Err(PyValueError::new_err(format!(
        "a policy's observe returns None, wattnet.policy.set_rate(r), tune(r) or SLEEP, not {answer}"
    )))
}

impl ExternalPolicy for PyPolicy {
    fn observe(&mut self, view: &PortView, trigger: Trigger) -> Option<Command> {
        if self.failure.lock().map_or(true, |f| f.is_some()) {
            return None; // a policy already failed: the run's results will not be returned
        }
        Python::attach(|py| match self.call(py, view, trigger) {
            Ok(command) => command,
            Err(error) => {
                let note = format!("in the policy of port {} at t = {} s", self.port, to_secs(view.now));
                let _ = error.value(py).call_method1("add_note", (note,));
                if let Ok(mut failure) = self.failure.lock() {
                    *failure = Some(error);
                }
                None
            }
        })
    }
}

/// Makes each port's policy by calling the Python factory
/// `factory(port, policy, params_json, rate_bps, transition_s, interval_s)`, and each flow's
/// congestion-control factory by calling `algorithms(flow, algorithm, params_json)`, which
/// returns the maker of the flow's connections' objects (`cc.rs`).
pub struct PyPolicySource<'py> {
    pub factory: Option<Bound<'py, PyAny>>,
    pub algorithms: Option<Bound<'py, PyAny>>,
    pub failure: Failure,
}

impl PolicySource for PyPolicySource<'_> {
    fn policy(&mut self, port: &PolicyPort<'_>) -> Result<Box<dyn ExternalPolicy>, ScenarioError> {
        let Some(factory) = &self.factory else {
            return Err(ScenarioError::new(port.field, "an external policy needs the policies argument of Simulation"));
        };
        let params = serde_json::Value::Object(port.spec.params.clone()).to_string();
        let interval_s = port.interval.map(to_secs);
        let made = factory.call1((
            port.port,
            port.spec.policy.as_str(),
            params,
            port.initial_rate_bps,
            to_secs(port.transition),
            interval_s,
        ));
        match made {
            Ok(object) => Ok(Box::new(PyPolicy {
                object: object.unbind(),
                port: port.port.to_string(),
                failure: Arc::clone(&self.failure),
            })),
            Err(error) => Err(ScenarioError::new(
                format!("{}.policy", port.field),
                format!("cannot make policy '{}' for port {}: {error}", port.spec.policy, port.port),
            )),
        }
    }

    fn congestion_control(&mut self, flow: &CcFlow<'_>) -> Result<Arc<dyn CcFactory>, ScenarioError> {
        let Some(algorithms) = &self.algorithms else {
            return Err(ScenarioError::new(
                flow.field,
                "an external congestion control needs the algorithms argument of Simulation",
            ));
        };
        match algorithms.call1((
            flow.flow,
            flow.spec.algorithm.as_str(),
            serde_json::Value::Object(flow.spec.params.clone()).to_string(),
        )) {
            Ok(maker) => Ok(Arc::new(PyCcFactory {
                maker: maker.unbind(),
                flow: flow.flow.into(),
                made: AtomicU64::new(0),
                failure: Arc::clone(&self.failure),
            })),
            Err(error) => Err(ScenarioError::new(
                format!("{}.algorithm", flow.field),
                format!("cannot make algorithm '{}' for flow '{}': {error}", flow.spec.algorithm, flow.flow),
            )),
        }
    }
}
