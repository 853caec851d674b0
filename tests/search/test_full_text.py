"""Full-text matching gives the cards the plain-Python oracle expects, so PostgreSQL and SQLite agree.

Run this module under both databases (`DATABASE_URL=postgres://… pytest tests/search`): each run is checked against
the same oracle, so passing on both means the same result sets on both.
"""
import pytest

from cardsite.catalogue.models import CaveCard, Dragon

from .conftest import has_word

WORD_QUERIES = ["tuck", "cache", "egg", "eggs", "lay", "gr", "dragon", "guild", "opponent", "3", "Grotto", "wyrm",
                "zzzz"]


def name_or_text(card, word):
    return has_word(getattr(card, "name", ""), word) or has_word(card.ability_text, word)


@pytest.mark.parametrize("word", WORD_QUERIES)
def test_word_matches_the_start_of_a_word_in_name_or_text(all_slugs, word):
    assert all_slugs(f"/api/dragons/?q={word}") == sorted(d.slug for d in Dragon.objects.all() if name_or_text(d, word))
    assert all_slugs(f"/api/caves/?q={word}") == sorted(c.slug for c in CaveCard.objects.all() if name_or_text(c, word))


@pytest.mark.parametrize("words", [("tuck", "deck"), ("lay", "egg", "cave"), ("gain", "coin")])
def test_several_words_must_all_match(all_slugs, words):
    expected = sorted(d.slug for d in Dragon.objects.all() if all(name_or_text(d, w) for w in words))
    assert all_slugs("/api/dragons/?q=" + "+".join(words)) == expected
    assert all_slugs("/api/dragons/?search=" + "+".join(words)) == expected


@pytest.mark.parametrize("phrase", ["from your hand", "lay 1 egg", "white-bellied", "the third time"])
def test_phrase_matches_as_written(all_slugs, phrase):
    expected = sorted(d.slug for d in Dragon.objects.all()
                      if phrase in d.name.lower() or phrase in d.ability_text.lower())
    assert all_slugs('/api/dragons/?q="' + phrase + '"') == expected
    assert expected


def test_negated_word_leaves_out_exactly_its_cards(all_slugs):
    expected = sorted(d.slug for d in Dragon.objects.all() if not name_or_text(d, "tuck"))
    assert all_slugs("/api/dragons/?q=-tuck") == expected


def test_name_and_text_fields_look_in_one_place_only(all_slugs):
    assert all_slugs("/api/dragons/?q=name:drake") == sorted(
        d.slug for d in Dragon.objects.all() if has_word(d.name, "drake"))
    assert all_slugs("/api/dragons/?q=text:drake") == sorted(
        d.slug for d in Dragon.objects.all() if has_word(d.ability_text, "drake"))
