//! The network's builder: nodes (as hosts) and ports, each validated.

use std::collections::HashMap;

use crate::available_bandwidth::AvailableBandwidth;
use crate::control::PolicySource;
use crate::energy::{EnergyMeter, Lpi, PowerMode, PowerModel};
use crate::error::{rate_bps, ScenarioError};
use crate::host::{HostActivity, HostModel};
use crate::port::{PacketErrorModel, Port, PortId, Sleep, SleepState};
use crate::queue::QueueDiscipline;
use crate::rng::{domain, stream};
use crate::scenario::{LinkSpec, PortOverride, Scenario};

use super::{err, seconds, Names, PortIds};
use crate::sim::{Host, Network};
use crate::time::Time;

/// The nodes (as hosts) and the links' ports, two per link (a link's ports are 2i and 2i + 1).
pub(super) fn network(
    s: &Scenario,
    names: &Names,
    policies: &mut dyn PolicySource,
) -> Result<(Network, PortIds), ScenarioError> {
    let mut hosts = Vec::with_capacity(s.nodes.len());
    for (i, n) in s.nodes.iter().enumerate() {
        let model = n.power.as_ref().map(|p| HostModel::from_spec(p, &format!("nodes[{i}].power"))).transpose()?;
        let activity = matches!(model, Some(HostModel::Battery(_))).then(Box::<HostActivity>::default);
        hosts.push(Host { model: model.map(Box::new), activity, ..Default::default() });
    }

    let mut ports = Vec::with_capacity(2 * s.links.len());
    let mut port_ids: HashMap<String, PortId> = HashMap::new();
    for (i, link) in s.links.iter().enumerate() {
        let f = format!("links[{i}]");
        let a = names.node(&link.a, &format!("{f}.a"))?;
        let b = names.node(&link.b, &format!("{f}.b"))?;
        if a == b {
            return Err(err(format!("{f}.b"), format!("a link cannot connect node '{}' to itself", link.a)));
        }
        let delay = seconds(link.delay_s, &format!("{f}.delay_s"), false)?;
        for (from, to, over, dir) in [(a, b, &link.a_to_b, "a_to_b"), (b, a, &link.b_to_a, "b_to_a")] {
            let port = make_port(link, over.as_ref(), &f, dir, from, to, delay, ports.len() as PortId, s, policies)?;
            if port_ids.insert(port.name.clone(), ports.len() as PortId).is_some() {
                return Err(err(f, format!("a second link between '{}' and '{}'", link.a, link.b)));
            }
            ports.push(port);
        }
    }
    // AWM rewrites the windows of ACKs that come back over the managed port's reverse
    // direction; a link's two ports are numbered 2i and 2i + 1.
    for id in 0..ports.len() {
        if ports[id].controller.as_ref().is_some_and(|c| c.manages_windows()) {
            ports[id ^ 1].window_rewriter = Some(id as PortId);
        }
    }
    let node_names = s.nodes.iter().map(|n| n.name.clone()).collect();
    Ok((Network { node_names, hosts, ports, path_feedback: None }, PortIds(port_ids)))
}

