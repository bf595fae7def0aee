"""TCP settings: the profile, the congestion-control algorithm and every field a profile sets."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, ValidationInfo, field_validator, model_validator

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U32_MAX, U64_MAX, NonNegativeSeconds, PositiveSeconds, on_the_clock


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
    """diff = cwnd·(rtt − baseRTT)/rtt (Brakmo & Peterson) instead of Linux's /baseRTT (the linux variant only)."""
    variant: Literal["linux", "ns2"] | None = None
    """Whose Vegas: Linux's tcp_vegas.c, or ns-2.35's agent (mean RTT per round, a rounded queue estimate, slow
    start left early with a 1/8 cut, a 1/4 cut on duplicate ACKs, 2 segments after a timeout); absent, the
    profile's (``ns2``: ns2, the others: linux)."""

    @model_validator(mode="after")
    def _ordered(self) -> Vegas:
        if self.alpha > self.beta:
            raise ValueError(f"alpha ({self.alpha}) must not exceed beta ({self.beta})")
        if self.classic_diff and self.variant == "ns2":
            raise ValueError("classic_diff applies to the linux variant only; ns-2's Vegas has its own queue estimate")
        return self


class Dctcp(_Model):
    """DCTCP (RFC 8257); always negotiates ECN."""

    type: Literal["dctcp"] = "dctcp"
    g: float = Field(1 / 16, gt=0, le=1)
    """Weight of the newest window in α."""
    alpha_init: float = Field(1.0, ge=0, le=1)


# Multipath TCP's coupled algorithms (docs/models/mptcp-congestion-control.md). On a single-path
# flow each is a group of one subflow; a single-path algorithm on a multipath flow runs uncoupled.


class Lia(_Model):
    """LIA, linked increases (RFC 6356): min(α/W, 1/w_r) per ACK, halving on loss."""

    type: Literal["lia"] = "lia"
    cap_1_over_w: bool = True
    """RFC 6356 §3's cap of the increase at Reno's 1/w_r."""
    ssthresh_in_recovery: bool = False
    """Count a sibling in fast recovery by its ssthresh instead of its inflated cwnd."""


class Olia(_Model):
    """OLIA (Khalili et al., CoNEXT 2012; Linux mptcp_olia.c)."""

    type: Literal["olia"] = "olia"
    ssthresh_in_recovery: bool = True
    """Count a subflow in fast recovery by its ssthresh (Linux mptcp_get_crt_cwnd)."""


class Balia(_Model):
    """Balia (Peng, Walid, Hwang, Low, IEEE/ACM ToN 2016; Linux mptcp_balia.c)."""

    type: Literal["balia"] = "balia"
    md_cap: float = Field(1.5, ge=1, le=2)
    """The cap on α_r in the decrease (w_r/2)·min(α_r, md_cap)."""


class Ewtcp(_Model):
    """EWTCP (Honda et al., PFLDNeT 2009): Reno on each subflow with the increase a/w_r."""

    type: Literal["ewtcp"] = "ewtcp"
    a: float | None = Field(None, gt=0, le=1)
    """The weight of the increase; absent: 1/√n for n subflows (1/n² gives one TCP's total rate)."""


class Coupled(_Model):
    """Fully coupled control (Kelly & Voice 2005; Han et al. 2006); loss: w_r = max(w_r − W/2, 1)."""

    type: Literal["coupled"] = "coupled"
    increase: Literal["psi", "wischik"] = "psi"
    """``psi``: w_r/W² per ACK (Zhao, Liu, Wang's form); ``wischik``: 1/W (Wischik et al., NSDI 2011)."""


class EcMtcp(_Model):
    """ecMTCP (Le et al., IEEE Comm. Letters 2012) as Zhao, Liu, Wang write it: LIA × a loss-rate ratio."""

    type: Literal["ecmtcp"] = "ecmtcp"
    ratio: Literal["route_over_best", "best_over_route"] = "route_over_best"
    """p_r/p_h as printed, or p_h/p_r (h: the subflow with the largest rate)."""
    loss_weight: float = Field(0.125, gt=0, le=1)
    """Weight of the newest loss-event sample in the loss-rate EWMA."""
    cap_1_over_w: bool = True
    """Cap the increase at Reno's 1/w_r, as LIA does."""


class Dwc(_Model):
    """DWC (Hassayoun, Iyengar, Ros, ICNP 2011) in Zhao, Liu, Wang's increase rtt_r/(n·min rtt·W)."""

    type: Literal["dwc"] = "dwc"
    grouping: bool = False
    """Couple only the subflows that signalled congestion within one RTT of each other (shared bottleneck)."""
    rtt_rise: float | None = Field(None, gt=0)
    """With grouping: a sibling whose SRTT exceeds (1 + rtt_rise) × its minimum RTT also counts as congested."""


