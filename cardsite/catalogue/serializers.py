"""Read-only representations of the catalogue for the API and the search page's live results."""
from django.urls import reverse
from django.utils.html import escape
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.catalogue.models import CaveCard, Dragon, Expansion, GuildAbility, GuildTile, ObjectiveSide, ObjectiveTile
from cardsite.catalogue.search import effect_words
from game.language.vocabulary import PRINTED_KINDS
from game.rules import rulings

_rendered = {}


def card_html(obj):
    """`render_html` for a saved card, remembered per card and save time, since rendering is the costly part."""
    key = (type(obj).__name__, obj.pk, obj.updated_at)
    html = _rendered.get(key)
    if html is None:
        if len(_rendered) > 4000:
            _rendered.clear()
        html = _rendered[key] = render_html(obj.abilities, _card_facts(obj))
    return html


def render_html(abilities, card):
    """The ability text with inline icons, or the plain text escaped when the renderer cannot read the data."""
    from game.language.render import render_abilities_html
    try:
        return render_abilities_html(abilities, card)
    except ValueError:
        return escape(card.get("ability_text", ""))


def _card_facts(obj):
    """What the renderer reads of a card besides its abilities, as the loader gives it (`loader.record_of`): a
    dragon's printed VP among them, or its end-game ability would read as a guild row's ("Score", not "Score an
    extra") and differ from `ability_text`."""
    facts = {"ability_text": obj.ability_text}
    for field in ("vp", "feeds_on", "training", "free_if"):
        if hasattr(obj, field):
            facts[field] = getattr(obj, field)
    return facts


class RulingSourceSerializer(serializers.Serializer):
    label = serializers.CharField()
    url = serializers.URLField(allow_null=True, help_text="Where it was read; null for the printed rulebooks.")


class RulingSerializer(serializers.Serializer):
    """An official ruling (or an open question, kind `open`) in our own words: game/rules/rulings.json."""

    id = serializers.CharField(help_text="Stable id, also the anchor `ruling-<id>` on /rules/.")
    kind = serializers.ChoiceField(choices=["faq", "designer", "rules-app", "rulebook", "open"])
    kind_label = serializers.CharField()
    question = serializers.CharField()
    answer = serializers.CharField()
    engine = serializers.CharField(allow_null=True, help_text="What this site's engine does, where it matters.")
    sources = RulingSourceSerializer(many=True)
    topics = serializers.ListField(child=serializers.CharField(), help_text="Anchors of the rules reference.")
    dragons = serializers.ListField(child=serializers.IntegerField(), help_text="Dragon numbers it concerns.")
    caves = serializers.ListField(child=serializers.IntegerField(), help_text="Cave card numbers it concerns.")
    guilds = serializers.ListField(child=serializers.IntegerField(), help_text="Guild tile numbers it concerns.")
    objectives = serializers.ListField(child=serializers.IntegerField(), help_text="Objective tile numbers.")

    def to_representation(self, instance):
        return instance.to_dict()


def rulings_of(kind, number):
    return [ruling.to_dict() for ruling in rulings.for_card(kind, number)]


class ExpansionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Expansion
        fields = ["slug", "name", "complete", "notes"]


_representations = {}


class CardSerializer(serializers.ModelSerializer):
    """A card's representation depends only on its own row and the slugs it links to, so it is remembered per row
    and save time: a search answer of 50 cards then costs its query, not 50 renderings."""

    expansion = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    ability_html = serializers.SerializerMethodField(help_text="The ability text as HTML with inline icons.")
    effect_words = serializers.SerializerMethodField(help_text="Effect-language words the abilities use.")
    url = serializers.SerializerMethodField(help_text="This card in the API.")
    page = serializers.SerializerMethodField(help_text="This card's web page.")
    original = serializers.SerializerMethodField(help_text="For an updated printing: the slug of the card it replaces.")
    rulings = serializers.SerializerMethodField(help_text="Official rulings about this card's number (any printing).")

    def to_representation(self, instance):
        key = (type(self).__name__, instance.pk, instance.updated_at, instance.expansion_id, instance.original_id)
        representation = _representations.get(key)
        if representation is None:
            if len(_representations) > 4000:
                _representations.clear()
            representation = _representations[key] = super().to_representation(instance)
        return representation

    def get_ability_html(self, obj) -> str:
        return card_html(obj)

    def get_effect_words(self, obj) -> list[str]:
        return effect_words(obj.abilities)

    def get_url(self, obj) -> str:
        return reverse(self.api_route, args=[obj.slug])

    def get_page(self, obj) -> str:
        return reverse(self.page_route, args=[obj.slug])

    def get_original(self, obj) -> str | None:
        return obj.original.slug if obj.original_id else None

    @extend_schema_field(RulingSerializer(many=True))
    def get_rulings(self, obj):
        return rulings_of(self.rulings_kind, obj.number)


