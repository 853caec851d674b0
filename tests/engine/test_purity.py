"""The engine must stay free of Django so it runs anywhere and fast."""
import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "game" / "engine"


def test_engine_imports_no_django():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {name}" for name in names if name.split(".")[0] in ("django", "rest_framework", "cardsite")]
    assert ENGINE.exists() and any(ENGINE.rglob("*.py"))
    assert offenders == []
