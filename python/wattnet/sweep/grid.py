"""A sweep's grid and seeds: field paths, the grid's points, setting a path in a scenario, the
sparse form of a scenario, and SWEEP.toml files."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from wattnet._lazy import lazy_import
from wattnet.errors import ScenarioError, SweepError
from wattnet.scenario import U64_MAX, Scenario, load_scenario, read_toml

np = lazy_import("numpy")


_SEGMENT = re.compile(r"(?P<name>[A-Za-z_]\w*)(?P<indices>(?:\[\d+\])*)")


def derive_seed(base_seed: int, replication: int) -> int:
    """The seed of replication ``replication``: 64 bits of NumPy's SeedSequence hash of
    (base_seed, replication). Deterministic, distinct across replications and base seeds,
    and unrelated to each other (not base_seed + r, whose streams neighbouring sweeps share)."""
    if not (isinstance(base_seed, int) and 0 <= base_seed <= U64_MAX):
        raise SweepError(f"seed: an integer in [0, 2^64 - 1], not {base_seed!r}")
    if not (isinstance(replication, int) and replication >= 0):
        raise SweepError(f"replication: a non-negative integer, not {replication!r}")
    state = np.random.SeedSequence(entropy=base_seed, spawn_key=(replication,)).generate_state(1, dtype=np.uint64)
    return int(state[0])


def parse_path(path: str) -> list[str | int]:
    """``"flows[0].tcp.congestion_control.type"`` -> ``["flows", 0, "tcp", "congestion_control", "type"]``."""
    steps: list[str | int] = []
    if isinstance(path, str) and path:
        for part in path.split("."):
            match = _SEGMENT.fullmatch(part)
            if match is None:
                break
            steps.append(match["name"])
            steps.extend(int(index) for index in re.findall(r"\[(\d+)\]", match["indices"]))
        else:
            return steps
    raise SweepError(
        f"grid {path!r}: not a field path; write one like links[2].rate_bps or flows[0].tcp.congestion_control.type"
    )


def expand_grid(grid: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every combination of the grid's values, as ``{path: value}`` dicts, the last path varying fastest.

    A nested table (as TOML writes ``routing.ttl = [...]`` in ``[grid]``) is read as dotted
    paths; the paths of a ``zip`` table take their values together (``grid_axes``). Each path must be well formed and name a list of at least one value, none twice;
    ``seed`` is not a grid parameter (replications set it). An empty grid has one point, ``{}``.
    """
    axes = grid_axes(grid or {})
    for paths, rows in axes:
        for path in paths:
            if parse_path(path) == ["seed"]:
                raise SweepError(
                    'grid "seed": the seed is set by the replications (seed and replications), not the grid'
                )
        name = paths[0] if len(paths) == 1 else f"zip {paths}"
        if not rows:
            raise SweepError(f"grid {name!r}: needs at least one value")
        seen: dict[str, int] = {}
        for i, row in enumerate(rows):
            value = row[0] if len(paths) == 1 else list(row)
            text = json.dumps(value, sort_keys=True)
            if text in seen:
                raise SweepError(f"grid {name!r}: the value {value!r} is listed twice (at {seen[text]} and {i})")
            seen[text] = i
    return [
        {path: value for (paths, _), row in zip(axes, combination, strict=True) for path, value in zip(paths, row)}
        for combination in itertools.product(*(rows for _, rows in axes))
    ]


def grid_axes(grid: dict[str, Any]) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
    """The grid's axes, each (paths, rows of values): one path per axis, except that the paths of
    a ``zip`` table (or of each table in a ``zip`` list) advance together, their lists being of
    one length. The sweep runs the product of the axes."""
    if not isinstance(grid, dict):
        raise SweepError(f"grid: a table of field paths to lists of values, not {type(grid).__name__}")
    linked = grid.get("zip", [])
    groups = [linked] if isinstance(linked, dict) else linked
    if not isinstance(groups, list) or not all(isinstance(group, dict) for group in groups):
        raise SweepError("grid 'zip': a table of field paths to lists of one length (or a list of such tables)")
    axes = [([path], [(value,) for value in values]) for path, values in flatten_grid(grid).items()]
    for group in groups:
        flat = flatten_grid(group)
        lengths = {path: len(values) for path, values in flat.items()}
        if len(set(lengths.values())) > 1:
            raise SweepError(f"grid 'zip': linked lists must have one length, not {lengths}")
        axes.append((list(flat), list(zip(*flat.values()))))
    return axes


def flatten_grid(grid: dict[str, Any], prefix: str = "") -> dict[str, list[Any]]:
    if not isinstance(grid, dict):
        raise SweepError(f"grid: a table of field paths to lists of values, not {type(grid).__name__}")
    flat: dict[str, list[Any]] = {}
    for key, values in grid.items():
        if key == "zip" and not prefix:
            continue  # linked axes: grid_axes
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(values, dict):
            flat.update(flatten_grid(values, path))
        elif isinstance(values, (list, tuple, range)) or (isinstance(values, np.ndarray) and values.ndim == 1):
            flat[path] = [_plain(value) for value in values]
        else:
            raise SweepError(f"grid {path!r}: a list of values, not {values!r}")
    return flat


