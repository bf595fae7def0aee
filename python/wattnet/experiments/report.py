"""What every reproduction writes: figures (PNG + SVG), tables (CSV + Parquet), ``checks.json``
and a self-contained ``report.html`` (parameters with their source, interpretation choices,
checks, figures, tables). Each study module computes its own numbers and calls these.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Collection, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def plt() -> ModuleType:
    """matplotlib.pyplot on the Agg backend (reproductions run headless)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def save_figure(fig: Figure, path: Path) -> list[Path]:
    """Saves ``fig`` as ``path``.png and ``path``.svg, closes it and returns both paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    paths = [path.with_suffix(".png"), path.with_suffix(".svg")]
    fig.savefig(paths[0], dpi=110)
    fig.savefig(paths[1])
    plt().close(fig)
    return paths


def row_of(frame: pd.DataFrame, label: str) -> pd.Series[Any]:
    """``frame.loc[label]`` for a label its index holds once (a clear error if it holds it more often)."""
    found = frame.loc[label]
    if not isinstance(found, pd.Series):
        raise KeyError(f"{label!r} is in the index more than once")
    return found


def write_tables(out: Path, frames: dict[str, pd.DataFrame]) -> None:
    """``out/tables/NAME.csv`` and ``.parquet`` for each frame."""
    tables = out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():
        frame.to_csv(tables / f"{name}.csv", index=False)
        frame.to_parquet(tables / f"{name}.parquet", index=False)


def rounded(value: Any, digits: int = 2) -> float | None:
    """A JSON-friendly number: None for missing or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return round(float(value), digits)


def check(
    id: str, description: str, paper_value: Any, wattnet_value: Any, tolerance: str, passed: bool
) -> dict[str, Any]:
    """One entry of checks.json before ``judge`` adds the reference column and the verdict."""
    return {
        "id": id,
        "description": description,
        "paper_value": paper_value,
        "wattnet_value": wattnet_value,
        "tolerance": tolerance,
        "pass": bool(passed),
    }


REPRODUCED = "reproduced"
MATCHES_NS2 = "matches ns-2, not the paper"
DIFFERS = "differs from ns-2"
NOT_SIMULABLE = "not simulable"
# For a study ns-2.35 cannot run (its mechanism has no ns-2.35 module), the reference is a fluid model
# of the paper's own equations: a target both miss is not reproducible from the paper's text.
NOT_FROM_TEXT = "not reproducible from the paper's text"
DIFFERS_MODEL = "differs from the fluid model"
WATTNET_ONLY = "not reproduced (wattnet-only)"
# For a study no reference simulator can run at all (ns-2.35 has no Multipath TCP), a target is reproduced,
# differs from the paper (with the reason), or not simulable.
DIFFERS_PAPER = "differs from the paper"
VERDICTS = (REPRODUCED, MATCHES_NS2, DIFFERS, NOT_SIMULABLE, NOT_FROM_TEXT, DIFFERS_MODEL, WATTNET_ONLY, DIFFERS_PAPER)
NS2 = "ns-2.35"
NO_REFERENCE = "none"


def numbers(value: Any, path: str = "") -> dict[str, float | bool]:
    """The numeric and boolean leaves of a check value, keyed by their path."""
    if isinstance(value, dict):
        return {
            k: v for key, item in value.items() for k, v in numbers(item, f"{path}.{key}" if path else str(key)).items()
        }
    if isinstance(value, list | tuple):
        return {k: v for i, item in enumerate(value) for k, v in numbers(item, f"{path}[{i}]").items()}
    if isinstance(value, bool):
        return {path: value}
    if isinstance(value, int | float) and not (isinstance(value, float) and math.isnan(value)):
        return {path: float(value)}
    return {}


def disagreements(ours: Any, theirs: Any, relative: float, absolute: float) -> list[str]:
    """The leaves both values have where they differ by more than max(relative·|theirs|, absolute)
    (booleans: differ at all), as 'path: wattnet X, reference Y'."""
    a, b = numbers(ours), numbers(theirs)
    out = []
    for key in a.keys() & b.keys():
        x, y = a[key], b[key]
        if isinstance(x, bool) or isinstance(y, bool):
            far = bool(x) != bool(y)
        else:
            far = abs(x - y) > max(relative * abs(y), absolute)
        if far:
            out.append(f"{key}: wattnet {x:g}, reference {y:g}")
    return sorted(out)


