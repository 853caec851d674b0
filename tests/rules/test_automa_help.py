"""The solo help on the rules page and docs/automa.md list every unofficial Automa fact the engine plays."""
import json
from pathlib import Path

import pytest

from game.rules import SECTIONS, rules_anchor

ROOT = Path(__file__).resolve().parents[2]
FACTS = json.loads((ROOT / "fixtures" / "automa.json").read_text())["board_facts"][0]["value"]["facts"]


def test_every_fact_is_tagged_community_inferred_or_decision_and_named_once():
    assert {f["tag"] for f in FACTS} == {"COMMUNITY", "INFERRED", "DECISION"}
    ids = [f["id"] for f in FACTS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("fact", FACTS, ids=[f["id"] for f in FACTS])
def test_the_solo_section_lists_the_fact_under_its_tag(fact):
    solo = next(s for s in SECTIONS if s.slug == "solo")
    lists = [block for block in solo.blocks if isinstance(block, list)]
    community, inferred, decided = lists
    assert fact["text"] in {"COMMUNITY": community, "INFERRED": inferred, "DECISION": decided}[fact["tag"]]


@pytest.mark.parametrize("fact", FACTS, ids=[f["id"] for f in FACTS])
def test_docs_automa_names_the_fact(fact):
    assert f"`{fact['id']}`" in (ROOT / "docs" / "automa.md").read_text()


def test_solo_keywords_lead_to_the_solo_section(django_test_environment):
    assert rules_anchor("automa").endswith("#solo")
    assert rules_anchor("ravel").endswith("#ravel-mode")


def test_the_rules_page_shows_the_solo_section(db):  # the page's rulings name their cards from the catalogue
    from django.test import Client

    page = Client().get("/rules/").content.decode()
    assert 'id="solo"' in page and 'id="automa-cache"' in page
    assert "community readings" in page
