"""What stands in for a reference value: the simulated analogue of each testbed target, and why
the simulated targets have no ns-2.35 value."""

from __future__ import annotations

from typing import Any

ANALOGUES = {
    "MPTCP draws more power than TCP, more with more subflows": (
        "a two-NIC host (2 × 100 Mb/s) and a WiFi + LTE phone transferring with TCP and with MPTCP (LIA, 1–4 "
        "subflows per path), their mean host power from the Ethernet and WiFi models"
    ),
    "energy falls with throughput, power +15 % (Ethernet)": (
        "one MPTCP connection over one path of 200–1000 Mb/s with the Ethernet model (calibrated to this "
        "statement, so the analogue checks the energy integral, not the hardware)"
    ),
    "power +90 %, about linear (WiFi)": (
        "one MPTCP connection over one path of 10–50 Mb/s with the WiFi model (calibrated to this statement)"
    ),
    "higher-RTT paths draw more power": "1 vs 2 subflows per path on the two-NIC host: their SRTT and mean power",
    "OLIA has the lowest mean energy, the gap growing with N": (
        "Fig. 5a simulated: N MPTCP and 2N Reno users over two 100 Mb/s bottlenecks, 16 MB each, Ethernet model"
    ),
    "LIA shifts traffic best among the existing algorithms": (
        "Fig. 5b simulated: two 100 Mb/s paths, each with 45 Mb/s bursts (Pareto lengths, mean 5 s, about every "
        "10 s); shift score = share of the MPTCP rate on the burst-free path while one path bursts"
    ),
    "DTS saves up to 20 % energy vs LIA without lower throughput": "the same simulated Fig. 5b, DTS against LIA",
    "DTS saves up to 70 % energy vs TCP and DCTCP; DTS ≈ LIA": (
        "40 hosts with four 256 Mb/s interfaces on four subnet switches, permutation traffic, Ethernet model"
    ),
}
NO_REFERENCE = (
    "ns-2.35 has no Multipath TCP and htsim no energy model, so no simulator the paper used gives a reference "
    "value; host energy is wattnet's model of the paper's eq. 2 (docs/models/energy.md)."
)


def explanations(check_list: list[dict[str, Any]]) -> dict[str, str]:
    """Beside each verdict: for a testbed target, whether its analogue shows the paper's result;
    for a simulated one, why there is no reference value."""
    out = {}
    for c in check_list:
        if c["id"] in ANALOGUES:
            out[c["id"]] = (
                "The analogue shows the paper's result."
                if c["pass"]
                else ("The analogue does not show the paper's result (see the values).")
            )
        else:
            out[c["id"]] = NO_REFERENCE
    return out
