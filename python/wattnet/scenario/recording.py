"""What a run records beside its tables: sampled time series and pcap captures."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import MAX_SNAP_BYTES, PositiveSeconds

PortQuantity = Literal[
    "queue_packets", "queue_bytes", "rate_bps", "arrival_rate_bps", "departure_rate_bps", "power_w", "red_average"
]
FlowQuantity = Literal["cwnd_segments", "ssthresh_segments", "srtt_s", "in_flight_bytes", "delivered_bytes"]


class Recorder(_Model):
    """Samples port and TCP-flow quantities every ``interval_s`` into the timeseries table."""

    interval_s: PositiveSeconds
    ports: list[str] = []
    """Ports to sample ("from->to"); empty means every port."""
    quantities: list[PortQuantity] = ["queue_packets", "rate_bps", "arrival_rate_bps"]
    flows: list[str] = []
    """TCP flows sampled every interval (their latest connection)."""
    flow_quantities: list[FlowQuantity] = ["cwnd_segments", "ssthresh_segments"]
    trace_flows: list[str] = []
    """TCP flows whose cwnd and ssthresh are logged at every change (table cwnd_trace)."""


class Pcap(_Model):
    """A capture of one port into a pcap file: every packet it finishes transmitting.

    Written only when the run is given a directory: ``wattnet run --out DIR`` writes
    ``DIR/pcap/<from>-<to>.pcap`` and ``DIR/pcap/hosts`` (node names by address),
    ``wattnet.run(scenario, pcap_dir=...)`` writes them into ``pcap_dir``.
    """

    port: str
    """The port, named "from->to" after the link direction it sends along."""
    snap_bytes: int | None = Field(None, ge=1, le=MAX_SNAP_BYTES)
    """Bytes kept of each packet (payload bytes are zeros); absent keeps the IPv4 and TCP/UDP headers only."""