#[allow(clippy::too_many_arguments)]
fn make_port(
    link: &LinkSpec,
    over: Option<&PortOverride>,
    field: &str,
    dir: &str,
    from: u32,
    to: u32,
    delay: Time,
    id: PortId,
    s: &Scenario,
    policies: &mut dyn PolicySource,
) -> Result<Port, ScenarioError> {
    // A direction's own setting if it has one, else the link's, with the path that names it.
    let pick = |own: Option<_>, link_value, name: &str| match own {
        Some(v) => (v, format!("{field}.{dir}.{name}")),
        None => (link_value, format!("{field}.{name}")),
    };
    let (rate, rate_field) = pick(over.and_then(|o| o.rate_bps), link.rate_bps, "rate_bps");
    let (queue, queue_field) = match over.and_then(|o| o.queue.as_ref()) {
        Some(q) => (q, format!("{field}.{dir}.queue")),
        None => (&link.queue, format!("{field}.queue")),
    };
    let (transition, transition_field) = pick(over.and_then(|o| o.transition_s), link.transition_s, "transition_s");
    let (error_rate, error_field) = pick(over.and_then(|o| o.error_rate), link.error_rate, "error_rate");
    let (power, power_field) = match over.and_then(|o| o.power.as_ref()) {
        Some(p) => (Some(p), format!("{field}.{dir}.power")),
        None => (link.power.as_ref(), format!("{field}.power")),
    };
    let (lpi, lpi_field) = match over.and_then(|o| o.lpi.as_ref()) {
        Some(l) => (Some(l), format!("{field}.{dir}.lpi")),
        None => (link.lpi.as_ref(), format!("{field}.lpi")),
    };
    let lpi = lpi.map(|l| Lpi::from_spec(l, &lpi_field)).transpose()?;
    if !(0.0..1.0).contains(&error_rate) {
        return Err(err(error_field, format!("must be a probability in [0, 1), got {error_rate}")));
    }
    let name = format!("{}->{}", s.nodes[from as usize].name, s.nodes[to as usize].name);
    let discipline = QueueDiscipline::from_spec(queue, &queue_field, stream(s.seed, domain::QUEUE, id as u64))?;
    let mut port = Port::new(
        name,
        from,
        to,
        rate_bps(rate, &rate_field)?,
        delay,
        seconds(transition, &transition_field, false)?,
        discipline,
    );
    if error_rate > 0.0 {
        port.error_model =
            Some(Box::new(PacketErrorModel::new(error_rate, stream(s.seed, domain::LINK_ERROR, id as u64))));
    }
    if let Some(spec) = power {
        let model = PowerModel::from_spec(spec, port.rate_bps, &power_field)?;
        if model.max_rate().is_some_and(|max| port.rate_bps > max) {
            return Err(err(power_field, format!("no level carries the port's rate of {} bit/s", port.rate_bps)));
        }
        port.energy = Some(EnergyMeter::new(model, lpi, port.rate_bps));
    }
    if let Some(lpi) = lpi {
        // IEEE 802.3az-2010: an idle port is in low-power idle, from the start of the run.
        port.sleep = Some(Box::new(Sleep { to_sleep: lpi.sleep, to_wake: lpi.wake, when_idle: true, lpi: true }));
        port.sleep_state = SleepState::LowPower;
        port.stats.sleeps = 1;
        if let Some(meter) = &mut port.energy {
            meter.set_mode(0, PowerMode::LowPowerIdle { since: 0 });
        }
    }
    if let Some(spec) = over.and_then(|o| o.available_bandwidth.as_ref()) {
        if over.is_some_and(|o| o.controller.is_some()) {
            return Err(err(
                format!("{field}.{dir}.available_bandwidth"),
                "cannot be combined with a controller: both set the port's rate",
            ));
        }
        let rng = stream(s.seed, domain::AVAILABLE_BANDWIDTH, id as u64);
        port.available_bandwidth =
            Some(Box::new(AvailableBandwidth::new(spec, rng, &format!("{field}.{dir}.available_bandwidth"))?));
    }
    if let Some(spec) = over.and_then(|o| o.controller.as_ref()) {
        let controller_field = format!("{field}.{dir}.controller");
        let controller = spec.build(&port.name, port.transition, port.rate_bps, &controller_field, policies)?;
        if let Some(delta) = controller.sleep_transition() {
            // Sleeping (Nedevschi et al., NSDI 2008): the policy sleeps the port; δ to go to sleep and δ to wake.
            if port.sleep.is_some() {
                return Err(err(
                    controller_field,
                    "cannot put a port to sleep that already uses 802.3az low-power idle (lpi)",
                ));
            }
            port.sleep = Some(Box::new(Sleep { to_sleep: delta, to_wake: delta, when_idle: false, lpi: false }));
        }
        port.controller = Some(controller);
    }
    Ok(port)
}
