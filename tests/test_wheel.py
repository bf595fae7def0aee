"""`make wheel`'s wheel installs where there is no Rust and runs a scenario. Building it takes
minutes (a release build of the engine), so the test runs only when asked:
WATTNET_TEST_WHEEL=1 pytest tests/test_wheel.py."""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import ROOT


@pytest.mark.skipif(os.environ.get("WATTNET_TEST_WHEEL") != "1", reason="slow: set WATTNET_TEST_WHEEL=1 to build")
def test_the_abi3_wheel_installs_into_a_fresh_environment_and_runs(tmp_path):
    maturin = Path(sys.executable).with_name("maturin")
    subprocess.run([str(maturin), "build", "--release", "--out", str(tmp_path / "dist")], cwd=ROOT, check=True,
                   timeout=3600)  # fmt: skip
    [wheel] = (tmp_path / "dist").glob("wattnet-*.whl")
    assert "-abi3-" in wheel.name
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True, timeout=1200)
    done = subprocess.run(
        [str(tmp_path / "env" / "bin" / "wattnet"), "run", str(ROOT / "examples" / "chain.toml"),
         "--out", str(tmp_path / "chain"), "-q"],
        capture_output=True, text=True, check=False, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "chain" / "summary.json").is_file()
