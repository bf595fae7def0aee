"""The multipath congestion controls in the Python schema: defaults as the engine's, errors naming the field."""

import pytest
from wattnet import ScenarioError
from wattnet.scenario import Tcp

# Each algorithm's defaults (the engine's `Default` impls in tcp/cc/multipath/).
DEFAULTS = {
    "lia": {"cap_1_over_w": True, "ssthresh_in_recovery": False},
    "olia": {"ssthresh_in_recovery": True},
    "balia": {"md_cap": 1.5},
    "ewtcp": {"a": None},
    "coupled": {"increase": "psi"},
    "ecmtcp": {"ratio": "route_over_best", "loss_weight": 0.125, "cap_1_over_w": True},
    "dwc": {"grouping": False, "rtt_rise": None},
    "wvegas": {"initial_alpha": 2.0, "total_alpha": 10.0, "gamma": 1.0},
    "dts": {
        "c": 1.0,
        "steepness": 10.0,
        "taylor": False,
        "cap_1_over_w": False,
        "phi": False,
        "kappa": 1e-4,
        "rho": 1.0,
        "expected_queue": 0.2,
    },
}


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_each_algorithm_parses_with_its_defaults(name: str) -> None:
    cc = Tcp(congestion_control={"type": name}).congestion_control
    assert cc is not None
    assert cc.model_dump(exclude={"type"}) == DEFAULTS[name]


@pytest.mark.parametrize(
    ("cc", "field", "words"),
    [
        ({"type": "lia", "beta": 0.5}, "congestion_control.beta", "unknown field"),
        ({"type": "balia", "md_cap": 0.5}, "congestion_control.md_cap", "greater than or equal to 1"),
        ({"type": "ewtcp", "a": 0}, "congestion_control.a", "greater than 0"),
        ({"type": "coupled", "increase": "half"}, "congestion_control.increase", "psi"),
        ({"type": "ecmtcp", "ratio": "up"}, "congestion_control.ratio", "route_over_best"),
        ({"type": "ecmtcp", "loss_weight": 0}, "congestion_control.loss_weight", "greater than 0"),
        ({"type": "wvegas", "gamma": -1}, "congestion_control.gamma", "greater than or equal to 0"),
        ({"type": "dts", "expected_queue": 1.5}, "congestion_control.expected_queue", "less than or equal to 1"),
        ({"type": "dts", "kappa": -1e-4}, "congestion_control.kappa", "greater than or equal to 0"),
    ],
)
def test_bad_constants_name_the_field(cc: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as error:
        Tcp(congestion_control=cc)
    assert field in str(error.value) and words in str(error.value), str(error.value)
