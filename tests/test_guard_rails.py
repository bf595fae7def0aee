"""Pitfalls a new user falls into, each caught with a message that names the cause: energy
without a power model, replications with nothing random, an offered load that must be a typo,
and a sweep script without the ``__main__`` guard."""

import copy
import subprocess
import sys
import textwrap
import warnings

import pytest
import wattnet
from conftest import ROOT, VALID_SCENARIO
from wattnet.scenario import MAX_OVERLOAD, Scenario
from wattnet.sweep import IdenticalReplicationsWarning, plan_sweep

CBR_ONLY = {
    "name": "cbr",
    "seed": 1,
    "duration_s": 1.0,
    "nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3}],
    "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 1e6}}],
}


def test_without_a_power_model_the_summary_has_no_energy_and_says_why():
    results = wattnet.run(CBR_ONLY)
    assert "energy_j" not in results.summary and "full_rate_energy_j" not in results.summary
    assert results.ports["energy_j"].isna().all()
    assert any("no port has a power model" in note for note in results.notes)
    assert "note: no port has a power model" in repr(results)


def test_with_a_power_model_the_energy_is_there_and_no_note():
    scenario = copy.deepcopy(CBR_ONLY)
    scenario["links"][0]["power"] = {"type": "constant", "active_w": 2.0}
    results = wattnet.run(scenario)
    # Two ports at 2 W for 1 s.
    assert results.summary["energy_j"] == pytest.approx(4.0, rel=1e-12)
    assert results.notes == ()


def test_results_repr_is_a_short_summary_not_the_tables():
    text = repr(wattnet.run(CBR_ONLY))
    assert text.startswith("<wattnet.Results 'cbr': 1 s simulated, seed 1")
    assert "ports (2 rows)" in text and "timeseries (0 rows)" in text
    assert len(text.splitlines()) <= 6


def test_replications_of_a_scenario_with_nothing_random_warn():
    with pytest.warns(IdenticalReplicationsWarning, match="3 replications of each grid point will give identical"):
        plan_sweep(CBR_ONLY, {"links[0].rate_bps": [5e6, 10e6]}, replications=3)


def test_replications_with_something_random_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plan_sweep(VALID_SCENARIO, {"links[0].rate_bps": [5e6, 10e6]}, replications=3)
        plan_sweep(CBR_ONLY, {"flows[0].traffic.type": ["cbr", "poisson"]}, replications=2)
        plan_sweep(CBR_ONLY, None, replications=1)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"flows": [{**CBR_ONLY["flows"][0], "traffic": {"type": "poisson", "rate_bps": 1e6}}]}, ["flows[0].traffic"]),
        ({"links": [{**CBR_ONLY["links"][0], "error_rate": 1e-4}]}, ["links[0].error_rate"]),
        ({"links": [{**CBR_ONLY["links"][0], "queue": {"type": "red", "limit_packets": 50, "min_th": 5,
                                                     "max_th": 15}}]}, ["links[0].queue"]),
        ({"flows": [{**CBR_ONLY["flows"][0], "packet_size": {"type": "uniform", "min_bytes": 40, "max_bytes": 1500}}]},
         ["flows[0].packet_size"]),
        ({}, []),
    ],
)  # fmt: skip
def test_random_sources_name_the_fields_that_draw_from_the_seed(change, expected):
    assert Scenario.from_dict({**CBR_ONLY, **change}).random_sources() == expected


def test_an_offered_load_many_times_every_link_is_an_error_naming_the_field():
    typo = copy.deepcopy(CBR_ONLY)
    typo["flows"][0]["traffic"]["rate_bps"] = 1e12  # meant 1e6
    with pytest.raises(wattnet.ScenarioError) as caught:
        Scenario.from_dict(typo)
    [(field, problem)] = caught.value.errors
    assert field == "flows[0].traffic.rate_bps"
    assert "1e+12 b/s is 1e+05 times the fastest link's rate (1e+07 b/s)" in problem
    # An overload up to the bound is a legitimate experiment.
    typo["flows"][0]["traffic"]["rate_bps"] = MAX_OVERLOAD * 10e6
    assert Scenario.from_dict(typo).flows[0].traffic.rate_bps == 1e9


def test_a_sweep_script_without_the_main_guard_is_told_so(tmp_path):
    script = tmp_path / "sweep_script.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import wattnet
            wattnet.sweep({str(ROOT / "examples" / "chain.toml")!r}, {{"links[1].rate_bps": [8e6, 10e6]}},
                          out={str(tmp_path / "store")!r}, progress=False)
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f'wattnet.errors.SweepError: {script} has no `if __name__ == "__main__":` guard')
    assert "StoreBusyError" not in done.stderr and "WorkersDying" not in done.stderr
    # Under the guard the same sweep runs.
    script.write_text(script.read_text().replace("wattnet.sweep(", 'if __name__ == "__main__":\n    wattnet.sweep('))
    script.write_text(script.read_text().replace("\n              out=", "\n                  out="))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "store" / "runs").iterdir())) == 2
