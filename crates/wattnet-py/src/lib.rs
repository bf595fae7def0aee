//! The Python face of the engine: scenario JSON in, columnar results out, and the policies
//! written in Python that a scenario's external controllers name (`policy`).
//!
//! Every call that enters the engine is guarded so that a bug surfaces as a Python
//! exception, never as a panic crossing the boundary. Errors are the classes of
//! `wattnet.errors`, built here with the field path and the message as separate values.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wattnet_engine::time::{from_secs, to_secs};
use wattnet_engine::{Column, Results, Scalar};

/// Events per slice of `run_until`: about 0.05–0.3 s of work, after which Ctrl-C is checked.
const SLICE_EVENTS: u64 = 2_000_000;

/// `wattnet.errors.<name>(*args)` as a Python exception.
fn wattnet_error<A: for<'py> IntoPyObject<'py>>(name: &str, args: A) -> PyErr {
    Python::attach(|py| {
        let made = py
            .import("wattnet.errors")
            .and_then(|m| m.getattr(name))
            .and_then(|class| class.call1((args,)))
            .map(PyErr::from_value);
        made.unwrap_or_else(|e| e)
    })
}

/// A `wattnet.errors.ScenarioError` carrying the field path and the message.
fn scenario_error(e: wattnet_engine::ScenarioError) -> PyErr {
    wattnet_error("ScenarioError", vec![(e.field, e.message)])
}

fn simulation_error(message: String) -> PyErr {
    wattnet_error("SimulationError", message)
}

fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(simulation_error(format!("internal engine error: {msg}")))
    })
}

/// An OSError naming the file (FileNotFoundError, PermissionError, … by its errno).
fn pcap_error(e: wattnet_engine::pcap::PcapError) -> PyErr {
    let path = e.path.display().to_string();
    match e.error.raw_os_error() {
        Some(code) => {
            let message = e.error.to_string();
            let message = message.split(" (os error").next().unwrap_or(&message).to_string();
            PyOSError::new_err((code, format!("cannot write pcap output: {message}"), path))
        }
        None => PyOSError::new_err(e.to_string()),
    }
}

mod cc;
mod policy;

#[pyclass(module = "wattnet._engine")]
struct Simulation {
    inner: wattnet_engine::Simulation,
    /// The first exception of a Python policy or congestion control (`policy`, `cc`), raised
    /// when the engine returns.
    policy_failure: Option<policy::Failure>,
    /// A policy or congestion control raised: the run cannot go on, and it has no results.
    failed_policy: bool,
}

#[pymethods]
impl Simulation {
    /// Builds the simulation of a scenario; with `pcap_dir`, the captures the scenario asks
    /// for are written there (one file per port, and `hosts`). `policies` makes the Python
    /// object of each external controller: `policies(port, policy, params_json, rate_bps,
    /// transition_s, interval_s)`. `algorithms` prepares each flow's external congestion
    /// control: `algorithms(flow, algorithm, params_json)` returns `maker(connection, subflows)`,
    /// which makes the object of each of the flow's connections.
    #[new]
    #[pyo3(signature = (scenario_json, pcap_dir=None, policies=None, algorithms=None))]
    fn new(
        scenario_json: &str,
        pcap_dir: Option<PathBuf>,
        policies: Option<Bound<'_, PyAny>>,
        algorithms: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        guarded(|| {
            let failure = policy::Failure::default();
            let mut source = policy::PyPolicySource { factory: policies, algorithms, failure: failure.clone() };
            let mut inner = wattnet_engine::Simulation::from_json_with_policies(scenario_json, &mut source)
                .map_err(scenario_error)?;
            if let Some(dir) = pcap_dir {
                inner.capture_to(&dir).map_err(pcap_error)?;
            }
            // Only a simulation whose policies or algorithms took a reference to the failure slot runs Python.
            let policy_failure = (std::sync::Arc::strong_count(&failure) > 2).then_some(failure);
            Ok(Simulation { inner, policy_failure, failed_policy: false })
        })
    }

