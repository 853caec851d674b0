"""Helpers for analysis tests: a position in the board's format, a request to /api/analysis/, and option lookups."""
import json

import pytest


def position(*edits, players=2, seed=1, academy=False, seat=0):
    """A position in the board's format: a seeded setup, then the edits a player would click."""
    return {"setup": {"players": players, "seed": seed, "academy": academy}, "edits": list(edits), "seat": seat}


def yes():
    return {"kind": "yes", "args": []}


@pytest.fixture
def post(client, catalogue):
    """POST to the analysis API; returns (status, body)."""
    def send(body):
        response = client.post("/api/analysis/", data=json.dumps(body), content_type="application/json")
        return response.status_code, response.json()
    return send


@pytest.fixture
def ask(post):
    """Analyse a position; the answer must be a 200."""
    def send(pos, attempt=None, decisions=()):
        status, body = post({"position": pos, "try": attempt or {}, "decisions": list(decisions)})
        assert status == 200, body
        return body
    return send


def offered(result, kind=None):
    return [o for o in result["pending"]["options"] if kind is None or o["kind"] == kind]


def refused(result, kind=None):
    return [o for o in result["pending"]["not_allowed"] if kind is None or o["kind"] == kind]


def pick(result, kind, *args):
    """The decision for one offered option (checked to be offered)."""
    for o in offered(result):
        if o["kind"] == kind and (not args or o["args"][:len(args)] == list(args)):
            return {"kind": o["kind"], "args": o["args"]}
    raise AssertionError(f"{kind} {args} not offered: {[(o['kind'], o['args']) for o in offered(result)]}")


def changes(result):
    return [c["text"] for step in result["steps"] for c in step.get("changes", [])]


def seat(result, n=0):
    return result["table"]["seats"][n]


def space(result, cave, column, n=0):
    return next(s for s in seat(result, n)["mat"] if s["cave"] == cave and s["column"] == column)


def walk(ask, pos, attempt, decisions, until, limit=30):
    """Extend a branch with the first offered option until `until(result)` holds; returns (result, decisions)."""
    decisions = list(decisions)
    result = ask(pos, attempt, decisions)
    while not until(result):
        assert result["pending"] and len(decisions) < limit, result["pending"]
        first = result["pending"]["options"][0]
        decisions.append({"kind": first["kind"], "args": first["args"]})
        result = ask(pos, attempt, decisions)
    return result, decisions


def choose(result, text, kind=None):
    """The decision for the offered option whose label contains `text`."""
    found = [o for o in offered(result, kind) if text.lower() in o["label"].lower()]
    assert found, (text, [o["label"] for o in offered(result)])
    return {"kind": found[0]["kind"], "args": found[0]["args"]}
