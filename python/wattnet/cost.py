"""What a run will cost before it starts: events to process and memory to hold its samples.

The estimate reads only the scenario: each source's packet rate times the time it is active
(each packet is one event where it is emitted and one per link it crosses, its arrival; the
end of its transmission is one more only where a packet waits behind it; a TCP data segment
also brings back an ACK), and the recorder's
samples (one per interval per sampled quantity). It is an order of magnitude, not a promise:
losses, retransmissions and controllers change the count. See docs/time-and-limits.md.
"""

from __future__ import annotations

import math
import os
import warnings
from collections import deque
from dataclasses import dataclass

from wattnet.errors import CostWarning, RunTooLargeError
from wattnet.scenario import TCP_TRAFFIC, Cbr, ExponentialSize, FixedSize, OnOff, Poisson, Scenario, UniformSize

# Memory per recorded sample: the engine's own columns (time, entity, quantity, value) are at
# least 32 bytes, a sure lower bound; handed to Python as lists and then a DataFrame, a sample
# takes about 300 bytes at the peak.
SAMPLE_BYTES_AT_LEAST = 32
SAMPLE_BYTES_TYPICAL = 300
# Above these a run gets a CostWarning: minutes of work, or gigabytes of samples.
WARN_EVENTS = 2e9
WARN_MEMORY_BYTES = 2 * 2**30
# TCP/IP headers of a default segment (RFC 879 default MSS 1460 B + 40 B of headers).
DEFAULT_MSS_BYTES = 1460
HEADER_BYTES = 40


@dataclass(frozen=True)
class Cost:
    events: float
    """Events the run will process, roughly."""
    samples: float
    """Values the recorder will keep."""
    memory_bytes: float
    """Memory the samples take at the peak, typically."""
    memory_bytes_at_least: float
    """Memory the samples certainly take."""
    biggest_source: str
    """The field path of the flow (or recorder) behind most of the events."""

    def describe(self) -> str:
        return (
            f"about {self.events:.2g} events (most from {self.biggest_source}) and {self.samples:.2g} recorded "
            f"samples ({_size(self.memory_bytes)} of memory)"
        )


def estimate_cost(scenario: Scenario) -> Cost:
    """The events and memory a run of ``scenario`` will take, estimated from the scenario alone."""
    duration = scenario.duration_s
    hops, bottleneck = _paths(scenario)
    by_field: dict[str, float] = {}
    for i, flow in enumerate(scenario.flows):
        active = max(0.0, min(flow.stop_s if flow.stop_s is not None else duration, duration) - flow.start_s)
        path_hops = hops.get((flow.src, flow.dst), 1)
        per_packet = 1 + path_hops
        traffic = flow.traffic
        if traffic.type in TCP_TRAFFIC:
            mss = (flow.tcp.mss_bytes if flow.tcp and flow.tcp.mss_bytes else None) or DEFAULT_MSS_BYTES
            at_line_rate = bottleneck.get((flow.src, flow.dst), 0.0) / (8 * (mss + HEADER_BYTES)) * active
            segments = {
                "bulk": at_line_rate,
                "transfer": min(at_line_rate, getattr(traffic, "bytes", 0) / mss),
                "serial": min(at_line_rate, getattr(traffic, "files", 0) * getattr(traffic, "bytes", 0) / mss),
                "web": min(
                    at_line_rate, getattr(traffic, "requests_per_s", 0) * getattr(traffic, "mean_segments", 0) * active
                ),
            }[traffic.type]
            packets = 2 * segments  # each data segment and its ACK
        else:
            assert isinstance(traffic, (Cbr, Poisson, OnOff))  # the TCP traffic types are all above
            rate = traffic.peak_rate_bps if traffic.type == "on_off" else traffic.rate_bps
            packets = rate / (8 * _mean_packet_bytes(flow.packet_size)) * active
        by_field[f"flows[{i}]"] = packets * per_packet

    samples = 0.0
    recorder = scenario.recorder
    if recorder is not None:
        intervals = math.floor(duration / recorder.interval_s)
        ports = len(recorder.ports) or 2 * len(scenario.links)
        per_interval = ports * len(recorder.quantities) + len(recorder.flows) * len(recorder.flow_quantities)
        samples = intervals * per_interval
        by_field["recorder.interval_s"] = float(intervals)
    events = sum(by_field.values())
    biggest = max(by_field, key=by_field.__getitem__) if by_field else "nothing"
    return Cost(events, samples, samples * SAMPLE_BYTES_TYPICAL, samples * SAMPLE_BYTES_AT_LEAST, biggest)


def check_cost(scenario: Scenario, force: bool = False) -> Cost:
    """Warns (CostWarning) before a long or memory-hungry run; raises RunTooLargeError when its
    samples would certainly not fit in this machine's memory, unless ``force``."""
    cost = estimate_cost(scenario)
    memory = machine_memory_bytes()
    if not force and memory is not None and cost.memory_bytes_at_least > memory:
        problem = (
            f"the recorder would keep {cost.samples:.2g} samples, at least {_size(cost.memory_bytes_at_least)}, more "
            f"than this machine's {_size(memory)} of memory; sample less often or fewer quantities (force=True or "
            "--force runs it anyway)"
        )
        raise RunTooLargeError([("recorder.interval_s", problem)])
    if cost.events > WARN_EVENTS or cost.memory_bytes > WARN_MEMORY_BYTES:
        warnings.warn(f"a large run: {cost.describe()}; Ctrl-C stops it", CostWarning, stacklevel=3)
    return cost


def machine_memory_bytes() -> int | None:
    """Physical memory, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _mean_packet_bytes(size: FixedSize | ExponentialSize | UniformSize) -> float:
    if size.type == "fixed":
        return size.bytes
    if size.type == "exponential":
        return size.mean_bytes
    return (size.min_bytes + size.max_bytes) / 2


def _paths(scenario: Scenario) -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], float]]:
    """Hops and the lowest link rate along a fewest-hops path, for each flow's (src, dst)."""
    neighbours: dict[str, list[tuple[str, float]]] = {node.name: [] for node in scenario.nodes}
    for link in scenario.links:
        neighbours[link.a].append((link.b, link.rate_bps))
        neighbours[link.b].append((link.a, link.rate_bps))
    hops: dict[tuple[str, str], int] = {}
    bottleneck: dict[tuple[str, str], float] = {}
    for src in {flow.src for flow in scenario.flows}:
        seen = {src: (0, math.inf)}
        queue = deque([src])
        while queue:
            node = queue.popleft()
            for other, rate in neighbours[node]:
                if other not in seen:
                    seen[other] = (seen[node][0] + 1, min(seen[node][1], rate))
                    queue.append(other)
        for dst, (n, rate) in seen.items():
            hops[(src, dst)] = n
            bottleneck[(src, dst)] = 0.0 if rate == math.inf else rate
    return hops, bottleneck


def _size(n: float) -> str:
    units = ("B", "kB", "MB", "GB", "TB")
    i = 0
    while n >= 1000 and i < len(units) - 1:
        n /= 1000
        i += 1
    return f"{n:.3g} {units[i]}"
