"""The import figures of the package: loops between modules, imports that run up a layer,
and the largest modules. Imports inside functions and type-only imports count.

    python scripts/import_figures.py

The layers are those of the import-linter contract in pyproject.toml (top first); a
module of a layer may import the layers below it, never one above.
"""

from __future__ import annotations

from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["cli", "present", "games|counting", "analyses", "cards", "ranks", "core"]


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None
    for depth, layer in enumerate(reversed(LAYERS)):
        if parts[1] in layer.split("|"):
            return depth
    return None


def main() -> None:
    graph = grimp.build_graph("analyzer", exclude_type_checking_imports=False)
    edges = nx.DiGraph()
    up = []
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
            a, b = layer_of(module), layer_of(imported)
            if a is not None and b is not None and b > a:
                up.append((module, imported))
    loops = [sorted(s) for s in nx.strongly_connected_components(edges) if len(s) > 1]
    print(f"modules: {len(graph.modules)}")
    print(f"import loops: {len(loops)} (modules in them: {sum(map(len, loops))})")
    for loop in loops:
        print("  loop:", ", ".join(loop))
    print(f"imports up a layer: {len(up)}")
    for module, imported in up:
        print(f"  {module} -> {imported}")
    sizes = sorted(
        (
            (len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(ROOT)))
            for p in (ROOT / "analyzer").rglob("*.py")
        ),
        reverse=True,
    )
    print(f"lines: {sum(n for n, _ in sizes):,} in {len(sizes)} files; largest:")
    for n, path in sizes[:6]:
        print(f"  {n:5d} {path}")


if __name__ == "__main__":
    main()
