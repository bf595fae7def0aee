//! The scenario's scheduled events as actions.

use crate::error::{rate_bps, ScenarioError};
use crate::scenario::{EventSpec, Scenario};

use super::{err, seconds, Names, PortIds};
use crate::sim::{Action, Network};
use crate::time::Time;

/// The scenario's scheduled events as actions on ports and links.
pub(super) fn actions(
    s: &Scenario,
    names: &Names,
    net: &Network,
    port_ids: &PortIds,
    end: Time,
) -> Result<Vec<(Time, Action)>, ScenarioError> {
    let mut actions = Vec::with_capacity(s.events.len());
    for (i, ev) in s.events.iter().enumerate() {
        let f = format!("events[{i}]");
        let at_s = match ev {
            EventSpec::SetRate { at_s, .. }
            | EventSpec::LinkDown { at_s, .. }
            | EventSpec::LinkUp { at_s, .. }
            | EventSpec::Sleep { at_s, .. }
            | EventSpec::Wake { at_s, .. } => *at_s,
        };
        let at = seconds(at_s, &format!("{f}.at_s"), false)?;
        if at > end {
            return Err(err(format!("{f}.at_s"), "is after the end of the run (duration_s)"));
        }
        let action = match ev {
            EventSpec::SetRate { port, rate_bps: r, .. } => {
                let port = port_ids.named(port, &format!("{f}.port"))?;
                Action::SetRate { port, rate_bps: rate_bps(*r, format!("{f}.rate_bps"))? }
            }
            EventSpec::LinkDown { a, b, .. } | EventSpec::LinkUp { a, b, .. } => {
                names.node(a, &format!("{f}.a"))?;
                names.node(b, &format!("{f}.b"))?;
                let no_link = || err(format!("{f}.b"), format!("no link between '{a}' and '{b}'"));
                let forward = port_ids.0.get(&format!("{a}->{b}")).copied().ok_or_else(no_link)?;
                let back = port_ids.0.get(&format!("{b}->{a}")).copied().ok_or_else(no_link)?;
                Action::SetLink { ports: [forward, back], up: matches!(ev, EventSpec::LinkUp { .. }) }
            }
            EventSpec::Sleep { port, .. } | EventSpec::Wake { port, .. } => {
                let port = port_ids.named(port, &format!("{f}.port"))?;
                if net.ports[port as usize].controller.is_some() {
                    return Err(err(format!("{f}.port"), "is managed by a controller, which decides when it sleeps"));
                }
                Action::SleepMode { port, on: matches!(ev, EventSpec::Sleep { .. }) }
            }
        };
        actions.push((at, action));
    }
    Ok(actions)
}