class WVegas(_Model):
    """wVegas (Cao, Xu, Fu, ICNP 2012; Linux mptcp_wvegas.c); thresholds in packets."""

    type: Literal["wvegas"] = "wvegas"
    initial_alpha: float = Field(2.0, ge=0)
    """α_r at start and after each recovery."""
    total_alpha: float = Field(10.0, ge=0)
    """Packets the whole connection aims to keep queued, shared by rate."""
    gamma: float = Field(1.0, ge=0)
    """Queued packets above which slow start ends."""


class Dts(_Model):
    """DTS, delay-based traffic shifting (Zhao, Liu, Wang, IEEE 2017, §V, corrected Algorithm 1)."""

    type: Literal["dts"] = "dts"
    c: float = Field(1.0, gt=0)
    """ψ_r = c·ε_r."""
    steepness: float = Field(10.0, gt=0)
    """k in ε_r = 2/(1 + exp(−k(baseRTT_r/RTT_r − ½)))."""
    taylor: bool = False
    """ε_r from Algorithm 1's corrected integer cubic (exact where the cubic is not positive)."""
    cap_1_over_w: bool = False
    """Cap the increase at Reno's 1/w_r; the paper has none."""
    phi: bool = False
    """Subtract the energy price φ_r: the network then counts congested switch-to-switch hops."""
    kappa: float = Field(1e-4, ge=0)
    """κ_s: the per-ACK decrement is κ_s·w_r·Σ over the path's switch-to-switch hops of (ρ + 1[queue > Q])."""
    rho: float = Field(1.0, ge=0)
    """ρ, the energy cost per switch-to-switch hop."""
    expected_queue: float = Field(0.2, ge=0, le=1)
    """Q, as a fraction of each port's buffer."""


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


_SinglePath = Tahoe | Reno | NewReno | Bic | Cubic | Vegas | Dctcp
_Coupled = Lia | Olia | Balia | Ewtcp | Coupled | EcMtcp | Dwc | WVegas | Dts
CongestionControl = Annotated[_SinglePath | _Coupled | ExternalCongestionControl, Field(discriminator="type")]


def _not_below(value: float | None, lower_field: str, info: ValidationInfo) -> float | None:
    """A maximum is at least its minimum, ``lower_field``, when both are given."""
    lower = info.data.get(lower_field)
    if value is not None and lower is not None and value < lower:
        raise ValueError(f"must be at least {lower_field} ({lower})")
    return value


