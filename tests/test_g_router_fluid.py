"""The fluid model of the G-router's printed equations (Lombardo, Panarello, Schembra): properties
that follow from the equations by hand."""

import pytest
from wattnet.experiments.g_router_fluid import fluid_run

PARAMETERS = {
    "propagation_rtt_s": 0.2, "target_bytes": 50_000.0, "gamma": 0.95, "beta_bps": 10e3,
    "initial_window_bytes": 65536.0, "c_init_bps": 20e6, "c_min_bps": 100e3, "c_max_bps": 100e6,
    "buffer_bytes": 100_000.0, "uplink_bps": 1e6, "uplink_buffer_bytes": 100_000.0,
}  # fmt: skip


def test_sources_below_the_capacity_send_their_up_links_worth_and_never_queue():
    # Ten sources, each capped by its 1 Mb/s up-link once its window exceeds 1 Mb/s · 0.2 s:
    # 10 Mb/s offered against 100 Mb/s, so the queue stays empty and nothing is lost.
    run = fluid_run([(0.0, 10)], 30.0, controlled=False, **PARAMETERS).set_index("time_s")
    settled = run[run.index >= 10]
    assert settled["offered_bps"].to_numpy() == pytest.approx(10e6)
    assert (run["queue_bytes"] == 0).all() and (run["loss_bps"] == 0).all()
    assert (run["departure_bps"] == run["offered_bps"]).all()


def test_c_earth_moves_c_only_while_the_queue_moves():
    # Eqs. 3–4: ΔC = |Δq/RTT_k|·sgn(q − γT)·|q − T|/T. Ten sources (10 Mb/s) under C_init = 20 Mb/s
    # never queue, so Δq = 0 and C stays at C_init exactly; the 100 Mb/s Internet node never queues.
    run = fluid_run([(0.0, 10)], 30.0, controlled=True, **PARAMETERS, internet_rate_bps=1e9)
    assert (run["rate_bps"] == 20e6).all() and (run["queue_bytes"] == 0).all()
    assert (run["internet_queue_bytes"] == 0).all()


def test_a_downstream_bottleneck_fills_the_internet_nodes_buffer_without_control():
    # 25 sources (25 Mb/s) through an uncontrolled 100 Mb/s G-router into a 12 Mb/s Internet node:
    # its buffer fills and drops the excess, while the G-router never queues.
    run = fluid_run([(0.0, 25)], 60.0, controlled=False, **PARAMETERS, internet_rate_bps=1e9,
                    bottleneck_at_s=20.0, bottleneck_bps=12e6).set_index("time_s")  # fmt: skip
    assert (run["queue_bytes"] == 0).all()
    late = run[run.index >= 40]
    assert (late["internet_queue_bytes"] >= 0.9 * 100_000).mean() > 0.5
    assert (run[run.index < 20]["internet_loss_bps"] == 0).all() and run["internet_loss_bps"].max() > 0
