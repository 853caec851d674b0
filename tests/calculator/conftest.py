"""Helpers for the calculator tests: post a sheet to the API, and find catalogue cards by number."""
import json

import pytest


@pytest.fixture
def score_api(client, catalogue):
    """POST a sheet to an API endpoint; returns (status, body)."""
    def post(data, url="/api/calculator/score/"):
        response = client.post(url, data=json.dumps(data), content_type="application/json")
        return response.status_code, response.json()
    return post


@pytest.fixture
def scored(score_api):
    """Score a sheet that must be valid; returns the result with lines keyed by name."""
    def run(data):
        status, body = score_api(data)
        assert status == 200, body
        result = body["result"]
        result["by_name"] = {line["name"]: line for line in result["lines"]}
        return result
    return run
