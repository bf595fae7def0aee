"""ns-2.35 reference for the greened-network study (Sassu, Scarso, Cuomo, "TCP behavior over a
greened network", IEEE SustainIT 2012): the six TCP variants at the Table IV thresholds (50, 70 and
90 %), on the scenario wattnet's reproduction builds (the same ABILENE links, delays, buffers, CBR
background and ESTOP link sets, written out as Tcl data), measured as the reproduction measures
wattnet's runs. Needs the wattnet package (for the scenario) and ns-2.35. Writes ``reference.json``
beside this file.

    python validation/studies/greened_network/run.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import networkx as nx
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from ns2 import run_ns, run_points, write_reference
from wattnet.experiments import greened_network as study

SCRIPT = HERE / "abilene.tcl"
THRESHOLDS = study.TABLE_IV_THRESHOLDS
# Every replication the full mode runs (the CBR start offsets redrawn), so that both modes compare
# wattnet's runs with ns-2.35's runs of the same backgrounds.
REPLICATIONS = range(study.FULL["replications"])


def scenario_tcl(threshold: int, replication: int) -> str:
    """The reproduction's scenario (primary background, ``replication``) as Tcl variables."""
    network = study.greened_abilene()
    scenario = study.base_scenario(study.PRIMARY_BACKGROUND, replication)
    off = study.estop_table(network).set_index("threshold_pct").loc[threshold, "off_link_names"]
    links = " ".join(
        f"{{{link.a} {link.b} {link.rate_bps:g} {link.delay_s:g} {link.queue.limit_packets}}}"
        for link in scenario.links
    )
    cbr = " ".join(
        f"{{{flow.src} {flow.dst} {flow.traffic.rate_bps:g} {flow.packet_size.bytes} {flow.start_s:.9f}}}"
        for flow in scenario.flows[1:]
    )
    return "\n".join([
        f"set nodes {{{' '.join(node.name for node in scenario.nodes)}}}",
        f"set links {{{links}}}",
        f"set cbr {{{cbr}}}",
        f"set tcp_src {scenario.flows[0].src}",
        f"set tcp_dst {scenario.flows[0].dst}",
        f"set links_off {{{' '.join(f'{{{a} {b}}}' for a, b in off)}}}",
        f"set switch_off_s {study.SWITCH_OFF_S:g}",
        f"set duration_s {study.DURATION_S:g}",
    ]) + "\n"  # fmt: skip


def hops(threshold: int) -> tuple[int, int]:
    """Hop counts of the TCP flow's shortest path before and after the switch-off."""
    network = study.greened_abilene()
    graph = nx.Graph((link["a"], link["b"]) for link in network.links)
    src, dst = network.names[study.TCP_SOURCE], network.names[study.TCP_DESTINATION]
    before = nx.shortest_path_length(graph, src, dst)
    off = study.estop_table(network).set_index("threshold_pct").loc[threshold, "off_link_names"]
    graph.remove_edges_from(off)
    return before, nx.shortest_path_length(graph, src, dst)


def measure(point: dict[str, Any], prefix: Path) -> dict[str, Any]:
    values = dict(line.split() for line in prefix.with_suffix(".out").read_text().splitlines())
    segment = study.MSS_BYTES * 8 / 1e6
    before = int(float(values["acked_at_switch_off"])) * segment / study.SWITCH_OFF_S
    after = (
        (int(float(values["acked_at_end"])) - int(float(values["acked_at_switch_off"])))
        * segment
        / (study.DURATION_S - study.SWITCH_OFF_S)
    )
    series = pd.read_csv(prefix.with_suffix(".cwnd"), sep=" ", header=None,
                         names=["time_s", "cwnd_segments", "ssthresh_segments", "srtt_s"]).set_index("time_s")  # fmt: skip
    hops_before, hops_after = hops(point["threshold_pct"])
    return {
        "background": study.PRIMARY_BACKGROUND, "variant": point["variant"], "threshold_pct": point["threshold_pct"],
        "replication": point["replication"], "throughput_before_mbps": before, "throughput_after_mbps": after,
        "hops_before": hops_before, "hops_after": hops_after, **study.cwnd_metrics(series),
    }  # fmt: skip


def run(point: dict[str, Any]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".tcl", delete=False) as data:
        data.write(point["scenario"])
    try:
        return run_ns(SCRIPT, [data.name, point["variant"]], lambda prefix: measure(point, prefix))
    finally:
        Path(data.name).unlink()


def main() -> None:
    points = [
        {"variant": variant, "threshold_pct": threshold, "replication": replication,
         "scenario": scenario_tcl(threshold, replication)}
        for replication in REPLICATIONS
        for threshold in THRESHOLDS
        for variant in study.VARIANTS
    ]  # fmt: skip
    write_reference(HERE, "greened-network", [SCRIPT.name], run_points(points, run))


if __name__ == "__main__":
    main()
