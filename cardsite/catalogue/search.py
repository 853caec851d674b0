"""Full-text matching and ranking for card search, the same result sets on PostgreSQL and SQLite.

A bare word matches cards whose name or rendered ability text holds a word starting with it (`tuck` finds "tuck",
"tucked", "tucks"; `egg` finds "eggs" but not "leggy"). PostgreSQL answers with a `tsvector` in the `simple`
configuration (no stemming, so no language guesses) over the text with every non-alphanumeric run turned into a
space, and ranks with `ts_rank` weighting the name above the ability text. SQLite answers the same question with a
regular expression, and ranks by where the words were found. A quoted phrase is a case-insensitive substring on
both. Which cards use which effect words (`does:tuck`) comes from the abilities' data, indexed in memory per
catalogue version.
"""
import hashlib
import re
import time

from django.db import connection
from django.db.models import Case, F, FloatField, Func, Q, TextField, Value, When
from django.db.models.signals import post_delete, post_save

from cardsite.catalogue import models as m
from game.language.walk import ability_search_words

_version_cache = {}


# --- catalogue version ----------------------------------------------------------------------------------------

STATE_SECONDS = 1.0
_state = {"value": None, "read_at": 0.0}


def catalogue_state():
    """(version, last modified) of the whole catalogue; any load or edit changes the version.

    Read from the database at most once a second per process, because it is asked on every API request; an edit
    made in this process forgets it at once (signals below), one made elsewhere (the loader, another worker) shows
    within the second. Inside a transaction (tests, admin actions) it is always read afresh.
    """
    now = time.monotonic()
    if connection.in_atomic_block:
        return read_catalogue_state()
    if _state["value"] is None or now - _state["read_at"] >= STATE_SECONDS:
        _state["value"], _state["read_at"] = read_catalogue_state(), now
    return _state["value"]


def forget_catalogue_state(**kwargs):
    _state["value"] = None


for _model in (m.Expansion, m.Dragon, m.CaveCard, m.GuildTile, m.GuildAbility, m.ObjectiveTile, m.ObjectiveSide,
               m.BoardFact):
    post_save.connect(forget_catalogue_state, sender=_model, dispatch_uid=f"search-state-{_model.__name__}")
    post_delete.connect(forget_catalogue_state, sender=_model, dispatch_uid=f"search-state-del-{_model.__name__}")


