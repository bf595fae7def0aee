"""The `wattnet` command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from wattnet import bench as benchmarks
from wattnet._engine import SimulationError
from wattnet.errors import ScenarioError
from wattnet.results import TABLES
from wattnet.runner import run as run_scenario
from wattnet.scenario import Scenario, load_scenario

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="wattnet: a fast packet-level simulator of energy-aware networks.",
)

# Bad input exits with 2, like a usage error; a run that breaks an engine invariant with 1;
# an interrupted run with 130, as shells report Ctrl-C.
EXIT_BAD_INPUT = 2


def exit_with_errors(lines: list[str], code: int = EXIT_BAD_INPUT) -> NoReturn:
    for line in lines:
        typer.echo(f"error: {line}", err=True)
    raise typer.Exit(code)


@app.command()
def run(
    scenario_path: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="The scenario to run.")],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="Directory to write summary.json and the Parquet tables into, and the scenario's captures into its pcap/ folder.",
        ),
    ],
    seed: Annotated[int | None, typer.Option(help="Replaces the scenario's seed.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Run one scenario and write its results (and its pcap captures into OUT/pcap)."""
    pcap_dir = out / "pcap"
    try:
        scenario = load_scenario(scenario_path)
        if seed is not None:
            scenario = scenario.with_seed(seed)
    except FileNotFoundError:
        exit_with_errors([f"{scenario_path}: no such file"])
    except IsADirectoryError:
        exit_with_errors([f"{scenario_path}: is a directory, not a scenario file"])
    except ScenarioError as error:
        exit_with_errors([f"{field}: {problem}" if field else problem for field, problem in error.errors])
    try:
        results = run_scenario(scenario, progress=not quiet, pcap_dir=pcap_dir if scenario.pcap else None)
    except ScenarioError as error:
        exit_with_errors([f"{field}: {problem}" if field else problem for field, problem in error.errors])
    except SimulationError as error:
        exit_with_errors([f"the engine broke an invariant: {error}"], code=1)
    except OSError as error:
        exit_with_errors([f"cannot write the captures: {error}"], code=1)
    except KeyboardInterrupt:
        partial = f"; the captures in {pcap_dir} are incomplete" if scenario.pcap else ""
        exit_with_errors([f"interrupted; no results written{partial}"], code=130)
    results.write(out)
    if not quiet:
        s = results.summary
        files = ", ".join(["summary.json", "scenario.json"] + [f"{name}.parquet" for name in TABLES])
        typer.echo(f"wrote {out}: {files}")
        if scenario.pcap:
            typer.echo(
                f"wrote {pcap_dir}: {len(scenario.pcap)} pcap file(s) and hosts (tshark -N n -H {pcap_dir / 'hosts'})"
            )
        typer.echo(
            f"packets sent {s['packets_sent']}, received {s['packets_received']}, dropped {s['packets_dropped']}, "
            f"in network at the end {s['packets_in_network']}; {s['events']} events in {s['wall_time_s']:.3g} s"
        )


@app.command()
def schema() -> None:
    """Print the JSON Schema of a scenario."""
    typer.echo(json.dumps(Scenario.model_json_schema(), indent=2))


@app.command()
def bench(
    only: Annotated[str | None, typer.Option(help=f"Run one benchmark: {', '.join(benchmarks.BENCHMARKS)}.")] = None,
) -> None:
    """Run the speed benchmarks; print one JSON object per benchmark and line."""
    if only is not None and only not in benchmarks.BENCHMARKS:
        exit_with_errors([f"--only: unknown benchmark {only!r}; one of {', '.join(benchmarks.BENCHMARKS)}"])
    for name, benchmark in benchmarks.BENCHMARKS.items():
        if only is None or only == name:
            typer.echo(json.dumps(benchmark()))
