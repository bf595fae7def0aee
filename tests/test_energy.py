"""Energy mechanisms through the schema and the engine: 802.3az LPI, opportunistic sleeping and
host energy models, with the answers worked by hand in crates/wattnet-engine/tests/energy.rs."""

import math

import pytest
import wattnet
from wattnet.scenario import Scenario


def gigabit(**link):
    return {
        "seed": 1,
        "duration_s": 0.0595,
        "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, **link}],
        "flows": [
            {
                "name": "f",
                "src": "s",
                "dst": "d",
                "traffic": {"type": "cbr", "rate_bps": 12e6},
                "packet_size": {"type": "fixed", "bytes": 1500},
                "start_s": 0.05,
            }
        ],
    }


def test_lpi_energy_of_one_frame_per_millisecond():
    # docs/models/energy.md §4 at 1000BASE-T, 1 W active, LPI at 0.1 W with 20 ms quiet / 198 µs refresh: one
    # 1500 B frame per ms from 50 to 59 ms, run to 59.5 ms. s->d: 0.396 ms of refresh + 49.604 ms
    # quiet before the first frame, then 210.5 µs awake (T_w + frame + T_s) per frame and
    # 7.395 ms quiet: 0.396 + 4.9604 + 2.105 + 0.7395 = 8.2009 mJ.
    results = wattnet.run(
        Scenario.from_dict(gigabit(lpi={"phy": "1000base_t"}, power={"type": "constant", "active_w": 1.0}))
    )
    ports = results.ports.set_index("port")
    assert ports.loc["s->d", "energy_j"] == pytest.approx(8.2009e-3, abs=1e-15)
    assert ports.loc["s->d", "sleeps"] == 11
    # Every frame waits T_w = 16.5 µs before its 12 µs on the wire.
    assert results.flows.mean_delay_s[0] == pytest.approx(28.5e-6, abs=1e-18)
    nodes = results.nodes.set_index("node")
    assert nodes.loc["s", "ports_energy_j"] == ports.loc["s->d", "energy_j"]
    assert (nodes.loc["s", "packets_sent"], nodes.loc["d", "packets_received"]) == (10, 10)
    assert math.isnan(nodes.loc["s", "host_energy_j"])


def test_lpi_timings_can_be_explicit():
    # The 1000BASE-T preset's numbers written out give the same run.
    explicit = {"wake_s": 16.5e-6, "sleep_s": 182e-6, "quiet_s": 0.02, "refresh_s": 198e-6, "power_fraction": 0.1}
    power = {"type": "constant", "active_w": 1.0}
    by_preset = wattnet.run(Scenario.from_dict(gigabit(lpi={"phy": "1000base_t"}, power=power)))
    by_value = wattnet.run(Scenario.from_dict(gigabit(a_to_b={"lpi": explicit}, b_to_a={"lpi": explicit}, power=power)))
    assert by_value.ports.energy_j.tolist() == by_preset.ports.energy_j.tolist()


def test_opportunistic_sleeping_saves_what_the_hand_count_says():
    # 1000 B every 10 ms into 8 Mb/s, δ = 1 ms: 36 ms awake at 1 W, 64 ms asleep at 0.1 W.
    scenario = {
        "seed": 1,
        "duration_s": 0.1,
        "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [
            {
                "a": "s",
                "b": "d",
                "rate_bps": 8e6,
                "delay_s": 0.0,
                "a_to_b": {
                    "power": {"type": "constant", "active_w": 1.0, "sleep_w": 0.1},
                    "controller": {"type": "opportunistic_sleep"},
                },
            }
        ],
        "flows": [{"name": "f", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 8e5}}],
    }
    results = wattnet.run(Scenario.from_dict(scenario))
    ports = results.ports.set_index("port")
    assert ports.loc["s->d", "energy_j"] == pytest.approx(0.0424, abs=1e-15)
    assert ports.loc["s->d", "asleep_time_s"] == pytest.approx(0.064, abs=1e-15)
    assert results.flows.mean_delay_s[0] == pytest.approx(0.0018, abs=1e-18)


def test_host_models_on_a_ten_segment_download():
    # See energy.rs: the client c sends 12 packets and receives 14 over an active span of 89.28 ms,
    # 15.64 ms of it on the wire. The server's connection lasts 79.2 ms (one 100 ms interval of the host
    # energy integral, closed at completion), carries 116 800 bits and has an SRTT of 20.426 562 5 ms then. WiFi preset: P = 1 W + a·τ/(10 Mb/s) +
    # 0.05 W·RTT/(100 ms), a = 0.9 W/3.1 (+90 % from 10 to 50 Mb/s).
    scenario = {
        "seed": 1,
        "duration_s": 0.2,
        "nodes": [
            {
                "name": "c",
                "power": {"type": "battery", "tx_j_per_packet": 1e-3, "rx_j_per_packet": 2e-3, "idle_w": 1.0},
            },
            {"name": "s", "power": {"type": "mptcp_host", "preset": "wifi"}},
        ],
        "links": [{"a": "c", "b": "s", "rate_bps": 8e6, "delay_s": 0.01}],
        "flows": [
            {
                "name": "t",
                "src": "s",
                "dst": "c",
                "traffic": {"type": "transfer", "bytes": 14600},
                "tcp": {"profile": "ns2", "mss_bytes": 1460},
            }
        ],
    }
    results = wattnet.run(Scenario.from_dict(scenario))
    nodes = results.nodes.set_index("node")
    assert nodes.loc["c", "host_energy_j"] == pytest.approx(0.012 + 0.028 + 0.07364, abs=1e-15)
    wifi = 0.0792 * 1.0 + 0.9 / 3.1 * 116_800 / 10e6 + 0.0792 * 0.05 * 0.204265625
    assert nodes.loc["s", "host_energy_j"] == pytest.approx(wifi, abs=1e-12)
    assert results.connections.host_energy_j[0] == nodes.loc["s", "host_energy_j"]
    assert math.isnan(nodes.loc["c", "ports_energy_j"])