class Tcp(_Model):
    """TCP settings; every field left out takes the value of ``profile``.

    ``rfc`` (the default): the plain RFCs (RFC 6298 timers, RFC 5681 initial window by MSS,
    200 ms delayed ACKs, no SACK, timestamps or later refinements). ``ns2``: ns-2.35's one-way
    agents (MSS 1000, no SACK, no delayed ACKs, initial window 2, initial RTO 3 s, minimum 0.2 s, 10 ms
    tick, one timed segment per RTT, ssthresh from cwnd, reduced again on every timeout, Reno's bugFix_; BIC and
    CUBIC with its TCP-Linux agent's rules for lost retransmissions and the timer). ``ns3``: ns-3.44's defaults (MSS 536,
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
    limited_transmit_after_timeout: bool | None = None
    """With limited_transmit, its segments also while resending after a timeout: the next segments of the go-back-N
    resend (ns-2.35 tcp.cc send_one() sends the segment at t_seqno_ in any state); RFC 3042 sends only new data;
    default false (``ns2``: true)."""
    sack_limited_transmit: bool | None = None
    """RFC 6675 §5 step (3): with SACK, new data on the first duplicate ACKs as the pipe allows."""
    sack_across_rto: bool | None = None
    """RFC 6675 §5.1: keep the SACK scoreboard across a retransmission timeout (reneging clears it)."""
    prr: Literal["off", "ssrb", "crb"] | None = None
    """RFC 6937 proportional rate reduction in SACK recovery."""
    hystart: bool | None = None
    """CUBIC's HyStart delay-increase exit from slow start (Linux tcp_cubic.c)."""
    hystart_delay_fraction: float | None = Field(None, gt=0)
    """HyStart ends slow start when a round's minimum RTT exceeds the connection's minimum by this fraction of it,
    clamped to [hystart_delay_min_s, hystart_delay_max_s]: 1/8 (Linux tcp_cubic.c; also ns2, rfc) or 1 (ns3,
    ns-3.44 TcpCubic::HystartDelayThresh)."""
    hystart_delay_min_s: NonNegativeSeconds | None = None
    """The threshold's floor: 0.004 s in every profile."""
    hystart_delay_max_s: NonNegativeSeconds | None = None
    """The threshold's cap: 0.016 s (Linux, ns2, rfc) or 1 s (ns3's HyStartDelayMax)."""
    hystart_smoothed_rtt: bool | None = None
    """HyStart compares smoothed RTTs (ns3: ns-3.44's TcpCubic is given TcpSocketBase's RTT estimate) instead of the
    RTT samples (Linux, ns2, rfc)."""
    ssthresh_rule: Literal["flight_size", "cwnd"] | None = None
    """What a loss or ECN reduction halves into ssthresh: the FlightSize (RFC 5681 §3.1 eq. 4) or
    cwnd without the duplicate-ACK inflation (ns-2.35 tcp.cc slowdown()); default flight_size (``ns2``: cwnd)."""
    ssthresh_on_every_timeout: bool | None = None
    """Reduce ssthresh on every timeout, also inside a window already reduced (ns-2.35 slowdown(), and
    enter_loss() of its TCP-Linux agent), instead of once per window (Linux tcp_enter_loss); default false
    (``ns2``: true)."""
    reno_bug_fix: bool | None = None
    """Reno: no new fast retransmit until the data outstanding at the last one is acknowledged (ns-2.35 bugFix_,
    the test of RFC 6582 §3.2 step 2); default false (``ns2``: true)."""
    ecn_halve_cwnd: bool | None = None
    """After an ECN-Echo, cwnd = half of min(cwnd, receive window), fraction kept, at least one segment (ns-2.35
    tcp.cc ecn(): slowdown(CLOSE_CWND_HALF) with precisionReduce_ true) instead of the new ssthresh (RFC 3168 §6.1.2,
    at least two segments); classic ECN only (DCTCP keeps RFC 8257's reduction); default false (``ns2``: true)."""
    ecn_cwnd_below_one: bool | None = None
    """With ecn_halve_cwnd, no floor of one segment: an ECN-Echo below two segments leaves cwnd under one, and the
    sender sends nothing until its retransmission timer expires, then resumes with cwnd 1 (ns-2.35 tcp.cc ecn(),
    newtimer(), timeout(); RFC 3168 §6.1.2's wait); default false."""
    precision_reduce: bool | None = None
    """A reduction halves cwnd keeping its fraction and truncates only ssthresh (ns-2.35 tcp.cc slowdown() with
    precisionReduce_ true): ssthresh = floor(half), fast recovery inflates the half and ends with cwnd = half; with
    ``ssthresh_rule = "cwnd"`` the half is taken of the unrounded cwnd. Default false (RFC 5681 §3.2: cwnd = ssthresh)."""
    grow_on_recovery_exit: bool | None = None
    """The ACK that ends fast recovery also grows the window, as every new ACK outside recovery does (ns-2.35
    recv_newack_helper() → opencwnd()); default false (RFC 5681 §3.2 step 6, RFC 6582 §3.2 step 3)."""
    rtt_in_ticks: bool | None = None
    """RTT samples counted in whole ticks of clock_granularity_s (the tick boundaries between send and ACK, at least
    one) and smoothed in integer eighths and quarters of a tick, RTO = floor(SRTT + 4·RTTVAR) ticks, at least
    min_rto_s (ns-2.35 tcp.cc rtt_update(), rtt_timeout()); default false (RFC 6298 §2 on the exact samples)."""
    mark_lost_retransmissions: bool | None = None
    """With SACK, a retransmission is lost once data first sent after it is SACKed, or once a retransmission sent
    more than dupthresh + 1 after it is acknowledged, and is resent without waiting for the timer (ns-2.35's TCP-Linux
    agent, scoreboard1.cc; Linux 2.6 tcp_mark_lost_retrans); default false (``ns2``: true for BIC and CUBIC, which
    ns-2 runs in that agent)."""
    rto_restart_on_every_ack: bool | None = None
    """Restart the retransmission timer on every ACK while data is outstanding, duplicate ACKs included (ns-2.35's
    TCP-Linux agent, tcp-linux.cc time_processing()), instead of only when new data is acknowledged (RFC 6298 §5.3);
    default false (``ns2``: true for BIC and CUBIC)."""

    @field_validator("max_rto_s")
    @classmethod
    def _max_rto_not_below_min(cls, max_rto_s: float | None, info: ValidationInfo) -> float | None:
        return _not_below(max_rto_s, "min_rto_s", info)

    @field_validator("hystart_delay_max_s")
    @classmethod
    def _hystart_max_not_below_min(cls, max_s: float | None, info: ValidationInfo) -> float | None:
        return _not_below(max_s, "hystart_delay_min_s", info)

    @field_validator("ecn")
    @classmethod
    def _dctcp_needs_ecn(cls, ecn: bool | None, info: ValidationInfo) -> bool | None:
        cc = info.data.get("congestion_control")
        if ecn is False and cc is not None and cc.type == "dctcp":
            raise ValueError("cannot be false with DCTCP, which needs ECN")
        return ecn
