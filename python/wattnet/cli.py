"""The `wattnet` command line."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from wattnet.errors import CostWarning, ScenarioError, SimulationError, StoreBusyError, SweepError, WorkersDying
from wattnet.results import TABLES
from wattnet.runner import run as run_scenario
from wattnet.scenario import Scenario, load_scenario
from wattnet.terminal import printable
from wattnet.version import version_line

# Sweeps, the store and the benchmarks are imported by their commands only: they bring pandas,
# numpy, networkx and Dask, which `wattnet run` does not need.

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="wattnet: a fast packet-level simulator of energy-aware networks. "
    "Documentation: the docs/ folder of the source, built by `make docs`.",
)

logger = logging.getLogger("wattnet")

# Where results go when no --out is given: runs/<name>-<hash> under the working directory.
DEFAULT_RUNS_DIR = Path("runs")

Verbose = Annotated[
    int, typer.Option("--verbose", "-v", count=True, help="Say more: -v adds debugging detail (Python logging).")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but warnings and errors; no progress bar.")]


class _LevelPrefix(logging.Formatter):
    """``warning: ...``, ``debug: ...``; information goes out as it is."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        return message if record.levelno == logging.INFO else f"{record.levelname.lower()}: {message}"


def configure_logging(verbose: int, quiet: bool) -> None:
    """Routes the package's logging and its warnings to stderr at the level -v / -q ask for."""
    level = logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO
    handler = logging.StreamHandler()
    handler.setFormatter(_LevelPrefix())
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False

    def show(message: Warning | str, category: type[Warning], *_: object, **__: object) -> None:
        logger.warning(str(message))

    warnings.showwarning = show


def _version(shown: bool) -> None:
    if shown:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and source hashes, and exit."
        ),
    ] = False,
) -> None:
    """wattnet: a fast packet-level simulator of energy-aware networks."""


def default_out(name: str, identity: str) -> Path:
    """``runs/<name>-<first 12 hex digits of the SHA-256 of identity>``: the same input, the same directory."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "run"
    return DEFAULT_RUNS_DIR / f"{slug}-{hashlib.sha256(identity.encode()).hexdigest()[:12]}"


# Bad input exits with 2, like a usage error; a run that breaks an engine invariant with 1;
# an interrupted run with 130, as shells report Ctrl-C.
EXIT_BAD_INPUT = 2


def exit_with_errors(lines: list[str], code: int = EXIT_BAD_INPUT) -> NoReturn:
    # Lines quote names and values from the input: escaped, never obeyed by the terminal.
    for line in lines:
        typer.echo(f"error: {printable(line)}", err=True)
    raise typer.Exit(code)


def scenario_errors(error: ScenarioError) -> list[str]:
    return [f"{field}: {problem}" if field else problem for field, problem in error.errors]


def unreadable(path: Path, error: OSError) -> NoReturn:
    """Exits naming a file the command cannot read."""
    if isinstance(error, FileNotFoundError):
        exit_with_errors([f"{path}: no such file"])
    if isinstance(error, IsADirectoryError):
        exit_with_errors([f"{path}: is a directory, not a file"])
    exit_with_errors([f"{path}: cannot read it: {error.strerror or error}"])


@contextlib.contextmanager
def warnings_as_lines() -> Iterator[None]:
    """Shows CostWarning (a long or large run) as one line on stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", CostWarning)
        warnings.showwarning = lambda message, *_, **__: typer.echo(f"warning: {printable(str(message))}", err=True)
        yield


def prepare_out(out: Path) -> bool:
    """Makes sure results can be written into ``out`` before a run starts (exit 2 naming the
    problem otherwise); True if ``out`` was created here."""
    if out.exists() and not out.is_dir():
        exit_with_errors([f"--out {out}: exists and is not a directory"])
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".wattnet-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        exit_with_errors([f"--out {out}: cannot write there: {error.strerror or error}"])
    return created


