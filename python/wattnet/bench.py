"""Speed benchmarks of the engine (`wattnet bench`, `make bench`): one dict of numbers each."""

from __future__ import annotations

import time
from collections.abc import Callable

from wattnet import _engine
from wattnet.runner import advance, build_simulation
from wattnet.scenario import Scenario


def event_queue() -> dict[str, float]:
    """The bare event queue: 20 M events through a heap holding 1000 pending ones."""
    started = time.perf_counter()
    events = _engine.bench_event_queue(20_000_000, 1000, 1)
    return _measurement("event_queue", packets=0, events=events, wall_s=time.perf_counter() - started)


def cbr_chain_scenario(hops: int = 10, flows: int = 10) -> Scenario:
    """n0–n1–…–n10 at 10 Gb/s, 1 ms per link, DropTail 1000 packets; ten 0.9 Gb/s CBR flows n0→n10."""
    return Scenario(
        name="bench-cbr-chain",
        seed=1,
        duration_s=2.0,
        nodes=[{"name": f"n{i}"} for i in range(hops + 1)],
        links=[
            {
                "a": f"n{i}",
                "b": f"n{i + 1}",
                "rate_bps": 10e9,
                "delay_s": 1e-3,
                "queue": {"type": "droptail", "limit_packets": 1000},
            }
            for i in range(hops)
        ],
        flows=[
            {
                "name": f"cbr{i}",
                "src": "n0",
                "dst": f"n{hops}",
                "traffic": {"type": "cbr", "rate_bps": 0.9e9},
                "packet_size": {"type": "fixed", "bytes": 1500},
            }
            for i in range(flows)
        ],
    )


def cbr_chain() -> dict[str, float]:
    """A full simulation; packets counts packet-hops (one per transmission on a port)."""
    scenario = cbr_chain_scenario()
    started = time.perf_counter()
    simulation = build_simulation(scenario)
    advance(simulation)
    wall_s = time.perf_counter() - started
    summary = simulation.results()["summary"]
    return _measurement("cbr_chain", packets=summary["packets"], events=summary["events"], wall_s=wall_s)


BENCHMARKS: dict[str, Callable[[], dict[str, float]]] = {"event_queue": event_queue, "cbr_chain": cbr_chain}


def _measurement(name: str, packets: int, events: int, wall_s: float) -> dict[str, float]:
    return {
        "name": name,
        "packets": packets,
        "events": events,
        "wall_s": wall_s,
        "packets_per_s": packets / wall_s,
        "events_per_s": events / wall_s,
    }
