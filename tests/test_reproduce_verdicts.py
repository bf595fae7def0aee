"""The verdicts of the reproductions' targets: computed from the paper's, the reference's and
wattnet's values alone, with a reason for every target not reproduced."""

from wattnet.experiments import STUDIES
from wattnet.experiments.report import (
    DIFFERS,
    DIFFERS_MODEL,
    DIFFERS_PAPER,
    MATCHES_NS2,
    NOT_FROM_TEXT,
    NOT_SIMULABLE,
    REPRODUCED,
    WATTNET_ONLY,
    check,
    judge,
    summary_line,
)


def target(id, value, passed):
    return check(id, f"target {id}", {"r": 6.0}, value, "r within [6, 8]", passed)


def test_each_verdict_follows_from_the_values():
    ours = [
        target("T1", {"r": 7.0}, True),
        target("T2", {"r": 9.9}, False),  # ns-2 9.6: within 15 % of it, and ns-2 misses too
        target("T3", {"r": 9.9}, False),  # ns-2 meets the paper: wattnet differs
        target("T4", {"r": 9.9}, False),  # ns-2 misses too, but at 3.0: they disagree
        target("T5", {"r": 9.9}, False),  # no ns-2 run
        target("T6", {"r": 9.9}, False),  # a testbed measurement
    ]
    reference = {
        "T1": target("T1", {"r": 7.2}, True),
        "T2": target("T2", {"r": 9.6}, False),
        "T3": target("T3", {"r": 7.0}, True),
        "T4": target("T4", {"r": 3.0}, False),
    }
    judged = {c["id"]: c for c in judge(ours, reference, analogues={"T6": "the simulated energy"})}
    assert [judged[f"T{i}"]["verdict"] for i in range(1, 7)] == [
        REPRODUCED, MATCHES_NS2, DIFFERS, DIFFERS, DIFFERS, NOT_SIMULABLE,
    ]  # fmt: skip
    assert judged["T1"]["reason"] == "" and judged["T2"]["ns2_value"] == {"r": 9.6}
    assert judged["T3"]["reason"].startswith("ns-2.35 meets the paper's tolerance")
    # The reason names the number they disagree on: |9.9 − 3.0| > max(0.15 · 3.0, 0.5).
    assert "r: wattnet 9.9, reference 3" in judged["T4"]["reason"]
    assert judged["T5"]["reason"] == "No ns-2.35 value for this target." and judged["T5"]["ns2_value"] is None
    assert summary_line(list(judged.values())) == (
        "1 of 6 targets reproduced; 1 match ns-2 but not the paper; 3 differ from ns-2; 1 are not simulable"
    )


def test_a_fluid_model_reference_asks_whether_the_equations_meet_the_target():
    ours = [target("C1", {"r": 9.9}, False), target("C2", {"r": 9.9}, False), target("C3", {"r": 9.9}, False)]
    reference = {"C1": target("C1", {"r": 2.0}, False), "C2": target("C2", {"r": 7.0}, True)}
    judged = judge(ours, reference, reference_name="fluid model")
    # Far apart in numbers, but both miss the paper: the equations themselves do not reach it.
    assert [c["verdict"] for c in judged] == [NOT_FROM_TEXT, DIFFERS_MODEL, WATTNET_ONLY]
    assert all(c["reference"] == "fluid model" and c["reason"] for c in judged)


def test_explanations_are_added_to_the_computed_reason_of_targets_not_reproduced():
    ours = [target("E1", {"r": 9.9}, False), target("E2", {"r": 7.0}, True)]
    explanations = {"E1": "ns-2.35 has no such run.", "E2": "ns-2.35 has no such run."}
    judged = judge(ours, {}, explanations=explanations)
    assert [c["reason"] for c in judged] == ["No ns-2.35 value for this target. ns-2.35 has no such run.", ""]


def test_a_target_computed_outside_the_simulation_differs_from_the_paper_not_from_ns2():
    ours = [target("B1", {"r": 9.9}, False), target("B2", {"r": 7.0}, True)]
    judged = judge(ours, {}, computed=["B1", "B2"], explanations={"B1": "The algorithm picks a third link."})
    assert [c["verdict"] for c in judged] == [DIFFERS_PAPER, REPRODUCED]
    assert judged[0]["reason"] == (
        "Computed outside the simulation, so no simulator gives a reference value. The algorithm picks a third link."
    )


def test_every_study_cites_its_paper_not_a_file():
    for entry in STUDIES.values():
        citation = entry.paper.citation()
        assert entry.paper.title in citation and entry.paper.authors in citation
        assert ".txt" not in citation and "seed" not in citation.lower()