def run_failure(error: BaseException, pcap_dir: Path | None) -> tuple[list[str], int]:
    """The lines and exit status for a run that did not finish."""
    if isinstance(error, ScenarioError):
        return scenario_errors(error), EXIT_BAD_INPUT
    if isinstance(error, SimulationError):
        return [f"the engine broke an invariant: {error}"], 1
    if isinstance(error, OSError):
        return [f"cannot write the captures: {error}"], 1
    partial = f"; the captures in {pcap_dir} are incomplete" if pcap_dir is not None else ""
    return [f"interrupted; no results written{partial}"], 130


@app.command()
def run(
    scenario_path: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="The scenario to run.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Directory to write summary.json and the Parquet tables into, and the scenario's captures into "
            "its pcap/ folder; default runs/<scenario name>-<first 12 digits of its scenario_hash>.",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Replaces the scenario's seed.")] = None,
    tables: Annotated[
        str, typer.Option(help=f"The tables to write, comma-separated (none: an empty string); of {', '.join(TABLES)}.")
    ] = ",".join(TABLES),
    verbose: Verbose = 0,
    quiet: Quiet = False,
    force: Annotated[
        bool, typer.Option("--force", help="Run even when the recorded samples would not fit in memory.")
    ] = False,
) -> None:
    """Run one scenario (TOML, or the scenario.json a run wrote) and write its results."""
    configure_logging(verbose, quiet)
    wanted = [name.strip() for name in tables.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in TABLES]
    if unknown:
        exit_with_errors([f"--tables: unknown table {', '.join(map(repr, unknown))}; of {', '.join(TABLES)}"])
    try:
        scenario = load_scenario(scenario_path)
        if seed is not None:
            scenario = scenario.with_seed(seed)
    except OSError as error:
        unreadable(scenario_path, error)
    except ScenarioError as error:
        exit_with_errors(scenario_errors(error))
    if out is None:
        out = default_out(scenario.name or scenario_path.stem, scenario.to_engine_json())
    pcap_dir = out / "pcap"
    logger.debug("%s: %d nodes, %d links, %d flows, seed %d, %g s", scenario_path, len(scenario.nodes),
                 len(scenario.links), len(scenario.flows), scenario.seed, scenario.duration_s)  # fmt: skip
    created = prepare_out(out)
    try:
        with warnings_as_lines():
            results = run_scenario(
                scenario, progress=not quiet, pcap_dir=pcap_dir if scenario.pcap else None, force=force
            )
    except (ScenarioError, SimulationError, OSError, KeyboardInterrupt) as error:
        if created and not scenario.pcap:
            with contextlib.suppress(OSError):
                out.rmdir()  # made for this run and still empty
        exit_with_errors(*run_failure(error, pcap_dir if scenario.pcap else None))
    try:
        results.write(out, wanted)
    except OSError as error:
        exit_with_errors([f"--out {out}: cannot write the results: {error.strerror or error}"], code=1)
    except KeyboardInterrupt:
        exit_with_errors(["interrupted while writing; no results written"], code=130)
    for note in results.notes:
        logger.info("note: %s", note)
    if not quiet:
        s = results.summary
        files = ", ".join(["summary.json", "scenario.json"] + [f"{name}.parquet" for name in wanted])
        typer.echo(f"wrote {printable(str(out))}: {files}")
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
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="The store: one directory per run under OUT/runs, the table in OUT/results.parquet; "
            "default runs/<sweep file name>-<hash of the sweep>.",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on the Dask cluster of this scheduler (tcp://host:8786) instead of local processes."),
    ] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes; default one per core.")] = None,
    batch: Annotated[int | None, typer.Option(help="Runs per task; default sized from the runs' wall time.")] = None,
    retry_failed: Annotated[
        bool, typer.Option("--retry-failed", help="Run again the runs recorded as failed.")
    ] = False,
    verbose: Verbose = 0,
    quiet: Quiet = False,
) -> None:
    """Run a parameter grid with replications into a store that skips what it has and resumes."""
    configure_logging(verbose, quiet)
    from wattnet.sweep import load_sweep, run_sweep

    try:
        definition = load_sweep(sweep_path)
        if out is None:
            identity = {key: definition[key] for key in ("grid", "replications", "seed")}
            identity["base"] = definition["base"].to_engine_json()
            out = default_out(sweep_path.stem, json.dumps(identity, sort_keys=True, default=str))
        outcome = run_sweep(
            definition["base"], definition["grid"], definition["replications"], out=out, seed=definition["seed"],
            executor="local" if scheduler is None else scheduler, workers=workers, batch=batch,
            retry_failed=retry_failed, progress=not quiet,
        )  # fmt: skip
    except OSError as error:
        if error.filename is not None and Path(error.filename) == sweep_path:
            unreadable(sweep_path, error)
        exit_with_errors([f"--out {out}: cannot write there: {error.strerror or error}"])
    except (SweepError, StoreBusyError) as error:
        exit_with_errors(str(error).splitlines())
    except ScenarioError as error:
        exit_with_errors(scenario_errors(error))
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
    verbose: Verbose = 0,
    quiet: Quiet = False,
) -> None:
    """Gather a sweep's runs into one table: DIR/results.parquet and DIR/results.csv."""
    configure_logging(verbose, quiet)
    from wattnet.store import DAMAGED, load_results
    from wattnet.sweep import replication_means

    try:
        table = load_results(directory)
    except FileNotFoundError as error:
        exit_with_errors([str(error)])
    except OSError as error:
        exit_with_errors([f"{directory}: cannot read or write the store: {error.strerror or error}"])
    failed = damaged = 0
    if len(table):
        counts = table["status"].value_counts()
        failed, damaged = int(counts.get("failed", 0)), int(counts.get(DAMAGED, 0))
    typer.echo(
        f"{len(table)} runs ({len(table) - failed - damaged} done, {failed} failed"
        f"{f', {damaged} damaged' if damaged else ''}): "
        f"wrote {printable(str(directory / 'results.parquet'))} and {printable(str(directory / 'results.csv'))}"
    )
    if ci:
        try:
            stats = replication_means(table, ci, confidence=confidence)
        except (KeyError, ValueError) as error:
            exit_with_errors([str(error.args[0])])
        typer.echo("\n".join(printable(line) for line in stats.to_string(index=False).splitlines()))
    if damaged:
        bad = table[table["status"] == DAMAGED]
        lines = [f"{damaged} run(s) damaged on disk, not counted as done:"]
        lines += [f"run {row.key}: {row.error}" for row in bad.head(5).itertuples()]
        if damaged > 5:
            lines.append(f"... and {damaged - 5} more")
        lines.append("running the sweep again computes them anew")
        exit_with_errors(lines, code=1)


