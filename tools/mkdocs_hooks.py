"""MkDocs hooks: the reference pages written from the code, so they cannot drift from it.

- ``reference/scenario.md`` from the scenario's JSON Schema (``wattnet.Scenario``),
- ``reference/outputs.md`` from ``wattnet.columns`` (which a test checks against the engine),
- ``reference/cli.md`` from the command line's own help.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

GENERATED = {
    "reference/scenario.md": "scenario_reference",
    "reference/outputs.md": "outputs_reference",
    "reference/cli.md": "cli_reference",
}

# ARCHITECTURE.md lives at the top of the repository, where contributors look for it; the site
# shows it as architecture.md, with its links into docs/ made relative to the site.
ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = "architecture.md"
_LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?P<anchor>#[^)\s]*)?\)")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path, function in GENERATED.items():
        files.append(File.generated(config, path, content=globals()[function]()))
    architecture = (ROOT / "ARCHITECTURE.md").read_text().replace("](docs/", "](")
    files.append(File.generated(config, ARCHITECTURE, content=architecture))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Links from a docs page to the top-level ARCHITECTURE.md point at its page in the site."""
    folder = posixpath.dirname(page.file.src_uri)

    def relink(match: re.Match[str]) -> str:
        target = match["target"]
        if (ROOT / "docs" / folder / target).resolve() != ROOT / "ARCHITECTURE.md":
            return match[0]
        return f"]({posixpath.relpath(ARCHITECTURE, folder or '.')}{match['anchor'] or ''})"

    return _LINK.sub(relink, markdown)


# ---------------------------------------------------------------------------------------------
# The scenario format
# ---------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _anchor(name: str) -> str:
    return name.lower()


def _type(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{_anchor(name)})"
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(_type(option) for option in schema[key])
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if kind == "null":
        return "absent"
    return {"number": "number", "integer": "integer", "string": "string", "boolean": "boolean", "object": "table"}.get(
        str(kind), "any"
    )


def _bounds(schema: dict[str, Any]) -> str:
    parts = []
    for option in [schema, *schema.get("anyOf", [])]:
        for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"), ("exclusiveMaximum", "<")):
            if key in option:
                parts.append(f"{sign} {option[key]:g}" if isinstance(option[key], float) else f"{sign} {option[key]}")
        for key, word in (("minItems", "at least"), ("minLength", "length at least")):
            if key in option:
                parts.append(f"{word} {option[key]}")
    return ", ".join(parts)


def _default(model: str, name: str, schema: dict[str, Any], required: set[str]) -> str:
    if name in required:
        return "**required**"
    if "default" in schema:
        return f"`{json.dumps(schema['default'], ensure_ascii=False)}`"
    # A default built by a factory (a table of defaults): build it and show it.
    from pydantic import BaseModel
    from wattnet import scenario

    value = getattr(scenario, model).model_fields[name].get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_none=True)
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _models_in_order(schema: dict[str, Any]) -> list[str]:
    """Definitions in the order a reader meets them, walking from the root."""
    definitions = schema.get("$defs", {})
    order: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                if name not in order:
                    order.append(name)
                    walk(definitions[name])
            for key, value in node.items():
                if key != "$defs":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return order + sorted(set(definitions) - set(order))


def _model_section(name: str, model: dict[str, Any]) -> list[str]:
    lines = [f"## {name} {{ #{_anchor(name)} }}", ""]
    if model.get("description"):
        # The docstring's examples belong to the API reference; here the fields speak.
        lines += [model["description"].split("\nExample:")[0].strip(), ""]
    properties = model.get("properties", {})
    if not properties:
        return lines + ["No fields.", ""]
    required = set(model.get("required", []))
    lines += ["| field | type | default | allowed | meaning |", "|---|---|---|---|---|"]
    for field, schema in properties.items():
        row = [f"`{field}`", _type(schema), _default(name, field, schema, required), _bounds(schema)]
        row.append(schema.get("description", ""))
        lines.append("| " + " | ".join(_cell(cell) for cell in row) + " |")
    return lines + [""]


def scenario_reference() -> str:
    from wattnet import Scenario

    schema = Scenario.model_json_schema()
    lines = [
        "# Scenario format",
        "",
        (
            "Every field of a scenario, generated from the schema the package validates with "
            "(`wattnet schema` prints the same as JSON Schema). A scenario is a TOML file, a JSON file "
            "(`scenario.json`), nested Python dicts or `wattnet.Scenario` models; unknown fields are errors. "
            "Quantities carry their unit in their name: `_s` seconds, `_bps` bit/s, `_bytes` bytes, "
            "`_w` watts, `_j` joules. A default of `null` means absent. See [Scenarios](../guide/scenarios.md) for how the parts fit together."
        ),
        "",
    ]
    lines += _model_section("Scenario", schema)
    for name in _models_in_order(schema):
        lines += _model_section(name, schema["$defs"][name])
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The outputs
# ---------------------------------------------------------------------------------------------


def outputs_reference() -> str:
    from wattnet import columns

    lines = [
        "# Outputs",
        "",
        (
            "Every table a run produces, every column and its unit, generated from `wattnet.columns` "
            "(a test checks it against the columns the engine sends). `wattnet run` writes each table as "
            "`<table>.parquet` beside `summary.json` and `scenario.json`; in Python they are the "
            "DataFrames of [`Results`](api.md#wattnet.Results). Units: `s` seconds, `b/s` bits per second, "
            "`B` bytes, `J` joules, `W` watts, `1` a ratio; an empty unit marks a name."
        ),
        "",
        "Identical runs write identical Parquet files; only `wall_time_s` in the summary differs.",
        "",
        "## summary.json",
        "",
        "One value per run; a sweep's `results.parquet` has one column per field.",
        "",
        "| field | unit | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{name}` | {c.unit} | {_cell(c.meaning)} |" for name, c in columns.SUMMARY.items()]
    for table, meaning in columns.TABLE_MEANINGS.items():
        lines += ["", f"## {table}", "", meaning, "", "| column | unit | meaning |", "|---|---|---|"]
        lines += [f"| `{name}` | {c.unit} | {_cell(c.meaning)} |" for name, c in columns.TABLES[table].items()]
        if table == "timeseries":
            lines += [
                "",
                (
                    "The quantities the recorder samples (`recorder.quantities` for ports, "
                    "`recorder.flow_quantities` for TCP flows):"
                ),
                "",
                "| quantity | unit | meaning |",
                "|---|---|---|",
            ]
            lines += [
                f"| `{name}` | {c.unit} | {_cell(c.meaning)} |" for name, c in columns.TIMESERIES_QUANTITIES.items()
            ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------


def cli_reference() -> str:
    from typer.testing import CliRunner
    from wattnet.cli import app

    runner = CliRunner()

    def help_of(*command: str) -> str:
        done = runner.invoke(
            app, [*command, "--help"], prog_name="wattnet", env={"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
        )
        assert done.exit_code == 0, done.output
        return done.output.rstrip()

    lines = [
        "# Command line",
        "",
        (
            "The `wattnet` command, generated from its own `--help`. Every command takes `-h`/`--help`; "
            "`wattnet --version` prints the package version, the engine's version with the hash of its "
            "Rust sources, and the hash of the Python sources. `-v` prints debugging detail and `-q` "
            "nothing but warnings and errors (both through Python's `logging`, on stderr)."
        ),
        "",
        "```text",
        help_of(),
        "```",
        "",
    ]
    for name in ("run", "sweep", "results", "reproduce", "schema", "bench"):
        lines += [f"## wattnet {name}", "", "```text", help_of(name), "```", ""]
    return "\n".join(lines)
