"""Reading scenarios from TOML and JSON files and text."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from wattnet.errors import ScenarioError
from wattnet.scenario.root import Scenario


def scenario_from_toml(text: str) -> Scenario:
    """Validates a scenario written as TOML text (the format of ``load_scenario``'s files)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([("", f"invalid TOML: {error}")]) from None
    except RecursionError:
        raise ScenarioError([("", "values nested too deeply to read")]) from None
    return Scenario.from_dict(data)


def load_scenario(path: str | Path) -> Scenario:
    """Reads and validates a scenario file: TOML, or JSON for a name ending in ``.json``.

    The JSON is the ``scenario.json`` that ``wattnet run`` and ``Results.write`` write, so a
    run's own record runs again as it is.

    Example:
        >>> load_scenario("examples/chain.toml").duration_s
        10.0
    """
    path = Path(path)
    if path.suffix.lower() == ".json":
        text = _read_text(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScenarioError([("", f"{path}: invalid JSON: {error}")]) from None
        except RecursionError:
            raise ScenarioError([("", f"{path}: values nested too deeply to read")]) from None
        return Scenario.from_dict(data, base_dir=path.parent)
    return Scenario.from_dict(read_toml(path), base_dir=path.parent)


def _read_text(path: Path) -> str:
    """The file's text; ScenarioError naming the file when its bytes are not UTF-8 (OSError when
    it cannot be read)."""
    content = path.read_bytes()
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 text (byte {error.start} is {content[error.start]:#04x}); scenario files are UTF-8"
        raise ScenarioError([("", f"{path}: {problem}")]) from None


def read_toml(path: Path) -> dict[str, Any]:
    """The tables of a TOML file; ScenarioError naming the file and the problem when its bytes
    are not UTF-8 text, not TOML, or nested too deeply to read (OSError when it cannot be read)."""
    text = _read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError([("", f"{path}: invalid TOML: {error}")]) from None
    except RecursionError:
        raise ScenarioError([("", f"{path}: values nested too deeply to read")]) from None