@app.command("reproduce")
def reproduce_command(
    study: Annotated[
        str | None, typer.Argument(metavar="STUDY", help="The study, e.g. capacity-scaling (--list names them).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Directory for the tables, figures, checks.json and report.html; default runs/<study> "
            "(runs/<study>-quick with --quick).",
        ),
    ] = None,
    quick: Annotated[bool, typer.Option("--quick", help="A reduced grid and shorter runs.")] = False,
    list_studies: Annotated[bool, typer.Option("--list", help="List the studies: name, paper, title.")] = False,
    workers: Annotated[int | None, typer.Option(help="Local worker processes; default one per core.")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Run the sweeps on the Dask cluster of this scheduler (tcp://host:8786) instead of local processes; "
            "a study with a grid too large for one machine runs it in full there."
        ),
    ] = None,
    verbose: Verbose = 0,
    quiet: Quiet = False,
) -> None:
    """Reproduce a published study: its sweeps (cached and resumable under OUT/store), figures, tables and
    targets, each judged against the paper and against ns-2.35 on the same scenario."""
    from wattnet.experiments import STUDIES
    from wattnet.experiments.report import VERDICTS, summary_line

    configure_logging(verbose, quiet)

    if list_studies:
        for entry in STUDIES.values():
            typer.echo(f"{entry.name}\t{entry.paper.citation()}\t{entry.title}")
        return
    if study is None:
        exit_with_errors(["give a STUDY (wattnet reproduce --list names them)"])
    if study not in STUDIES:
        exit_with_errors([f"unknown study {study!r}; one of {', '.join(STUDIES)}"])
    if out is None:
        out = DEFAULT_RUNS_DIR / (f"{study}-quick" if quick else study)
    entry = STUDIES[study]
    typer.echo(f"Reproducing {entry.paper.citation()}", err=True)
    if scheduler is not None and workers is not None:
        exit_with_errors(["--workers applies to local processes; a Dask cluster (--scheduler) has its own workers"])
    executor = "local" if scheduler is None else scheduler
    report = entry.reproduce(out, quick=quick, executor=executor, workers=workers, progress=not quiet)
    checks = json.loads((out / "checks.json").read_text())
    width, id_width = max(map(len, VERDICTS)), max((len(check["id"]) for check in checks), default=0)
    for check in checks:
        typer.echo(f"{check['id']:>{id_width}}  {check['verdict']:<{width}}  {check['description']}")
        if check["reason"]:
            typer.echo(f"{'':>{id_width}}  {'':<{width}}  ↳ {check['reason']}")
    typer.echo(f"{summary_line(checks)}; report: {report.resolve()}")


