//! Congestion controls written in Python: the engine's external-algorithm seam, implemented by
//! calling one Python object per connection (`on_ack`, `grow`, `on_loss`, `on_ecn`,
//! `on_recovery_end`) and reading back the window it returns.
//!
//! As with the policies (`policy.rs`), a Python exception cannot cross the engine: the first one
//! is kept in the simulation's failure slot with a note naming the flow, the connection, the
//! hook and the time; from then on no Python hook is called (the engine's windows stay as they
//! are), and the binding raises the exception once the engine returns control.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use wattnet_engine::tcp::cc::{
    half_flight, Ack, CcFactory, CongState, Congestion, CongestionControl, SubflowView, Subflows, Window,
};
use wattnet_engine::time::{to_secs, Time};

use crate::policy::Failure;

/// An ACK that advanced snd_una, as `on_ack` and `grow` see it.
#[pyclass(module = "wattnet._engine", name = "Ack", frozen, get_all)]
pub struct PyAck {
    /// The clock in picoseconds, exact.
    now_ps: u64,
    /// Segments newly acknowledged; in `grow`, the growth credit (at most the RFC 3465 limit).
    acked: f64,
    /// A Karn-safe RTT sample from this ACK, in picoseconds, or None.
    rtt_ps: Option<u64>,
    /// The ACK carried ECN-Echo.
    ece: bool,
    /// snd_una after this ACK and snd_nxt when it arrived, in segments.
    snd_una: f64,
    snd_nxt: f64,
}

#[pymethods]
impl PyAck {
    #[getter]
    fn now_s(&self) -> f64 {
        to_secs(self.now_ps)
    }

    #[getter]
    fn rtt_s(&self) -> Option<f64> {
        self.rtt_ps.map(to_secs)
    }
}

/// A congestion signal, as `on_loss` and `on_ecn` see it.
#[pyclass(module = "wattnet._engine", name = "Signal", frozen, get_all)]
pub struct PySignal {
    /// "fast_retransmit", "timeout" or "ecn".
    kind: &'static str,
    now_ps: u64,
    /// FlightSize in segments when the signal arrived.
    flight: f64,
}

#[pymethods]
impl PySignal {
    #[getter]
    fn now_s(&self) -> f64 {
        to_secs(self.now_ps)
    }
}

/// The end of a loss recovery, or the restart after a timeout, as `on_recovery_end` sees it.
#[pyclass(module = "wattnet._engine", name = "RecoveryEnd", frozen, get_all)]
pub struct PyRecoveryEnd {
    now_ps: u64,
}

#[pymethods]
impl PyRecoveryEnd {
    #[getter]
    fn now_s(&self) -> f64 {
        to_secs(self.now_ps)
    }
}

/// The connection's subflows as a hook sees them: the acting one's index and live window, and
/// every subflow's view by index (`subflows[i]`), as a built-in coupled algorithm reads them.
#[pyclass(module = "wattnet._engine", name = "Subflows", frozen, sequence)]
pub struct PySubflows {
    index: usize,
    views: Vec<SubflowView>,
}

#[pymethods]
impl PySubflows {
    /// The acting subflow.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// The acting subflow's congestion window now, in segments.
    #[getter]
    fn cwnd(&self) -> f64 {
        self.views[self.index].cwnd
    }

    /// The acting subflow's slow-start threshold now, in segments.
    #[getter]
    fn ssthresh(&self) -> f64 {
        self.views[self.index].ssthresh
    }

    fn __len__(&self) -> usize {
        self.views.len()
    }

    fn __getitem__(&self, i: isize) -> PyResult<PySubflowView> {
        let n = self.views.len() as isize;
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!("subflow {i} of {n}")));
        }
        Ok(PySubflowView(self.views[at as usize]))
    }
}

/// What a congestion control may read of one subflow (the engine's `SubflowView`).
#[pyclass(module = "wattnet._engine", name = "SubflowView", frozen)]
pub struct PySubflowView(SubflowView);

#[pymethods]
impl PySubflowView {
    #[getter]
    fn cwnd(&self) -> f64 {
        self.0.cwnd
    }

    #[getter]
    fn ssthresh(&self) -> f64 {
        self.0.ssthresh
    }

    #[getter]
    fn srtt_ps(&self) -> Option<u64> {
        self.0.srtt
    }

    #[getter]
    fn srtt_s(&self) -> Option<f64> {
        self.0.srtt.map(to_secs)
    }

    #[getter]
    fn min_rtt_ps(&self) -> Option<u64> {
        self.0.min_rtt
    }

    #[getter]
    fn min_rtt_s(&self) -> Option<f64> {
        self.0.min_rtt.map(to_secs)
    }

