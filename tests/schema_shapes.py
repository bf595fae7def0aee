"""Whether two JSON Schemas of the scenario format agree field by field: the engine's, derived from
its serde types (``_engine.scenario_schema()``, by schemars), and the Python models'
(``Scenario.model_json_schema()``, by pydantic).

Both are reduced to one shape, whatever each generator's spelling (``$ref``, ``allOf``,
``oneOf`` of constants, nullable types): an object is its fields, each required or not, nullable
or not, with its default and its own shape; a tagged union is its tag and one object per tag; an
enumeration is its values. ``differences`` lists, by field path, what one side has and the other
lacks or states otherwise; the developer documentation's schema page says why it exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class Field:
    """One field of an object: its shape, whether it must be given, whether null is accepted,
    and its default (``NO_DEFAULT`` when the schema states none)."""

    shape: Shape
    required: bool
    nullable: bool
    default: Any


@dataclass(frozen=True)
class Shape:
    """What a value may be: ``kind`` is object, union, enum, array, map, integer, number, string,
    boolean or any; ``fields`` (object), ``tag`` and ``members`` (union: one object shape per
    tag value), ``values`` (enum) and ``items`` (array) describe it."""

    kind: str
    fields: tuple[tuple[str, Field], ...] = ()
    tag: str = ""
    members: tuple[tuple[str, Shape], ...] = ()
    values: frozenset[str] = frozenset()
    items: Shape | None = None


NO_DEFAULT = object()


def _merge(base: Json, extra: Json) -> Json:
    merged = {**base, **extra}
    if "properties" in base or "properties" in extra:
        merged["properties"] = {**base.get("properties", {}), **extra.get("properties", {})}
    if "required" in base or "required" in extra:
        merged["required"] = [*base.get("required", []), *extra.get("required", [])]
    return merged


def _resolve(node: Json, defs: Json) -> Json:
    """``node`` with every ``$ref`` and ``allOf`` merged in (the keywords beside them win)."""
    node = dict(node)
    while "$ref" in node or "allOf" in node:
        if "$ref" in node:
            target = defs[node.pop("$ref").rsplit("/", 1)[-1]]
            node = _merge(target, node)
        else:
            for part in node.pop("allOf"):
                node = _merge(node, _resolve(part, defs))
    return node


def _without_null(node: Json, defs: Json) -> tuple[Json, bool]:
    """The schema with null taken out of it, and whether null was allowed."""
    node = _resolve(node, defs)
    kind = node.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [k for k in kind if k != "null"]
        return {**node, "type": rest[0] if len(rest) == 1 else rest}, True
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if branches and any(_resolve(b, defs).get("type") == "null" for b in branches):
            rest = [b for b in branches if _resolve(b, defs).get("type") != "null"]
            outer = {k: v for k, v in node.items() if k != key}
            return (_merge(outer, _resolve(rest[0], defs)) if len(rest) == 1 else {**outer, key: rest}), True
    return node, False


def _constant(node: Json) -> str | None:
    if "const" in node:
        return str(node["const"])
    if isinstance(node.get("enum"), list) and len(node["enum"]) == 1:
        return str(node["enum"][0])
    return None


def _union_tag(branches: list[Json]) -> str | None:
    """The property every branch fixes to a constant (the tag of an internally tagged union)."""
    candidates = None
    for branch in branches:
        fixed = {name for name, prop in branch.get("properties", {}).items() if _constant(prop) is not None}
        candidates = fixed if candidates is None else candidates & fixed
    return min(candidates) if candidates else None


def shape(node: Json, defs: Json) -> Shape:
    """The shape of a (null-free) schema node."""
    node = _resolve(node, defs)
    branches = node.get("oneOf") or node.get("anyOf")
    if branches:
        resolved = [_resolve(branch, defs) for branch in branches]
        if all("enum" in branch or "const" in branch for branch in resolved):
            return Shape("enum", values=frozenset().union(*(shape(branch, defs).values for branch in resolved)))
        tag = _union_tag(resolved)
        if tag is None:
            raise ValueError(f"a union without a tag: {node}")
        members = []
        for branch in resolved:
            value = _constant(branch["properties"][tag])
            body = {**branch, "properties": {k: v for k, v in branch["properties"].items() if k != tag}}
            body["required"] = [name for name in branch.get("required", []) if name != tag]
            members.append((str(value), _object(body, defs)))
        return Shape("union", tag=tag, members=tuple(sorted(members)))
    if "enum" in node or "const" in node:
        values = node["enum"] if "enum" in node else [node["const"]]
        return Shape("enum", values=frozenset(str(value) for value in values))
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        if node.get("properties") or node.get("additionalProperties") is False:
            return _object(node, defs)
        return Shape("map")
    if kind == "array":
        return Shape("array", items=shape(node.get("items", {}), defs))
    if kind in ("integer", "number", "string", "boolean"):
        return Shape(kind)
    if not node or kind is None:
        return Shape("any")
    raise ValueError(f"a schema node of no known shape: {node}")


def _object(node: Json, defs: Json) -> Shape:
    required = set(node.get("required", []))
    fields = []
    for name, prop in node.get("properties", {}).items():
        inner, nullable = _without_null(prop, defs)
        default = prop.get("default", inner.get("default", NO_DEFAULT))
        fields.append((name, Field(shape(inner, defs), name in required, nullable, default)))
    return Shape("object", fields=tuple(sorted(fields, key=lambda item: item[0])))


def root_shape(schema: Json) -> Shape:
    """The shape of a whole schema (its root and the definitions it refers to)."""
    return shape(schema, schema.get("$defs", schema.get("definitions", {})))


def _same_default(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b  # 1 and 1.0 alike: JSON does not tell them apart
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_default(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_default(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _as_union(shape: Shape, tag: str) -> Shape:
    """An object whose ``tag`` field has a single value, as the tagged union of that one member
    (a one-variant enum on one side is a plain model with a constant field on the other)."""
    fields = dict(shape.fields)
    if shape.kind != "object" or tag not in fields or len(fields[tag].shape.values) != 1:
        return shape
    (value,) = fields[tag].shape.values
    member = Shape("object", fields=tuple(item for item in shape.fields if item[0] != tag))
    return Shape("union", tag=tag, members=((value, member),))


def differences(engine: Shape, python: Shape, path: str = "scenario") -> list[str]:
    """Every disagreement between the engine's shape and the Python one, by field path."""
    if engine.kind == "union" and python.kind == "object":
        python = _as_union(python, engine.tag)
    elif python.kind == "union" and engine.kind == "object":
        engine = _as_union(engine, python.tag)
    if engine.kind != python.kind:
        # An integer on the Python side is also a valid number for the engine; not the reverse.
        if engine.kind == "number" and python.kind == "integer":
            return []
        return [f"{path}: the engine takes {engine.kind}, Python {python.kind}"]
    if engine.kind == "enum" and engine.values != python.values:
        only_engine, only_python = sorted(engine.values - python.values), sorted(python.values - engine.values)
        return [f"{path}: values only in the engine {only_engine}, only in Python {only_python}"]
    if engine.kind == "array" and engine.items is not None and python.items is not None:
        return differences(engine.items, python.items, f"{path}[]")
    if engine.kind == "union":
        if engine.tag != python.tag:
            return [f"{path}: tagged by {engine.tag!r} in the engine, by {python.tag!r} in Python"]
        return _compare_named(dict(engine.members), dict(python.members), path, "type", differences)
    if engine.kind == "object":
        return _compare_named(dict(engine.fields), dict(python.fields), path, "field", _field)
    return []


def _field(engine: Field, python: Field, path: str) -> list[str]:
    found = []
    if engine.required != python.required:
        found.append(f"{path}: {'required' if engine.required else 'optional'} in the engine, "
                     f"{'required' if python.required else 'optional'} in Python")  # fmt: skip
    if python.nullable and not engine.nullable:
        found.append(f"{path}: Python accepts null, the engine does not")
    stated = engine.default is not NO_DEFAULT and python.default is not NO_DEFAULT
    if stated and not _same_default(engine.default, python.default):
        found.append(f"{path}: default {engine.default!r} in the engine, {python.default!r} in Python")
    return found + differences(engine.shape, python.shape, path)


def _compare_named(engine: dict[str, Any], python: dict[str, Any], path: str, what: str, compare: Any) -> list[str]:
    """Fields of an object (``path.name``) or members of a union (``path<tag>``), side by side."""
    found = []
    for name in sorted(engine.keys() | python.keys()):
        where = f"{path}.{name}" if what == "field" else f"{path}<{name}>"
        if name not in python:
            found.append(f"{where}: {what} only in the engine")
        elif name not in engine:
            found.append(f"{where}: {what} only in Python")
        else:
            found += compare(engine[name], python[name], where)
    return found
