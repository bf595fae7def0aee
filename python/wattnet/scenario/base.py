"""The base of every model (unknown fields and NaN are errors) and how pydantic's errors become
``ScenarioError``'s field paths.
"""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from wattnet.errors import ScenarioError


class _Model(BaseModel):
    # Unknown fields are errors (the engine denies them too); NaN and infinities are never valid.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, use_attribute_docstrings=True)

    def __init__(self, **data: Any):
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise ScenarioError(_field_errors(error)) from None


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