class DragonSerializer(CardSerializer):
    rulings_kind = "dragons"
    api_route = "api-dragon-detail"
    page_route = "dragon-page"
    habitats = serializers.ListField(child=serializers.CharField(), read_only=True,
                                     help_text="The caves it may live in.")
    cost = serializers.DictField(child=serializers.IntegerField(), read_only=True,
                                 help_text="Printed cost by item; items it does not cost are left out.")
    kinds = serializers.SerializerMethodField(help_text="Kinds of its printed abilities.")

    class Meta:
        model = Dragon
        fields = [
            "number", "printing", "slug", "name", "expansion", "vp", "size", "trait", "capacity", "cost",
            "cost_total", "habitats", "ability_kind", "kinds", "ability_text", "ability_html", "abilities",
            "effect_words", "feeds_on", "training", "free_if", "original", "rulings", "url", "page",
        ]

    def get_kinds(self, obj) -> list[str]:
        return [kind for kind in PRINTED_KINDS
                if getattr(obj, f"has_{kind}")]


class CaveCardSerializer(CardSerializer):
    rulings_kind = "caves"
    api_route = "api-cave-detail"
    page_route = "cave-page"
    name = serializers.SerializerMethodField()

    class Meta:
        model = CaveCard
        fields = [
            "number", "printing", "slug", "name", "expansion", "ability_kind", "ability_text", "ability_html",
            "abilities", "effect_words", "original", "rulings", "url", "page",
        ]

    def get_name(self, obj) -> str:
        return str(obj)


class GuildAbilitySerializer(serializers.ModelSerializer):
    class Meta:
        model = GuildAbility
        fields = ["position", "squares", "end_game", "effect", "text"]


class GuildTileSerializer(serializers.ModelSerializer):
    expansion = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    rulings = serializers.SerializerMethodField(help_text="Official rulings about this tile's number.")
    abilities = GuildAbilitySerializer(source="guild_abilities", many=True, read_only=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()

    class Meta:
        model = GuildTile
        fields = ["number", "slug", "name", "expansion", "complete", "notes", "abilities", "rulings", "url", "page"]

    @extend_schema_field(RulingSerializer(many=True))
    def get_rulings(self, obj):
        return rulings_of("guilds", obj.number)

    def get_url(self, obj) -> str:
        return reverse("api-guild-tile-detail", args=[obj.slug])

    def get_page(self, obj) -> str:
        return reverse("guild-page", args=[obj.slug])


class ObjectiveSideSerializer(serializers.ModelSerializer):
    class Meta:
        model = ObjectiveSide
        fields = ["side", "counts", "text", "automa_values"]


class ObjectiveTileSerializer(serializers.ModelSerializer):
    expansion = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    rulings = serializers.SerializerMethodField(help_text="Official rulings about this tile's number.")
    sides = ObjectiveSideSerializer(many=True, read_only=True)
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField()

    class Meta:
        model = ObjectiveTile
        fields = ["number", "slug", "expansion", "complete", "sides", "rulings", "url", "page"]

    @extend_schema_field(RulingSerializer(many=True))
    def get_rulings(self, obj):
        return rulings_of("objectives", obj.number)

    def get_url(self, obj) -> str:
        return reverse("api-objective-tile-detail", args=[obj.slug])

    def get_page(self, obj) -> str:
        return reverse("objective-page", args=[obj.slug])
