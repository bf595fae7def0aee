"""Flows: their ends, traffic, packet sizes, TCP settings, start and stop, pinned path."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U32_MAX, NonNegativeSeconds
from wattnet.scenario.tcp import Tcp
from wattnet.scenario.traffic import TCP_TRAFFIC, Traffic


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
