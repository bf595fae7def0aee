"""The runs of a sweep, planned before anything runs: each grid point's scenario validated, its
replications seeded (``derive_seed``) and keyed for the store."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wattnet import _engine
from wattnet.errors import ScenarioError, SweepError
from wattnet.runner import as_scenario
from wattnet.scenario import Scenario
from wattnet.store import run_key
from wattnet.sweep.grid import derive_seed, expand_grid, set_path, sparse_dump


class IdenticalReplicationsWarning(UserWarning):
    """Replications that can only repeat each other: nothing in the swept scenarios is random."""


@dataclass(frozen=True)
class PlannedRun:
    """One run of a sweep: a grid point, a replication, its seed, its scenario and its store key."""

    key: str
    point_index: int
    point: dict[str, Any]
    replication: int
    seed: int
    scenario_json: str

    def params(self, base_seed: int | None) -> dict[str, Any]:
        return {
            "parameters": self.point,
            "replication": self.replication,
            "seed": self.seed,
            "base_seed": base_seed,
            "key": self.key,
        }


def plan_sweep(
    base: Scenario | dict[str, Any] | str | Path | None,
    grid: dict[str, Any] | None = None,
    replications: int = 1,
    seed: int | None = None,
    build: Callable[..., Any] | None = None,
) -> list[PlannedRun]:
    """The runs of a sweep, in order (grid point, then replication), each validated and keyed.

    With ``build``, a function of the grid's parameters (``build(**point)``) makes each point's
    scenario instead of ``base``, and the replications' seeds come from ``seed`` or the built
    scenario's own. Raises SweepError (or ScenarioError for the base) before anything runs: a
    path the base scenario does not have, a value the scenario rejects (naming the path and
    value), two grid points that make the same scenario.
    """
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise SweepError(f"replications: a positive integer, not {replications!r}")
    if build is not None:
        return _plan_built(build, grid, replications, seed)
    if base is None:
        raise SweepError("give base (a scenario) or build (a function of the grid's parameters)")
    base_scenario = as_scenario(base)
    base_seed = base_scenario.seed if seed is None else seed
    engine_version = _engine.version()

    points = expand_grid(grid)
    random = bool(base_scenario.random_sources())
    base_data = sparse_dump(base_scenario)
    if Scenario.from_dict(copy.deepcopy(base_data)).to_engine_json() != base_scenario.to_engine_json():
        base_data = base_scenario.model_dump()  # never expected; the full dump is always right
    runs: list[PlannedRun] = []
    owners: dict[str, int] = {}
    for index, point in enumerate(points):
        data = copy.deepcopy(base_data)
        for path, value in point.items():
            set_path(data, base_scenario, path, value)
        try:
            scenario = Scenario.from_dict(data)
        except ScenarioError as error:
            raise SweepError(_point_problems(point, error)) from None
        random = random or bool(scenario.random_sources())
        _replicate(runs, owners, points, index, scenario, base_seed, replications, engine_version)
    if replications > 1 and not random:
        warnings.warn(
            f"the {replications} replications of each grid point will give identical results: nothing in the "
            "scenario draws random numbers (Poisson, on-off or web traffic, exponential or uniform packet sizes, "
            "RED queues, an error_rate, available_bandwidth), so the seed changes nothing; one replication is enough",
            IdenticalReplicationsWarning,
            stacklevel=4,
        )
    return runs


def _plan_built(
    build: Callable[..., Any], grid: dict[str, Any] | None, replications: int, seed: int | None
) -> list[PlannedRun]:
    engine_version = _engine.version()
    runs: list[PlannedRun] = []
    owners: dict[str, int] = {}
    points = expand_grid(grid)
    for index, point in enumerate(points):
        try:
            scenario = as_scenario(build(**point))
        except ScenarioError as error:
            raise SweepError(_point_problems(point, error)) from None
        except TypeError as error:
            raise SweepError(f"grid point {point}: the builder {_name(build)} cannot take it: {error}") from None
        base_seed = scenario.seed if seed is None else seed
        _replicate(runs, owners, points, index, scenario, base_seed, replications, engine_version)
    return runs


def _replicate(
    runs: list[PlannedRun],
    owners: dict[str, int],
    points: list[dict[str, Any]],
    index: int,
    scenario: Scenario,
    base_seed: int,
    replications: int,
    engine_version: str,
) -> None:
    """Appends grid point ``index``'s replications of ``scenario`` to ``runs``, each with its
    derived seed and key; ``owners`` maps the keys seen so far to their grid point."""
    for replication in range(replications):
        run_seed = derive_seed(base_seed, replication)
        scenario_json = scenario.model_copy(update={"seed": run_seed}).to_engine_json()
        key = run_key(scenario_json, engine_version)
        if key in owners:
            raise SweepError(
                f"grid points {points[owners[key]]} and {points[index]} make the same scenario; "
                "a sweep runs each scenario once"
            )
        owners[key] = index
        runs.append(PlannedRun(key, index, points[index], replication, run_seed, scenario_json))


def _name(function: Any) -> str:
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', repr(function))}"


def _point_problems(point: dict[str, Any], error: ScenarioError) -> str:
    lines = []
    for field, problem in error.errors:
        at_fault = [p for p in point if _related(p, field)]
        if at_fault:
            where = ", ".join(f"grid {p!r} = {point[p]!r}" for p in at_fault)
        else:
            where = f"grid point {point}"
        lines.append(f"{where}: {field}: {problem}" if field else f"{where}: {problem}")
    return "\n".join(lines)


# The fields that tell which kind of table a tagged union holds: changing one concerns the
# whole table (a field the new kind lacks, a value it bounds differently).
_TAGS = ("type", "model", "action")


def _related(path: str, field: str) -> bool:
    """Whether a scenario error at ``field`` concerns the grid ``path``: one holds the other,
    or ``path`` is the tag of the table that holds ``field``."""
    if not field:
        return False
    head, _, last = path.rpartition(".")
    if last in _TAGS and head:
        path = head
    return any(a == b or a.startswith((b + ".", b + "[")) for a, b in ((field, path), (path, field)))
