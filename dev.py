#!/usr/bin/env python3
"""Set-up in one command: `python3 dev.py serve` runs the site, `python3 dev.py test` runs every test.

`serve` needs no other service: without `REDIS_URL` the task queue runs inside the server; with it, `serve` starts
the queue's worker (`manage.py run_huey`) beside the server and stops it with the server.

Both create `.venv` and install the project on first use, so a fresh clone needs nothing but Python 3.11+.
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
STAMP = VENV / ".wyrmdex-installed"


def run(*args, env=None):
    print("+", " ".join(str(a) for a in args), flush=True)
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if result.returncode:
        sys.exit(result.returncode)


def ensure_env():
    if not PY.exists():
        print("Creating the virtual environment in .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
        STAMP.write_text(wanted)


def serve(args):
    env = {**os.environ}
    env.setdefault("DEBUG", "true")
    run(PY, "manage.py", "migrate", "--noinput", env=env)
    run(PY, "manage.py", "load_catalogue", env=env)
    run(PY, "manage.py", "seed_lobby", env=env)  # a fresh lobby shows seeks a bot holds: a newcomer sees life at once
    addr = args[0] if args else "127.0.0.1:8000"
    worker = None
    if env.get("REDIS_URL"):
        # With Redis the queue is shared and needs its worker; without, the serving process runs the queue itself.
        print("+ manage.py run_huey  (the task queue's worker, since REDIS_URL is set)", flush=True)
        worker = subprocess.Popen([str(PY), "manage.py", "run_huey"], cwd=ROOT, env=env)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the worker is stopped below, not orphaned
    try:
        run(PY, "manage.py", "runserver", addr, env=env)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_PACKAGE = "axe-core@4.14.1"


def ensure_axe():
    """axe-core for the accessibility tests, from the npm registry into the git-ignored node_modules/; without npm
    (or without a network) those tests skip with the reason."""
    npm = shutil.which("npm")
    if AXE.exists() or npm is None:
        return
    print(f"+ npm install {AXE_PACKAGE}  (for the accessibility tests)", flush=True)
    result = subprocess.run([npm, "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--prefix",
                             str(ROOT), AXE_PACKAGE], cwd=ROOT, capture_output=True, text=True)
    if result.returncode:
        print(f"warning: could not install {AXE_PACKAGE}; the accessibility tests will skip", flush=True)


def test(args):
    ensure_axe()
    run(PY, "-m", "pytest", *args)


def main():
    commands = {"serve": serve, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print("usage: python3 dev.py serve [ADDR:PORT] | test [pytest args]", file=sys.stderr)
        sys.exit(2)
    ensure_env()
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
