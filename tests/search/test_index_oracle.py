"""The in-memory index answers exactly as the database does: the same cards in the same order, the same errors.

Hundreds of generated queries (words and word starts taken from the cards, phrases cut from their texts, every
field with good and bad values, negation, `or`, parentheses) are answered twice, by the FilterSet's SQL and by
`card_index`, and compared card for card. Run under both databases (`DATABASE_URL=postgres://… pytest
tests/search`): on PostgreSQL this checks the Python copy of `ts_rank`, on SQLite the regex and the rank sum.
"""
import random
import re

import pytest

from cardsite.catalogue import card_index, filters, query
from cardsite.catalogue.models import CaveCard, Dragon

QUERY_COUNT = 500


def sql_answer(model, text):
    """The answer of the FilterSet path the API used before the index: slugs in order, or the error."""
    filterset_class = filters.DragonFilter if model is Dragon else filters.CaveCardFilter
    filterset = filterset_class({"q": text}, queryset=model.objects.select_related("expansion", "original"))
    assert filterset.is_valid(), filterset.errors
    try:
        return [card.slug for card in filterset.qs]
    except query.QueryError as error:
        return ("error", str(error), error.position, error.expected)


def index_answer(model, text):
    assert card_index.can_answer(text)
    try:
        return [card.representation["slug"] for card in card_index.search_cards(model, text)]
    except query.QueryError as error:
        return ("error", str(error), error.position, error.expected)


def vocabulary():
    words, phrases = set(), []
    for card in list(Dragon.objects.all()) + list(CaveCard.objects.all()):
        tokens = re.findall(r"[0-9A-Za-z]+", getattr(card, "name", "") + " " + card.ability_text)
        words.update(token.lower() for token in tokens)
        text_words = card.ability_text.split()
        if len(text_words) > 3:
            start = len(phrases) % (len(text_words) - 2)
            phrases.append(" ".join(text_words[start:start + 2 + len(phrases) % 2]))
    return sorted(words), phrases


FIELD_VALUES = {
    "cave": ["crimson", "golden", "amethyst", "crimson,golden", "golden+amethyst", "abyss", "gold"],
    "size": ["hatchling", "small", "medium", "large", "fledgling", "small,large"],
    "trait": ["shy", "aggressive", "playful", "helpful", "shy,helpful"],
    "kind": ["when_played", "if_activated", "once_per_round", "end_game", "none", "played,end", "round"],
    "feeds": ["milk", "meat", "card"],
    "printing": ["original", "updated"],
    "expansion": ["base", "academy", "base,academy", "nosuch"],
    "type": ["dragon", "cave", "dragon,cave", "guild"],
    "does": list(query.EFFECT_WORDS),
}
NUMBER_NAMES = ["vp", "capacity", "cost", "cost.meat", "cost.gold", "cost.crystal", "cost.milk", "cost.coin",
                "cost.egg", "number", "nests"]


def generated_queries(seed=15, count=QUERY_COUNT):
    rng = random.Random(seed)
    words, phrases = vocabulary()

    def word():
        token = rng.choice(words)
        return token[:rng.randint(1, len(token))] if rng.random() < 0.5 else token

    def term():
        roll = rng.random()
        if roll < 0.3:
            return word().upper() if rng.random() < 0.1 else word()
        if roll < 0.4:
            return '"' + rng.choice(phrases) + '"'
        if roll < 0.65:
            field = rng.choice(sorted(FIELD_VALUES))
            op = rng.choice([":", ":", "=", "!="])
            return f"{field}{op}{rng.choice(FIELD_VALUES[field])}"
        if roll < 0.85:
            name = rng.choice(NUMBER_NAMES)
            if rng.random() < 0.2:
                low = rng.randint(0, 6)
                return f"{name}:{low}..{low + rng.randint(0, 3)}" if rng.random() < 0.5 else f"{name}:..{low}"
            if rng.random() < 0.1:
                return name  # bare cost field: costs at least one
            return f"{name}{rng.choice([':', '=', '!=', '>', '>=', '<', '<='])}{rng.randint(0, 7)}"
        if roll < 0.92:
            return f"{rng.choice(['name', 'text'])}:{word()}"
        return f'text:"{rng.choice(phrases)}"'

    def expression(depth=0):
        parts = []
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            if roll < 0.15 and depth < 2:
                part = "(" + expression(depth + 1) + ")"
            elif roll < 0.3:
                part = "-" + term()
            else:
                part = term()
            parts.append(part)
            if rng.random() < 0.15:
                parts.append("or")
        if parts[-1] == "or":
            parts.pop()
        return " ".join(parts)

    fixed = ["", "tuck", "egg eggs", "tuck deck", "cache or tuck", "-tuck", "gr", "3", "dragon guild",
             'does:tuck "from the deck"', "cave:golden does:tuck", "type:cave kind:when_played egg",
             "expansion:nosuch", "name:zz", "vp>=5 (trait:playful or trait:helpful)", "lay egg lay"]
    return fixed + [expression() for _ in range(count)]


@pytest.mark.parametrize("model", [Dragon, CaveCard], ids=["dragons", "caves"])
def test_index_answers_every_generated_query_as_the_database_does(catalogue, model):
    differences = []
    matched = 0
    for text in generated_queries():
        expected, got = sql_answer(model, text), index_answer(model, text)
        if expected != got:
            differences.append((text, expected, got))
        matched += isinstance(expected, list) and len(expected) > 0
    assert not differences, differences[:3]
    assert matched > QUERY_COUNT // 5  # the generator finds cards, not only empty answers


def test_ranked_answers_are_compared_where_the_order_matters(catalogue):
    """Ties and near-ties: queries whose ranking puts cards out of number order, so order is really checked."""
    reordered = 0
    for text in ["tuck", "egg", "cache card", "dragon", "lay egg", "gain", "coin", "from the", "play", "wyrm",
                 "rock egg", "grazer", "drake cave", "wing", "wyrm or egg", "drake or cache"]:
        answer = sql_answer(Dragon, text)
        assert answer == index_answer(Dragon, text), text
        numbers = [Dragon.objects.get(slug=slug).number for slug in answer]
        reordered += numbers != sorted(numbers)
    assert reordered >= 3


def test_api_answer_from_the_index_is_the_filterset_answer(client, catalogue):
    from rest_framework.renderers import JSONRenderer

    from cardsite.catalogue.serializers import DragonSerializer

    for text in ["tuck", "cave:golden does:tuck", "size:medium", ""]:
        response = client.get("/api/dragons/", {"q": text, "page_size": 60}, HTTP_ACCEPT="application/json")
        body = response.json()
        assert response.content == JSONRenderer().render(body)
        filterset = filters.DragonFilter({"q": text}, queryset=Dragon.objects.select_related("expansion", "original"))
        cards = list(filterset.qs)
        assert body["count"] == len(cards)
        assert body["results"] == DragonSerializer(cards[:60], many=True).data


def test_non_ascii_queries_are_left_to_the_database(client, catalogue):
    assert not card_index.can_answer("drâgon")
    assert not card_index.can_answer("tuck\x00")
    response = client.get("/api/dragons/", {"q": "tück"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["count"] == 0


def test_an_edit_to_a_card_is_seen_by_the_next_search(client, catalogue):
    before = {card.representation["slug"] for card in card_index.search_cards(Dragon, "zebrawyrm")}
    dragon = Dragon.objects.order_by("pk").first()
    dragon.name = "Zebrawyrm"
    dragon.save()
    after = [card.representation["slug"] for card in card_index.search_cards(Dragon, "zebrawyrm")]
    assert before == set() and after == [dragon.slug]
