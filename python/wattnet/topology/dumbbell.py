"""The dumbbell: senders — left router — bottleneck — right router — receivers."""

from __future__ import annotations

from typing import Any

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named


def dumbbell(
    n_pairs: int,
    bottleneck_rate_bps: float,
    bottleneck_delay_s: float,
    access_rate_bps: float,
    access_delay_s: float,
    buffer_packets: int,
    access_buffer_packets: int | None = None,
    *,
    n_senders: int | None = None,
    n_receivers: int | None = None,
    bottleneck_left_to_right: dict[str, Any] | None = None,
    bottleneck_right_to_left: dict[str, Any] | None = None,
    sender_access_error_rate: float = 0.0,
    receiver_access_error_rate: float = 0.0,
) -> Topology:
    """Senders ``s0..`` on router ``left``, receivers ``r0..`` on router ``right``.

    Every link is oriented along the data (a = the sender's side), so a link's ``a_to_b`` is
    the data direction. The bottleneck ``left``–``right`` has ``buffer_packets`` in both
    directions; ``bottleneck_left_to_right`` / ``bottleneck_right_to_left`` are per-direction
    overrides (``rate_bps``, ``queue``, ``transition_s``, ``error_rate``). Access links have
    ``access_buffer_packets`` (default ``buffer_packets``). ``n_senders`` / ``n_receivers``
    replace ``n_pairs`` on one side.

    Pentikousis & Badr (n clients downloading from one server, the bottleneck queue on router B's output
    toward A): ``dumbbell(n, 1.5e6, d, 10e6, 0.0005, 1000, n_senders=1,
    bottleneck_left_to_right={"queue": {"type": "droptail", "limit_packets": ql}},
    receiver_access_error_rate=0.01)``: the server is ``s0``, router B is ``left``.
    """
    checks = ParameterChecks()
    checks.count("n_pairs", n_pairs)
    for parameter, value in (("n_senders", n_senders), ("n_receivers", n_receivers)):
        if value is not None:
            checks.count(parameter, value)
    checks.rate("bottleneck_rate_bps", bottleneck_rate_bps)
    checks.seconds("bottleneck_delay_s", bottleneck_delay_s)
    checks.rate("access_rate_bps", access_rate_bps)
    checks.seconds("access_delay_s", access_delay_s)
    checks.count("buffer_packets", buffer_packets)
    if access_buffer_packets is not None:
        checks.count("access_buffer_packets", access_buffer_packets)
    checks.port_override("bottleneck_left_to_right", bottleneck_left_to_right)
    checks.port_override("bottleneck_right_to_left", bottleneck_right_to_left)
    checks.probability("sender_access_error_rate", sender_access_error_rate)
    checks.probability("receiver_access_error_rate", receiver_access_error_rate)
    checks.raise_if_any()

    access_buffer = buffer_packets if access_buffer_packets is None else access_buffer_packets
    senders = [f"s{i}" for i in range(n_pairs if n_senders is None else n_senders)]
    receivers = [f"r{i}" for i in range(n_pairs if n_receivers is None else n_receivers)]
    links = [
        link(s, "left", access_rate_bps, access_delay_s, access_buffer, error_rate=sender_access_error_rate or None)
        for s in senders
    ]
    links.append(
        link(
            "left",
            "right",
            bottleneck_rate_bps,
            bottleneck_delay_s,
            buffer_packets,
            a_to_b=bottleneck_left_to_right,
            b_to_a=bottleneck_right_to_left,
        )
    )
    links += [
        link("right", r, access_rate_bps, access_delay_s, access_buffer, error_rate=receiver_access_error_rate or None)
        for r in receivers
    ]
    return Topology(
        name="dumbbell",
        nodes=nodes_named(senders + ["left", "right"] + receivers),
        links=links,
        hosts=senders + receivers,
        groups={"senders": senders, "receivers": receivers, "routers": ["left", "right"]},
        info={"bottleneck_ports": ("left->right", "right->left")},
    )
