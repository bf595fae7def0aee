"""A bottleneck elsewhere (Panarello et al. 2016 §6.3; docs/models/traffic-models.md): a port's rate
redrawn from U[min, max] at Exp(mean) epochs, without a transition."""

import math

import pytest
import wattnet
from wattnet import ScenarioError

DURATION_S = 300.0


def scenario(seed=1, **bandwidth):
    spec = {"type": "uniform", "mean_interval_s": 0.05, "min_rate_bps": 1e6, "max_rate_bps": 10e6, **bandwidth}
    return {
        "seed": seed,
        "duration_s": DURATION_S,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001, "b_to_a": {"available_bandwidth": spec}}],
        # A 20 Mb/s CBR of 1000 B packets keeps the port busy.
        "flows": [{"name": "f", "src": "b", "dst": "a", "traffic": {"type": "cbr", "rate_bps": 20e6}}],
    }


def port(results, name="b->a"):
    return results.ports.set_index("port").loc[name]


def test_the_time_average_is_the_uniform_mean_and_a_busy_port_sends_it():
    # Exp gaps are independent of the values, so the time average is E[U[1, 10]] = 5.5 Mb/s. The
    # sd of a renewal-reward average over T/mean = 6000 epochs: √(2·Var U·mean/T) ≈ 0.047 Mb/s.
    r = wattnet.run(scenario())
    p = port(r)
    assert p["mean_rate_bps"] == pytest.approx(5.5e6, abs=4 * math.sqrt(2 * 81e12 / 12 * 0.05 / DURATION_S))
    assert p["rate_tunes"] == pytest.approx(DURATION_S / 0.05, rel=4 / math.sqrt(DURATION_S / 0.05))
    # Saturated, so the bits sent are ∫ rate dt except that the packet in service at a change
    # finishes at the old rate: with residual R ~ U[0, L/r_old], each change sends
    # (r_old − r_new)·R bits more than the integral counts, on average
    # (L/2)·(1 − E[r_new]·E[1/r_old]) = (L/2)·(1 − 5.5·ln(10)/9) ≈ −0.407·L/2, for L = 8000 bit.
    per_change = 8000 / 2 * (1 - 5.5e6 * math.log(10) / 9e6)
    expected = p["mean_rate_bps"] * DURATION_S + p["rate_tunes"] * per_change
    assert p["transmitted_bytes"] * 8 == pytest.approx(expected, abs=0.1 * abs(p["rate_tunes"] * per_change))
    # The other direction is untouched.
    assert port(r, "a->b")["mean_rate_bps"] == 10e6


def test_the_draws_follow_the_seed():
    a, b, c = (port(wattnet.run(scenario(seed=s)))["mean_rate_bps"] for s in (1, 1, 2))
    assert a == b and a != c


def test_steps_give_only_the_listed_rates_each_about_equally_often():
    # A power model makes the port keep its rate-time histogram (the rate_time table).
    spec = scenario(step_bps=1e6, mean_interval_s=0.05)
    spec["links"][0]["power"] = {"type": "constant", "active_w": 1.0}
    rate_time = wattnet.run(spec).rate_time
    times = rate_time[rate_time["port"] == "b->a"].set_index("rate_bps")["time_s"]
    assert set(times.index) == {m * 1e6 for m in range(1, 11)}
    # 6000 epochs of Exp(50 ms): about 30 s at each level, sd ≈ √(2·600)·0.05 ≈ 1.7 s (the first
    # 50 ms at the initial 10 Mb/s aside).
    assert times.sum() == pytest.approx(DURATION_S)
    assert all(abs(t - 30.0) < 4 * 1.75 for t in times)


def test_bad_settings_name_the_field():
    with pytest.raises(ScenarioError, match=r"links\[0\]\.b_to_a\.available_bandwidth.*min_rate_bps"):
        wattnet.run(scenario(min_rate_bps=5e6, max_rate_bps=1e6))
    bad = scenario()
    bad["links"][0]["b_to_a"]["controller"] = {"type": "practra", "rates_bps": [10e6], "min_rate_change_interval_s": 1}
    with pytest.raises(ScenarioError, match=r"links\[0\]\.b_to_a\.available_bandwidth.*controller"):
        wattnet.run(bad)
