"""The checker's situation builder and resolver are pure Python over the engine, like the engine itself: only the
catalogue reader and the services that the page and API call know Django."""
import subprocess
import sys


def test_resolver_imports_no_django():
    code = ("import sys; import game.checker.resolve, game.checker.situation, game.checker.cards; "
            "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
