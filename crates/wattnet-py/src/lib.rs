//! The Python face of the engine: scenario JSON in, columnar results out. Nothing else.
//!
//! Every call that enters the engine is guarded so that a bug surfaces as a Python
//! exception, never as a panic crossing the boundary.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wattnet_engine::time::{from_secs, to_secs};
use wattnet_engine::{Column, Results, Scalar};

create_exception!(_engine, ScenarioError, PyValueError, "The scenario is invalid; the message names the field.");
create_exception!(_engine, SimulationError, PyRuntimeError, "The run broke an invariant or hit an internal error.");

fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(SimulationError::new_err(format!("internal engine error: {msg}")))
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

#[pyclass(module = "wattnet._engine")]
struct Simulation {
    inner: wattnet_engine::Simulation,
}

#[pymethods]
impl Simulation {
    /// Builds the simulation of a scenario; with `pcap_dir`, the captures the scenario asks
    /// for are written there (one file per port, and `hosts`).
    #[new]
    #[pyo3(signature = (scenario_json, pcap_dir=None))]
    fn new(scenario_json: &str, pcap_dir: Option<PathBuf>) -> PyResult<Self> {
        guarded(|| {
            let mut inner = wattnet_engine::Simulation::from_json(scenario_json)
                .map_err(|e| ScenarioError::new_err(e.to_string()))?;
            if let Some(dir) = pcap_dir {
                inner.capture_to(&dir).map_err(pcap_error)?;
            }
            Ok(Simulation { inner })
        })
    }

    /// Processes events up to `t_s` seconds (capped at the end of the run), without the GIL.
    fn run_until(&mut self, py: Python<'_>, t_s: f64) -> PyResult<()> {
        if !t_s.is_finite() || t_s < 0.0 {
            return Err(PyValueError::new_err(format!("t_s must be a non-negative finite number, got {t_s}")));
        }
        let inner = &mut self.inner;
        py.detach(|| {
            guarded(|| {
                inner.run_until(from_secs(t_s));
                Ok(())
            })
        })
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
        guarded(|| self.inner.flush_captures().map_err(pcap_error))?;
        let results = guarded(|| self.inner.results().map_err(|e| SimulationError::new_err(e.to_string())))?;
        to_python(py, &results)
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
    guarded(|| {
        wattnet_engine::tcp::resolve_scenario_json(scenario_json).map_err(|e| ScenarioError::new_err(e.to_string()))
    })
}

/// The bare event-queue benchmark; returns the number of events processed.
#[pyfunction]
fn bench_event_queue(py: Python<'_>, events: u64, pending: u32, seed: u64) -> PyResult<u64> {
    py.detach(|| guarded(|| Ok(wattnet_engine::bench::event_queue(events, pending, seed))))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(bench_event_queue, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_tcp, m)?)?;
    m.add("ScenarioError", m.py().get_type::<ScenarioError>())?;
    m.add("SimulationError", m.py().get_type::<SimulationError>())?;
    Ok(())
}
