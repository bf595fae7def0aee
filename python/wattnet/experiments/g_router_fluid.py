"""A fluid model of the G-router's printed equations with a TCP aggregate, independent of the engine:
does the queue oscillation of case study 1 come from the equations or from the implementation?

Lombardo, Panarello, Schembra, "Measuring Minimum Transmission Resources in the Internet Access
Router: A Sustainable Performance/Energy Trade-Off Approach": AWM (eqs. 1–2, β rescaled with C),
C-EARTH (eqs. 3–4) and the estimators (eqs. 5–7), written as rates and integrated with scipy:

- AWM: d swnd/dt = −(dq/dt)/N + β·(T − q)/(N·T), β = β₀·C/C₀, swnd ≥ MTU (eqs. 1–2);
- C-EARTH: once per RTT_k, ΔC = |Δq/RTT_k|·sgn(q − γT)·|q − T|/T (eqs. 3–4), i.e.
  dC/dt = |dq/dt|·sgn(q − γT)·(|q − T|/T)/RTT_k, C within [C_min, C_max];
- estimators: eq. 5 keeps N·swnd/C at its initial value RTT₀ (eq. 7), so N = max(1, RTT₀·C/swnd)
  and RTT_k = N·swnd/C; N₀ from eq. 6 with RTT₀ = the propagation delay + T/C₀.

The TCP aggregate: n(t) identical NewReno sources (the case study's 10, 15, 25, then 25 → 20), each
with window W; its effective window min(W, swnd) sends at min(·/R, U) with R = R₀ + q/C and U its
1 Mb/s DSL up-link. W grows by one packet per RTT while below swnd (the advertised window caps it)
and halves once per loss event: at the G-router when its buffer is full (the excess arrival rate
spread over the sources, at most one event per RTT) and on the up-link when W exceeds U·R plus the
DSL buffer. Web traffic is left out. Downstream, the Internet node serves the G-router's output at
its own rate (case study 2 lowers it at ``bottleneck_at_s``) from a buffer of its own: its queue adds
to the round trip, and a full buffer drops the excess as the G-router's does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

PACKET_BYTES = 1000.0


def fluid_run(
    sources: list[tuple[float, int]],
    duration_s: float,
    *,
    controlled: bool,
    propagation_rtt_s: float,
    target_bytes: float,
    gamma: float,
    beta_bps: float,
    initial_window_bytes: float,
    c_init_bps: float,
    c_min_bps: float,
    c_max_bps: float,
    buffer_bytes: float,
    uplink_bps: float,
    uplink_buffer_bytes: float,
    internet_rate_bps: float = float("inf"),
    bottleneck_at_s: float = float("inf"),
    bottleneck_bps: float = float("inf"),
    sample_s: float = 0.5,
) -> pd.DataFrame:
    """Integrates the model over ``duration_s`` with ``sources`` = [(from_s, n), …] present; without
    ``controlled`` the G-router serves at ``c_max_bps`` with no AWM. Returns samples every
    ``sample_s``: time_s, queue_bytes, rate_bps (C), departure_bps, loss_bps, offered_bps, window_bytes,
    and the Internet node's internet_queue_bytes, internet_rate_bps and internet_loss_bps."""
    starts = np.array([t for t, _ in sources])
    counts = np.array([n for _, n in sources], dtype=float)
    c0 = (c_init_bps if controlled else c_max_bps) / 8
    c_min, c_max = c_min_bps / 8, c_max_bps / 8
    beta0, u = beta_bps / 8, uplink_bps / 8
    rtt0 = propagation_rtt_s + target_bytes / c0  # eq. 6's RTT₀
    target_ce = gamma * target_bytes

    def present(t: float) -> float:
        return float(counts[max(0, int(np.searchsorted(starts, t, side="right")) - 1)])

    def internet(t: float) -> float:
        return (bottleneck_bps if t >= bottleneck_at_s else internet_rate_bps) / 8

    def rates(t: float, y: np.ndarray) -> tuple[float, ...]:
        q, c, swnd, w, q2 = max(y[0], 0.0), y[1], y[2], max(y[3], PACKET_BYTES), max(y[4], 0.0)
        n, c2 = present(t), internet(t)
        rtt = propagation_rtt_s + q / c + q2 / c2
        window = min(w, swnd) if controlled else w
        offered = n * min(window / rtt, u)
        loss = offered - c if q >= buffer_bytes and offered > c else 0.0
        dq = offered - c - loss if q > 0 or offered > c else 0.0
        departure = c if q > 0 else min(offered, c)
        loss2 = departure - c2 if q2 >= buffer_bytes and departure > c2 else 0.0
        dq2 = departure - c2 - loss2 if q2 > 0 or departure > c2 else 0.0
        return q, c, swnd, w, n, rtt, offered, loss, dq, departure, q2, c2, loss2, dq2

    def derivative(t: float, y: np.ndarray) -> list[float]:
        q, c, swnd, w, n, rtt, _, loss, dq, _, _, _, loss2, dq2 = rates(t, y)
        lost = loss + loss2
        events = min(lost / PACKET_BYTES / n, 1 / rtt) if lost > 0 else 0.0
        if w > u * rtt + uplink_buffer_bytes:
            events += 1 / rtt
        grows = w < swnd if controlled else True
        dw = (PACKET_BYTES / rtt if grows else 0.0) - w / 2 * events
        if not controlled:
            return [dq, 0.0, 0.0, dw, dq2]
        flows = max(1.0, rtt0 * c / swnd)  # eqs. 5 and 7: N·swnd/C stays RTT₀
        rtt_k = flows * swnd / c
        beta = beta0 * c / c0
        dswnd = -dq / flows + beta * (target_bytes - q) / (flows * target_bytes)
        if swnd <= PACKET_BYTES and dswnd < 0:
            dswnd = 0.0
        dc = abs(dq) * np.sign(q - target_ce) * (abs(q - target_bytes) / target_bytes) / rtt_k
        if (c <= c_min and dc < 0) or (c >= c_max and dc > 0):
            dc = 0.0
        return [dq, dc, dswnd, dw, dq2]

    times = np.arange(sample_s, duration_s + sample_s / 2, sample_s)
    y0 = [0.0, c0, initial_window_bytes, 2 * PACKET_BYTES, 0.0]
    solution = solve_ivp(
        derivative, (0.0, duration_s), y0, method="RK23", t_eval=times, max_step=0.02, rtol=1e-4, atol=1.0
    )
    if not solution.success:
        raise RuntimeError(f"fluid model: {solution.message}")
    rows = []
    for t, y in zip(solution.t, solution.y.T, strict=True):
        q, c, swnd, w, _, _, offered, loss, _, departure, q2, c2, loss2, _ = rates(t, y)
        rows.append({"time_s": t, "queue_bytes": q, "rate_bps": 8 * c, "departure_bps": 8 * departure,
                     "loss_bps": 8 * loss, "offered_bps": 8 * offered, "window_bytes": min(w, swnd),
                     "internet_queue_bytes": q2, "internet_rate_bps": 8 * c2, "internet_loss_bps": 8 * loss2})  # fmt: skip
    return pd.DataFrame(rows)
