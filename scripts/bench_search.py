#!/usr/bin/env python3
"""Benchmark card search as live search uses it: every keystroke a new query, over HTTP and in process.

Runs gunicorn on PostgreSQL for this tree and, with `--old DIR`, for an older checkout of the project side by side
in the same run (`git archive <commit> | tar -x -C DIR`; the old tree runs with this tree's .venv). For each tree it
measures, with wrk and a Lua script that makes every request a query never asked before (so the answer cache never
helps): requests per second and p50/p99 latency at concurrency 1 and 32, next to a static file of the same size
served by the same gunicorn (whitenoise), the two taking turns in short slices (`--slices`) so that both meet the same
load on a shared machine; the in-process p50 of new queries through Django's test client; and the
time of the first search a freshly started worker answers. Needs `wrk` (`apt-get install -y wrk`) and PostgreSQL;
the database named by --database is created if absent, migrated and loaded with the catalogue.

    .venv/bin/python scripts/bench_search.py --old /tmp/wyrmdex-old            # print the table
    .venv/bin/python scripts/bench_search.py --old /tmp/wyrmdex-old --write    # also update docs/benchmarks.md
"""
import argparse
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
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

# What the search page asks while someone types; `-zq<n>` (a word no card has, negated) makes each request new
# without changing the answer.
QUERIES = [
    ("`cave:golden does:tuck`", "/api/dragons/", "cave:golden does:tuck"),
    ("`tuck` (ranked)", "/api/dragons/", "tuck"),
    ("`size:medium` (62 dragons)", "/api/dragons/", "size:medium"),
]
LUA = """
local base = "%s"
local made = 0
local counter = 0
function setup(thread)
  made = made + 1
  thread:set("id", made)
end
request = function()
  counter = counter + 1
  return wrk.format("GET", base .. "+-zq%dt" .. id .. "n" .. counter, {Accept = "application/json"})
end
"""
IN_PROCESS = """
import statistics, time, urllib.parse
from cardsite.wsgi import application  # prewarms where the tree does so
from django.core.cache import cache
from django.test import Client
client = Client(HTTP_HOST="localhost")
for endpoint, text in QUERIES:
    times = []
    for i in range(300):
        cache.clear()
        path = endpoint + "?" + urllib.parse.urlencode({"q": f"{text} -zq{i}x", "page_size": 60, "format": "json"})
        start = time.perf_counter()
        assert client.get(path, HTTP_ACCEPT="application/json").status_code == 200
        times.append((time.perf_counter() - start) * 1000)
    print(statistics.median(times))
"""
GUNICORN_CONF = """
def post_worker_init(worker):
    open(%r, "w").close()
"""


def run(*args, env=None, cwd=ROOT, check=True):
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, check=check, capture_output=True, text=True)


SECRET_KEY = os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50)  # DEBUG is off, as on a site


