"""The parameter tables of the reproductions (the papers' values, targets, tolerances and the run
grids), kept as TOML beside each study's code and read once at import."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any


def load_parameters(package: str, name: str = "parameters.toml") -> dict[str, Any]:
    """The TOML file ``name`` of the study package ``package`` (e.g. ``wattnet.experiments.g_router``)
    as a dict; a clear error naming the file when it is missing or malformed."""
    resource = files(package) / name
    try:
        text = resource.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"{package}: its parameter file {name} is missing from the package") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{package}/{name}: {error}") from None
