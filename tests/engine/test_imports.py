"""Imports run downhill: the language at the bottom, then the engine, then the apps; no circle anywhere in game/."""
import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"
ROOT = GAME.parent


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules():
    return {_module_name(path): path for path in GAME.rglob("*.py") if "migrations" not in path.parts}


def _imports(name, path, known):
    """Every module of game/ that `name` imports, at the top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = node.module or ""
            base = (f"{base}.{module}" if module else base) if node.level else module
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        out.update(t for t in targets if t in known and t != name)
    return out


def _graph():
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_inside_game():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_word_imports_the_state():
    graph = _graph()
    offenders = {name: sorted(deps) for name, deps in graph.items() if name.startswith("game.engine.words")
                 and {"game.engine.state", "game.engine.flow"} & deps}
    assert offenders == {}


def test_the_language_imports_only_itself_and_the_standard_library():
    for path in (GAME / "language").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"{path.name} reaches out of game/language"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                assert not any(n.split(".")[0] in ("game", "cardsite", "django") for n in names), path.name


def test_importing_the_interpreter_alone_registers_every_declared_word():
    import subprocess
    import sys

    code = ("import game.engine.interpreter as fx; from game.language.words import WORDS; "
            "assert set(fx.WORDS) == set(WORDS), sorted(set(WORDS) - set(fx.WORDS))")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_every_declared_word_has_behaviour_and_no_behaviour_lacks_a_declaration():
    from game.engine import interpreter as fx
    from game.language.render import ENGLISH, has_english
    from game.language.words import WORDS

    assert set(fx.WORDS) == set(WORDS)
    assert set(fx.CAN) <= set(WORDS)
    assert set(ENGLISH) <= set(WORDS) and all(has_english(name) for name in WORDS)
