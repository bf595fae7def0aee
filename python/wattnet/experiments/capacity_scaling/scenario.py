"""The scenarios: the study's topology, traffic and controllers as wattnet scenarios."""

from __future__ import annotations

import math
from typing import Any

from wattnet.experiments.capacity_scaling.params import (
    BACKGROUND_PEAK_BPS,
    BASE_SEED,
    PORT,
    PRACTRA,
    R_MAX,
    RATES_BPS,
    RECORDER_BIN_S,
    TCP_NS2,
    TRANSITION_S,
)
from wattnet.scenario import Scenario
from wattnet.topology.chain import chain


def rwnd_label(rwnd: int | None) -> str:
    return "unlimited (1 GiB)" if rwnd is None or (isinstance(rwnd, float) and math.isnan(rwnd)) else f"{int(rwnd)} B"


def practra(mrci_s: float, sample_interval_s: float | None = None) -> dict[str, Any]:
    """practRA at ``mrci_s``, sampling once per mRCI unless ``sample_interval_s`` is given."""
    controller = {"type": "practra", "rates_bps": RATES_BPS, "min_rate_change_interval_s": mrci_s, **PRACTRA}
    if sample_interval_s is not None:
        controller["sample_interval_s"] = sample_interval_s
    return controller


def background_flow(on_mean_s: float) -> dict[str, Any]:
    """bursts every 1 s (fixed phase) of Exp(bON) length truncated at 1 s, UDP CBR
    at 10 Mb/s in 1500 B packets, from B (on N1) to D along the TCP flow's path."""
    return {
        "name": "background", "src": "B", "dst": "D",
        "traffic": {"type": "on_off", "peak_rate_bps": BACKGROUND_PEAK_BPS, "on_mean_s": on_mean_s, "cycle_s": 1.0},
        "packet_size": {"type": "fixed", "bytes": 1500},
    }  # fmt: skip


def base_scenario(
    rtt_s: float,
    duration_s: float,
    receive_window_bytes: int | None = None,
    background_on_mean_s: float | None = None,
    bottleneck_mean_s: float | None = None,
) -> Scenario:
    """The TCPonly chain at ``rtt_s``: one NewReno bulk flow S → D (with the bursty background of
    §6.2 when ``background_on_mean_s`` is given, and §6.3's varying N2→N3 bandwidth when
    ``bottleneck_mean_s`` is), N1→N2 recorded every 100 ms."""
    topology = chain(rtt_s)
    links = topology.links
    n1_n2 = next(link for link in links if (link["a"], link["b"]) == ("N1", "N2"))
    n1_n2["transition_s"] = TRANSITION_S
    if bottleneck_mean_s is not None:
        n2_n3 = next(link for link in links if (link["a"], link["b"]) == ("N2", "N3"))
        n2_n3["a_to_b"] = {"available_bandwidth": {"type": "uniform", "mean_interval_s": bottleneck_mean_s,
                                                   "min_rate_bps": 1e6, "max_rate_bps": R_MAX}}  # fmt: skip
    tcp: dict[str, Any] = {"profile": "ns2", "mss_bytes": 1460, **TCP_NS2}
    if receive_window_bytes is not None:
        tcp["receive_window_bytes"] = int(receive_window_bytes)
    flows = [{"name": "tcp", "src": "S", "dst": "D", "traffic": {"type": "bulk"}, "tcp": tcp}]
    if background_on_mean_s is not None:
        flows.append(background_flow(background_on_mean_s))
    return topology.scenario(
        name=f"capacity-scaling-rtt{rtt_s * 1000:g}ms",
        seed=BASE_SEED,
        duration_s=duration_s,
        flows=flows,
        recorder={"interval_s": RECORDER_BIN_S, "ports": [PORT], "quantities": ["rate_bps", "arrival_rate_bps"]},
    )


def _controller_path(scenario: Scenario) -> str:
    index = next(i for i, link in enumerate(scenario.links) if (link.a, link.b) == ("N1", "N2"))
    return f"links[{index}].a_to_b.controller"