    /// "open", "disorder", "cwr", "recovery" or "loss" (Linux's `tcp_ca_state`).
    #[getter]
    fn state(&self) -> &'static str {
        match self.0.state {
            CongState::Open => "open",
            CongState::Disorder => "disorder",
            CongState::Cwr => "cwr",
            CongState::Recovery => "recovery",
            CongState::Loss => "loss",
        }
    }

    /// Bytes sent and not yet acknowledged.
    #[getter]
    fn in_flight_bytes(&self) -> u64 {
        self.0.in_flight
    }

    /// Congestion signals so far: fast retransmits, timeouts and ECN reductions.
    #[getter]
    fn losses(&self) -> u64 {
        self.0.losses
    }

    #[getter]
    fn last_loss_ps(&self) -> Option<u64> {
        self.0.last_loss
    }

    #[getter]
    fn last_loss_s(&self) -> Option<f64> {
        self.0.last_loss.map(to_secs)
    }
}

/// The group as Python sees it, the acting subflow's entry carrying its live window `w`.
fn subflows(g: Subflows, w: &Window) -> PySubflows {
    let mut views = g.all.to_vec();
    views[g.index].cwnd = w.cwnd;
    views[g.index].ssthresh = w.ssthresh;
    PySubflows { index: g.index, views }
}

/// The bound methods of one connection's Python object, looked up once.
struct Hooks {
    on_ack: Option<Py<PyAny>>,
    grow: Py<PyAny>,
    on_loss: Py<PyAny>,
    on_ecn: Option<Py<PyAny>>,
    on_recovery_end: Option<Py<PyAny>>,
}

/// One connection's Python object as the engine's congestion control.
pub struct PyCongestionControl {
    /// None: the object could not be made (the failure is recorded).
    hooks: Option<Hooks>,
    initial_ssthresh: Option<f64>,
    flow: Arc<str>,
    /// The connection's place among its flow's connections, from 0.
    connection: u64,
    failure: Failure,
}

impl std::fmt::Debug for PyCongestionControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyCongestionControl({}, connection {})", self.flow, self.connection)
    }
}

/// A number a window may take: at least one segment, finite unless `infinite_ok`.
fn segments(value: &Bound<'_, PyAny>, infinite_ok: bool) -> Option<f64> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return None;
    }
    let v = value.extract::<f64>().ok()?;
    (v >= 1.0 && (infinite_ok || v.is_finite())).then_some(v)
}

fn repr(value: &Bound<'_, PyAny>) -> String {
    value.repr().map_or_else(|_| "an object without repr".to_string(), |r| r.to_string())
}

/// `grow`'s answer: the new cwnd, or (cwnd, ssthresh) as a tuple or list.
fn grown(answer: &Bound<'_, PyAny>) -> PyResult<(f64, Option<f64>)> {
    if let Some(cwnd) = segments(answer, false) {
        return Ok((cwnd, None));
    }
    if (answer.is_instance_of::<PyTuple>() || answer.is_instance_of::<PyList>()) && answer.len()? == 2 {
        let cwnd = segments(&answer.get_item(0)?, false);
        let ssthresh = segments(&answer.get_item(1)?, true);
        if let (Some(cwnd), Some(ssthresh)) = (cwnd, ssthresh) {
            return Ok((cwnd, Some(ssthresh)));
        }
    }
    Err(PyValueError::new_err(format!(
        "grow returns the new cwnd (a finite number of segments ≥ 1) or (cwnd, ssthresh) (ssthresh ≥ 1), not {}",
        repr(answer)
    )))
}

/// `on_loss`'s or `on_ecn`'s answer: the new ssthresh.
fn reduced(answer: &Bound<'_, PyAny>, hook: &str) -> PyResult<f64> {
    segments(answer, false).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{hook} returns the new ssthresh, a finite number of segments ≥ 1, not {}",
            repr(answer)
        ))
    })
}

impl PyCongestionControl {
    /// Runs `hook` unless a Python object of this simulation already failed; records its
    /// exception (with the flow, connection, hook and time noted on it) and returns None if it raises.
    fn call<T>(&self, hook: &str, now: Time, f: impl FnOnce(Python<'_>, &Hooks) -> PyResult<Option<T>>) -> Option<T> {
        let hooks = self.hooks.as_ref()?;
        if self.failure.lock().map_or(true, |f| f.is_some()) {
            return None; // a Python object already failed: the run's results will not be returned
        }
        Python::attach(|py| match f(py, hooks) {
            Ok(value) => value,
            Err(error) => {
                let note = format!(
                    "in the congestion control of flow '{}' (its connection {}), hook {hook}, at t = {} s",
                    self.flow,
                    self.connection,
                    to_secs(now)
                );
                record(py, &self.failure, error, note);
                None
            }
        })
    }
}

/// Keeps the first exception of the simulation, with `note` added to it.
fn record(py: Python<'_>, failure: &Failure, error: PyErr, note: String) {
    let _ = error.value(py).call_method1("add_note", (note,));
    if let Ok(mut slot) = failure.lock() {
        slot.get_or_insert(error);
    }
}

impl CongestionControl for PyCongestionControl {
    fn on_ack(&mut self, g: Subflows, w: &Window, ack: &Ack) {
        if self.hooks.as_ref().is_some_and(|h| h.on_ack.is_some()) {
            self.call("on_ack", ack.now, |py, hooks| {
                let on_ack = hooks.on_ack.as_ref().expect("checked");
                on_ack.call1(py, (py_ack(ack), subflows(g, w)))?;
                Ok(Some(()))
            });
        }
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        let answer = self.call("grow", ack.now, |py, hooks| {
            let answer = hooks.grow.call1(py, (py_ack(ack), subflows(g, w)))?;
            grown(answer.bind(py)).map(Some)
        });
        if let Some((cwnd, ssthresh)) = answer {
            w.cwnd = cwnd;
            w.ssthresh = ssthresh.unwrap_or(w.ssthresh);
        }
    }

