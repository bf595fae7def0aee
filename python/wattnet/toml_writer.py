"""Writing a scenario (or any table of scalars, tables and lists) back as TOML."""

from __future__ import annotations

import json
import re
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def to_toml(data: dict[str, Any]) -> str:
    """A table of scalars, tables and lists as TOML: top-level scalars first, then each table
    (``[name]``) and list of tables (``[[name]]``), nested tables inline. Nones are left out."""
    lines: list[str] = []
    tables: list[str] = []
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, dict):
            tables += ["", f"[{_key(key)}]", *(f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None)]
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for item in value:
                tables += [
                    "",
                    f"[[{_key(key)}]]",
                    *(f"{_key(k)} = {_value(v)}" for k, v in item.items() if v is not None),
                ]
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines + tables).lstrip("\n") + "\n"


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
