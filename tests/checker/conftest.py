"""Helpers for checker tests: post a check to the API, and walk its steps."""
import json

import pytest


@pytest.fixture
def check(client, catalogue):
    """POST a check; returns (status, body)."""
    def post(body):
        response = client.post("/api/checker/", data=json.dumps(body), content_type="application/json")
        return response.status_code, response.json()
    return post


@pytest.fixture
def checked(check):
    """POST a check that must be accepted; returns the body."""
    def post(body):
        status, result = check(body)
        assert status == 200, result
        return result
    return post


def changes(result):
    """Every change of every step, as plain text."""
    return [c["text"] for step in result["steps"] for c in step["changes"]]


def change(result, what, where=None, seat=0):
    """(first before, last after) of one counter across the whole run, or None when it never changed."""
    found = [c for step in result["steps"] for c in step["changes"]
             if c["what"] == what and c["seat"] == seat and (where is None or (c["where"] or "").startswith(where))]
    if not found:
        return None
    return found[0]["before"], found[-1]["after"]


def asked(result):
    """(kind, data) of every question the run answered."""
    return [(step["kind"], step["data"]) for step in result["steps"] if step["kind"]]


def offered(result, ability):
    """How many times the run asked its owner to use an ability of this kind (on_grow_up, when_played, ...)."""
    return sum(1 for kind, data in asked(result) if kind == "use_ability" and data["ability"] == ability)


def option(result, kind, *args):
    """The decision dict of a pending option, checked to be offered."""
    wanted = {"kind": kind, "args": list(args)}
    offered = [{"kind": o["kind"], "args": o["args"]} for o in result["pending"]["options"]]
    assert wanted in offered, offered
    return wanted
