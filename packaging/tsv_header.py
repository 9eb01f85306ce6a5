"""Print the parallel TSV header that ``sialign`` writes, read from the export code itself.

The smoke test checks a built bundle's TSV against this header. It must run
without the development environment (any Python 3 will do), so it does not
import ``sialign`` — which needs numpy and more — but evaluates the module-level
tuple assignments of ``desktop/sialign/io/writers.py``: string tuples, names
of tuples assigned before, and ``+`` between them.

    python3 packaging/tsv_header.py [WRITERS_PY]     prints the columns, tab-separated
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

WRITERS = Path(__file__).resolve().parents[1] / "desktop" / "sialign" / "io" / "writers.py"
NAME = "PARALLEL_TSV_COLUMNS"


class HeaderNotFound(Exception):
    """The export code no longer defines the columns in a form this reader understands."""


def _value(node: ast.expr, known: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return tuple(e.value for e in node.elts if isinstance(e, ast.Constant))
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _value(node.left, known) + _value(node.right, known)
    raise HeaderNotFound(f"cannot evaluate {ast.unparse(node)!r}")


def parallel_tsv_columns(writers: Path = WRITERS) -> tuple[str, ...]:
    """The columns of ``PARALLEL_TSV_COLUMNS`` as defined in ``writers``."""
    known: dict[str, tuple[str, ...]] = {}
    for stmt in ast.parse(writers.read_text(encoding="utf-8"), filename=str(writers)).body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            try:
                known[stmt.targets[0].id] = _value(stmt.value, known)
            except HeaderNotFound:
                if stmt.targets[0].id == NAME:
                    raise
    if NAME not in known:
        raise HeaderNotFound(f"{writers}: no module-level {NAME} assignment")
    return known[NAME]


def main(argv: list[str]) -> int:
    writers = Path(argv[1]) if len(argv) > 1 else WRITERS
    try:
        columns = parallel_tsv_columns(writers)
    except (OSError, SyntaxError, HeaderNotFound) as exc:
        print(f"tsv_header.py: {writers}: {exc} — update packaging/tsv_header.py to the export code", file=sys.stderr)
        return 1
    print("\t".join(columns))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
