"""/analysis/: the page renders with its script (no inline code), takes a position or a card from the link, and
refuses a broken link with a 400 that says what is wrong."""
import json
import re

import pytest

pytestmark = pytest.mark.django_db


def start_of(html):
    found = re.search(r'<script id="an-start" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_page_renders_the_board_and_its_script(client, catalogue):
    response = client.get("/analysis/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="an-mat"' in html and 'data-api="/api/analysis/"' in html
    assert "/static/analysis.js" in html
    assert "<script>" not in html  # CSP: code only from files
    assert start_of(html) is None


def test_a_shared_link_carries_its_position(client, catalogue):
    position = {"setup": {"players": 3, "seed": 4}, "edits": [{"do": "coins", "seat": 0, "coins": 2}]}
    html = client.get("/analysis/", {"p": json.dumps(position)}).content.decode()
    assert start_of(html) == position


def test_a_broken_link_is_a_400_saying_what_is_wrong(client, catalogue):
    response = client.get("/analysis/", {"p": "{setup:"})
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()


def test_an_old_checker_card_link_puts_the_dragon_on_the_board(client, catalogue):
    html = client.get("/analysis/", {"card": "130 Smirking Ridgeback"}).content.decode()
    start = start_of(html)
    assert start["edits"][0]["card"] == 130 and start["edits"][0]["do"] == "dragon"
    assert 'value="130 Smirking Ridgeback"' in html


def test_the_position_a_card_link_builds_is_accepted_by_the_api(client, catalogue):
    html = client.get("/analysis/", {"card": "Wily Lindworm"}).content.decode()
    response = client.post("/api/analysis/", data=json.dumps({"position": start_of(html), "try": {"card": 157}}),
                           content_type="application/json")
    assert response.status_code == 200
    assert "D1" in [r["id"] for r in response.json()["rulings"]]


def test_the_checker_keeps_working_at_its_old_address_and_leads_to_the_board_with_its_card(client, catalogue):
    response = client.get("/checker/", {"card": "130 Smirking Ridgeback"})
    assert response.status_code == 200
    assert 'href="/analysis/?card=130%20Smirking%20Ridgeback"' in response.content.decode()


def test_the_site_navigation_leads_to_the_analysis_board(client, catalogue):
    assert 'href="/analysis/"' in client.get("/rules/").content.decode()


def test_the_page_offers_an_empty_table_and_a_link_to_one_opens_it(client, catalogue):
    assert 'id="an-empty"' in client.get("/analysis/").content.decode()
    position = {"setup": {"players": 2, "seed": 1, "empty": True}, "edits": []}
    response = client.get("/analysis/", {"p": json.dumps(position)})
    assert response.status_code == 200 and start_of(response.content.decode()) == position


def line_of(html):
    found = re.search(r'<script id="an-line" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_shared_link_carries_its_line_the_try_every_branch_and_the_one_shown(client, catalogue):
    position = {"setup": {"players": 2, "seed": 1}, "edits": []}
    line = {"try": {"seat": 0, "card": 130}, "branches": [[{"kind": "yes", "args": []}], []], "current": 1}
    html = client.get("/analysis/", {"p": json.dumps(position), "line": json.dumps(line)}).content.decode()
    assert start_of(html) == position
    assert line_of(html) == line


@pytest.mark.parametrize("line, words", [
    ("[1", "not valid JSON"),
    ('{"tree": []}', "not an object with try, branches and current"),
    ('{"branches": [[1]]}', "branches are not lists of decisions"),
    ('{"branches": [[], []], "current": 2}', "from 0 to 1"),
    ('{"try": 3}', "try is not an object"),
])
def test_a_broken_line_is_a_400_saying_what_is_wrong(client, catalogue, line, words):
    response = client.get("/analysis/", {"p": "{}", "line": line})
    assert response.status_code == 400
    assert words in response.content.decode()
