"""One FilterSet per catalogue resource: exact values, ranges, habitats, words, and the query language (`q`)."""
import re

import django_filters as df
from django import forms
from django.db.models import Case, IntegerField, Q, Value, When
from django.utils.functional import lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError

from cardsite.catalogue import card_index, query, search
from cardsite.catalogue.models import (
    CAVES,
    AbilityKind,
    CaveCard,
    Dragon,
    Expansion,
    GuildTile,
    ObjectiveTile,
    Printing,
    Size,
    Trait,
)
from game.language.vocabulary import CAVE_DISPLAY, FEEDS_ON, PRINTED_COST_ITEMS

CAVE_CHOICES = [(cave, CAVE_DISPLAY[cave]) for cave in CAVES]
KIND_CHOICES = AbilityKind.choices
EFFECT_WORD_CHOICES = [(word, word) for word in query.EFFECT_WORDS]
MAX_NUMBER = 9999


def _not_one_of(values):
    """Our words for a value that is not a choice, listing the choices ("%(value)s" is filled in by the form)."""
    return {"invalid_choice": "%(value)s is not one of " + values}


def _expansion_slugs():
    return ", ".join(Expansion.objects.order_by("id").values_list("slug", flat=True))


@extend_schema_field(OpenApiTypes.STR)
class ExpansionFilter(df.ModelMultipleChoiceFilter):
    """Expansion slugs, e.g. `expansion=base&expansion=academy`."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("field_name", "expansion__slug")
        kwargs.setdefault("to_field_name", "slug")
        kwargs.setdefault("queryset", Expansion.objects.all())
        kwargs.setdefault("label", "Expansion slug(s)")
        # The slugs are read only when a wrong one is given.
        kwargs.setdefault("error_messages", {"invalid_choice": lazy(
            lambda: "%(value)s is not one of " + _expansion_slugs(), str)()})
        super().__init__(*args, **kwargs)


class _SaysItsChoices:
    """A list of choices that says what the choices are when a value is not one of them (`size=huge`)."""

    def __init__(self, *args, **kwargs):
        choices = kwargs.get("choices")
        if choices and not callable(choices):
            kwargs.setdefault("error_messages", _not_one_of(", ".join(str(value) for value, _ in choices)))
        super().__init__(*args, **kwargs)


class ChoiceFilter(_SaysItsChoices, df.ChoiceFilter):
    pass


class MultipleChoiceFilter(_SaysItsChoices, df.MultipleChoiceFilter):
    pass


class WholeNumberFilter(df.NumberFilter):
    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_NUMBER)
        super().__init__(*args, **kwargs)


def _number_filters(field, label):
    """`field`, `field_min` and `field_max` for one numeric column."""
    return {
        field: WholeNumberFilter(field_name=field, label=f"{label}: exactly"),
        f"{field}_min": WholeNumberFilter(field_name=field, lookup_expr="gte", label=f"{label}: at least"),
        f"{field}_max": WholeNumberFilter(field_name=field, lookup_expr="lte", label=f"{label}: at most"),
    }


def _words(value, field_name):
    words = value.split()
    if len(words) > query.MAX_TERMS:
        raise ValidationError({field_name: [f"at most {query.MAX_TERMS} words"]})
    return words


class TextFilters(df.FilterSet):
    """Words in the name / ability text, and the query language."""

    q = df.CharFilter(method="filter_query", max_length=query.MAX_LENGTH,
                      label="A query in the card query language (see /cards/help/)")
    search = df.CharFilter(method="filter_search", max_length=query.MAX_LENGTH,
                           label="Words found in the name or the ability text (each word must match), best first")
    text = df.CharFilter(method="filter_text", max_length=query.MAX_LENGTH,
                         label="Words found in the rendered ability text (each word must match)")
    does = MultipleChoiceFilter(choices=EFFECT_WORD_CHOICES, method="filter_does",
                                   label="Uses any of these effect words somewhere in its abilities")
    expansion = ExpansionFilter()
    printing = ChoiceFilter(choices=Printing.choices)
    number = WholeNumberFilter(field_name="number")

    def _words_q(self, field, value, name):
        q = Q()
        for word in _words(value, name):
            plain = re.fullmatch(r"[^\W_]+", word) is not None
            q &= search.text_match(self.queryset.model, field, word, not plain)
        return q

    def filter_query(self, queryset, name, value):
        tree = query.parse(value)  # a QueryError becomes a 400 with its position (CatalogueViewSet)
        texts = query.ranking_texts(tree)
        queryset = search.prepare(queryset, texts)
        queryset = queryset.filter(query.compile_query(tree, queryset.model, search.text_match))
        return search.ranked(queryset, texts)

    def filter_search(self, queryset, name, value):
        queryset = search.prepare(queryset, [value])
        queryset = queryset.filter(self._words_q(None, value, name))
        return search.ranked(queryset, [value])

    def filter_text(self, queryset, name, value):
        queryset = search.prepare(queryset, [value])
        return queryset.filter(self._words_q("text", value, name))

    def filter_does(self, queryset, name, value):
        return queryset.filter(pk__in=search.cards_using_words(queryset.model, value))


NUMBER_FIELDS = [("vp", "VP"), ("capacity", "Nest capacity"), ("cost_total", "Total cost")] + [
    (f"cost_{item}", f"Cost in {item}") for item in PRINTED_COST_ITEMS
]
# `vp`, `vp_min`, `vp_max`, and the same for every other number, declared in one place.
NumberFilters = type("NumberFilters", (df.FilterSet,), {
    name: number_filter
    for field, label in NUMBER_FIELDS
    for name, number_filter in _number_filters(field, label).items()
})


class DragonFilter(NumberFilters, TextFilters):
    name = df.CharFilter(method="filter_name", max_length=query.MAX_LENGTH,
                         label="Words found in the dragon's name (each word must match)")
    size = MultipleChoiceFilter(choices=Size.choices)
    trait = MultipleChoiceFilter(choices=Trait.choices)
    kind = MultipleChoiceFilter(choices=KIND_CHOICES, method="filter_kind",
                                   label="Has a printed ability of any of these kinds")
    feeds_on = MultipleChoiceFilter(choices=[(food, food) for food in FEEDS_ON])
    cave = MultipleChoiceFilter(choices=CAVE_CHOICES, method="filter_cave_any",
                                   label="Lives in any of these caves")
    cave_all = MultipleChoiceFilter(choices=CAVE_CHOICES, method="filter_cave_all",
                                       label="Lives in all of these caves")
    cave_only = MultipleChoiceFilter(choices=CAVE_CHOICES, method="filter_cave_only",
                                        label="Lives in exactly these caves and no other")

    class Meta:
        model = Dragon
        fields = []

    def filter_name(self, queryset, name, value):
        queryset = search.prepare(queryset, [value])
        return queryset.filter(self._words_q("name", value, name))

    def filter_kind(self, queryset, name, value):
        q = Q(pk__in=[])
        for kind in value:
            q |= Q(**{f"has_{kind}": True})
        return queryset.filter(q)

    def filter_cave_any(self, queryset, name, value):
        q = Q(pk__in=[])
        for cave in value:
            q |= Q(**{cave: True})
        return queryset.filter(q)

    def filter_cave_all(self, queryset, name, value):
        return queryset.filter(**{cave: True for cave in value})

    def filter_cave_only(self, queryset, name, value):
        return queryset.filter(**{cave: cave in value for cave in CAVES})


class CaveCardFilter(TextFilters):
    kind = MultipleChoiceFilter(field_name="ability_kind", choices=KIND_CHOICES,
                                   label="Ability kind")

    class Meta:
        model = CaveCard
        fields = []


class TileQueryFilter(df.FilterSet):
    """The query language on guild and objective tiles, answered from the in-memory index (card_index.py): words
    and phrases in the tile's name and texts, `number`, `expansion`, `type`; a dragon's fields match no tile."""

    q = df.CharFilter(method="filter_query", max_length=query.MAX_LENGTH,
                      label="A query in the card query language (see /cards/help/)")

    def filter_query(self, queryset, name, value):
        pks = card_index.search_pks(queryset.model, value)
        order = Case(*[When(pk=pk, then=Value(i)) for i, pk in enumerate(pks)], default=Value(len(pks)),
                     output_field=IntegerField())
        return queryset.filter(pk__in=pks).order_by(order)


class GuildTileFilter(TileQueryFilter):
    expansion = ExpansionFilter()
    number = WholeNumberFilter(field_name="number")
    name = df.CharFilter(field_name="name", lookup_expr="icontains", max_length=80)

    class Meta:
        model = GuildTile
        fields = []


class ObjectiveTileFilter(TileQueryFilter):
    expansion = ExpansionFilter()
    number = WholeNumberFilter(field_name="number")
    text = df.CharFilter(field_name="sides__text", lookup_expr="icontains", max_length=80, distinct=True,
                         label="Words in the text of either side")

    class Meta:
        model = ObjectiveTile
        fields = []
