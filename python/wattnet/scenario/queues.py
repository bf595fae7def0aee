"""Queue disciplines of a port: DropTail, RED, threshold marking."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from wattnet.errors import ScenarioError
from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U32_MAX, U64_MAX


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
    count_in_service: bool | None = None
    """Whether the packet being transmitted counts towards the limit; null: the preset's (``wattnet`` true,
    ``ns2`` false: ns-2.35's RED lets ``limit_`` packets wait besides it)."""
    preset: Literal["wattnet", "ns2"] = "wattnet"
    """Where the rules below take their values when left null: ``wattnet`` (Floyd & Jacobson's Figure 2) or
    ``ns2`` (ns-2.35's ``red.cc`` as shipped; docs/models/queue-management.md §2)."""
    admit_below_limit: bool | None = None
    """A byte limit admits an arrival while the bytes waiting are below it, even if the packet then passes it
    (ns-2.35: drop when qlen ≥ qlim); false: only a packet that fits whole. Null: the preset's (``ns2`` true)."""
    early_needs_backlog: bool | None = None
    """No early drop or mark unless more than one packet (byte mode: one byte) waits (ns-2.35 ``qlen > 1``).
    Null: the preset's (``ns2`` true)."""
    count_rule: Literal["floyd", "ns2"] | None = None
    """How count starts in the early region: ``floyd`` (−1 below min_th, so the first arrival decides with 0) or
    ``ns2`` (the first arrival of a stretch sets 1 and passes). Null: the preset's."""
    count_bytes: bool | None = None
    """Space drops by the bytes since the last one ÷ mean_packet_bytes and scale the spread probability by
    size/mean_packet_bytes afterwards (ns-2.35 ``bytes_``); in byte mode this replaces the scaling of p_b before
    spreading. Null: the preset's (``ns2`` true)."""
    use_mark_p: bool | None = None
    """With ``ecn``: mark only while p_b ≤ ``mark_p``, drop above it (also ECN-capable packets), no forced region
    (ns-2.35 ``use_mark_p_``). Null: the preset's (``ns2`` true)."""
    mark_p: float = Field(0.1, ge=0, le=1)
    """ns-2.35 ``mark_p_``: the largest p_b at which ``use_mark_p`` marks."""

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
