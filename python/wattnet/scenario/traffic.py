"""What a flow sends: UDP sources (CBR, Poisson, on-off) and TCP applications."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import (
    I64_MAX,
    MAX_REQUESTS_PER_S,
    U32_MAX,
    U64_MAX,
    PortRate,
    PositiveRate,
    PositiveSeconds,
)


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
