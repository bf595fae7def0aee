//! A congestion control that lives outside the engine: the program that builds the simulation
//! supplies it (the Python binding wraps one Python object per connection). The engine knows
//! only this seam: at build time the supplier gives each flow that names an external algorithm
//! a [`CcFactory`], and each of the flow's connections gets its own controller from it. That
//! controller receives the same hooks, windows and subflow views as a built-in algorithm.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::CongestionControl;
use crate::control::PolicySource;
use crate::error::ScenarioError;

/// `{ type = "external", algorithm = "module:Class", params = { ... } }`.
#[derive(Clone, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExternalCcSpec {
    /// The name the supplier knows the algorithm by (the Python binding: "module:Class").
    pub algorithm: String,
    /// Handed to the algorithm as written (its keyword arguments); the engine does not read it.
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
    /// Filled in at build time by the program that supplies the algorithm ([`supply`]).
    #[serde(skip)]
    pub factory: Option<Arc<dyn CcFactory>>,
}

impl ExternalCcSpec {
    pub fn validate(&self) -> Result<(), String> {
        if self.algorithm.is_empty() {
            return Err("algorithm must name the algorithm's class (\"module:Class\")".to_string());
        }
        Ok(())
    }

    /// The controller of the flow's next connection, which has `subflows` subflows.
    pub fn make(&self, subflows: usize) -> Box<dyn CongestionControl> {
        // `supply` fills the factory of every flow while the simulation is built.
        let factory = self.factory.as_ref().expect("an external congestion control is supplied at build time");
        factory.make(subflows)
    }
}

/// Two specs are the same scenario setting whoever supplies them.
impl PartialEq for ExternalCcSpec {
    fn eq(&self, other: &ExternalCcSpec) -> bool {
        (&self.algorithm, &self.params) == (&other.algorithm, &other.params)
    }
}

impl std::fmt::Debug for ExternalCcSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalCcSpec")
            .field("algorithm", &self.algorithm)
            .field("params", &self.params)
            .field("supplied", &self.factory.is_some())
            .finish()
    }
}

/// Makes the controllers of one flow's connections, in the order they open.
pub trait CcFactory: Send + Sync {
    /// The controller of the flow's next connection, which has `subflows` subflows. It must
    /// not fail: a supplier whose algorithm cannot be made returns a controller that reports
    /// the failure its own way (the Python binding stops the run with the exception).
    fn make(&self, subflows: usize) -> Box<dyn CongestionControl>;
}

/// What a supplier learns about the flow it makes a factory for.
pub struct CcFlow<'a> {
    /// The flow's name.
    pub flow: &'a str,
    pub spec: &'a ExternalCcSpec,
    /// The path of the `congestion_control` in the scenario, for error messages.
    pub field: &'a str,
}

/// Fills in the factory of a flow's external congestion control, if it names one.
pub fn supply(
    cc: &mut super::CcSpec,
    flow: &str,
    field: &str,
    source: &mut dyn PolicySource,
) -> Result<(), ScenarioError> {
    if let super::CcSpec::External(spec) = cc {
        spec.factory = Some(source.congestion_control(&CcFlow { flow, spec, field })?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{from_spec, Ack, CcSpec, Reno, Subflows, Window};
    use super::*;
    use crate::control::{ExternalPolicy, NoExternalPolicies, PolicyPort};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Reno, counting the controllers made and checking the subflow count asked for.
    #[derive(Default)]
    struct Counting(AtomicUsize);

    impl CcFactory for Counting {
        fn make(&self, subflows: usize) -> Box<dyn CongestionControl> {
            assert_eq!(subflows, 1);
            self.0.fetch_add(1, Ordering::Relaxed);
            Box::new(Reno)
        }
    }

    struct Source(Arc<Counting>);

    impl PolicySource for Source {
        fn policy(&mut self, _: &PolicyPort<'_>) -> Result<Box<dyn ExternalPolicy>, ScenarioError> {
            unreachable!("no port policies here")
        }

        fn congestion_control(&mut self, flow: &CcFlow<'_>) -> Result<Arc<dyn CcFactory>, ScenarioError> {
            assert_eq!((flow.flow, flow.spec.algorithm.as_str(), flow.field), ("f", "mine:Reno", "x"));
            Ok(self.0.clone())
        }
    }

    fn parse(json: &str) -> Result<CcSpec, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn the_spec_parses_round_trips_and_compares_without_its_factory() {
        let spec = parse(r#"{"type": "external", "algorithm": "mine:Reno", "params": {"beta": 0.7}}"#).unwrap();
        let CcSpec::External(external) = &spec else { panic!("{spec:?}") };
        assert_eq!((external.algorithm.as_str(), &external.params["beta"]), ("mine:Reno", &serde_json::json!(0.7)));
        let mut supplied = spec.clone();
        supply(&mut supplied, "f", "x", &mut Source(Arc::default())).unwrap();
        assert_eq!(supplied, spec);
        assert_eq!(parse(&serde_json::to_string(&supplied).unwrap()).unwrap(), spec);
        assert!(parse(r#"{"type": "external", "algorithm": ""}"#).unwrap_err().contains("algorithm must name"));
        assert!(parse(r#"{"type": "external", "algorithm": "a:B", "beta": 1}"#).unwrap_err().contains("unknown field"));
    }

    #[test]
    fn each_connection_gets_its_own_controller_from_the_flows_factory() {
        let counting = Arc::new(Counting::default());
        let mut spec = parse(r#"{"type": "external", "algorithm": "mine:Reno"}"#).unwrap();
        supply(&mut spec, "f", "x", &mut Source(counting.clone())).unwrap();
        let mut first = from_spec(&spec, false, 1);
        let _second = from_spec(&spec, false, 1);
        assert_eq!(counting.0.load(Ordering::Relaxed), 2);
        let mut w = Window { cwnd: 2.0, ssthresh: 10.0 };
        first.grow(Subflows::ALONE, &mut w, &Ack { acked: 1.0, ..Default::default() });
        assert_eq!(w.cwnd, 3.0, "the factory's Reno slow-starts");
    }

    #[test]
    fn without_a_supplier_the_flow_is_a_scenario_error() {
        let mut spec = parse(r#"{"type": "external", "algorithm": "mine:Reno"}"#).unwrap();
        let error = supply(&mut spec, "f", "flows[0].tcp.congestion_control", &mut NoExternalPolicies).unwrap_err();
        assert_eq!(error.field, "flows[0].tcp.congestion_control");
        assert!(error.to_string().contains("needs a program that supplies it"), "{error}");
        let mut reno = CcSpec::Reno;
        assert!(supply(&mut reno, "f", "x", &mut NoExternalPolicies).is_ok(), "built-in algorithms need none");
    }
}
