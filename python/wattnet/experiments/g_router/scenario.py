"""The scenarios: the study's topology, traffic and controllers as wattnet scenarios."""

from __future__ import annotations

from typing import Any

from wattnet.experiments.g_router.params import (
    BASE_SEED,
    BETA_BPS,
    BOTTLENECK_AT_S,
    BOTTLENECK_BPS,
    BUFFER_PACKETS,
    C_INIT_BPS,
    C_MAX_BPS,
    CONTROLLED,
    G_PORT,
    GAMMA,
    GROUPS,
    INITIAL_WINDOW_BYTES,
    INTERNET_PORT,
    LEAVING,
    PACKET_BYTES,
    PAYLOAD_BYTES_PER_S,
    RAMP_S,
    RECORDER_BIN_S,
    ROUND_TRIP_PROPAGATION_S,
    RUN_S,
    SOURCES,
    STAGGER_S,
    START_UP_S,
    TARGET_BYTES,
    TCP,
    WEB,
)
from wattnet.scenario import Scenario
from wattnet.topology.access import access_network


def initial_flow_estimate() -> float:
    """N₀ as the controller derives it from eq. 6 (at least 1)."""
    c0 = C_INIT_BPS / 8
    return max(1.0, (ROUND_TRIP_PROPAGATION_S + TARGET_BYTES / c0) * c0 / INITIAL_WINDOW_BYTES)


def slug(configuration: str) -> str:
    """``AWM/C-EARTH`` → ``awm-c-earth``: the configuration's name in paths."""
    return configuration.replace("/", "-").replace(" ", "-").lower()


def g_router_controller() -> dict[str, Any]:
    """AWM + C-EARTH with the paper's T, γ and β, C_min 100 kb/s (default) and C_max."""
    return {
        "type": "g_router",
        "target_bytes": TARGET_BYTES,
        "gamma": GAMMA,
        "beta_bps": BETA_BPS,
        "mtu_bytes": float(PACKET_BYTES),
        "initial_window_bytes": INITIAL_WINDOW_BYTES,
        "round_trip_propagation_s": ROUND_TRIP_PROPAGATION_S,
        "max_rate_bps": C_MAX_BPS,
        "rate_control": {"type": "c_earth"},
    }


def leave_times(scale: float) -> list[float]:
    """When the leaving sources leave: the ramp as one step in the middle of each fifth of it, so
    the number of sources averages 22.5 over the ramp as the linear ramp does (375, 425, … 575 s)."""
    start, end = RAMP_S
    step = (end - start) / LEAVING
    return [(start + step * (j + 0.5)) * scale for j in range(LEAVING)]


def sources_present(scale: float) -> list[tuple[float, int]]:
    """(from_s, number of sources) for every interval between two changes of the source set."""
    # Once group k has joined, the sources present are those before group k + 1's first.
    counts = [first for first, _ in GROUPS[1:]] + [SOURCES]
    present = [(joins * scale, count) for (_, joins), count in zip(GROUPS, counts, strict=True)]
    return present + [(t, SOURCES - 1 - j) for j, t in enumerate(leave_times(scale))]


def case_study_flows(scale: float, stagger_s: float = STAGGER_S) -> list[dict[str, Any]]:
    """The sources: source i (host ``src{i}``) runs an FTP flow from its group's joining
    time (the group's starts ``stagger_s`` apart), a bulk transfer for the sources that stay and,
    for the five that leave (TCP flows cannot be stopped), a transfer of ≈ 120 kB/s of payload until
    it leaves, less the start-up. Web requests join one Poisson stream of 5/s spread uniformly over
    the sources present (one web flow per interval between source changes), so they share their
    host's up-link with its FTP flow and the offered load stays one up-link per source."""
    leaving = dict(zip(range(SOURCES - 1, SOURCES - 1 - LEAVING, -1), leave_times(scale), strict=True))
    flows = []
    for i in range(SOURCES):
        first, joins = max((group for group in GROUPS if group[0] <= i), key=lambda group: group[0])
        start = joins * scale + stagger_s * (i - first)
        traffic: dict[str, Any] = {"type": "bulk"}
        if i in leaving:
            traffic = {"type": "transfer", "bytes": int(PAYLOAD_BYTES_PER_S * (leaving[i] - start - START_UP_S))}
        flows.append(
            {"name": f"ftp{i}", "src": f"src{i}", "dst": "dst0", "traffic": traffic, "start_s": start, "tcp": TCP}
        )
    present = sources_present(scale)
    for k, (start, count) in enumerate(present):
        stop = present[k + 1][0] if k + 1 < len(present) else RUN_S * scale
        senders = [f"src{i}" for i in range(count)]
        flows.append({"name": f"web{k}", "src": "src0", "dst": "dst0", "start_s": start, "stop_s": stop, "tcp": TCP,
                      "traffic": {**WEB, "senders": senders}})  # fmt: skip
    return flows


def base_scenario(case: int, configuration: str, scale: float) -> Scenario:
    """Case study ``case`` (1 or 2) with the G-router ``configuration`` (OVER, NC or CONTROLLED)."""
    controlled = configuration == CONTROLLED
    topology = access_network(
        SOURCES,
        g_router_rate_bps=C_INIT_BPS if controlled else C_MAX_BPS,
        g_router_max_rate_bps=C_MAX_BPS,
        g_router_buffer_packets=BUFFER_PACKETS,
        internet_buffer_packets=BUFFER_PACKETS,
        access_buffer_packets=BUFFER_PACKETS,
        g_router_controller=g_router_controller() if controlled else None,
    )
    events = []
    if case == 2:
        events.append({"action": "set_rate", "at_s": BOTTLENECK_AT_S * scale, "port": INTERNET_PORT,
                       "rate_bps": BOTTLENECK_BPS})  # fmt: skip
    return topology.scenario(
        name=f"g-router-case{case}-{slug(configuration)}",
        seed=BASE_SEED,
        duration_s=RUN_S * scale,
        flows=case_study_flows(scale),
        events=events,
        recorder={"interval_s": RECORDER_BIN_S, "ports": [G_PORT, INTERNET_PORT],
                  "quantities": ["queue_bytes", "rate_bps", "departure_rate_bps"]},
    )  # fmt: skip
