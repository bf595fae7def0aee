"""ns-3.44's side: a validation scenario as a command line of ``validation/ns3/dumbbell.cc``.

The program is compiled against the ``ns3`` wheel's headers and libraries by
``validation/ns3/build.sh`` (``make ns3`` installs the wheel). TCP keeps ns-3's defaults
except ``SegmentSize`` (1448), ``SndBufSize``/``RcvBufSize`` (4 MiB, so the buffers never
limit the window) and ``UseEcn`` on the RED-ECN scenarios.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from wattnet.validation.scenarios import (
    ACCESS_BUFFER_PACKETS,
    ACCESS_RATE_BPS,
    RECEIVER_DELAY_S,
    ValidationScenario,
)

NS3_DIR = Path(__file__).resolve().parents[3] / "validation" / "ns3"
SOURCE = NS3_DIR / "dumbbell.cc"
BINARY = NS3_DIR / "build" / "dumbbell"
BUFFER_BYTES = 4 * 1024 * 1024


def version() -> str:
    try:
        return f"ns-3.44 (PyPI wheel ns3 {metadata.version('ns3')})"
    except metadata.PackageNotFoundError:
        return "ns-3 (wheel not installed)"


def build(source: Path = SOURCE, binary: Path = BINARY) -> Path:
    """Compiles ``source`` unless ``binary`` is newer; returns the binary."""
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return binary
    done = subprocess.run(
        ["sh", str(NS3_DIR / "build.sh"), sys.executable, str(source), str(binary)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"compiling {source.name} against the ns3 wheel failed: {done.stderr.strip()[-2000:]}")
    return binary


def command(scenario: ValidationScenario, binary: Path = BINARY) -> list[str]:
    s = scenario
    flows = ",".join(f"{f.access_delay_s}:{f.start_s}:{f.files}:{f.file_bytes}" for f in s.flows)
    red = s.red
    return [
        str(binary),
        f"--cc={s.congestion_control}",
        f"--queue={s.queue}",
        f"--flows={flows}",
        f"--limit={s.queue_limit_packets}",
        f"--rate={s.bottleneck_rate_bps:.0f}",
        f"--delay={s.bottleneck_delay_s}",
        f"--accessRate={ACCESS_RATE_BPS:.0f}",
        f"--receiverDelay={RECEIVER_DELAY_S}",
        f"--accessBuffer={ACCESS_BUFFER_PACKETS}",
        f"--duration={s.duration_s}",
        f"--minTh={red.min_th}",
        f"--maxTh={red.max_th}",
        f"--maxP={red.max_p}",
        f"--qw={red.w_q}",
        f"--gentle={int(red.gentle)}",
        f"--meanPktSize={red.mean_packet_bytes}",
        f"--buffer={BUFFER_BYTES}",
    ]


def parse(scenario: ValidationScenario, stdout: str) -> dict[str, Any]:
    flows = []
    drops = marks = None
    for line in stdout.splitlines():
        words = line.split()
        if words and words[0] == "flow":
            _, _, delivered, rexmit, timeouts, completed, transfer_time = words
            flows.append(
                {
                    "delivered_bytes": int(delivered),
                    "retransmissions": int(rexmit),
                    "timeouts": int(timeouts),
                    "transfers_completed": int(completed),
                    "transfer_time_s": float(transfer_time),
                }
            )
        elif words and words[0] == "queue":
            drops, marks = int(words[1]), int(words[2])
    if len(flows) != len(scenario.flows) or drops is None:
        raise RuntimeError(f"{scenario.name}: unexpected output of the ns-3 program: {stdout[-500:]}")
    return {"flows": flows, "drops": drops, "marks": marks}


def run(scenario: ValidationScenario) -> dict[str, Any]:
    binary = build()
    done = subprocess.run(command(scenario, binary), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{scenario.name}: the ns-3 program failed ({done.returncode}): {done.stderr[-2000:]}")
    return parse(scenario, done.stdout)