    fn ssthresh(&mut self, g: Subflows, w: &Window, flight: f64, why: Congestion, now: Time) -> f64 {
        let kind = match why {
            Congestion::Loss => "fast_retransmit",
            Congestion::Timeout => "timeout",
            Congestion::Ecn => "ecn",
        };
        // A class without on_ecn reacts to a mark as to a loss (RFC 3168 §6.1.2).
        let on_ecn = why == Congestion::Ecn && self.hooks.as_ref().is_some_and(|h| h.on_ecn.is_some());
        let hook = if on_ecn { "on_ecn" } else { "on_loss" };
        let answer = self.call(hook, now, |py, hooks| {
            let method = if on_ecn { hooks.on_ecn.as_ref().expect("checked") } else { &hooks.on_loss };
            let signal = PySignal { kind, now_ps: now, flight };
            let answer = method.call1(py, (signal, subflows(g, w)))?;
            reduced(answer.bind(py), hook).map(Some)
        });
        // After a failure the run is abandoned; RFC 5681's rule keeps the sender sane meanwhile.
        answer.unwrap_or_else(|| half_flight(flight))
    }

    fn on_recovery_end(&mut self, g: Subflows, w: &Window, now: Time) {
        if self.hooks.as_ref().is_some_and(|h| h.on_recovery_end.is_some()) {
            self.call("on_recovery_end", now, |py, hooks| {
                let method = hooks.on_recovery_end.as_ref().expect("checked");
                method.call1(py, (PyRecoveryEnd { now_ps: now }, subflows(g, w)))?;
                Ok(Some(()))
            });
        }
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        self.initial_ssthresh
    }
}

fn py_ack(ack: &Ack) -> PyAck {
    PyAck {
        now_ps: ack.now,
        acked: ack.acked,
        rtt_ps: ack.rtt,
        ece: ack.ece,
        snd_una: ack.snd_una,
        snd_nxt: ack.snd_nxt,
    }
}

/// Makes the Python object of each of one flow's connections by calling
/// `maker(connection, subflows)` (what `wattnet.cc` prepared for the flow at build time).
pub struct PyCcFactory {
    pub maker: Py<PyAny>,
    pub flow: Arc<str>,
    pub made: AtomicU64,
    pub failure: Failure,
}

impl PyCcFactory {
    fn hooks(py: Python<'_>, maker: &Py<PyAny>, connection: u64, subflows: usize) -> PyResult<(Hooks, Option<f64>)> {
        let object = maker.bind(py).call1((connection, subflows))?;
        let optional = |name: &str| -> PyResult<Option<Py<PyAny>>> {
            Ok(object.getattr_opt(name)?.filter(|m| !m.is_none()).map(Bound::unbind))
        };
        let hooks = Hooks {
            on_ack: optional("on_ack")?,
            grow: object.getattr("grow")?.unbind(),
            on_loss: object.getattr("on_loss")?.unbind(),
            on_ecn: optional("on_ecn")?,
            on_recovery_end: optional("on_recovery_end")?,
        };
        let initial_ssthresh = match optional("initial_ssthresh")? {
            None => None,
            Some(value) => Some(segments(value.bind(py), false).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "initial_ssthresh is None or a finite number of segments ≥ 1, not {}",
                    repr(value.bind(py))
                ))
            })?),
        };
        Ok((hooks, initial_ssthresh))
    }
}

impl CcFactory for PyCcFactory {
    fn make(&self, subflows: usize) -> Box<dyn CongestionControl> {
        let connection = self.made.fetch_add(1, Ordering::Relaxed);
        let made = if self.failure.lock().map_or(true, |f| f.is_some()) {
            None // a Python object already failed: the run is abandoned
        } else {
            Python::attach(|py| match Self::hooks(py, &self.maker, connection, subflows) {
                Ok(made) => Some(made),
                Err(error) => {
                    let note =
                        format!("making the congestion control of flow '{}' (its connection {connection})", self.flow);
                    record(py, &self.failure, error, note);
                    None
                }
            })
        };
        let (hooks, initial_ssthresh) = made.map_or((None, None), |(hooks, ssthresh)| (Some(hooks), ssthresh));
        Box::new(PyCongestionControl {
            hooks,
            initial_ssthresh,
            flow: Arc::clone(&self.flow),
            connection,
            failure: Arc::clone(&self.failure),
        })
    }
}
