"""What is running: the package version, the engine's version and the hashes of their sources."""

from __future__ import annotations

import hashlib
from pathlib import Path

from wattnet import _engine


def python_source_hash() -> str:
    """SHA-256 (first 12 hex digits) of the package's Python sources, by relative path.

    The engine carries its own: its version is ``<version>+<hash of its Rust sources>``.
    Together they tell whether two installations run the same code (an editable install
    changes without its version changing).
    """
    package = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def version_line() -> str:
    """What ``wattnet --version`` prints: ``wattnet 0.1.0 (engine 0.1.0+<Rust source hash>, Python sources <hash>)``."""
    # The package's metadata costs a scan of the installed distributions: read only when asked.
    from importlib.metadata import version as package_version

    engine = _engine.version()
    return f"wattnet {package_version('wattnet')} (engine {engine}, Python sources {python_source_hash()})"
