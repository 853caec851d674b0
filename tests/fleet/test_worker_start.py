"""A loaded app worker keeps what it loaded at start out of the garbage collector's full collections (cardsite/wsgi.py):
walking those ~120,000 objects stalled every worker at once early in a run under load (docs/benchmarks.md)."""
import json
import os
import secrets
import subprocess
import sys

from tests.test_settings import ROOT, SETTINGS_VARIABLES

LOAD = ("import gc, json; import cardsite.wsgi; "
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'watched': len(gc.get_objects())}))")


def test_what_a_worker_loads_at_start_is_left_out_of_full_collections(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update({"DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}", "REDIS_URL": "",
                "SECRET_KEY": secrets.token_urlsafe(50)})
    result = subprocess.run([sys.executable, "-c", LOAD], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    counts = json.loads(result.stdout.strip().splitlines()[-1])
    # Django, DRF, our modules: tens of thousands of objects frozen; what a full collection still walks is a few.
    assert counts["frozen"] > 50_000, counts
    assert counts["watched"] < counts["frozen"] / 10, counts