def judge(
    checks: list[dict[str, Any]],
    reference: dict[str, dict[str, Any] | None],
    *,
    reference_name: str | None = NS2,
    explanations: dict[str, str] | None = None,
    analogues: dict[str, str] | None = None,
    computed: Collection[str] = (),
    relative: float = 0.15,
    absolute: float = 0.5,
) -> list[dict[str, Any]]:
    """Adds ``ns2_value`` and ``ns2_pass`` (the same check computed from the reference's results on
    the same reconstructed scenario; None where the reference has no such run), ``reference``,
    ``verdict`` and ``reason`` to every check. The verdict follows from the results alone:

    - *reproduced*: wattnet meets the paper's tolerance;
    - *not simulable*: a testbed measurement (``analogues`` names the simulated analogue);
    - *differs from the paper*: a target ``computed`` outside any simulation (an algorithm run on the
      topology, a power rule), which therefore has no reference run; the ``explanations`` say why;
    - *matches ns-2, not the paper*: ns-2.35 misses the paper's tolerance too and wattnet agrees with
      it (every number both have within max(relative·|ns-2|, absolute), booleans equal);
    - *differs from ns-2*: anything else, with the reason (``explanations`` or the disagreement).

    With a fluid model of the paper's equations as the reference (``reference_name`` other than
    ns-2.35) the question is qualitative: a target the model misses too is *not reproducible from
    the paper's text*; one it meets is *differs from the fluid model*; one it does not cover is
    *not reproduced (wattnet-only)*. Without any reference (``reference_name`` None: no simulator
    can run the study's mechanism) a target wattnet misses *differs from the paper*, and the
    ``explanations`` say why.
    """
    explanations = explanations or {}
    analogues = analogues or {}
    model = reference_name not in (NS2, None)
    judged = []
    for c in checks:
        ref = reference.get(c["id"])
        c = {
            **c,
            "ns2_value": None if ref is None else ref["wattnet_value"],
            "ns2_pass": None if ref is None else ref["pass"],
        }
        far = [] if ref is None else disagreements(c["wattnet_value"], ref["wattnet_value"], relative, absolute)
        if c["id"] in analogues:
            verdict, reason = NOT_SIMULABLE, f"A testbed measurement; the simulated analogue is {analogues[c['id']]}."
        elif c["pass"]:
            verdict, reason = REPRODUCED, ""
        elif c["id"] in computed:
            verdict, reason = DIFFERS_PAPER, "Computed outside the simulation, so no simulator gives a reference value."
        elif reference_name is None:
            verdict, reason = DIFFERS_PAPER, ""
        elif ref is None:
            verdict = WATTNET_ONLY if model else DIFFERS
            reason = (
                f"No {reference_name} value for this target."
                if not model
                else (f"The {reference_name} does not cover this target; ns-2.35 has no G-router.")
            )
        elif not ref["pass"] and (model or not far):
            verdict = NOT_FROM_TEXT if model else MATCHES_NS2
            reason = (
                f"The {reference_name} misses the paper's tolerance too."
                if model
                else (
                    f"{reference_name} on the same scenario misses the paper's tolerance too, and wattnet agrees with it."
                )
            )
        elif ref["pass"]:
            verdict = DIFFERS_MODEL if model else DIFFERS
            reason = f"{reference_name} meets the paper's tolerance and wattnet does not ({'; '.join(far[:4]) or 'see the values'})."
        else:
            verdict = DIFFERS
            reason = f"wattnet and {reference_name} both miss the paper but disagree ({'; '.join(far[:4])})."
        explanation = explanations.get(c["id"], "") if verdict != REPRODUCED else ""
        if explanation:
            reason = f"{reason} {explanation}".strip()
        judged.append({**c, "reference": reference_name or NO_REFERENCE, "verdict": verdict, "reason": reason})
    return judged


