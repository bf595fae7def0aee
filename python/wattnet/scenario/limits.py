"""The engine's limits (integer widths, the picosecond clock, rates) and the constrained number
types the models' fields share.
"""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import AfterValidator, Field

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