def tree_env(tree, database):
    return {**os.environ, "DATABASE_URL": database, "DEBUG": "false", "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "PYTHONPATH": str(tree), "DJANGO_SETTINGS_MODULE": "cardsite.settings", "SECRET_KEY": SECRET_KEY}


def prepare_database(url, env):
    name = urllib.parse.urlparse(url).path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    exists = run("psql", admin, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'").stdout.strip()
    if not exists:
        run("psql", admin, "-c", f'CREATE DATABASE "{name}"')
    run(PYTHON, "manage.py", "migrate", "--noinput", "-v0", env=env)
    run(PYTHON, "manage.py", "load_catalogue", "-v0", env=env)


def search_path(endpoint, text):
    return endpoint + "?" + urllib.parse.urlencode({"page_size": 60, "format": "json", "q": text})


def start_server(tree, env, port, workers):
    """gunicorn for `tree`, and the moment its first worker had loaded the app (gunicorn's post_worker_init)."""
    marker = Path(tempfile.mkdtemp()) / "ready"
    conf = marker.parent / "gunicorn.conf.py"
    conf.write_text(GUNICORN_CONF % str(marker))
    server = subprocess.Popen([str(GUNICORN), "cardsite.wsgi", "-c", str(conf), "-w", str(workers),
                               "-b", f"127.0.0.1:{port}", "--backlog", "512", "--timeout", "120"],
                              cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not marker.exists():
        if time.time() > deadline or server.poll() is not None:
            server.terminate()
            raise SystemExit(f"gunicorn for {tree} did not start")
        time.sleep(0.05)
    return server


def get(url):
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    return urllib.request.urlopen(request, timeout=30).read()


def wrk(url, connections, seconds, threads, lua=None):
    args = ["wrk", f"-t{min(threads, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency",
            "-H", "Accept: application/json"]
    if lua:
        args += ["-s", lua]
    out = run(*args, url).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1))
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error responses under load")
    return rps, p50, p99


def in_turns(url, path, lua, static, connections, args):
    """wrk on new queries and on the static twin in turns, `args.slices` slices of each adding up to `args.seconds`,
    so both meet the same machine: on a shared one the load moves more between two 10-second windows than the ratio
    being measured. Requests per second are the slices' mean (they are equally long); p50 and p99 their median."""
    seconds = max(1, round(args.seconds / args.slices))
    searches, statics = [], []
    for _ in range(args.slices):
        lua.write_text(LUA % (path, time.time_ns()))  # queries never asked before in every slice
        searches.append(wrk(url, connections, seconds, args.threads, lua))
        statics.append(wrk(static, connections, seconds, args.threads))
    return _combined(searches), _combined(statics)


def _combined(slices):
    return tuple(statistics.mean(part) if i == 0 else statistics.median(part) for i, part in enumerate(zip(*slices)))


def _ms(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def first_request_ms(tree, env, port):
    """The first search a freshly started worker answers, timed from the client once the worker has loaded."""
    server = start_server(tree, env, port, 1)
    try:
        start = time.perf_counter()
        get(f"http://127.0.0.1:{port}" + search_path("/api/dragons/", "cave:crimson size:large first"))
        return (time.perf_counter() - start) * 1000
    finally:
        server.terminate()
        server.wait()


def measure_tree(label, tree, args, port):
    env = tree_env(tree, args.database)
    code = "import django; django.setup()\nQUERIES = " + repr([(e, t) for _, e, t in QUERIES]) + IN_PROCESS
    in_process = [float(line) for line in run(PYTHON, "-c", code, env=env, cwd=tree).stdout.split()]
    first = sorted(first_request_ms(tree, env, port) for _ in range(3))[1]
    static_dir = Path(tree) / "staticfiles" / "bench"
    static_dir.mkdir(parents=True, exist_ok=True)
    base = f"http://127.0.0.1:{port}"
    # A first server only to learn the size of each answer, so the static twin exists before whitenoise indexes.
    server = start_server(tree, env, port, 1)
    sizes = []
    try:
        for _, endpoint, text in QUERIES:
            body = get(base + search_path(endpoint, text))
            (static_dir / f"twin-{len(body)}.json").write_bytes(body)
            sizes.append(len(body))
    finally:
        server.terminate()
        server.wait()
    rows = []
    server = start_server(tree, env, port, args.workers)
    try:
        for (name, endpoint, text), size, ms in zip(QUERIES, sizes, in_process):
            lua = static_dir / "new-queries.lua"
            static = f"{base}/static/bench/twin-{size}.json"
            lua.write_text(LUA % (search_path(endpoint, text), time.time_ns()))
            wrk(base + "/", 8, 1, 2, lua)  # warm every worker
            wrk(static, 8, 1, 2)
            row = {"tree": label, "query": name, "size": size, "in_process": ms, "first": first}
            for connections in (1, 32):
                row[f"q{connections}"], row[f"s{connections}"] = in_turns(
                    base + "/", search_path(endpoint, text), lua, static, connections, args)
            rows.append(row)
            print(f"{label} {name}: {size} bytes, in process {ms:.2f} ms, c1 p50 {row['q1'][1]:.2f} ms, "
                  f"c32 {row['q32'][0]:.0f} rps vs static {row['s32'][0]:.0f} rps, first {first:.1f} ms", flush=True)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(static_dir, ignore_errors=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/wyrmdex_bench")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2)
    parser.add_argument("--seconds", type=int, default=10, help="per cell and side, in --slices turns")
    parser.add_argument("--slices", type=int, default=5, help="turns of search and static file in each cell")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads at concurrency 32")
    parser.add_argument("--old", type=Path, help="an older checkout to measure side by side (git archive)")
    parser.add_argument("--old-label", default="before")
    parser.add_argument("--write", action="store_true", help="update the search section of docs/benchmarks.md")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install -y wrk")

    prepare_database(args.database, tree_env(ROOT, args.database))
    rows = []
    if args.old:
        rows += measure_tree(args.old_label, args.old.resolve(), args, args.port + 1)
    rows += measure_tree("now", ROOT, args, args.port)
    load = os.getloadavg()[0]
    table = render(rows, args, load)
    print()
    print(table)
    if args.write:
        write_section(table)


def render(rows, args, load):
    intro = (
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `scripts/bench_search.py"
        f"{' --old …' if args.old else ''}`: gunicorn ({args.workers} sync workers) on PostgreSQL, `wrk --latency` "
        f"for {args.seconds} s per cell, on a {os.cpu_count()}-CPU machine that also runs wrk and PostgreSQL (load "
        f"average {load:.1f} at the end of the run). In each cell the search and its static twin take turns, "
        f"{args.slices} slices of {max(1, round(args.seconds / args.slices))} s each, so both meet the same load; "
        "requests per second are the slices' mean, latencies the median of theirs. Every request is a query never "
        "asked before (a Lua script adds a negated word no card has), so the answer cache never helps: this is what "
        "each keystroke of live search costs. \"static\" is a file of exactly the same size served by the same "
        "gunicorn (whitenoise). \"in process\" is the median of 300 new queries through Django's test client (answer "
        "cache emptied before each); \"first\" is the first search a freshly started worker answers (median of 3 "
        "starts). Page size 60, as the search page asks."
    )
    lines = textwrap.wrap(intro, 120) + [
        "",
        "| code | query | bytes | in process p50 ms | c=1 rps | c=1 p50 ms | c=1 p99 ms | static c=1 rps | c=32 rps "
        "| c=32 p50 ms | static c=32 rps | c=32 share of static | first ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        q1, s1, q32, s32 = row["q1"], row["s1"], row["q32"], row["s32"]
        lines.append(
            f"| {row['tree']} | {row['query']} | {row['size']} | {row['in_process']:.2f} | {q1[0]:.0f} | {q1[1]:.2f} "
            f"| {q1[2]:.2f} | {s1[0]:.0f} | {q32[0]:.0f} | {q32[1]:.2f} | {s32[0]:.0f} | {q32[0] / s32[0]:.0%} "
            f"| {row['first']:.1f} |")
    return "\n".join(lines)


def write_section(table):
    text = DOC.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + table + "\n" + text[end:])
    print(f"\nwrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
