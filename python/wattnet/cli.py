"""The `wattnet` command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from wattnet._engine import SimulationError
from wattnet.errors import ScenarioError, SweepError
from wattnet.results import TABLES
from wattnet.runner import run as run_scenario
from wattnet.scenario import Scenario, load_scenario

# Sweeps, the store and the benchmarks are imported by their commands only: they bring pandas,
# numpy, networkx and Dask, which `wattnet run` does not need.

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
    tables: Annotated[
        str, typer.Option(help=f"The tables to write, comma-separated (none: an empty string); of {', '.join(TABLES)}.")
    ] = ",".join(TABLES),
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Run one scenario and write its results (and its pcap captures into OUT/pcap)."""
    pcap_dir = out / "pcap"
    wanted = [name.strip() for name in tables.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in TABLES]
    if unknown:
        exit_with_errors([f"--tables: unknown table {', '.join(map(repr, unknown))}; of {', '.join(TABLES)}"])
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
    results.write(out, wanted)
    if not quiet:
        s = results.summary
        files = ", ".join(["summary.json", "scenario.json"] + [f"{name}.parquet" for name in wanted])
        typer.echo(f"wrote {out}: {files}")
        if scenario.pcap:
            typer.echo(
                f"wrote {pcap_dir}: {len(scenario.pcap)} pcap file(s) and hosts (tshark -N n -H {pcap_dir / 'hosts'})"
            )
        typer.echo(
            f"packets sent {s['packets_sent']}, received {s['packets_received']}, dropped {s['packets_dropped']}, "
            f"in network at the end {s['packets_in_network']}; {s['events']} events in {s['wall_time_s']:.3g} s"
        )


@app.command("sweep")
def sweep_command(
    sweep_path: Annotated[
        Path, typer.Argument(metavar="SWEEP.toml", help="The sweep file: base, grid, replications and seed.")
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="The store: one directory per run under OUT/runs, the table in OUT/results.parquet."
        ),
    ],
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on the Dask cluster of this scheduler (tcp://host:8786) instead of local processes."),
    ] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes; default one per core.")] = None,
    batch: Annotated[int | None, typer.Option(help="Runs per task; default sized from the runs' wall time.")] = None,
    retry_failed: Annotated[
        bool, typer.Option("--retry-failed", help="Run again the runs recorded as failed.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")] = False,
) -> None:
    """Run a parameter grid with replications into a store that skips what it has and resumes."""
    from wattnet.store import StoreBusyError
    from wattnet.sweep import WorkersDying, load_sweep, run_sweep

    try:
        definition = load_sweep(sweep_path)
        outcome = run_sweep(
            definition["base"], definition["grid"], definition["replications"], out=out, seed=definition["seed"],
            executor="local" if scheduler is None else scheduler, workers=workers, batch=batch,
            retry_failed=retry_failed, progress=not quiet,
        )  # fmt: skip
    except FileNotFoundError:
        exit_with_errors([f"{sweep_path}: no such file"])
    except IsADirectoryError:
        exit_with_errors([f"{sweep_path}: is a directory, not a sweep file"])
    except (SweepError, StoreBusyError) as error:
        exit_with_errors(str(error).splitlines())
    except ScenarioError as error:
        exit_with_errors([f"{field}: {problem}" if field else problem for field, problem in error.errors])
    except WorkersDying as error:
        exit_with_errors([str(error)], code=1)
    except KeyboardInterrupt:
        exit_with_errors(
            [f"interrupted; the runs that finished are in {out}: run the same command to resume"], code=130
        )
    if not quiet:
        typer.echo(
            f"{outcome.total} runs: {outcome.ran - outcome.failed_now} done now, {outcome.failed_now} failed now, "
            f"{outcome.skipped} already in the store; table in {out / 'results.parquet'} and {out / 'results.csv'}"
        )
    if outcome.failed:
        failed = outcome.table[outcome.table["status"] == "failed"]
        lines = [f"{len(failed)} of {outcome.total} runs failed (the error column of {out / 'results.csv'}):"]
        lines += [f"run {row.key}: {row.error}".splitlines()[0] for row in failed.head(5).itertuples()]
        if len(failed) > 5:
            lines.append(f"... and {len(failed) - 5} more")
        if not retry_failed:
            lines.append("--retry-failed runs them again")
        exit_with_errors(lines, code=1)


