"""The base of every model (unknown fields and NaN are errors) and how pydantic's errors become
``ScenarioError``'s field paths.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from wattnet.errors import ScenarioError


class _Model(BaseModel):
    # Unknown fields are errors (the engine denies them too); NaN and infinities are never valid.
    # A model's validator is built when it is first used (a run builds those its scenario needs:
    # building all of them took most of the package's import time).
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    def __init__(self, **data: Any):
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise ScenarioError(_field_errors(error)) from None

    # This __init__ validates as pydantic's own does and only renames the error, so pydantic may
    # validate a nested model inline rather than through it (which would build every nested
    # model's own validator on first use: a tenth of a second per process). A nested model's
    # errors reach the outermost model's __init__ with their full paths.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # A field's description is the docstring below it, as pydantic's use_attribute_docstrings
        # gives, but read from the module's syntax tree, parsed once, instead of each class's source.
        for name, doc in _attribute_docstrings(cls).items():
            field = cls.model_fields.get(name)
            if field is not None and field.description is None:
                field.description = doc


@functools.cache
def _classes_of(source: str) -> dict[str, ast.ClassDef]:
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _attribute_docstrings(cls: type) -> dict[str, str]:
    """Each annotated attribute of the class followed by a string literal: that string."""
    source = getattr(sys.modules[cls.__module__], "__file__", None)
    node = _classes_of(source).get(cls.__name__) if source else None
    if node is None:
        return {}
    docs = {}
    for statement, following in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def _union_tags(union: Any) -> set[str]:
    members = get_args(union)[0]
    key = get_args(union)[1].discriminator
    return {get_args(member.model_fields[key].annotation)[0] for member in (get_args(members) or (members,))}


# Pydantic puts a union's tag in an error's location (("flows", 0, "traffic", "cbr", "rate_bps"));
# no field is named like a tag, so the tags can simply be dropped from the path. The sections define
# the unions after this base: wattnet.scenario.root adds every union's tags here.
_UNION_TAGS: set[str] = set()


def _field_path(loc: tuple[str | int, ...]) -> str:
    path = ""
    for item in loc:
        if isinstance(item, int):
            path += f"[{item}]"
        elif item not in _UNION_TAGS:
            path += f".{item}" if path else item
    return path


def _join_path(prefix: str, field: str) -> str:
    if not prefix or not field:
        return prefix or field
    return prefix + field if field.startswith("[") else f"{prefix}.{field}"


def _field_errors(error: ValidationError) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    for detail in error.errors():
        loc, kind, message = tuple(detail["loc"]), detail["type"], detail["msg"]
        if kind == "extra_forbidden":
            message = "unknown field"
        elif kind == "missing":
            message = "required field is missing"
        elif kind == "union_tag_invalid":
            key = detail["ctx"]["discriminator"].strip("'")
            loc += (key,)
            message = f"unknown {key} {detail['ctx']['tag']!r}; expected one of {detail['ctx']['expected_tags']}"
        elif kind == "union_tag_not_found":
            loc += (detail["ctx"]["discriminator"].strip("'"),)
            message = "required field is missing"
        elif kind == "value_error" and isinstance(detail["ctx"]["error"], ScenarioError):
            # Raised by a nested model's __init__ (pydantic calls it as the model overrides it)
            # or by Scenario's cross-reference check, with paths relative to that model.
            prefix = _field_path(loc)
            errors.extend((_join_path(prefix, field), problem) for field, problem in detail["ctx"]["error"].errors)
            continue
        else:
            message = message.removeprefix("Value error, ")
            message = message[:1].lower() + message[1:]
            if isinstance(detail.get("input"), (int, float, str)) and kind != "value_error":
                message += f" (got {detail['input']!r})"
        errors.append((_field_path(loc), message))
    return errors
