"""The rules reference at /rules/: every section renders, and keywords lead to anchors that exist."""
import re

import pytest

from game.rules import KEYWORDS, SECTIONS, anchor_ids, rules_anchor

REQUIRED_SECTIONS = ("setup", "turn", "excavate", "entice", "explore", "guild", "hatchlings", "fledglings",
                     "conditional-costs", "cache", "tuck", "eggs", "round-end", "scoring", "terms")
REQUIRED_KEYWORDS = ("cache", "tuck", "lay_egg", "excavate", "entice", "explore", "guild", "hatchling", "fledgling",
                     "train", "reveal")


@pytest.fixture(scope="module")
def page(django_db_setup, django_db_blocker):
    """The page, once per module; its rulings name the cards they concern, read from the catalogue."""
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/rules/")
    assert response.status_code == 200
    return response.content.decode()


def _ids(html):
    return set(re.findall(r'\bid="([^"]+)"', html))


@pytest.mark.parametrize("slug", REQUIRED_SECTIONS)
def test_required_section_renders_with_its_anchor_and_title(page, slug):
    section = next(s for s in SECTIONS if s.slug == slug)
    assert f'id="{slug}"' in page
    assert section.title.replace("'", "&#x27;") in page


def test_every_section_and_term_has_an_anchor_on_the_page(page):
    assert set(anchor_ids()) <= _ids(page)


def test_anchor_ids_are_unique():
    ids = anchor_ids()
    assert len(ids) == len(set(ids))


def test_table_of_contents_links_every_section(page):
    for section in SECTIONS:
        assert f'href="#{section.slug}"' in page


@pytest.mark.parametrize("keyword", REQUIRED_KEYWORDS)
def test_keyword_resolves_to_an_anchor_on_the_rules_page(page, keyword):
    url = rules_anchor(keyword)
    assert url is not None and url.startswith("/rules/#")
    assert url.split("#", 1)[1] in _ids(page)


def test_every_mapped_keyword_points_at_an_existing_anchor():
    missing = sorted(key for key, anchor in KEYWORDS.items() if anchor not in anchor_ids())
    assert missing == []


@pytest.mark.parametrize("spelling, anchor", [
    ("lay egg", "lay-egg"), ("Lay-Egg", "lay-egg"), ("hatchlings", "hatchlings"), ("in this cave", "in-this-cave"),
    ("adjacent", "adjacent"), ("all players", "all-players"), ("conditional-costs", "conditional-costs"),
])
def test_keyword_spellings_are_forgiving(django_test_environment, spelling, anchor):
    assert rules_anchor(spelling) == f"/rules/#{anchor}"


@pytest.mark.parametrize("keyword", ["dragonfire", "", None, 42])
def test_unknown_keyword_has_no_anchor(django_test_environment, keyword):
    assert rules_anchor(keyword) is None


def test_rules_text_is_our_own_not_the_rulebook(shared_data):
    """No sentence of the reference is a copy: no run of 8 words is shared with the rulebooks."""
    rulebooks = " ".join(path.read_text() for path in (shared_data.parent / "rules").glob("*.txt"))

    def runs(text):
        words = re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))
        return {" ".join(words[i:i + 8]) for i in range(len(words) - 7)}

    ours = []
    for section in SECTIONS:
        for block in section.blocks:
            ours.extend(block if isinstance(block, list) else [getattr(block, "text", block)])
    shared = runs(" ".join(ours)) & runs(rulebooks)
    assert shared == set()


def test_every_acting_effect_word_links_to_a_rule(django_test_environment):
    from game.language.schema import WORDS

    structural = {"seq", "choose", "if"}
    missing = sorted(word for word in WORDS if word not in structural and rules_anchor(word) is None)
    assert missing == []