@app.command()
def expand(
    scenario_path: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="The scenario to expand.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the engine's JSON, every field explicit, instead of TOML.")
    ] = False,
) -> None:
    """Print the scenario with its topology builder, traffic generators and settings expanded."""
    from wattnet.sweep import sparse_dump
    from wattnet.toml_writer import to_toml

    try:
        scenario = load_scenario(scenario_path)
    except FileNotFoundError:
        exit_with_errors([f"{scenario_path}: no such file"])
    except IsADirectoryError:
        exit_with_errors([f"{scenario_path}: is a directory, not a scenario file"])
    except ScenarioError as error:
        exit_with_errors([f"{field}: {problem}" if field else problem for field, problem in error.errors])
    if as_json:
        typer.echo(json.dumps(json.loads(scenario.to_engine_json()), indent=2))
    else:
        typer.echo(to_toml(sparse_dump(scenario)), nl=False)


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


@app.command("validate")
def validate_command(
    regenerate: Annotated[
        bool,
        typer.Option(
            "--regenerate", help="First rerun ns-2.35 and ns-3.44 and store their results in validation/reference."
        ),
    ] = False,
    report: Annotated[
        Path | None, typer.Option(help="Write the side-by-side table as Markdown (docs/validation.md).")
    ] = None,
    readme: Annotated[
        Path | None, typer.Option(help="Rewrite the validation summary block of this README (README.md).")
    ] = None,
    only: Annotated[list[str] | None, typer.Option(help="Only this scenario (repeatable).")] = None,
) -> None:
    """Compare wattnet with the stored ns-2.35 and ns-3.44 results of the cross-validation scenarios."""
    from wattnet.validation import compare
    from wattnet.validation import report as validation_report
    from wattnet.validation.scenarios import SCENARIOS

    unknown = [name for name in only or [] if name not in SCENARIOS]
    if unknown:
        exit_with_errors([f"--only: unknown scenario {name!r}; one of {', '.join(SCENARIOS)}" for name in unknown])
    if regenerate:
        try:
            compare.regenerate(only, progress=typer.echo)
        except RuntimeError as error:
            exit_with_errors([str(error)], code=1)
    rows = compare.compare_all(only)
    typer.echo(validation_report.console_table(rows))
    if report is not None:
        validation_report.write_markdown(rows, report)
        typer.echo(f"wrote {report}")
    if readme is not None:
        try:
            validation_report.write_readme_summary(rows, readme)
        except ValueError as error:
            exit_with_errors([f"--readme: {error}"])
        typer.echo(f"wrote the validation summary into {readme}")
    failed = [row for row in rows if row.verdict == "FAIL"]
    known = sum(row.verdict == "known difference" for row in rows)
    typer.echo(f"{len(rows) - len(failed) - known} rows pass, {known} known differences, {len(failed)} fail")
    if failed:
        raise typer.Exit(1)
