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

/// A run that finished but broke an invariant (packet conservation).
#[derive(Clone, Debug, PartialEq)]
pub struct RunError(pub String);

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RunError {}