def verdict_counts(checks: list[dict[str, Any]]) -> dict[str, int]:
    counts = {verdict: 0 for verdict in VERDICTS}
    for c in checks:
        counts[c["verdict"]] += 1
    return {verdict: n for verdict, n in counts.items() if n or verdict in VERDICTS[:2]}


def summary_line(checks: list[dict[str, Any]]) -> str:
    """'N of M targets reproduced; K match ns-2 but not the paper; …'."""
    counts = verdict_counts(checks)
    parts = [f"{counts.get(REPRODUCED, 0)} of {len(checks)} targets reproduced"]
    phrases = {
        MATCHES_NS2: "match ns-2 but not the paper",
        DIFFERS: "differ from ns-2",
        NOT_SIMULABLE: "are not simulable",
        NOT_FROM_TEXT: "are not reproducible from the paper's text",
        DIFFERS_MODEL: "differ from the fluid model of the paper's equations",
        WATTNET_ONLY: "are not reproduced and have no reference (wattnet-only)",
        DIFFERS_PAPER: "differ from the paper",
    }
    parts += [f"{counts[v]} {phrase}" for v, phrase in phrases.items() if counts.get(v)]
    return "; ".join(parts)


REFERENCE_DIR = Path(__file__).resolve().parents[3] / "validation" / "studies"


def reference_rows(study: str) -> pd.DataFrame | None:
    """The ns-2.35 runs stored for ``study`` (``validation/studies/<study>/reference.json``, written
    by that folder's ``run.py``), one row per run in the study's own columns; None when absent
    (an installed package without the repository)."""
    path = REFERENCE_DIR / study.replace("-", "_") / "reference.json"
    if not path.is_file():
        return None
    return pd.DataFrame(json.loads(path.read_text())["rows"])


def reference_checks(builders: dict[str, Any]) -> dict[str, dict[str, Any] | None]:
    """The targets computed from the reference's results. ``builders`` maps a name to a function of
    no arguments returning one check, a list of checks or None; the result maps each target id to
    its check. A builder whose runs the reference does not have (a missing point raises KeyError or
    IndexError) gives nothing, and its targets are left without a reference value."""
    checks: dict[str, dict[str, Any] | None] = {}
    for build in builders.values():
        try:
            built = build()
        except (KeyError, IndexError):
            continue
        for one in built if isinstance(built, list) else [built] if built else []:
            checks[one["id"]] = one
    return checks


def write_checks(out: Path, checks: list[dict[str, Any]]) -> None:
    (out / "checks.json").write_text(json.dumps(checks, indent=2, ensure_ascii=False) + "\n")


def table_html(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, float_format=lambda v: f"{v:.3g}", na_rep="–", border=0, classes="t")


STYLE = """
body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px} td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
th{background:#eee} td.v-reproduced{background:#cfc} td.v-matches{background:#def} td.v-differs{background:#fcc}
td.v-other{background:#eee} p.summary{font-size:17px;padding:.6em;background:#f4f4f4;border-left:4px solid #888}
figure{margin:1em 0} img{max-width:100%} code{font-size:12px} .cite{color:#444}
"""

VERDICT_CLASSES = {REPRODUCED: "v-reproduced", MATCHES_NS2: "v-matches", NOT_FROM_TEXT: "v-matches",
                   DIFFERS: "v-differs", DIFFERS_MODEL: "v-differs", DIFFERS_PAPER: "v-differs"}  # fmt: skip


def value_html(value: Any) -> str:
    if value is None:
        return "–"
    return f"<code>{html.escape(json.dumps(value, ensure_ascii=False))}</code>"


