//! What a run records: the recorder and the pcap captures asked for.

use std::collections::HashMap;

use crate::error::ScenarioError;
use crate::port::PortId;
use crate::scenario::{RecorderSpec, Scenario};
use crate::sim::recorder::Recorder;

use super::{err, seconds, PortIds};
use crate::sim::{Flow, Logs, Network};

/// The recorder (marking the flows whose cwnd it traces) and the pcap captures asked for.
pub(super) fn logs(s: &Scenario, net: &Network, port_ids: &PortIds, flows: &mut [Flow]) -> Result<Logs, ScenarioError> {
    let recorder = s.recorder.as_ref().map(|r| recorder(r, net, port_ids, flows)).transpose()?;
    let port_named = |name: &str, field: &str| port_ids.named(name, field);
    let pcap = crate::pcap::requests(&s.pcap, port_named, &net.ports, &net.node_names)?;
    Ok(Logs { recorder, rate_log: vec![], cwnd_trace: vec![], pcap: crate::pcap::Captures::new(pcap) })
}

fn recorder(
    r: &RecorderSpec,
    net: &Network,
    port_ids: &PortIds,
    flows: &mut [Flow],
) -> Result<Recorder, ScenarioError> {
    let interval = seconds(r.interval_s, "recorder.interval_s", true)?;
    let sampled = if r.ports.is_empty() {
        (0..net.ports.len() as PortId).collect()
    } else {
        r.ports
            .iter()
            .enumerate()
            .map(|(i, name)| port_ids.named(name, &format!("recorder.ports[{i}]")))
            .collect::<Result<Vec<_>, _>>()?
    };
    let by_name: HashMap<&str, usize> = flows.iter().enumerate().map(|(i, f)| (f.name.as_str(), i)).collect();
    let tcp_flow = |name: &String, field: String| -> Result<u32, ScenarioError> {
        match by_name.get(name.as_str()) {
            Some(&i) if flows[i].tcp.is_some() => Ok(i as u32),
            Some(_) => Err(err(field, format!("flow '{name}' is not a TCP flow"))),
            None => Err(err(field, format!("unknown flow '{name}'"))),
        }
    };
    let sampled_flows = r
        .flows
        .iter()
        .enumerate()
        .map(|(i, name)| tcp_flow(name, format!("recorder.flows[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let traced = r
        .trace_flows
        .iter()
        .enumerate()
        .map(|(i, name)| tcp_flow(name, format!("recorder.trace_flows[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    for id in traced {
        flows[id as usize].tcp.as_mut().expect("checked").traced = true;
    }
    Ok(Recorder::new(interval, sampled, r.quantities.clone(), sampled_flows, r.flow_quantities.clone()))
}
