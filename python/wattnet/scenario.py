"""The scenario schema: pydantic models mirroring the engine's contract (crates/wattnet-engine/src/scenario.rs).

Field names, defaults and tags are the engine's; every quantity carries its unit in its
name. Building a model validates it and raises ``ScenarioError`` naming each field at fault.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from wattnet.errors import ScenarioError

U8_MAX = 2**8 - 1
U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1
# Byte counts reach the results as int64 columns.
I64_MAX = 2**63 - 1
# The engine's clock counts picoseconds in a u64: it ends at 18 446 744.07 s, and every
# instant and duration is at most its last whole second (docs/time-and-limits.md).
PS_PER_S = 10**12
MAX_TIME_S = U64_MAX // PS_PER_S
# Ports and constant-rate sources keep whole bit/s, up to 1 Pb/s (a 1500-byte packet in 12 ps).
MAX_RATE_BPS = 1e15
# Web requests: at most one per picosecond on average.
MAX_REQUESTS_PER_S = 1e12
# The engine's limits for captures (crates/wattnet-engine/src/pcap.rs): an IPv4 packet's
# length, and the nodes that have an address in 10.0.0.0/8.
MAX_SNAP_BYTES = 65535
MAX_PCAP_NODES = 2**24 - 2


def on_the_clock(value: float) -> float:
    """A time in seconds that the engine's picosecond clock holds: at most MAX_TIME_S, and not
    a positive value so small that it rounds to 0 ps."""
    if value > MAX_TIME_S:
        raise ValueError(
            f"must be at most {MAX_TIME_S} s ({MAX_TIME_S / 86400:.1f} days), the end of the simulated clock "
            f"(picoseconds in 64 bits); got {value}"
        )
    # Rounded half away from zero, as the engine rounds.
    if value > 0 and math.floor(value * PS_PER_S + 0.5) == 0:
        raise ValueError(f"{value} s is below the clock's resolution of 1 ps (it would round to 0)")
    return value


def whole_rate(value: float) -> float:
    """A rate the engine keeps in whole bit/s without changing it by more than 0.1 %."""
    if abs(round(value) - value) > 1e-3 * value:
        raise ValueError(
            f"rates are kept in whole bit/s and {value} is not within 0.1 % of one (it would run at "
            f"{round(value)} bit/s)"
        )
    return value


# A port's service rate (and a constant-rate source's) is kept in whole bit/s, so it is at least 1.
PortRate = Annotated[float, Field(ge=1, le=MAX_RATE_BPS), AfterValidator(whole_rate)]
PositiveRate = Annotated[float, Field(gt=0, le=MAX_RATE_BPS)]
NonNegativeSeconds = Annotated[float, Field(ge=0), AfterValidator(on_the_clock)]
PositiveSeconds = Annotated[float, Field(gt=0), AfterValidator(on_the_clock)]
# A probability per packet; 1 would lose everything.
ErrorRate = Annotated[float, Field(ge=0, lt=1)]


class _Model(BaseModel):
    # Unknown fields are errors (the engine denies them too); NaN and infinities are never valid.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, use_attribute_docstrings=True)

    def __init__(self, **data: Any):
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise ScenarioError(_field_errors(error)) from None


class LinkStateReconvergence(_Model):
    """OSPF-like link state (RFC 2328; docs/forwarding.md): the routers at the ends of a changed link notice it
    after ``detection_s`` and flood a router-LSA of ``lsa_bytes``; each hop adds its propagation
    delay, the LSA's transmission time and ``hop_processing_s``; a router installs its new
    shortest paths ``spf_delay_s`` after receiving the change."""

    model: Literal["link_state"] = "link_state"
    detection_s: NonNegativeSeconds = 0.0
    hop_processing_s: NonNegativeSeconds = 0.001
    spf_delay_s: NonNegativeSeconds = 0.0
    lsa_bytes: int = Field(100, ge=1, le=U32_MAX)


class GlobalReconvergence(_Model):
    """Every router installs the new shortest paths ``delay_s`` after a link changes state
    (the simplest model; the 0.03 s transition period of Sassu, Scarso, Cuomo, "TCP behavior over a
    greened network", SustainIT 2012)."""

    model: Literal["global"] = "global"
    delay_s: NonNegativeSeconds = 0.03


Reconvergence = Annotated[LinkStateReconvergence | GlobalReconvergence, Field(discriminator="model")]


class Routing(_Model):
    metric: Literal["hops", "delay"] = "hops"
    """What a shortest path minimises."""
    ttl: int = Field(64, ge=1, le=U8_MAX)
    """Initial IP time-to-live; a packet is dropped when it reaches zero."""
    ecmp: bool = False
    """Spread flows over equal-cost next hops by a hash of each flow; false keeps one next hop
    (the lowest node id)."""
    reconvergence: Reconvergence | None = None
    """How tables follow link_down / link_up events; absent keeps the tables of the start, so a
    down link black-holes the traffic routed over it."""


class BatteryHost(_Model):
    """A battery-powered client (Pentikousis, Badr, "On the resource efficiency of explicit
    congestion notification", IFIP Networking 2002): E = N_tx·e_tx + N_rx·e_rx + T_idle·P_idle.

    Each packet costs e = P·(size·8/rate) + e_overhead: its overhead ``tx_j_per_packet`` or
    ``rx_j_per_packet`` plus ``tx_w`` or ``rx_w`` for its transmission time at the rate of the
    port it leaves on or arrives over. N_rx counts packets delivered to the node and those
    corrupted on a link into it. T_idle is the node's active span, from the first packet it sends
    or receives to the last, less its sending and receiving times (at least 0).
    """

    type: Literal["battery"] = "battery"
    tx_j_per_packet: float = Field(ge=0)
    """e_overhead of each packet sent (J); with tx_w = 0, the whole cost of a packet."""
    rx_j_per_packet: float = Field(ge=0)
    """e_overhead of each packet received (J), corrupted ones included."""
    idle_w: float = Field(ge=0)
    """P_idle, over the active span while neither sending nor receiving."""
    tx_w: float = Field(0.0, ge=0)
    """P_tx, for each packet's transmission time."""
    rx_w: float = Field(0.0, ge=0)
    """P_rx, for each packet's transmission time on the port it arrived over."""
    ack_cost_equals_data: bool = False
    """TCP packets without payload (ACKs, SYN, FIN) take and cost as much as a full data segment of their
    connection (MSS + headers)."""


class MptcpHost(_Model):
    """A host's power while sending, per connection (Zhao, Liu, Wang, IEEE 2017, eq. 2):
    P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, one subflow (n = 1) per connection.

    Each connection the node sends costs duration·P_r, with the duration from opening to
    completion (or the end of the run), τ_r its goodput and RTT_r its mean SRTT. ``preset``
    ``ethernet`` (20 W, 3 W at 1 Gb/s) or ``wifi`` (1 W, 0.9 W per 40 Mb/s), both γ = 1,
    b = 0.05·P_base, RTT_ref = 100 ms; explicit values override the preset's, and without a
    preset every value is required.
    """

    type: Literal["mptcp_host"] = "mptcp_host"
    preset: Literal["ethernet", "wifi"] | None = None
    base_w: float | None = Field(None, ge=0)
    """P_base (W)."""
    rate_w: float | None = Field(None, ge=0)
    """a (W)."""
    ref_rate_bps: float | None = Field(None, gt=0)
    """τ_ref (bit/s)."""
    gamma: float | None = Field(None, ge=0)
    """γ."""
    rtt_w: float | None = Field(None, ge=0)
    """b (W)."""
    ref_rtt_s: PositiveSeconds | None = None
    """RTT_ref (s)."""

    @model_validator(mode="after")
    def _complete(self) -> MptcpHost:
        if self.preset is None:
            names = ("base_w", "rate_w", "ref_rate_bps", "gamma", "rtt_w", "ref_rtt_s")
            missing = [(name, "required unless preset names one") for name in names if getattr(self, name) is None]
            if missing:
                raise ScenarioError(missing)
        return self


HostPower = Annotated[BatteryHost | MptcpHost, Field(discriminator="type")]


class Node(_Model):
    """A host or a router: every node forwards, and any node can be a flow's end."""

    name: str = Field(min_length=1)
    """Unique; it names the node's ports ("from->to")."""
    power: HostPower | None = None
    """The node's own energy as a host; none: not accounted (NaN in the nodes table)."""

    @field_validator("name")
    @classmethod
    def _no_arrow(cls, name: str) -> str:
        if "->" in name:
            raise ValueError("must not contain '->' (it separates the two ends of a port name)")
        return name


class DropTail(_Model):
    """FIFO with tail drop; exactly one of the two limits is set."""

    type: Literal["droptail"] = "droptail"
    limit_packets: int | None = Field(None, ge=1, le=U32_MAX)
    limit_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    count_in_service: bool = True
    """Whether the packet being transmitted counts towards the limit, as in ns-2."""

    @model_validator(mode="after")
    def _exactly_one_limit(self) -> DropTail:
        if (self.limit_packets is None) == (self.limit_bytes is None):
            raise ValueError("set exactly one of limit_packets and limit_bytes")
        return self


class Red(_Model):
    """RED (Floyd & Jacobson 1993) with Floyd's gentle variant and optional ECN marking.

    ``min_th`` and ``max_th`` count packets, or bytes when ``mode`` is ``"bytes"``. The physical
    buffer is exactly one of ``limit_packets`` and ``limit_bytes``, as for droptail.
    """

    type: Literal["red"] = "red"
    min_th: float = Field(ge=0)
    """Average queue at which early drops (or marks) start: packets, or bytes in byte mode."""
    max_th: float
    """Average queue at which the drop probability reaches max_p: packets, or bytes in byte mode."""
    max_p: float = Field(0.1, gt=0, le=1)
    w_q: float = Field(0.002, gt=0, le=1)
    """Weight of the newest queue sample in the moving average."""
    gentle: bool = True
    """Probability rises from max_p to 1 between max_th and 2·max_th instead of jumping to 1 (ns-2 gentle_)."""
    wait: bool = True
    """ns-2 wait_: wait about 1/p_b packets between drops rather than 0 to 1/p_b."""
    ecn: bool = False
    """Mark ECN-capable packets with CE instead of dropping them, in the probabilistic region only."""
    mode: Literal["packets", "bytes"] = "packets"
    mean_packet_bytes: int = Field(500, ge=1, le=U32_MAX)
    """Typical packet size: scales the drop probability in byte mode, and its transmission time at the
    port's rate is the packet time of the idle decay."""
    idle_decay: Literal["ns2", "floyd"] = "ns2"
    """After m idle packet times: avg·(1 − w_q)^(m+1) as ns-2, or avg·(1 − w_q)^m as Floyd & Jacobson."""
    limit_packets: int | None = Field(None, ge=1, le=U32_MAX)
    limit_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    count_in_service: bool = True
    """Whether the packet being transmitted counts towards the limit, as in ns-2's droptail."""

    @model_validator(mode="after")
    def _consistent(self) -> Red:
        problems = []
        if self.max_th <= self.min_th:
            problems.append(("max_th", f"must be greater than min_th ({self.min_th}), got {self.max_th}"))
        if (self.limit_packets is None) == (self.limit_bytes is None):
            problems.append(("", "set exactly one of limit_packets and limit_bytes"))
        else:
            # The average never reaches the buffer size: a min_th at or above it disables RED.
            limit = getattr(self, f"limit_{self.mode}")
            if limit is not None and self.min_th >= limit:
                problems.append(("min_th", f"must be below limit_{self.mode} ({limit}), or RED never acts"))
        if problems:
            raise ScenarioError(problems)
        return self


class Threshold(_Model):
    """DCTCP-style marking: CE on ECN-capable packets arriving while more than K wait.

    Exactly one of ``k_packets`` and ``k_bytes``, and one of ``limit_packets`` and ``limit_bytes``;
    packets that are not ECN-capable are queued unmarked, and only a full buffer drops.
    """

    type: Literal["threshold"] = "threshold"
    k_packets: int | None = Field(None, ge=0, le=U32_MAX)
    k_bytes: int | None = Field(None, ge=0, le=U64_MAX)
    limit_packets: int | None = Field(None, ge=1, le=U32_MAX)
    limit_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    count_in_service: bool = True
    """Whether the packet being transmitted counts towards the limit, as in ns-2's droptail."""

    @model_validator(mode="after")
    def _consistent(self) -> Threshold:
        problems = []
        if (self.k_packets is None) == (self.k_bytes is None):
            problems.append(("", "set exactly one of k_packets and k_bytes"))
        if (self.limit_packets is None) == (self.limit_bytes is None):
            problems.append(("", "set exactly one of limit_packets and limit_bytes"))
        for unit in ("packets", "bytes"):
            k, limit = getattr(self, f"k_{unit}"), getattr(self, f"limit_{unit}")
            if k is not None and limit is not None and k >= limit:
                problems.append((f"k_{unit}", f"must be below limit_{unit} ({limit}), or no packet is ever marked"))
        if problems:
            raise ScenarioError(problems)
        return self


Queue = Annotated[DropTail | Red | Threshold, Field(discriminator="type")]


def default_queue() -> DropTail:
    return DropTail(limit_packets=1000)


class ConstantPower(_Model):
    """The same power at every rate."""

    type: Literal["constant"] = "constant"
    active_w: float = Field(ge=0)
    sleep_w: float = Field(0.0, ge=0)


class RateScalingPower(_Model):
    """P(r) = P_s + f(r): frequency scaling (f linear in r) or dynamic voltage scaling (f cubic
    down to r_MAX/φ, linear below)."""

    type: Literal["rate_scaling"] = "rate_scaling"
    static_w: float = Field(ge=0)
    dynamic_w: float = Field(ge=0)
    scaling: Literal["frequency", "voltage"]
    max_scaling_factor: float = Field(4.0, ge=1)
    """φ (voltage scaling only)."""
    max_rate_bps: float | None = Field(None, gt=0)
    """r_MAX; default the port's initial rate."""
    sleep_w: float = Field(0.0, ge=0)


class PowerLevel(_Model):
    rate_bps: float = Field(gt=0)
    watts: float = Field(ge=0)


class RateTablePower(_Model):
    """Discrete hardware rates: a rate draws the power of the slowest level that carries it."""

    type: Literal["rate_table"] = "rate_table"
    levels: list[PowerLevel] = Field(min_length=1)
    sleep_w: float = Field(0.0, ge=0)


class LineCardPower(_Model):
    """⌈capacity / card capacity⌉ line cards of ``card_w`` each, whatever the load."""

    type: Literal["line_card"] = "line_card"
    card_capacity_bps: float = Field(gt=0)
    card_w: float = Field(ge=0)
    capacity_bps: float | None = Field(None, gt=0)
    """Default the port's initial rate."""
    sleep_w: float = Field(0.0, ge=0)


PowerModel = Annotated[ConstantPower | RateScalingPower | RateTablePower | LineCardPower, Field(discriminator="type")]


class Lpi(_Model):
    """IEEE 802.3az-2010 low-power idle: an idle port goes to sleep (T_s, active power),
    stays in low-power idle (quiet T_q at ``power_fraction`` of active power, refresh T_r at full
    power, repeating), and wakes (T_w, active power) when a frame arrives. A port is in low-power
    idle from the start of the run. ``phy`` presets the timings (Reviriego et al. 2009); explicit
    values override them, and without a preset all four are required."""

    phy: Literal["100base_tx", "1000base_t", "10gbase_t"] | None = None
    wake_s: NonNegativeSeconds | None = None
    """T_w."""
    sleep_s: NonNegativeSeconds | None = None
    """T_s."""
    quiet_s: PositiveSeconds | None = None
    """T_q."""
    refresh_s: NonNegativeSeconds | None = None
    """T_r."""
    power_fraction: float | None = Field(None, ge=0, le=1)
    """Power while quiet, as a fraction of active power; default 0.1."""

    @model_validator(mode="after")
    def _timed(self) -> Lpi:
        if self.phy is None:
            names = ("wake_s", "sleep_s", "quiet_s", "refresh_s")
            missing = [(name, "required unless phy names a preset") for name in names if getattr(self, name) is None]
            if missing:
                raise ScenarioError(missing)
        return self


class PracticalRateAdaptation(_Model):
    """practRA (Nedevschi et al., NSDI 2008) as Panarello et al. ("Network interface power management
    and TCP congestion control: a troubled marriage", AJEEE 2016) use it: one rate step at a
    time from an EWMA arrival-rate prediction, the queue and a delay bound."""

    type: Literal["practra"] = "practra"
    rates_bps: list[PortRate] = Field(min_length=1)
    """The available rates; they must include the port's initial rate."""
    delay_bound_s: PositiveSeconds = 0.010
    """d; Panarello et al. (AJEEE 2016) do not give it: Nedevschi et al.'s (NSDI 2008) 10 ms."""
    min_rate_change_interval_s: PositiveSeconds
    """mRCI; must exceed the port's transition_s."""
    ewma_weight: float = Field(0.25, gt=0, le=1)
    sample_interval_s: PositiveSeconds | None = None
    """T_s, the arrival-rate sampling interval; None (the default) samples once per mRCI."""


class CEarth(_Model):
    type: Literal["c_earth"] = "c_earth"


class Earth(_Model):
    type: Literal["earth"] = "earth"
    rates_bps: list[PortRate] = Field(min_length=1)


class FixedRate(_Model):
    type: Literal["fixed"] = "fixed"


RateControl = Annotated[CEarth | Earth | FixedRate, Field(discriminator="type")]


class GRouter(_Model):
    """AWM (rewrites the advertised window of ACKs to hold the queue near a target) with C-EARTH
    (continuous rate), EARTH (rate steps) or a fixed rate."""

    type: Literal["g_router"] = "g_router"
    target_bytes: float = Field(gt=0)
    gamma: float = Field(0.95, gt=0, le=1)
    beta_bps: float = Field(10e3, gt=0)
    mtu_bytes: float = Field(gt=0)
    initial_window_bytes: float = Field(65536.0, gt=0)
    initial_flows: float | None = Field(None, ge=1)
    """N₀ given directly (default 1); N₀·swnd₀/C₀ is the RTT estimate for the whole run (eqs. 5
    and 7 keep it). Excludes ``round_trip_propagation_s``."""
    round_trip_propagation_s: float | None = Field(None, gt=0)
    """The round-trip propagation delay known at configuration: N₀ then follows from eq. 6 of
    Lombardo, Panarello, Schembra (the G-router paper), N₀ = (RTT + T/C₀)·C₀/swnd₀, at least 1."""

    @model_validator(mode="after")
    def _one_flow_estimate(self) -> GRouter:
        if self.initial_flows is not None and self.round_trip_propagation_s is not None:
            raise ValueError("initial_flows: give initial_flows or round_trip_propagation_s, not both")
        return self

    min_rate_bps: float | None = Field(None, gt=0)
    """C_min; default 100 kb/s."""
    max_rate_bps: float | None = Field(None, gt=0)
    """C_max; default the port's initial rate."""
    rate_control: RateControl = Field(default_factory=CEarth)


class AdaptiveLinkRate(_Model):
    """Adaptive Link Rate: two rates, dual queue thresholds, optional utilisation monitoring."""

    type: Literal["adaptive_link_rate"] = "adaptive_link_rate"
    low_rate_bps: PortRate
    high_rate_bps: PortRate | None = None
    low_threshold_bytes: int = Field(0, ge=0, le=U64_MAX)
    high_threshold_bytes: int = Field(32 * 1024, ge=1, le=U64_MAX)
    utilization_window_s: PositiveSeconds | None = None
    utilization_threshold: float = Field(0.05, ge=0)


class OpportunisticSleep(_Model):
    """Opportunistic sleeping (Nedevschi et al. 2008): the port sleeps when its queue is empty and
    the predicted idle time exceeds 2δ, and wakes on the next arrival, whose delay grows by δ.
    Going to sleep and waking take δ each at active power; asleep, the port draws its power
    model's sleep_w. The idle time is predicted by an EWMA of past idle periods (from a departure
    that leaves the port empty to the next arrival)."""

    type: Literal["opportunistic_sleep"] = "opportunistic_sleep"
    transition_s: NonNegativeSeconds = 0.001
    """δ (assumption: 1 ms, as practRA's)."""
    ewma_weight: float = Field(0.25, gt=0, le=1)
    """Weight of the newest idle period."""
    initial_idle_s: NonNegativeSeconds | None = None
    """The prediction before any idle period; absent: the first idle period sets it."""


class ExternalPolicy(_Model):
    """A policy written in Python (``wattnet.policy``): an object whose ``observe(view)`` returns
    the port's next command, made per port as ``Class(port, **params)``."""

    type: Literal["external"] = "external"
    policy: str = Field(min_length=1)
    """The class, as "module:Class" (importable where the run happens), or a name given to
    ``wattnet.run(..., policies={name: Class})``."""
    interval_s: PositiveSeconds | None = None
    """The control interval: observe is called every interval_s."""
    per_packet: bool = False
    """Also call observe at every packet arrival and departure (costly: one Python call each)."""
    sleep_transition_s: PositiveSeconds | None = None
    """δ, if the policy may put its port to sleep."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class."""

    @model_validator(mode="after")
    def _called(self) -> ExternalPolicy:
        if self.interval_s is None and not self.per_packet:
            raise ValueError("set interval_s or per_packet, or the policy is never called")
        return self


Controller = Annotated[
    PracticalRateAdaptation | GRouter | AdaptiveLinkRate | OpportunisticSleep | ExternalPolicy,
    Field(discriminator="type"),
]


class UniformAvailableBandwidth(_Model):
    """A bottleneck elsewhere (as in Panarello et al., AJEEE 2016): the port's rate is redrawn at Exp(mean) epochs,
    uniformly from [min, max] (continuous, or in steps of ``step_bps``), without a transition."""

    type: Literal["uniform"] = "uniform"
    mean_interval_s: PositiveSeconds
    min_rate_bps: PortRate
    max_rate_bps: PortRate
    step_bps: PositiveRate | None = None

    @model_validator(mode="after")
    def _max_not_below_min(self) -> UniformAvailableBandwidth:
        if self.max_rate_bps < self.min_rate_bps:
            raise ValueError(f"max_rate_bps ({self.max_rate_bps}) must be at least min_rate_bps ({self.min_rate_bps})")
        return self


class PortOverride(_Model):
    """Settings of one direction of a link that differ from the link's own."""

    rate_bps: PortRate | None = None
    queue: Queue | None = None
    transition_s: NonNegativeSeconds | None = None
    error_rate: ErrorRate | None = None
    power: PowerModel | None = None
    lpi: Lpi | None = None
    controller: Controller | None = None
    """A power-management policy for this direction's output port."""
    available_bandwidth: UniformAvailableBandwidth | None = None
    """A bottleneck elsewhere: this direction's rate redraws itself over time."""


class Link(_Model):
    """A bidirectional link: two ports, one per direction, with the same propagation delay.

    ``rate_bps``, ``queue``, ``transition_s`` and ``error_rate`` apply to both directions
    unless a direction overrides them in ``a_to_b`` / ``b_to_a``.
    """

    a: str
    """One end (a node's name); the a->b port sends from it."""
    b: str
    """The other end; the b->a port sends from it."""
    rate_bps: PortRate
    """Service rate of each direction, bit/s (whole bit/s)."""
    delay_s: NonNegativeSeconds
    """One-way propagation delay."""
    queue: Queue = Field(default_factory=default_queue)
    """Each direction's queue; default DropTail of 1000 packets."""
    transition_s: NonNegativeSeconds = 0.0
    """How long a port sends nothing after a rate change."""
    error_rate: ErrorRate = 0.0
    """Probability that a packet is corrupted on the wire and discarded at the far end (Bernoulli, per packet)."""
    power: PowerModel | None = None
    """How each direction draws power; none: energy is not accounted."""
    lpi: Lpi | None = None
    """IEEE 802.3az low-power idle on both directions; none: the ports stay awake."""
    a_to_b: PortOverride | None = None
    """Settings of the a->b direction that differ from the link's (and its controller)."""
    b_to_a: PortOverride | None = None
    """Settings of the b->a direction that differ from the link's (and its controller)."""

    @model_validator(mode="after")
    def _one_way_to_sleep(self) -> Link:
        problems = []
        for direction in ("a_to_b", "b_to_a"):
            over = getattr(self, direction)
            if over is None or over.controller is None or over.controller.type != "opportunistic_sleep":
                continue
            if over.lpi is not None or self.lpi is not None:
                problem = "cannot put a port to sleep that already uses 802.3az low-power idle (lpi)"
                problems.append((f"{direction}.controller", problem))
        if problems:
            raise ScenarioError(problems)
        return self

    def port_names(self) -> tuple[str, str]:
        return f"{self.a}->{self.b}", f"{self.b}->{self.a}"


class Cbr(_Model):
    """Constant bit rate over UDP: packets spaced by size·8/rate."""

    type: Literal["cbr"] = "cbr"
    rate_bps: PortRate


class Poisson(_Model):
    """Poisson packet arrivals whose mean bit rate is ``rate_bps``."""

    type: Literal["poisson"] = "poisson"
    rate_bps: PositiveRate


class OnOff(_Model):
    """Exponential on periods sending CBR at ``peak_rate_bps``.

    Off periods are Exp(``off_mean_s``); or, with ``cycle_s``, an on period starts every
    ``cycle_s`` and lasts min(Exp(``on_mean_s``), ``cycle_s``). Set exactly one of the two.
    """

    type: Literal["on_off"] = "on_off"
    peak_rate_bps: PortRate
    on_mean_s: PositiveSeconds
    off_mean_s: PositiveSeconds | None = None
    cycle_s: PositiveSeconds | None = None

    @model_validator(mode="after")
    def _exactly_one_off_rule(self) -> OnOff:
        if (self.off_mean_s is None) == (self.cycle_s is None):
            raise ValueError("set exactly one of off_mean_s and cycle_s")
        return self


class Bulk(_Model):
    """TCP: an endless transfer (FTP, iperf)."""

    type: Literal["bulk"] = "bulk"


class Transfer(_Model):
    """TCP: one transfer of ``bytes``."""

    type: Literal["transfer"] = "transfer"
    bytes: int = Field(ge=1, le=I64_MAX)


class Serial(_Model):
    """TCP: ``files`` transfers of ``bytes`` each, one after the other, each a new connection
    opened as soon as the previous transfer completes."""

    type: Literal["serial"] = "serial"
    files: int = Field(ge=1, le=U32_MAX)
    bytes: int = Field(ge=1, le=I64_MAX)


class Web(_Model):
    """TCP, web-like: Poisson request arrivals, each a new connection to ``dst`` from a sender
    drawn uniformly from ``senders`` (default: ``src`` alone), carrying ⌈Pareto⌉ full segments
    with the given mean and shape (> 1), capped at ``max_segments`` if set. Requests stop at
    the flow's ``stop_s``."""

    type: Literal["web"] = "web"
    requests_per_s: float = Field(gt=0, le=MAX_REQUESTS_PER_S)
    mean_segments: float = Field(ge=1)
    shape: float = Field(gt=1)
    max_segments: int | None = Field(None, ge=1, le=U64_MAX)
    senders: list[str] = []


Traffic = Annotated[Cbr | Poisson | OnOff | Bulk | Transfer | Serial | Web, Field(discriminator="type")]
TCP_TRAFFIC = ("bulk", "transfer", "serial", "web")


class Tahoe(_Model):
    """Reno's window with Tahoe recovery: slow start from one segment after a loss."""

    type: Literal["tahoe"] = "tahoe"


class Reno(_Model):
    """RFC 5681 fast retransmit and fast recovery."""

    type: Literal["reno"] = "reno"


class NewReno(_Model):
    """RFC 6582: recovery continues through partial ACKs."""

    type: Literal["newreno"] = "newreno"


class Bic(_Model):
    """BIC (Linux tcp_bic.c constants)."""

    type: Literal["bic"] = "bic"
    beta: int = Field(819, ge=1, le=1023)
    """Multiplicative decrease in 1/1024 (819: cwnd × 0.8 on loss)."""
    b: int = Field(4, ge=2, le=U32_MAX)
    """Binary-search divisor (BICTCP_B)."""
    max_increment: int = Field(16, ge=1, le=U32_MAX)
    """Largest increase per RTT, in segments."""
    low_window: int = Field(14, ge=0, le=U32_MAX)
    """At or below this cwnd BIC behaves like Reno."""
    smooth_part: int = Field(20, ge=1, le=U32_MAX)
    fast_convergence: bool = True
    pre_loss_max_cnt: int = Field(20, ge=1, le=U32_MAX)
    """Before the first loss, at most this many ACKs per segment of growth."""
    initial_ssthresh: int = Field(0, ge=0, le=U32_MAX)
    """Segments; 0 keeps the sender's (100 in kernels up to about 2.6.18)."""


class Cubic(_Model):
    """CUBIC (RFC 9438)."""

    type: Literal["cubic"] = "cubic"
    c: float = Field(0.4, gt=0)
    """C in segments/s³."""
    beta: float = Field(0.7, gt=0, lt=1)
    """β_cubic (0.8 in kernels 2.6.19–2.6.25 and the ns-2 TCP-Linux copy)."""
    fast_convergence: bool = True
    tcp_friendliness: bool = True
    """The Reno-friendly region."""
    initial_ssthresh: int = Field(0, ge=0, le=U32_MAX)
    """Segments; 0 keeps the sender's."""


class Vegas(_Model):
    """Vegas; thresholds in segments queued in the network (ns-2 values 1/3/1; Linux 2/4/1)."""

    type: Literal["vegas"] = "vegas"
    alpha: float = Field(1.0, ge=0)
    beta: float = Field(3.0, ge=0)
    gamma: float = Field(1.0, ge=0)
    classic_diff: bool = False
    """diff = cwnd·(rtt − baseRTT)/rtt (Brakmo & Peterson) instead of Linux's /baseRTT."""

    @model_validator(mode="after")
    def _ordered(self) -> Vegas:
        if self.alpha > self.beta:
            raise ValueError(f"alpha ({self.alpha}) must not exceed beta ({self.beta})")
        return self


class Dctcp(_Model):
    """DCTCP (RFC 8257); always negotiates ECN."""

    type: Literal["dctcp"] = "dctcp"
    g: float = Field(1 / 16, gt=0, le=1)
    """Weight of the newest window in α."""
    alpha_init: float = Field(1.0, ge=0, le=1)


class ExternalCongestionControl(_Model):
    """An algorithm written in Python (``wattnet.cc``): one object per connection, made as
    ``Class(connection, **params)``, whose hooks the engine calls as it calls its own algorithms'.
    Loss recovery is NewReno's (SACK's with ``sack``)."""

    type: Literal["external"] = "external"
    algorithm: str = Field(min_length=1)
    """The class, as "module:Class" (importable where the run happens), or a name given to
    ``wattnet.run(..., algorithms={name: Class})``."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class."""


CongestionControl = Annotated[
    Tahoe | Reno | NewReno | Bic | Cubic | Vegas | Dctcp | ExternalCongestionControl, Field(discriminator="type")
]


class Tcp(_Model):
    """TCP settings; every field left out takes the value of ``profile``.

    ``rfc`` (the default): the plain RFCs (RFC 6298 timers, RFC 5681 initial window by MSS,
    200 ms delayed ACKs, no SACK, timestamps or later refinements). ``ns2``: ns-2.35's one-way
    agents (MSS 1000, no SACK, no delayed ACKs, initial window 2, initial RTO 3 s, minimum 0.2 s, 10 ms
    tick, one timed segment per RTT). ``ns3``: ns-3.44's defaults (MSS 536,
    initial window 10, SACK, timestamps, PRR, HyStart, minimum RTO 1 s). ``linux``: a current
    kernel (MSS 1448, initial window 10, SACK, timestamps, PRR, HyStart, minimum RTO 0.2 s, 40 ms
    delayed ACKs). ``docs/tcp-profiles.md`` lists every field per profile with its source.
    """

    profile: Literal["rfc", "ns2", "ns3", "linux"] = "rfc"
    congestion_control: CongestionControl | None = None
    """Default NewReno."""
    mss_bytes: int | None = Field(None, ge=1, le=U32_MAX)
    """Payload bytes per full segment; default 1460 (``ns2``: 1000, ``ns3``: 536, ``linux``: 1448)."""
    header_bytes: int | None = Field(None, ge=0, le=U32_MAX)
    """IP + TCP header bytes per packet; default 40."""
    initial_window_segments: float | None = Field(None, ge=1)
    initial_ssthresh_segments: float | None = Field(None, ge=1)
    """Default 2^31 segments ("arbitrarily high")."""
    abc_limit_segments: float | None = Field(None, ge=1)
    """RFC 3465 L: window growth credited per ACK at most; default 1 (ns2), 2 (linux)."""
    initial_rto_s: PositiveSeconds | None = None
    min_rto_s: NonNegativeSeconds | None = None
    max_rto_s: PositiveSeconds | None = None
    clock_granularity_s: NonNegativeSeconds | None = None
    delayed_ack_s: Annotated[float, Field(ge=0, lt=0.5), AfterValidator(on_the_clock)] | None = None
    """Delayed-ACK timeout (below 0.5 s, RFC 5681); 0 acknowledges every segment at once."""
    sack: bool | None = None
    ecn: bool | None = None
    """RFC 3168 ECN; DCTCP always negotiates ECN."""
    receive_window_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    """Receive buffer advertised as the window; default 1 GiB, never the limit (``ns3``: 131072)."""
    syn_retries: int | None = Field(None, ge=0, le=U32_MAX)
    """Default 6 (Linux tcp_syn_retries)."""
    dupthresh: int | None = Field(None, ge=1, le=U32_MAX)
    """Duplicate ACKs that trigger fast retransmit; default 3."""
    rtt_sampling: Literal["every_ack", "once_per_rtt"] | None = None
    opener: Literal["sender", "receiver"] | None = None
    """Which end sends the SYN; default the data sender."""
    timestamps: bool | None = None
    """RFC 7323 timestamps: an RTT sample from every ACK's echo, PAWS; 12 option bytes per segment."""
    limited_transmit: bool | None = None
    """RFC 3042: one new segment on each of the first two duplicate ACKs."""
    sack_limited_transmit: bool | None = None
    """RFC 6675 §5 step (3): with SACK, new data on the first duplicate ACKs as the pipe allows."""
    sack_across_rto: bool | None = None
    """RFC 6675 §5.1: keep the SACK scoreboard across a retransmission timeout (reneging clears it)."""
    prr: Literal["off", "ssrb", "crb"] | None = None
    """RFC 6937 proportional rate reduction in SACK recovery."""
    hystart: bool | None = None
    """CUBIC's HyStart delay-increase exit from slow start (Linux tcp_cubic.c)."""
    ssthresh_rule: Literal["flight_size", "cwnd"] | None = None
    """What a loss or ECN reduction halves into ssthresh: the FlightSize (RFC 5681 §3.1 eq. 4) or
    cwnd without the duplicate-ACK inflation (ns-2.35 tcp.cc slowdown()); default flight_size."""
    ssthresh_on_every_timeout: bool | None = None
    """Reduce ssthresh on every timeout, also inside a window already reduced (ns-2.35 slowdown()),
    instead of once per window (Linux tcp_enter_loss); default false."""
    reno_bug_fix: bool | None = None
    """Reno: no new fast retransmit until the data outstanding at the last one is acknowledged (ns-2.35 bugFix_,
    the test of RFC 6582 §3.2 step 2); default false."""

    @field_validator("max_rto_s")
    @classmethod
    def _max_not_below_min(cls, max_rto_s: float | None, info: ValidationInfo) -> float | None:
        min_rto_s = info.data.get("min_rto_s")
        if max_rto_s is not None and min_rto_s is not None and max_rto_s < min_rto_s:
            raise ValueError(f"must be at least min_rto_s ({min_rto_s})")
        return max_rto_s

    @field_validator("ecn")
    @classmethod
    def _dctcp_needs_ecn(cls, ecn: bool | None, info: ValidationInfo) -> bool | None:
        cc = info.data.get("congestion_control")
        if ecn is False and cc is not None and cc.type == "dctcp":
            raise ValueError("cannot be false with DCTCP, which needs ECN")
        return ecn


class FixedSize(_Model):
    type: Literal["fixed"] = "fixed"
    bytes: int = Field(ge=1, le=U32_MAX)


class ExponentialSize(_Model):
    """⌈Exp(mean)⌉ bytes, at least 1."""

    type: Literal["exponential"] = "exponential"
    mean_bytes: float = Field(ge=1)


class UniformSize(_Model):
    """Uniform integer in [min_bytes, max_bytes]."""

    type: Literal["uniform"] = "uniform"
    min_bytes: int = Field(ge=1, le=U32_MAX)
    max_bytes: int = Field(ge=1, le=U32_MAX)

    @field_validator("max_bytes")
    @classmethod
    def _not_below_min(cls, max_bytes: int, info: ValidationInfo) -> int:
        min_bytes = info.data.get("min_bytes")
        if min_bytes is not None and max_bytes < min_bytes:
            raise ValueError(f"must be at least min_bytes ({min_bytes})")
        return max_bytes


PacketSize = Annotated[FixedSize | ExponentialSize | UniformSize, Field(discriminator="type")]


def default_packet_size() -> FixedSize:
    return FixedSize(bytes=1000)


class Flow(_Model):
    """A unidirectional stream of packets from ``src`` to ``dst``."""

    name: str = Field(min_length=1)
    """Unique; it names the flow in the tables."""
    src: str
    """The sending node (for TCP, the data sender)."""
    dst: str
    """The receiving node."""
    traffic: Traffic
    """What is sent: UDP (cbr, poisson, on_off) or TCP (bulk, transfer, serial, web)."""
    packet_size: PacketSize = Field(default_factory=default_packet_size)
    """UDP only."""
    tcp: Tcp | None = None
    """TCP only; absent means the ``rfc`` profile with NewReno."""
    start_s: NonNegativeSeconds = 0.0
    """When it starts sending (TCP: opens its connection)."""
    stop_s: NonNegativeSeconds | None = None
    """UDP and web traffic: nothing starts at or after this time; absent means the end of the run."""
    path: list[str] | None = None
    """The ports ("from->to") the flow's packets take from ``src`` to ``dst``, whatever the
    forwarding tables say (TCP's ACKs take the same links back); absent: the tables decide."""

    @model_validator(mode="after")
    def _transport_fields(self) -> Flow:
        if self.traffic.type in TCP_TRAFFIC:
            if self.stop_s is not None and self.traffic.type != "web":
                raise ValueError("stop_s applies to UDP and web traffic only; a TCP transfer ends with its data")
        elif self.tcp is not None:
            raise ValueError(f"tcp applies to TCP traffic ({', '.join(TCP_TRAFFIC)}) only")
        return self

    @field_validator("stop_s")
    @classmethod
    def _after_start(cls, stop_s: float | None, info: ValidationInfo) -> float | None:
        start_s = info.data.get("start_s")
        if stop_s is not None and start_s is not None and stop_s <= start_s:
            raise ValueError(f"must be later than start_s ({start_s})")
        return stop_s


class SetRate(_Model):
    """Change a port's service rate."""

    action: Literal["set_rate"] = "set_rate"
    at_s: NonNegativeSeconds
    port: str
    """The port, named "from->to" after the link direction it sends along."""
    rate_bps: PortRate


class LinkDown(_Model):
    """Switch off the link between nodes ``a`` and ``b`` (either order): both its ports stop, and
    the packets they hold or carry are lost."""

    action: Literal["link_down"] = "link_down"
    at_s: NonNegativeSeconds
    a: str
    b: str


class LinkUp(_Model):
    """Switch the link between nodes ``a`` and ``b`` (either order) back on."""

    action: Literal["link_up"] = "link_up"
    at_s: NonNegativeSeconds
    a: str
    b: str


class Sleep(_Model):
    """From now on the port sleeps whenever it is idle and wakes on an arrival, each transition
    taking its ``transition_s`` at full power (802.3az ports keep their timings)."""

    action: Literal["sleep"] = "sleep"
    at_s: NonNegativeSeconds
    port: str


class Wake(_Model):
    """The port wakes if asleep and stays awake."""

    action: Literal["wake"] = "wake"
    at_s: NonNegativeSeconds
    port: str


Event = Annotated[SetRate | LinkDown | LinkUp | Sleep | Wake, Field(discriminator="action")]

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


class Scenario(_Model):
    """A network, its traffic and what to record: everything one run needs.

    Built from keyword arguments, ``Scenario.from_dict`` or ``load_scenario``; every field is
    validated and a ScenarioError names each one at fault. Quantities carry their unit in
    their names (``duration_s`` in seconds, ``rate_bps`` in bit/s). The scenario reference of
    the documentation lists every field.

    Example:
        >>> scenario = Scenario(seed=1, duration_s=10.0, nodes=[{"name": "a"}, {"name": "b"}],
        ...                     links=[{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001}])
        >>> scenario.links[0].port_names()
        ('a->b', 'b->a')
    """

    name: str = ""
    """Free text naming the scenario; it does not affect the run."""
    seed: int = Field(ge=0, le=U64_MAX)
    """Every random stream of the run (one per source, queue, link) derives from it: same scenario and
    seed, bit-identical results."""
    duration_s: PositiveSeconds
    """Simulated time the run lasts."""
    routing: Routing = Field(default_factory=Routing)
    """How paths are chosen and how the routers follow link changes."""
    nodes: list[Node] = Field(min_length=1)
    """Hosts and routers alike; a node's id is its position here."""
    links: list[Link] = []
    """Bidirectional links: one port (queue and transmitter) per direction."""
    flows: list[Flow] = []
    """The traffic: UDP sources and TCP applications."""
    events: list[Event] = []
    """Changes at given times: rates, links down and up, ports asleep and awake."""
    recorder: Recorder | None = None
    """What to sample over time into the timeseries table; absent records no time series."""
    pcap: list[Pcap] = []
    """Ports to capture into pcap files (classic libpcap, IPv4 packets, nanosecond timestamps)."""

    @model_validator(mode="after")
    def _references(self) -> Scenario:
        problems = _reference_problems(self)
        if problems:
            raise ScenarioError(problems)
        return self

    @classmethod
    def from_dict(cls, data: Any, base_dir: str | Path | None = None) -> Scenario:
        """Validates a scenario given as nested dicts and lists (e.g. parsed TOML or JSON); a
        composed one (``topology``, ``traffic``, ``apply``: ``wattnet.builders``) is expanded
        first, its files looked up in ``base_dir``.

        Raises ScenarioError listing every field at fault.

        Example:
            >>> scenario = Scenario.from_dict({"seed": 1, "duration_s": 2.0, "nodes": [{"name": "a"}]})
            >>> scenario.routing.ttl
            64
        """
        if not isinstance(data, dict):
            raise ScenarioError([("", f"a scenario is a table of fields, not {type(data).__name__}")])
        try:
            if any(key in data for key in ("topology", "traffic", "apply")):
                from wattnet.builders import expand  # a composed scenario: builder, generators, settings

                data = expand(data, base_dir)
            return cls(**data)
        except RecursionError:
            raise ScenarioError([("", "values nested too deeply to be a scenario")]) from None

    def with_settings(self, *, ports: Any = None, nodes: Any = None, **fields: Any) -> Scenario:
        """This scenario with ``fields`` set on every port (or node) the selector names
        (``wattnet.selectors``): e.g. ``with_settings(ports="core", transition_s=0.001)``."""
        from wattnet.selectors import apply_settings

        fields = {key: value.model_dump() if isinstance(value, BaseModel) else value for key, value in fields.items()}
        target = {"ports": ports} if nodes is None else {"nodes": nodes}
        return Scenario.from_dict(apply_settings(self.model_dump(), [{**target, **fields}]))

    def with_power(self, model: Any, ports: Any = "all") -> Scenario:
        return self.with_settings(ports=ports, power=model)

    def with_controller(self, controller: Any, ports: Any) -> Scenario:
        return self.with_settings(ports=ports, controller=controller)

    def with_queue(self, queue: Any, ports: Any = "all") -> Scenario:
        return self.with_settings(ports=ports, queue=queue)

    def with_sleep(
        self, at_s: float | list[float], ports: Any, wake_at_s: float | list[float] | None = None
    ) -> Scenario:
        """The selected ports sleep whenever idle from ``at_s`` (each time given), and stay awake from ``wake_at_s``."""
        return self.with_settings(
            ports=ports, sleep_at_s=at_s, **({} if wake_at_s is None else {"wake_at_s": wake_at_s})
        )

    def with_seed(self, seed: int) -> Scenario:
        """This scenario with another seed (0 to 2⁶⁴ − 1); everything else unchanged.

        Example:
            >>> load_scenario("examples/chain.toml").with_seed(7).seed
            7
        """
        return Scenario.from_dict({**self.model_dump(), "seed": seed})

    def to_engine_json(self) -> str:
        """The canonical JSON the engine reads: every field explicit, keys sorted, no spaces."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def to_toml(self) -> str:
        """The scenario as a TOML file that ``load_scenario`` reads back into an equal scenario.

        Every field is written, defaults included; fields that are absent (``None``) are left
        out, as TOML has no null. Top-level tables and lists of tables get their own sections,
        anything nested deeper is written inline.

        Example:
            >>> scenario = load_scenario("examples/chain.toml")
            >>> scenario_from_toml(scenario.to_toml()) == scenario
            True
        """
        from wattnet.toml_writer import to_toml

        return to_toml(self.model_dump(mode="json", exclude_none=True))

    def random_sources(self) -> list[str]:
        """The fields whose behaviour draws from the seed's random streams.

        Empty means every seed gives the same results, so replications of this scenario would
        all be identical. Random are: Poisson, on-off and web traffic, exponential and
        uniform packet sizes, RED queues, links with an ``error_rate``, and
        ``available_bandwidth``.

        Example:
            >>> load_scenario("examples/chain.toml").random_sources()
            ['flows[1].traffic', 'flows[1].packet_size']
        """
        sources = []
        for i, flow in enumerate(self.flows):
            if flow.traffic.type in ("poisson", "on_off", "web"):
                sources.append(f"flows[{i}].traffic")
            if flow.traffic.type not in TCP_TRAFFIC and flow.packet_size.type != "fixed":
                sources.append(f"flows[{i}].packet_size")
        for i, link in enumerate(self.links):
            for where, part in (("", link), (".a_to_b", link.a_to_b), (".b_to_a", link.b_to_a)):
                if part is None:
                    continue
                if part.queue is not None and part.queue.type == "red":
                    sources.append(f"links[{i}]{where}.queue")
                if part.error_rate:
                    sources.append(f"links[{i}]{where}.error_rate")
                if isinstance(part, PortOverride) and part.available_bandwidth is not None:
                    sources.append(f"links[{i}]{where}.available_bandwidth")
        return sources


# A flow offering more than this many times the fastest link's rate is taken for a typo: the
# excess can only be dropped at its first queue, at the cost of one event per packet.
MAX_OVERLOAD = 100


def scenario_from_toml(text: str) -> Scenario:
    """Validates a scenario written as TOML text (the format of ``load_scenario``'s files)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([("", f"invalid TOML: {error}")]) from None
    except RecursionError:
        raise ScenarioError([("", "values nested too deeply to read")]) from None
    return Scenario.from_dict(data)


def load_scenario(path: str | Path) -> Scenario:
    """Reads and validates a scenario file: TOML, or JSON for a name ending in ``.json``.

    The JSON is the ``scenario.json`` that ``wattnet run`` and ``Results.write`` write, so a
    run's own record runs again as it is.

    Example:
        >>> load_scenario("examples/chain.toml").duration_s
        10.0
    """
    path = Path(path)
    if path.suffix.lower() == ".json":
        text = _read_text(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScenarioError([("", f"{path}: invalid JSON: {error}")]) from None
        except RecursionError:
            raise ScenarioError([("", f"{path}: values nested too deeply to read")]) from None
        return Scenario.from_dict(data, base_dir=path.parent)
    return Scenario.from_dict(read_toml(path), base_dir=path.parent)


def _read_text(path: Path) -> str:
    """The file's text; ScenarioError naming the file when its bytes are not UTF-8 (OSError when
    it cannot be read)."""
    content = path.read_bytes()
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 text (byte {error.start} is {content[error.start]:#04x}); scenario files are UTF-8"
        raise ScenarioError([("", f"{path}: {problem}")]) from None


def read_toml(path: Path) -> dict[str, Any]:
    """The tables of a TOML file; ScenarioError naming the file and the problem when its bytes
    are not UTF-8 text, not TOML, or nested too deeply to read (OSError when it cannot be read)."""
    text = _read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([("", f"{path}: invalid TOML: {error}")]) from None
    except RecursionError:
        raise ScenarioError([("", f"{path}: values nested too deeply to read")]) from None


def _union_tags(union: Any) -> set[str]:
    members = get_args(union)[0]
    key = get_args(union)[1].discriminator
    return {get_args(member.model_fields[key].annotation)[0] for member in (get_args(members) or (members,))}


# Pydantic puts a union's tag in an error's location (("flows", 0, "traffic", "cbr", "rate_bps"));
# no field is named like a tag, so the tags can simply be dropped from the path.
_UNIONS = (Queue, Traffic, PacketSize, Event, CongestionControl, Reconvergence, PowerModel, Controller, RateControl)
_UNION_TAGS = set().union(*(_union_tags(union) for union in (*_UNIONS, HostPower)))


def _field_path(loc: tuple[str | int, ...]) -> str:
    path = ""
    for item in loc:
        if isinstance(item, int):
            path += f"[{item}]"
        elif item not in _UNION_TAGS:
            path += f".{item}" if path else item
    return path


def _join_path(prefix: str, field: str) -> str:
    if not prefix or not field:
        return prefix or field
    return prefix + field if field.startswith("[") else f"{prefix}.{field}"


def _field_errors(error: ValidationError) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    for detail in error.errors():
        loc, kind, message = tuple(detail["loc"]), detail["type"], detail["msg"]
        if kind == "extra_forbidden":
            message = "unknown field"
        elif kind == "missing":
            message = "required field is missing"
        elif kind == "union_tag_invalid":
            key = detail["ctx"]["discriminator"].strip("'")
            loc += (key,)
            message = f"unknown {key} {detail['ctx']['tag']!r}; expected one of {detail['ctx']['expected_tags']}"
        elif kind == "union_tag_not_found":
            loc += (detail["ctx"]["discriminator"].strip("'"),)
            message = "required field is missing"
        elif kind == "value_error" and isinstance(detail["ctx"]["error"], ScenarioError):
            # Raised by a nested model's __init__ (pydantic calls it as the model overrides it)
            # or by Scenario's cross-reference check, with paths relative to that model.
            prefix = _field_path(loc)
            errors.extend((_join_path(prefix, field), problem) for field, problem in detail["ctx"]["error"].errors)
            continue
        else:
            message = message.removeprefix("Value error, ")
            message = message[:1].lower() + message[1:]
            if isinstance(detail.get("input"), (int, float, str)) and kind != "value_error":
                message += f" (got {detail['input']!r})"
        errors.append((_field_path(loc), message))
    return errors


def _reference_problems(scenario: Scenario) -> list[tuple[str, str]]:
    """Checks what no single field can: names that must exist, be unique, or be connected."""
    problems: list[tuple[str, str]] = []
    nodes: dict[str, int] = {}
    for i, node in enumerate(scenario.nodes):
        if node.name in nodes:
            problems.append((f"nodes[{i}].name", f"duplicate node name {node.name!r} (also nodes[{nodes[node.name]}])"))
        else:
            nodes[node.name] = i

    component = {name: name for name in nodes}  # union-find over the links

    def root(name: str) -> str:
        while component[name] != name:
            component[name] = component[component[name]]
            name = component[name]
        return name

    ports: set[str] = set()
    node_pairs: dict[frozenset[str], int] = {}
    for i, link in enumerate(scenario.links):
        unknown = False
        for end in ("a", "b"):
            if getattr(link, end) not in nodes:
                problems.append((f"links[{i}].{end}", f"unknown node {getattr(link, end)!r}"))
                unknown = True
        if unknown:
            continue
        if link.a == link.b:
            problems.append((f"links[{i}].b", f"self-loop: a link joins two different nodes, both ends are {link.a!r}"))
            continue
        pair = frozenset((link.a, link.b))
        if pair in node_pairs:
            problems.append(
                (f"links[{i}]", f"duplicate link between {link.a!r} and {link.b!r} (also links[{node_pairs[pair]}])")
            )
            continue
        node_pairs[pair] = i
        ports.update(link.port_names())
        component[root(link.a)] = root(link.b)

    # A faulty link would make flows look disconnected and ports unknown: check those only without one.
    links_valid = not problems
    flow_names: dict[str, int] = {}
    for i, flow in enumerate(scenario.flows):
        if flow.name in flow_names:
            problems.append(
                (f"flows[{i}].name", f"duplicate flow name {flow.name!r} (also flows[{flow_names[flow.name]}])")
            )
        else:
            flow_names[flow.name] = i
        known = True
        for end in ("src", "dst"):
            if getattr(flow, end) not in nodes:
                problems.append((f"flows[{i}].{end}", f"unknown node {getattr(flow, end)!r}"))
                known = False
        if known and flow.src == flow.dst:
            problems.append((f"flows[{i}].dst", f"same node as src ({flow.src!r})"))
        elif known and links_valid and root(flow.src) != root(flow.dst):
            problems.append(
                (f"flows[{i}].dst", f"{flow.dst!r} is not connected to src {flow.src!r} by any path of links")
            )
        for k, sender in enumerate(getattr(flow.traffic, "senders", [])):
            if sender not in nodes:
                problems.append((f"flows[{i}].traffic.senders[{k}]", f"unknown node {sender!r}"))
            elif links_valid and known and root(sender) != root(flow.dst):
                problems.append(
                    (f"flows[{i}].traffic.senders[{k}]", f"{sender!r} is not connected to dst {flow.dst!r}")
                )
        if flow.path is not None and links_valid and known:
            problems += _pinned_path_problems(f"flows[{i}]", flow, ports)
        if flow.start_s >= scenario.duration_s:
            problems.append(
                (f"flows[{i}].start_s", f"at or after the end of the run (duration_s = {scenario.duration_s})")
            )

    for i, event in enumerate(scenario.events):
        if event.at_s > scenario.duration_s:
            problems.append((f"events[{i}].at_s", f"outside the run [0, duration_s = {scenario.duration_s}]"))
        if isinstance(event, (SetRate, Sleep, Wake)):
            if links_valid and event.port not in ports:
                problems.append((f"events[{i}].port", _unknown_port(event.port)))
            continue
        known = True
        for end in ("a", "b"):
            if getattr(event, end) not in nodes:
                problems.append((f"events[{i}].{end}", f"unknown node {getattr(event, end)!r}"))
                known = False
        if known and links_valid and frozenset((event.a, event.b)) not in node_pairs:
            problems.append((f"events[{i}].b", f"no link between {event.a!r} and {event.b!r}"))

    if scenario.recorder is not None:
        for i, port in enumerate(scenario.recorder.ports):
            if links_valid and port not in ports:
                problems.append((f"recorder.ports[{i}]", _unknown_port(port)))
            elif port in scenario.recorder.ports[:i]:
                problems.append((f"recorder.ports[{i}]", f"port {port!r} listed twice"))
        for i, quantity in enumerate(scenario.recorder.quantities):
            if quantity in scenario.recorder.quantities[:i]:
                problems.append((f"recorder.quantities[{i}]", f"quantity {quantity!r} listed twice"))
        tcp_flows = {f.name for f in scenario.flows if f.traffic.type in TCP_TRAFFIC}
        for key in ("flows", "trace_flows"):
            for i, name in enumerate(getattr(scenario.recorder, key)):
                if name not in flow_names:
                    problems.append((f"recorder.{key}[{i}]", f"unknown flow {name!r}"))
                elif name not in tcp_flows:
                    problems.append((f"recorder.{key}[{i}]", f"flow {name!r} is not a TCP flow"))

    for i, capture in enumerate(scenario.pcap):
        if links_valid and capture.port not in ports:
            problems.append((f"pcap[{i}].port", _unknown_port(capture.port)))
        elif any(other.port == capture.port for other in scenario.pcap[:i]):
            problems.append((f"pcap[{i}].port", f"port {capture.port!r} is captured twice"))
    if scenario.pcap and len(scenario.nodes) > MAX_PCAP_NODES:
        problems.append(("pcap", f"captures address at most {MAX_PCAP_NODES} nodes (10.0.0.0/8)"))
    return problems + _overload_problems(scenario)


def _overload_problems(scenario: Scenario) -> list[tuple[str, str]]:
    """A UDP flow offering more than MAX_OVERLOAD times the fastest link's rate (1e12 for 10e6, say)."""
    rates = [link.rate_bps for link in scenario.links]
    rates += [o.rate_bps for link in scenario.links for o in (link.a_to_b, link.b_to_a) if o and o.rate_bps]
    if not rates:
        return []
    fastest = max(rates)
    problems = []
    for i, flow in enumerate(scenario.flows):
        traffic = flow.traffic
        field, offered = (
            ("rate_bps", traffic.rate_bps) if isinstance(traffic, (Cbr, Poisson))
            else ("peak_rate_bps", traffic.peak_rate_bps) if isinstance(traffic, OnOff)
            else ("", 0.0)
        )  # fmt: skip
        if offered > MAX_OVERLOAD * fastest:
            problem = (
                f"{offered:g} b/s is {offered / fastest:.3g} times the fastest link's rate ({fastest:g} b/s); "
                f"a flow may offer at most {MAX_OVERLOAD} times that (a typo in the exponent?)"
            )
            problems.append((f"flows[{i}].traffic.{field}", problem))
    return problems


def _pinned_path_problems(field: str, flow: Flow, ports: set[str]) -> list[tuple[str, str]]:
    """A pinned path: known ports, each starting where the previous one ends, from the flow's
    src to its dst, visiting each node once; a web flow's requests all come from its src."""
    if not flow.path:
        return [(f"{field}.path", 'must name at least one port ("from->to")')]
    if any(sender != flow.src for sender in getattr(flow.traffic, "senders", [])):
        return [(f"{field}.path", "cannot pin a web flow whose requests come from other senders")]
    at, visited = flow.src, {flow.src}
    for k, port in enumerate(flow.path):
        if port not in ports:
            return [(f"{field}.path[{k}]", _unknown_port(port))]
        start, end = port.split("->")
        if start != at:
            whence = "the flow's src" if k == 0 else "the previous port's end"
            return [(f"{field}.path[{k}]", f"port {port!r} does not start at {whence}, {at!r}")]
        if end in visited:
            return [(f"{field}.path[{k}]", f"port {port!r} returns to node {end!r}: a path visits each node once")]
        at = end
        visited.add(end)
    if at != flow.dst:
        return [(f"{field}.path", f"ends at {at!r}, not at the flow's dst {flow.dst!r}")]
    return []


def _unknown_port(port: str) -> str:
    return f'unknown port {port!r}; a port is named "from->to" after a link between the nodes from and to'
