//! Errors that reach the user: each names the scenario field at fault.

use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `links[2].rate_bps`; empty for the whole scenario.
    pub field: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// `value` if it is a finite number above zero, else an error naming `field`.
pub fn positive(value: f64, field: impl Into<String>) -> Result<f64, ScenarioError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(ScenarioError::new(field, format!("must be a positive finite number, got {value}")))
    }
}

/// The highest rate a port or a constant-rate source may have: 1 Pb/s, where a 1500-byte
/// packet still takes 12 ps (the clock counts whole picoseconds).
pub const MAX_RATE_BPS: f64 = 1e15;

/// A rate in whole bit/s, as ports and constant-rate sources keep it: at least 1 bit/s, at most
/// [`MAX_RATE_BPS`], and whole to within 0.1 % (rounding 2.5 bit/s to 3 would change the rate
/// by 20 %: an error, not a silent change). The error names `field`.
pub fn rate_bps(value: f64, field: impl Into<String>) -> Result<u64, ScenarioError> {
    if !value.is_finite() || !(1.0..=MAX_RATE_BPS).contains(&value) {
        let message = format!("must be a finite rate from 1 bit/s to {MAX_RATE_BPS:e} bit/s, got {value}");
        return Err(ScenarioError::new(field, message));
    }
    let whole = value.round();
    if (whole - value).abs() > 1e-3 * value {
        let message = format!(
            "rates are kept in whole bit/s and {value} is not within 0.1 % of one (it would run at {whole} bit/s)"
        );
        return Err(ScenarioError::new(field, message));
    }
    Ok(whole as u64)
}

/// The most bytes a transfer may carry: the results' byte counts are int64 columns.
pub const MAX_BYTES: u64 = i64::MAX as u64;

/// A run that finished but broke an invariant (packet conservation).
#[derive(Clone, Debug, PartialEq)]
pub struct RunError(pub String);

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunError {}
