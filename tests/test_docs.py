"""The documentation: it builds with warnings as errors, every internal link and anchor of every
page resolves, the tutorials run as written (each code block, and the output shown after it),
the output reference lists exactly the columns the engine sends, and headless Chromium finds no
broken image or link in the built site."""

import contextlib
import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import wattnet
from conftest import ROOT
from wattnet import columns

MKDOCS = Path(sys.executable).with_name("mkdocs")
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.md"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    return out


class _Page(html.parser.HTMLParser):
    """The ids a page defines and the links (href, src) it makes."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.duplicate_ids: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            if attributes["id"] in self.ids:
                self.duplicate_ids.append(attributes["id"])
            self.ids.add(attributes["id"])
        for name in ("href", "src"):
            if attributes.get(name) and not (tag == "link" and attributes.get("rel") == "canonical"):
                self.links.append(attributes[name])


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text())
    return page


def _target(page: Path, link: str, root: Path) -> tuple[Path, str] | None:
    """The file and anchor a relative link points at; None for external links."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
        return None
    path = unquote(parts.path)
    if not path:
        return page, parts.fragment
    target = (root / path.lstrip("/")) if path.startswith("/") else (page.parent / path)
    if target.is_dir() or path.endswith("/"):
        target = target / "index.html"
    return target.resolve(), parts.fragment


def test_the_site_builds_strict_with_every_page_of_the_nav(site):
    pages = {p.relative_to(site).as_posix() for p in site.rglob("index.html")}
    for expected in ("getting-started/index.html", "tutorials/sweep/index.html", "reference/scenario/index.html",
                     "reference/outputs/index.html", "reference/api/index.html", "reference/cli/index.html",
                     "reproductions/index.html"):  # fmt: skip
        assert expected in pages


def test_every_internal_link_and_anchor_resolves(site):
    site = site.resolve()
    parsed = {path.resolve(): _parse(path) for path in site.rglob("*.html")}
    # An anchor defined twice points at the first: the second cannot be linked to.
    assert {
        str(path.relative_to(site)): page.duplicate_ids for path, page in parsed.items() if page.duplicate_ids
    } == {}
    broken = []
    for path, page in parsed.items():
        for link in page.links:
            target = _target(path, link, site)
            if target is None:
                continue
            file, anchor = target
            if not file.exists():
                broken.append(f"{path.relative_to(site)}: {link} (no file)")
            elif anchor and file.suffix == ".html" and anchor not in parsed[file].ids:
                broken.append(f"{path.relative_to(site)}: {link} (no anchor)")
    assert broken == []
    # The check sees breakage: the API reference links into the outputs page by anchor.
    api = site / "reference" / "api" / "index.html"
    assert any("#" in link for link in parsed[api.resolve()].links)


def test_the_generated_references_cover_every_model_and_table(site):
    scenario_page = (site / "reference" / "scenario" / "index.html").read_text()
    for model in wattnet.Scenario.model_json_schema()["$defs"]:
        assert f'id="{model.lower()}"' in scenario_page, model
    outputs_page = (site / "reference" / "outputs" / "index.html").read_text()
    for table, table_columns in columns.TABLES.items():
        assert f'id="{table}"' in outputs_page, table
        for column in table_columns:
            assert f"<code>{column}</code>" in outputs_page, (table, column)


def test_the_output_reference_lists_exactly_the_engines_columns():
    scenario = {
        "seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3, "power": {"type": "constant", "active_w": 1.0}}],
        "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 1e6}}],
    }  # fmt: skip
    results = wattnet.run(scenario)
    for table in columns.TABLES:
        assert list(getattr(results, table).columns) == list(columns.TABLES[table]), table
    assert list(results.summary) == list(columns.SUMMARY)
    assert set(columns.TABLE_MEANINGS) == set(columns.TABLES) == set(wattnet.results.TABLES)
    quantities = wattnet.scenario.PortQuantity.__args__ + wattnet.scenario.FlowQuantity.__args__
    assert list(columns.TIMESERIES_QUANTITIES) == list(quantities)


def _blocks(page: Path) -> list[tuple[str, str | None]]:
    """Each ```python block of a page, with the ```text block right after it (its output), if any."""
    found = re.findall(r"```python\n(.*?)```\s*(?:```text\n(.*?)```)?", page.read_text(), re.DOTALL)
    return [(code, output if output else None) for code, output in found]


@pytest.mark.parametrize("page", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_the_tutorial_runs_as_written(page, tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    blocks = _blocks(page)
    assert blocks, f"{page.name} has no python block"
    for i, (code, expected) in enumerate(blocks):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{page.name}[{i}]", "exec"), namespace)  # noqa: S102 - the tutorial's own code
        if expected is not None:
            shown = [line.rstrip() for line in printed.getvalue().strip("\n").splitlines()]
            assert shown == [line.rstrip() for line in expected.strip("\n").splitlines()], f"{page.name}, block {i}"


def test_the_getting_started_python_runs(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for code, _ in _blocks(ROOT / "docs" / "getting-started.md"):
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "getting-started.md", "exec"), namespace)  # noqa: S102
    assert namespace["ports"].loc["r1->r2", "dropped_packets"] == namespace["results"].summary["packets_dropped"]


PROBE = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const broken = images.filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.getAttribute("src"));
  const dead = [];
  for (const a of document.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    if (/^[a-z]+:/.test(href) || href.startsWith("#")) continue;
    const request = new XMLHttpRequest();
    try {
      request.open("GET", new URL(href.split("#")[0] || ".", document.baseURI).href.replace(/\\/$/, "/index.html"), false);
      request.send();
      if (!request.responseText) dead.push(href);
    } catch (error) { dead.push(href); }
  }
  const out = document.createElement("pre");
  out.id = "docs-probe";
  out.textContent = JSON.stringify({images: images.length, broken: broken, links: dead});
  document.body.appendChild(out);
});
</script>"""


@pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (make chromium installs Debian's package as root)"
)
@pytest.mark.parametrize("page", ["index.html", "getting-started/index.html", "tutorials/sweep/index.html",
                                  "reference/outputs/index.html", "reference/api/index.html"])  # fmt: skip
def test_chromium_finds_no_broken_image_or_link(site, page):
    original = site / page
    probe = original.with_name(".docs-probe.html")
    probe.write_text(original.read_text().replace("</body>", PROBE + "</body>"))
    try:
        done = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
             "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
            check=False, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        probe.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="docs-probe">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found, f"the probe did not run; stderr: {done.stderr[-2000:]}"
    shown = json.loads(found.group(1).replace("&quot;", '"'))
    assert shown["broken"] == [] and shown["links"] == [], shown