def _plain(value: Any) -> Any:
    """NumPy scalars and arrays as Python values, so that they validate and go into JSON."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def sparse_dump(value: Any) -> Any:
    """A model as the fields that differ from their defaults, plus every union tag (``type``,
    ``model``, ``action``): what a user would write. Changing one field of it and validating
    again keeps the others' defaults working, e.g. switching ``congestion_control.type``."""
    if isinstance(value, BaseModel):
        out = {}
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            if field.is_required() or _is_tag(field.annotation) or not _is_default(field, item):
                out[name] = sparse_dump(item)
        return out
    if isinstance(value, (list, tuple)):
        return [sparse_dump(item) for item in value]
    if isinstance(value, dict):
        return {key: sparse_dump(item) for key, item in value.items()}
    return value


def _is_default(field: Any, value: Any) -> bool:
    try:
        default = field.get_default(call_default_factory=True)
    except TypeError:  # a factory of the other fields' values: keep the value, it is always right
        return False
    return type(value) is type(default) and value == default


def _is_tag(annotation: Any) -> bool:
    return get_origin(annotation) is Literal and len(get_args(annotation)) == 1


def set_path(data: dict[str, Any], model: BaseModel, path: str, value: Any) -> None:
    """Sets ``path`` in the scenario ``data`` (a sparse dump of ``model``) to ``value``.

    Fields are checked against the model as far as it goes; a table the base leaves out
    (``tcp`` of a flow without one) is created empty, and validation then checks the rest.
    """
    steps = parse_path(path)
    container: Any = data
    node: Any = model  # the base's value at the same place, None past a missing table
    where = ""
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(step, int):
            if not isinstance(container, list):
                raise SweepError(f"grid {path!r}: {where} is not a list, so it has no [{step}]")
            if step >= len(container):
                raise SweepError(
                    f"grid {path!r}: {where} has {len(container)} entries in the base scenario, so no [{step}]"
                )
            child_node = node[step] if isinstance(node, list) and step < len(node) else None
            where += f"[{step}]"
        else:
            if not isinstance(container, dict):
                kind = "a list" if isinstance(container, list) else "a value"
                raise SweepError(f"grid {path!r}: {where} is {kind}, not a table with fields")
            if isinstance(node, BaseModel):
                if step not in type(node).model_fields:
                    fields = ", ".join(type(node).model_fields)
                    raise SweepError(
                        f"grid {path!r}: {where or 'a scenario'} has no field {step!r} (its fields: {fields})"
                    )
                child_node = getattr(node, step)
            elif isinstance(node, dict):
                child_node = node.get(step)
            else:
                child_node = None
            where = f"{where}.{step}" if where else step
        if last:
            container[step] = value
            return
        if isinstance(step, str) and container.get(step) is None:
            container[step] = {} if child_node is None else sparse_dump(child_node)
        container = container[step]
        node = child_node


def load_sweep(path: str | Path) -> dict[str, Any]:
    """Reads a SWEEP.toml: ``base`` (a scenario file, relative to the sweep file, or an inline
    ``[base]`` table), ``[grid]``, ``replications`` (default 1) and ``seed`` (default the base's)."""
    path = Path(path)
    try:
        data = read_toml(path)
    except ScenarioError as error:
        raise SweepError(str(error)) from None
    unknown = sorted(set(data) - {"base", "grid", "replications", "seed"})
    if unknown:
        raise SweepError(f"{path}: unknown key {unknown[0]!r}; a sweep file has base, grid, replications and seed")
    if "base" not in data:
        raise SweepError(f'{path}: base is missing: base = "scenario.toml" or a [base] table')
    base = data["base"]
    if isinstance(base, str):
        base_path = path.parent / base
        try:
            scenario = load_scenario(base_path)
        except (FileNotFoundError, IsADirectoryError):
            raise SweepError(f"base: {base_path}: no such scenario file") from None
        except ScenarioError as error:
            raise SweepError("\n".join(f"base {base_path}: {line}" for line in str(error).splitlines())) from None
    elif isinstance(base, dict):
        try:
            scenario = Scenario.from_dict(base)
        except ScenarioError as error:
            raise SweepError(
                "\n".join(
                    f"base.{field}: {problem}" if field else f"base: {problem}" for field, problem in error.errors
                )
            ) from None
    else:
        raise SweepError(f"base: a scenario file name or a [base] table, not {base!r}")
    return {
        "base": scenario,
        "grid": data.get("grid", {}),
        "replications": data.get("replications", 1),
        "seed": data.get("seed"),
    }
