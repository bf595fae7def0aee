"""Each study's report.html, opened in headless Chromium: every figure it shows loads.

A copy of the report, next to it (so relative image paths resolve the same), gets a script
that on `load` writes the images that failed to decode into the page; Chromium's --dump-dom
prints the page after the load. Skips, saying why, only where Chromium is not installed
(`make chromium` installs Debian's package when run as root with apt-get).
"""

import json
import re
import shutil
import subprocess

import pytest
from wattnet.experiments import STUDIES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

PROBE = """<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const broken = images.filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.getAttribute("src"));
  const out = document.createElement("pre");
  out.id = "render-probe";
  out.textContent = JSON.stringify({images: images.length, broken: broken});
  document.body.appendChild(out);
});
</script>"""


def render(report):
    probe = report.with_name(".render-probe.html")
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
         "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    probe.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="render-probe">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found, f"the probe did not run; stderr: {done.stderr[-2000:]}"
    return json.loads(found.group(1).replace("&quot;", '"'))


@pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (make chromium installs Debian's package as root)"
)
@pytest.mark.parametrize("study", list(STUDIES))
def test_every_figure_of_the_report_loads_in_chromium(study, quick_reproduction):
    out, _ = quick_reproduction(study)
    shown = render(out / "report.html")
    assert shown["images"] >= 1
    assert shown["broken"] == []


@pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (make chromium installs Debian's package as root)"
)
def test_the_probe_sees_a_broken_image(tmp_path):
    report = tmp_path / "report.html"
    report.write_text('<!DOCTYPE html><html><body><img src="missing.png"></body></html>')
    assert render(report) == {"images": 1, "broken": ["missing.png"]}