def write_report(
    out: Path,
    *,
    paper: Any,
    title: str,
    intro: str,
    quick: bool,
    parameters: list[tuple[str, str, str]],
    interpretations: list[str],
    checks: list[dict[str, Any]],
    figures: list[Path],
    sections: Sequence[tuple[str, str]] = (),
    reference_note: str = "",
) -> Path:
    """Writes ``out/report.html`` and returns its path.

    ``paper`` is the study's ``Paper`` (title, authors, venue, year: the report's heading);
    ``parameters`` are (name, value, source) rows, the source one of "paper", "ns-2.35 default",
    "wattnet default" or "interpretation"; ``checks`` are judged (``judge``); ``interpretations``
    are HTML list items; ``sections`` are (heading, HTML) blocks after the figures;
    ``reference_note`` (HTML) says what the ns-2.35 column is for this study. Text in ``intro``,
    ``interpretations``, ``sections`` and ``reference_note`` is HTML; everything else is escaped.
    """
    e = html.escape
    param_rows = "".join(f"<tr><td>{e(a)}</td><td>{e(b)}</td><td>{e(c)}</td></tr>" for a, b, c in parameters)
    check_rows = "".join(
        f'<tr id="target-{e(c["id"])}"><td>{e(c["id"])}</td><td>{e(c["description"])}</td>'
        f"<td>{value_html(c['paper_value'])}</td><td>{value_html(c['ns2_value'])}</td>"
        f"<td>{value_html(c['wattnet_value'])}</td><td>{e(c['tolerance'])}</td>"
        f'<td class="{VERDICT_CLASSES.get(c["verdict"], "v-other")}"><b>{e(c["verdict"])}</b>'
        f"{'<br>' + e(c['reason']) if c['reason'] else ''}</td></tr>"
        for c in checks
    )
    gaps = "".join(
        f'<li><a href="#target-{e(c["id"])}">{e(c["id"])}</a> ({e(c["verdict"])}): {e(c["reason"])}</li>'
        for c in checks
        if c["verdict"] != REPRODUCED
    )
    figs = "".join(
        f'<figure><img src="{e(p.relative_to(out).as_posix())}" alt="{e(p.stem)}"><figcaption>{e(p.stem)}'
        f' (<a href="{e(p.with_suffix(".svg").relative_to(out).as_posix())}">SVG</a>)</figcaption></figure>'
        for p in figures
        if p.suffix == ".png"
    )
    extra = "".join(f"<h2>{e(heading)}</h2>{body}" for heading, body in sections)
    items = "".join(f"<li>{item}</li>" for item in interpretations)
    quick_note = (
        "<p><b>Quick mode</b>: a reduced study (see the parameters); the numbers are indicative.</p>" if quick else ""
    )
    text = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>wattnet reproduction — {e(paper.title)}</title>
<style>{STYLE}</style></head><body>
<h1>{e(paper.title)}</h1>
<p class="cite">{e(paper.citation())}<br>wattnet reproduction: {e(title)}</p>
<p class="summary">{e(summary_line(checks))}.</p>
{quick_note}<p>{intro}</p>
<p>Every target has three values: the paper's, ns-2.35's on the same reconstructed scenario and wattnet's, and a
verdict computed from them: <i>reproduced</i> (wattnet within the target's tolerance of the paper), <i>matches ns-2,
not the paper</i> (wattnet agrees with ns-2.35 and ns-2.35 misses the paper too: the paper depends on something it
does not state), <i>differs from ns-2</i> (with the reason), <i>not simulable</i> (a testbed measurement){
        ""
        if not any(c["verdict"] == DIFFERS_PAPER for c in checks)
        else ", <i>differs from the paper</i> (a target no simulator can give a reference for, with the reason)"
    }.
{reference_note}</p>
<h2>Targets not reproduced</h2>
<ul>{gaps or "<li>none</li>"}</ul>
<h2>Targets</h2>
<table><tr><th>id</th><th>target</th><th>paper</th><th>{
        e(checks[0]["reference"] if checks else NS2)
    }</th><th>wattnet</th><th>tolerance</th>
<th>verdict</th></tr>{check_rows}</table>
<h2>Parameters</h2>
<table><tr><th>parameter</th><th>value</th><th>source</th></tr>{param_rows}</table>
<h2>Interpretation choices</h2>
<ul>{items}</ul>
<h2>Figures</h2>{figs}
{extra}
</body></html>
"""
    path = out / "report.html"
    path.write_text(text)
    return path


def stage(study: str, message: str) -> None:
    """One line on stderr saying what a reproduction is doing (sweeping, figures, report)."""
    import sys
    import time

    print(f"[{time.strftime('%H:%M:%S')}] {study}: {message}", file=sys.stderr, flush=True)
