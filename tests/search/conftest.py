"""Helpers for the search tests: an API getter and an oracle that answers queries in plain Python."""
import json
import re

import pytest


@pytest.fixture
def api(client, catalogue):
    def get(url, status=200, **headers):
        response = client.get(url, HTTP_ACCEPT="application/json", **headers)
        assert response.status_code == status, (url, response.status_code, response.content[:500])
        return response.json() if response.content else None
    return get


def words_of(text):
    return [token.lower() for token in re.split(r"[^0-9A-Za-z]+", text or "") if token]


def has_word(text, word):
    """The search's promise, written independently: some word of the text starts with `word`."""
    return any(token.startswith(word.lower()) for token in words_of(text))


def uses(card, word):
    """Whether a card's abilities use a search word (a swap by its kind: `cover_dragon`), read from the JSON."""
    text = json.dumps(card.abilities)
    kinds = {"cover_dragon": "cover", "swap_dragons": "dragons", "swap_with_hand": "with_hand",
             "swap_cave_card": "cave_card"}
    if word in kinds:
        return f'"do": "swap", "what": "{kinds[word]}"' in text
    return f'"do": "{word}"' in text


def slugs(results):
    return sorted(card["slug"] if isinstance(card, dict) else card.slug for card in results)


@pytest.fixture
def all_slugs(api):
    """Every slug a list endpoint answers for a query, across all pages."""
    def collect(url):
        found = []
        page = api(url + ("&" if "?" in url else "?") + "page_size=200")
        found.extend(card["slug"] for card in page["results"])
        while page["next"]:
            page = api(page["next"].split("testserver", 1)[-1])
            found.extend(card["slug"] for card in page["results"])
        assert len(found) == len(set(found))
        return sorted(found)
    return collect
