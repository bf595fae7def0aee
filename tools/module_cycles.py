"""The engine crate's module graph and its cycles, the size of `Simulation`, its largest files.

Each top-level module of `crates/wattnet-engine/src` (a file `x.rs` or a folder `x/`) is a node;
an edge a → b says some non-test code of a names `crate::b` (in a `use` or in a path). Test code
(`#[cfg(test)] mod tests` blocks, `*_tests.rs` files) is left out: a test may look anywhere.

    python tools/module_cycles.py [SRC]    # the mutual dependencies, every cycle, their count
"""

from __future__ import annotations

import re
import sys
from itertools import pairwise
from pathlib import Path

import networkx as nx

CRATE_PATH = re.compile(r"\bcrate::(\w+)")
# `use crate::{a::X, b::Y}`: each name after a brace or comma at the top of the group.
CRATE_GROUP = re.compile(r"\bcrate::\{([^}]*)\}")
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*(pub(\(\w+\))?\s+)?mod \w+\s*\{")


def without_tests(text: str) -> str:
    """The text before the file's inline test module (by convention, the file's last item)."""
    m = TEST_MODULE.search(text)
    return text if m is None else text[: m.start()]


def without_comments(text: str) -> str:
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def module_of(path: Path, src: Path) -> str:
    first = path.relative_to(src).parts[0]
    return first.removesuffix(".rs")


def rotated(cycle: list[str]) -> list[str]:
    """The cycle starting at its alphabetically first module (networkx starts anywhere)."""
    k = cycle.index(min(cycle))
    return cycle[k:] + cycle[:k]


def module_graph(src: Path) -> nx.DiGraph:
    graph: nx.DiGraph = nx.DiGraph()
    for path in sorted(src.rglob("*.rs")):
        module = module_of(path, src)
        if module in {"lib", "main"} or path.stem.endswith("_tests"):
            continue
        graph.add_node(module)
        text = without_comments(without_tests(path.read_text()))
        names = set(CRATE_PATH.findall(text))
        for group in CRATE_GROUP.findall(text):
            names.update(part.strip().split("::")[0] for part in group.split(",") if part.strip())
        for name in names - {module}:
            if (src / f"{name}.rs").exists() or (src / name).is_dir():
                graph.add_edge(module, name)
    return graph


def block_after(text: str, start: int) -> str:
    """The brace-delimited block whose opening brace is the first at or after `start`."""
    depth, i = 0, text.index("{", start)
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i : j + 1]
    raise ValueError("unbalanced braces")


def simulation_size(src: Path) -> tuple[int, int, list[str]]:
    """`Simulation`'s fields, the functions in its `impl` blocks, and the files holding them."""
    fields, methods, files = 0, 0, []
    for path in sorted(src.rglob("*.rs")):
        text = without_tests(path.read_text())
        struct = re.search(r"pub struct Simulation \{", text)
        if struct:
            fields = len(re.findall(r"^\s*pub\(crate\) \w+:", block_after(text, struct.start()), re.M))
        impls = [m.start() for m in re.finditer(r"^impl Simulation \{", text, re.M)]
        if impls:
            files.append(str(path.relative_to(src)))
            methods += sum(len(re.findall(r"\bfn \w+", block_after(text, i))) for i in impls)
    return fields, methods, files


def largest_files(src: Path, count: int = 8) -> list[tuple[int, str]]:
    sizes = [(len(p.read_text().splitlines()), str(p.relative_to(src))) for p in src.rglob("*.rs")]
    return sorted(sizes, reverse=True)[:count]


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "crates" / "wattnet-engine" / "src"
    graph = module_graph(src)
    cycles = sorted((rotated(c) for c in nx.simple_cycles(graph)), key=lambda c: (len(c), c))
    two_way = sorted({tuple(sorted(c)) for c in cycles if len(c) == 2})
    print(f"modules: {graph.number_of_nodes()}, dependencies: {graph.number_of_edges()}")
    print("mutual dependencies: " + (", ".join(f"{a}<->{b}" for a, b in two_way) or "none"))
    for c in cycles:
        print("  " + " -> ".join(a for a, _ in pairwise([*c, c[0]])) + f" -> {c[0]}")
    print(f"cycles: {len(cycles)}")
    fields, methods, files = simulation_size(src)
    print(f"Simulation: {fields} fields, {methods} methods in {len(files)} files ({', '.join(files)})")
    print("largest files (lines): " + ", ".join(f"{name} {n}" for n, name in largest_files(src)))


if __name__ == "__main__":
    main()