    /// Processes events up to `t_s` seconds (capped at the end of the run), without the GIL,
    /// in slices between which pending signals are handled: Ctrl-C raises KeyboardInterrupt
    /// within a fraction of a second, however many events remain.
    fn run_until(&mut self, py: Python<'_>, t_s: f64) -> PyResult<()> {
        if !t_s.is_finite() || t_s < 0.0 {
            return Err(PyValueError::new_err(format!("t_s must be a non-negative finite number, got {t_s}")));
        }
        self.refuse_after_policy_failure()?;
        let until = from_secs(t_s);
        loop {
            let inner = &mut self.inner;
            let done = match &self.policy_failure {
                None => py.detach(|| guarded(|| Ok(inner.run_slice(until, SLICE_EVENTS))))?,
                // Python policies: the loop keeps the GIL, which each call would otherwise take back.
                Some(_) => guarded(|| Ok(inner.run_slice(until, SLICE_EVENTS)))?,
            };
            if let Some(failure) = &self.policy_failure {
                let raised = failure
                    .lock()
                    .map_err(|_| simulation_error("a policy's failure slot is poisoned".to_string()))?
                    .take();
                if let Some(error) = raised {
                    self.failed_policy = true;
                    return Err(error);
                }
            }
            if done {
                return Ok(());
            }
            py.check_signals()?;
        }
    }

    #[getter]
    fn now_s(&self) -> f64 {
        to_secs(self.inner.now())
    }

    #[getter]
    fn end_s(&self) -> f64 {
        to_secs(self.inner.end())
    }

    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished()
    }

    #[getter]
    fn events(&self) -> u64 {
        self.inner.events_processed()
    }

    /// {"summary": {...}, "tables": {name: {column: (type, list)}}} with type "f64", "u64" or "str".
    /// Flushes the capture files first: an error writing them raises OSError naming the file.
    fn results<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.refuse_after_policy_failure()?;
        guarded(|| self.inner.flush_captures().map_err(pcap_error))?;
        let results = guarded(|| self.inner.results().map_err(|e| simulation_error(e.to_string())))?;
        to_python(py, &results)
    }
}

impl Simulation {
    fn refuse_after_policy_failure(&self) -> PyResult<()> {
        if self.failed_policy {
            return Err(simulation_error(
                "a Python policy or congestion control raised an exception earlier in this run, so it has no results"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

fn to_python<'py>(py: Python<'py>, r: &Results) -> PyResult<Bound<'py, PyDict>> {
    let summary = PyDict::new(py);
    for (name, value) in &r.summary {
        match value {
            Scalar::Int(v) => summary.set_item(name, v)?,
            Scalar::Float(v) => summary.set_item(name, v)?,
        }
    }
    let tables = PyDict::new(py);
    for (name, table) in &r.tables {
        let cols = PyDict::new(py);
        // Each column travels with its type, so an empty column keeps it.
        for (col, values) in &table.columns {
            let typed = match values {
                Column::F64(v) => ("f64", PyList::new(py, v)?),
                Column::U64(v) => ("u64", PyList::new(py, v)?),
                Column::Str(v) => ("str", PyList::new(py, v)?),
            };
            cols.set_item(col, typed)?;
        }
        tables.set_item(name, cols)?;
    }
    let out = PyDict::new(py);
    out.set_item("summary", summary)?;
    out.set_item("tables", tables)?;
    Ok(out)
}

#[pyfunction]
fn version() -> &'static str {
    wattnet_engine::VERSION
}

/// The scenario's JSON with each TCP flow's settings resolved against its profile.
#[pyfunction]
fn resolve_tcp(scenario_json: &str) -> PyResult<String> {
    guarded(|| wattnet_engine::scenario::resolve_scenario_json(scenario_json).map_err(scenario_error))
}

/// The scenario format the engine accepts, as JSON Schema derived from its serde types.
#[pyfunction]
fn scenario_schema() -> PyResult<String> {
    guarded(|| Ok(wattnet_engine::scenario::json_schema()))
}

/// The bare event-queue benchmark; returns the number of events processed.
#[pyfunction]
fn bench_event_queue(py: Python<'_>, events: u64, pending: u32, seed: u64) -> PyResult<u64> {
    py.detach(|| guarded(|| Ok(wattnet_engine::bench::event_queue(events, pending, seed))))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_class::<policy::PyPortView>()?;
    m.add_class::<cc::PyAck>()?;
    m.add_class::<cc::PySignal>()?;
    m.add_class::<cc::PyRecoveryEnd>()?;
    m.add_class::<cc::PySubflows>()?;
    m.add_class::<cc::PySubflowView>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(bench_event_queue, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_tcp, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_schema, m)?)?;
    // The same classes as wattnet.errors (one hierarchy), for code that reaches them from here.
    let errors = m.py().import("wattnet.errors")?;
    m.add("ScenarioError", errors.getattr("ScenarioError")?)?;
    m.add("SimulationError", errors.getattr("SimulationError")?)?;
    Ok(())
}