@app.command("results")
def results_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A sweep's store (its --out).")],
    ci: Annotated[
        list[str] | None,
        typer.Option(
            "--ci",
            metavar="COLUMN",
            help="Print the mean of this column over replications with its confidence interval, per grid point (repeatable).",
        ),
    ] = None,
    confidence: Annotated[float, typer.Option(help="Confidence level of --ci.")] = 0.95,
) -> None:
    """Gather a sweep's runs into one table: DIR/results.parquet and DIR/results.csv."""
    from wattnet.store import load_results
    from wattnet.sweep import replication_means

    try:
        table = load_results(directory)
    except FileNotFoundError as error:
        exit_with_errors([str(error)])
    failed = int((table["status"] == "failed").sum()) if len(table) else 0
    typer.echo(
        f"{len(table)} runs ({len(table) - failed} done, {failed} failed): "
        f"wrote {directory / 'results.parquet'} and {directory / 'results.csv'}"
    )
    if ci:
        try:
            stats = replication_means(table, ci, confidence=confidence)
        except (KeyError, ValueError) as error:
            exit_with_errors([str(error.args[0])])
        typer.echo(stats.to_string(index=False))


@app.command("reproduce")
def reproduce_command(
    study: Annotated[str | None, typer.Argument(metavar="STUDY", help="The seed study, e.g. capacity-scaling.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Directory for the tables, figures, checks.json and report.html.")
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="A reduced grid and shorter runs.")] = False,
    list_studies: Annotated[bool, typer.Option("--list", help="List the studies: name, seed file, title.")] = False,
    workers: Annotated[int | None, typer.Option(help="Local worker processes; default one per core.")] = None,
) -> None:
    """Reproduce a seed study: its sweeps (cached and resumable under OUT/store), figures, tables and checks."""
    from wattnet.experiments import STUDIES

    if list_studies:
        for entry in STUDIES.values():
            typer.echo(f"{entry.name}\t{entry.seed_file}\t{entry.title}")
        return
    if study is None:
        exit_with_errors(["give a STUDY (wattnet reproduce --list names them)"])
    if study not in STUDIES:
        exit_with_errors([f"unknown study {study!r}; one of {', '.join(STUDIES)}"])
    if out is None:
        exit_with_errors(["--out DIR is required"])
    report = STUDIES[study].reproduce(out, quick=quick, workers=workers)
    checks = json.loads((out / "checks.json").read_text())
    for check in checks:
        typer.echo(f"{check['id']:>4}  {'PASS' if check['pass'] else 'FAIL'}  {check['description']}")
    passed = sum(check["pass"] for check in checks)
    typer.echo(f"{passed}/{len(checks)} checks pass; report: {report.resolve()}")


@app.command()
def schema() -> None:
    """Print the JSON Schema of a scenario."""
    typer.echo(json.dumps(Scenario.model_json_schema(), indent=2))


@app.command()
def bench(
    only: Annotated[str | None, typer.Option(help="Run one benchmark (by its name in the output).")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the results to this JSON file.")] = None,
    compare: Annotated[
        Path | None, typer.Option(help="Compare with results saved by --save; regressions (> 5 %) are marked.")
    ] = None,
) -> None:
    """Run the speed benchmarks; print one JSON object per benchmark and line."""
    from wattnet import bench as benchmarks

    if only is not None and only not in benchmarks.BENCHMARKS:
        exit_with_errors([f"--only: unknown benchmark {only!r}; one of {', '.join(benchmarks.BENCHMARKS)}"])
    previous = None
    if compare is not None:
        try:
            previous = json.loads(compare.read_text())
        except (OSError, ValueError) as error:
            exit_with_errors([f"--compare: cannot read {compare}: {error}"])
    results = []
    for name, benchmark in benchmarks.BENCHMARKS.items():
        if only is None or only == name:
            results.append(benchmark())
            typer.echo(json.dumps(results[-1]))
    if save is not None:
        save.write_text(json.dumps(results, indent=1))
    if previous is not None:
        for line in benchmarks.compare(results, previous):
            typer.echo(line)
