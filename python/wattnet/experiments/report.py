"""What every reproduction writes: figures (PNG + SVG), tables (CSV + Parquet), ``checks.json``
and a self-contained ``report.html`` (parameters with their source, interpretation choices,
checks, figures, tables). Each study module computes its own numbers and calls these.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd


def plt():
    """matplotlib.pyplot on the Agg backend (reproductions run headless)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def save_figure(fig, path: Path) -> list[Path]:
    """Saves ``fig`` as ``path``.png and ``path``.svg, closes it and returns both paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    paths = [path.with_suffix(".png"), path.with_suffix(".svg")]
    fig.savefig(paths[0], dpi=110)
    fig.savefig(paths[1])
    plt().close(fig)
    return paths


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
    id: str, description: str, seed_value: Any, wattnet_value: Any, tolerance: str, passed: bool
) -> dict[str, Any]:
    """One entry of checks.json, with the fields issue 6 names."""
    return {
        "id": id,
        "description": description,
        "seed_value": seed_value,
        "wattnet_value": wattnet_value,
        "tolerance": tolerance,
        "pass": bool(passed),
    }


def write_checks(out: Path, checks: list[dict[str, Any]]) -> None:
    (out / "checks.json").write_text(json.dumps(checks, indent=2, ensure_ascii=False) + "\n")


def table_html(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, float_format=lambda v: f"{v:.3g}", na_rep="–", border=0, classes="t")


STYLE = """
body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:13px} td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
th{background:#eee} tr.pass td:last-child{background:#cfc} tr.fail td:last-child{background:#fcc}
figure{margin:1em 0} img{max-width:100%} code{font-size:12px}
"""


def write_report(
    out: Path,
    *,
    title: str,
    intro: str,
    quick: bool,
    parameters: list[tuple[str, str, str]],
    interpretations: list[str],
    checks: list[dict[str, Any]],
    figures: list[Path],
    sections: list[tuple[str, str]] = (),
) -> Path:
    """Writes ``out/report.html`` and returns its path.

    ``parameters`` are (name, value, source) rows, source saying whether the seed or a spec
    default gave the value; ``interpretations`` are HTML list items on where the seed is
    ambiguous; ``sections`` are (heading, HTML) blocks placed after the figures. Text in
    ``intro``, ``interpretations`` and ``sections`` is HTML; everything else is escaped here.
    """
    e = html.escape
    param_rows = "".join(f"<tr><td>{e(a)}</td><td>{e(b)}</td><td>{e(c)}</td></tr>" for a, b, c in parameters)
    check_rows = "".join(
        f"<tr class={'pass' if c['pass'] else 'fail'}><td>{e(c['id'])}</td><td>{e(c['description'])}</td>"
        f"<td><code>{e(json.dumps(c['seed_value'], ensure_ascii=False))}</code></td>"
        f"<td><code>{e(json.dumps(c['wattnet_value'], ensure_ascii=False))}</code></td><td>{e(c['tolerance'])}</td>"
        f"<td>{'PASS' if c['pass'] else 'FAIL'}</td></tr>"
        for c in checks
    )
    figs = "".join(
        f'<figure><img src="{e(p.relative_to(out).as_posix())}" alt="{e(p.stem)}"><figcaption>{e(p.stem)}'
        f' (<a href="{e(p.with_suffix(".svg").relative_to(out).as_posix())}">SVG</a>)</figcaption></figure>'
        for p in figures
        if p.suffix == ".png"
    )
    extra = "".join(f"<h2>{e(heading)}</h2>{body}" for heading, body in sections)
    items = "".join(f"<li>{item}</li>" for item in interpretations)
    passed = sum(c["pass"] for c in checks)
    quick_note = (
        "<b>Quick mode</b>: a reduced study (see the parameters); the numbers are indicative. " if quick else ""
    )
    text = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>wattnet — {e(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{e(title)}</h1>
<p>{quick_note}{intro} Checks passed: <b>{passed} / {len(checks)}</b>.</p>
<h2>Parameters</h2>
<table><tr><th>parameter</th><th>value</th><th>source</th></tr>{param_rows}</table>
<h2>Interpretation choices</h2>
<ul>{items}</ul>
<h2>Checks (targets.md)</h2>
<table><tr><th>id</th><th>target</th><th>seed</th><th>wattnet</th><th>tolerance</th><th>verdict</th></tr>{check_rows}</table>
<h2>Figures</h2>{figs}
{extra}
</body></html>
"""
    path = out / "report.html"
    path.write_text(text)
    return path