def read_catalogue_state():
    """(version, last modified) read in one query."""
    parts = []
    for model in (m.Expansion, m.Dragon, m.CaveCard, m.GuildTile, m.GuildAbility, m.ObjectiveTile,
                  m.ObjectiveSide, m.BoardFact):
        table = connection.ops.quote_name(model._meta.db_table)
        if any(field.name == "updated_at" for field in model._meta.fields):
            parts.append(f"(SELECT MAX(updated_at) FROM {table})")
        parts.append(f"(SELECT COUNT(*) FROM {table})")
        parts.append(f"(SELECT MAX(id) FROM {table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        row = cursor.fetchone()
    stamps = [value for value in row if value is not None and not isinstance(value, int)]
    last_modified = max((_as_datetime(value) for value in stamps), default=None)
    version = hashlib.sha1(repr(row).encode()).hexdigest()[:16]
    return version, last_modified


def _as_datetime(value):
    if isinstance(value, str):  # SQLite returns the text of the timestamp
        from django.utils.dateparse import parse_datetime
        from django.utils.timezone import is_naive, make_aware
        parsed = parse_datetime(value)
        return make_aware(parsed) if parsed is not None and is_naive(parsed) else parsed
    return value


# --- effect words ---------------------------------------------------------------------------------------------

def effect_words(abilities):
    """Every effect word used anywhere in a card's abilities (a family word by its kind), in first-use order."""
    return ability_search_words(abilities)


def card_effect_words(card):
    """The effect words a card or tile uses: a dragon's or cave card's abilities, a guild tile's rows. An objective
    tile only counts (its sides are counters, not effects), so it uses none."""
    if isinstance(card, m.GuildTile):
        return effect_words([{"effect": row.effect} for row in card.guild_abilities.all()])
    if isinstance(card, m.ObjectiveTile):
        return []
    return effect_words(card.abilities)


def _cards_with_effects(model):
    if model is m.GuildTile:
        return model.objects.prefetch_related("guild_abilities")
    if model is m.ObjectiveTile:
        return model.objects.all()
    return model.objects.only("pk", "abilities")


def _word_index(model):
    """({effect word: card pks}, {card pk: effect words}) for one model, rebuilt when the catalogue changes."""
    version, _ = catalogue_state()
    key = (model.__name__, version)
    index = _version_cache.get(key)
    if index is None:
        by_word, by_card = {}, {}
        for card in _cards_with_effects(model):
            pk, words = card.pk, card_effect_words(card)
            by_card[pk] = set(words)
            for word in words:
                by_word.setdefault(word, set()).add(pk)
        if len(_version_cache) > 16:
            _version_cache.clear()
        index = _version_cache[key] = (by_word, by_card)
    return index


def cards_using_words(model, words):
    """Primary keys of cards of `model` using any of the effect words."""
    by_word, _ = _word_index(model)
    found = set()
    for word in words:
        found |= by_word.get(word, set())
    return sorted(found)


def similar_cards(card, words, limit=8):
    """Primary keys of the cards sharing the most of `words` with `card`, most shared first, then by pk."""
    _, by_card = _word_index(type(card))
    wanted = set(words)
    scored = [(len(wanted & other), pk) for pk, other in by_card.items() if pk != card.pk and wanted & other]
    scored.sort(key=lambda pair: (-pair[0], pair[1]))
    return [pk for _, pk in scored[:limit]]


# --- text matching --------------------------------------------------------------------------------------------

def is_postgres():
    return connection.vendor == "postgresql"


def _fields(model, field):
    if field == "text" or model is not m.Dragon:
        return ["ability_text"]
    if field == "name":
        return ["name"]
    return ["name", "ability_text"]


def _annotation(fields):
    return "_fts_" + "_".join(fields)


def _clean(field):
    """The field with every run of non-alphanumerics as one space, so PostgreSQL's parser sees plain words only."""
    return Func(F(field), Value("[^[:alnum:]]+"), Value(" "), Value("g"), function="regexp_replace",
                output_field=TextField())


def text_match(model, field, text, phrase):
    """A Q matching `text` (a word prefix, or a phrase substring) in the name and/or ability text."""
    fields = _fields(model, field)
    q = Q(pk__in=[])
    if phrase:
        for name in fields:
            q |= Q(**{f"{name}__icontains": text})
        return q
    word = text.lower()
    if is_postgres():
        from django.contrib.postgres.search import SearchQuery
        # Holding the word as a substring is necessary for a match, and cheap: PostgreSQL tests it first, so the
        # costly search vector is built only for the few rows that pass.
        substring = Q(pk__in=[])
        for name in fields:
            substring |= Q(**{f"{name}__icontains": word})
        return substring & Q(**{_annotation(fields): SearchQuery(f"{word}:*", search_type="raw", config="simple")})
    pattern = r"(?<![^\W_])" + re.escape(word)
    for name in fields:
        q |= Q(**{f"{name}__iregex": pattern})
    return q


def prepare(queryset, texts):
    """Add what `text_match` needs to the queryset: PostgreSQL's search vectors, as aliases, so each is computed
    only where a filter uses it and never sent back with the rows."""
    if not is_postgres():
        return queryset
    from django.contrib.postgres.search import SearchVector
    model = queryset.model
    annotations = {}
    for field in (None, "name", "text"):
        fields = _fields(model, field)
        annotations[_annotation(fields)] = SearchVector(*[_clean(name) for name in fields], config="simple")
    return queryset.alias(**annotations)


def ranked(queryset, texts):
    """Order by relevance to the query's words (best first), then by card number."""
    words = [word.lower() for text in texts for word in re.findall(r"[^\W_]+", text)]
    if not words:
        return queryset
    model = queryset.model
    if is_postgres():
        from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
        vector = SearchVector(_clean("ability_text"), config="simple", weight="B")
        if model is m.Dragon:
            vector = SearchVector(_clean("name"), config="simple", weight="A") + vector
        query = SearchQuery(" | ".join(f"{word}:*" for word in words), search_type="raw", config="simple")
        rank = SearchRank(vector, query)
    else:
        whens = []
        for word in words:
            pattern = r"(?<![^\W_])" + re.escape(word)
            if model is m.Dragon:
                whens.append(Case(When(name__iregex=pattern, then=Value(1.0)), default=Value(0.0),
                                  output_field=FloatField()))
            whens.append(Case(When(ability_text__iregex=pattern, then=Value(0.4)), default=Value(0.0),
                              output_field=FloatField()))
        rank = whens[0]
        for when in whens[1:]:
            rank = rank + when
    return queryset.annotate(rank=rank).order_by("-rank", "number", "printing")
