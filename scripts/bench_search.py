#!/usr/bin/env python3
"""Benchmark card search: gunicorn on PostgreSQL, measured with wrk at concurrency 1 and 32.

For three representative queries it prints requests per second and p50/p99 latency, next to a static file of the
same size served by the same server (whitenoise), so the figures say how much of the cost is ours. Needs `wrk`
(`apt-get install -y wrk`) and a PostgreSQL server; the database named by --database is created if absent,
migrated and loaded with the catalogue.

    .venv/bin/python scripts/bench_search.py                    # print the table
    .venv/bin/python scripts/bench_search.py --write            # also update the search section of docs/benchmarks.md
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- search-bench:begin -->", "<!-- search-bench:end -->"

QUERIES = [
    ("rules lawyer: `cave:golden does:tuck`", "/api/dragons/?q=" + urllib.parse.quote("cave:golden does:tuck")),
    ("words, ranked: `tuck`", "/api/dragons/?q=tuck"),
    ("filters: large crimson dragons, 4+ VP, by VP", "/api/dragons/?cave=crimson_cavern&size=large&vp_min=4"
     "&ordering=-vp"),
]
COLD = """
import statistics, time
from django.core.cache import cache
from django.test import Client
client = Client(HTTP_HOST="localhost")
for path in PATHS:
    times = []
    for _ in range(100):
        cache.clear()
        start = time.perf_counter()
        assert client.get(path, HTTP_ACCEPT="application/json").status_code == 200
        times.append((time.perf_counter() - start) * 1000)
    print(statistics.median(times))
"""


def cold_latencies(env):
    """Median ms per query with the answer cache emptied before every request (in process, one at a time)."""
    code = "import django; django.setup()\nPATHS = " + repr([path for _, path in QUERIES]) + COLD
    out = run(PYTHON, "-c", code, env={**env, "DJANGO_SETTINGS_MODULE": "cardsite.settings"}).stdout
    return [float(line) for line in out.split()]


def run(*args, env=None, check=True):
    return subprocess.run([str(a) for a in args], cwd=ROOT, env=env, check=check, capture_output=True, text=True)


def prepare_database(url, env):
    name = urllib.parse.urlparse(url).path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    exists = run("psql", admin, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'").stdout.strip()
    if not exists:
        run("psql", admin, "-c", f'CREATE DATABASE "{name}"')
    run(PYTHON, "manage.py", "migrate", "--noinput", "-v0", env=env)
    run(PYTHON, "manage.py", "load_catalogue", "-v0", env=env)


def wait_until_up(base, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(base + "/api/expansions/", timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer within 30 s")


def wrk(url, connections, seconds, threads):
    out = run("wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency",
              "-H", "Accept: application/json", url).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1))
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error responses under load")
    return rps, p50, p99


def _ms(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/wyrmdex_bench")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads at concurrency 32")
    parser.add_argument("--write", action="store_true", help="update the search section of docs/benchmarks.md")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")

    env = {**os.environ, "DATABASE_URL": args.database, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1,localhost"}
    prepare_database(args.database, env)
    cold = cold_latencies(env)
    static_dir = ROOT / "staticfiles" / "bench"
    static_dir.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{args.port}"

    # A first server only to learn the size of each answer, so the static twin can be written before the real one
    # starts (whitenoise indexes files at start-up).
    rows = []
    server = subprocess.Popen([str(GUNICORN), "cardsite.wsgi", "-w", "1", "-b", f"127.0.0.1:{args.port}"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(base)
        sizes = []
        for _, path in QUERIES:
            request = urllib.request.Request(base + path, headers={"Accept": "application/json"})
            body = urllib.request.urlopen(request).read()
            (static_dir / f"twin-{len(body)}.json").write_bytes(body)
            sizes.append(len(body))
    finally:
        server.terminate()
        server.wait()

    server = subprocess.Popen(
        [str(GUNICORN), "cardsite.wsgi", "-w", str(args.workers), "-b", f"127.0.0.1:{args.port}",
         "--backlog", "512"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(base)
        for (label, path), size, cold_ms in zip(QUERIES, sizes, cold):
            static = f"{base}/static/bench/twin-{size}.json"
            for url in (base + path, static):  # warm every worker's cache and connection
                wrk(url, 8, 1, 2)
            row = {"label": label, "size": size, "cold": cold_ms}
            for connections in (1, 32):
                row[f"q{connections}"] = wrk(base + path, connections, args.seconds, args.threads)
                row[f"s{connections}"] = wrk(static, connections, args.seconds, args.threads)
            rows.append(row)
            print(f"{label}: {size} bytes  c1 {row['q1'][0]:.0f} rps p50 {row['q1'][1]:.2f} ms  |  "
                  f"c32 {row['q32'][0]:.0f} rps vs static {row['s32'][0]:.0f} rps", flush=True)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(static_dir, ignore_errors=True)

    table = render(rows, args)
    print()
    print(table)
    if args.write:
        write_section(table)


def render(rows, args):
    intro = (
        f"Measured with `scripts/bench_search.py`: gunicorn ({args.workers} sync workers) on PostgreSQL, "
        f"`wrk --latency` for {args.seconds} s per cell, on a {os.cpu_count()}-CPU machine that also runs wrk and "
        f"PostgreSQL (load average {os.getloadavg()[0]:.1f} at the end of the run). \"static\" is a file of exactly the same size served by the same gunicorn (whitenoise). "
        "Answers are cached per query and catalogue version, so wrk measures the cached path; \"uncached\" is the "
        "median of 100 in-process requests with the cache emptied before each, i.e. the first request for a query."
    )
    lines = textwrap.wrap(intro, 120) + [
        "",
        "| query | bytes | uncached p50 ms | c=1 rps | c=1 p50 ms | c=1 p99 ms | static c=1 rps | c=32 rps "
        "| c=32 p50 ms | c=32 p99 ms | static c=32 rps | c=32 share of static |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        q1, s1, q32, s32 = row["q1"], row["s1"], row["q32"], row["s32"]
        lines.append(
            f"| {row['label']} | {row['size']} | {row['cold']:.1f} | {q1[0]:.0f} | {q1[1]:.2f} | {q1[2]:.2f} | {s1[0]:.0f} "
            f"| {q32[0]:.0f} | {q32[1]:.2f} | {q32[2]:.2f} | {s32[0]:.0f} | {q32[0] / s32[0]:.0%} |")
    lines += [""] + textwrap.wrap(
        "Reading it: targets are p50 under 10 ms at concurrency 1 and, at concurrency 32, at least half the static "
        "file's throughput. A cached answer is served by `CatalogueCacheMiddleware` right after WhiteNoise, so it "
        "costs about what the static file costs; the uncached figure is what a brand-new query (each keystroke of "
        "live search) costs: two SQL queries (count and page) with PostgreSQL full-text matching and ranking over "
        "the ~270 dragons, and the serialised cards, which are remembered per row.", 120)
    return "\n".join(lines)


def write_section(table):
    section = f"## Card search\n\n{BEGIN}\n{table}\n{END}\n"
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n\n"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda _: f"{BEGIN}\n{table}\n{END}", text,
                      flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.write_text(text)
    print(f"\nwrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
