"""The card catalogue: every printed component of Wyrmspan and Dragon Academy as rows.

Abilities are stored as data in the effect language (docs/effects.md); `ability_text` is rendered from that data
when a card is saved through the loader, never typed in by hand.
"""
from django.db import models

from game.language.vocabulary import CAVES, PRINTED_COST_ITEMS, PRINTED_KINDS, SIZES, TRAITS

COST_ITEMS = PRINTED_COST_ITEMS  # the printed cost's items (the language's COST_ITEMS also knows cards)


class Expansion(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    complete = models.BooleanField(default=True, help_text="False while some of its components are not yet known.")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name


class Printing(models.TextChoices):
    ORIGINAL = "original", "Original printing"
    UPDATED = "updated", "Updated printing (Dragon Academy)"


def _choices(name, values):
    """Database choices for one of the language's noun lists (Size.SMALL == "small", labelled "Small")."""
    return models.TextChoices(name, [(value.upper(), (value, value.replace("_", " ").capitalize())) for value in values])


Size = _choices("Size", SIZES)
Trait = _choices("Trait", TRAITS)
AbilityKind = _choices("AbilityKind", PRINTED_KINDS)


class Card(models.Model):
    """Fields shared by dragons and cave cards."""

    number = models.PositiveIntegerField(db_index=True)
    printing = models.CharField(max_length=10, choices=Printing.choices, default=Printing.ORIGINAL)
    slug = models.SlugField(max_length=120, unique=True)
    expansion = models.ForeignKey(Expansion, on_delete=models.PROTECT)
    original = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="reprints",
        help_text="For an updated printing: the card it replaces.",
    )
    abilities = models.JSONField(default=list, help_text="The card's abilities in the effect language.")
    ability_text = models.TextField(blank=True, help_text="Rendered from `abilities`; do not edit by hand.")
    ability_kind = models.CharField(max_length=20, choices=AbilityKind.choices, blank=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Dragon(Card):
    name = models.CharField(max_length=80, db_index=True)
    vp = models.IntegerField(help_text="Printed VP; fledglings print none and score by fledgling count.")
    size = models.CharField(max_length=10, choices=Size.choices, db_index=True)
    trait = models.CharField(max_length=12, choices=Trait.choices, db_index=True)
    capacity = models.PositiveSmallIntegerField(help_text="Nest icons: how many eggs the dragon holds.")
    cost_meat = models.PositiveSmallIntegerField(default=0)
    cost_gold = models.PositiveSmallIntegerField(default=0)
    cost_crystal = models.PositiveSmallIntegerField(default=0)
    cost_milk = models.PositiveSmallIntegerField(default=0)
    cost_coin = models.PositiveSmallIntegerField(default=0)
    cost_egg = models.PositiveSmallIntegerField(default=0)
    cost_total = models.PositiveSmallIntegerField(default=0, db_index=True)
    crimson_cavern = models.BooleanField(default=False)
    golden_grotto = models.BooleanField(default=False)
    amethyst_abyss = models.BooleanField(default=False)
    has_when_played = models.BooleanField(default=False)
    has_if_activated = models.BooleanField(default=False)
    has_once_per_round = models.BooleanField(default=False)
    has_end_game = models.BooleanField(default=False)
    feeds_on = models.CharField(
        max_length=8, blank=True, help_text="Hatchlings: what feeds them (milk, meat or card).",
    )
    training = models.JSONField(default=list, blank=True, help_text="Fledglings: the training boxes, left to right.")
    free_if = models.JSONField(
        null=True, blank=True, help_text="Conditional-cost dragons: the condition that waives the printed cost.",
    )

    class Meta:
        ordering = ["number", "printing"]
        constraints = [
            models.UniqueConstraint(fields=["number", "printing"], name="dragon_number_printing_unique"),
        ]

    def __str__(self):
        suffix = " (updated)" if self.printing == Printing.UPDATED else ""
        return f"{self.number} {self.name}{suffix}"

    @property
    def habitats(self):
        return [cave for cave in CAVES if getattr(self, cave)]

    @property
    def cost(self):
        return {item: getattr(self, f"cost_{item}") for item in COST_ITEMS if getattr(self, f"cost_{item}")}


class CaveCard(Card):
    class Meta:
        ordering = ["number", "printing"]
        constraints = [
            models.UniqueConstraint(fields=["number", "printing"], name="cave_number_printing_unique"),
        ]

    def __str__(self):
        suffix = " (updated)" if self.printing == Printing.UPDATED else ""
        return f"Cave card {self.number}{suffix}"


class GuildTile(models.Model):
    number = models.PositiveIntegerField()
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    expansion = models.ForeignKey(Expansion, on_delete=models.PROTECT)
    complete = models.BooleanField(
        default=True, help_text="False where the tile's squares are not transcribed yet (editable data).",
    )
    notes = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["expansion_id", "number"]
        constraints = [models.UniqueConstraint(fields=["expansion", "number"], name="guild_expansion_number")]

    def __str__(self):
        return self.name


class GuildAbility(models.Model):
    """One row of a guild tile: its squares each hold one marker, except an unlimited last END GAME square."""

    tile = models.ForeignKey(GuildTile, on_delete=models.CASCADE, related_name="guild_abilities")
    position = models.PositiveSmallIntegerField(help_text="Row on the tile, top to bottom, from 1.")
    squares = models.PositiveSmallIntegerField(help_text="Markers the row holds (for an END GAME row: the limited ones).")
    end_game = models.BooleanField(default=False, help_text="The END GAME row: squares score their printed VP.")
    effect = models.JSONField(help_text="What a marker here gives, in the effect language.")
    text = models.TextField(blank=True, help_text="Rendered from `effect`.")

    class Meta:
        ordering = ["tile", "position"]
        constraints = [models.UniqueConstraint(fields=["tile", "position"], name="guild_ability_position")]

    def __str__(self):
        return f"{self.tile} row {self.position}"


class ObjectiveTile(models.Model):
    number = models.PositiveIntegerField()
    slug = models.SlugField(unique=True)
    expansion = models.ForeignKey(Expansion, on_delete=models.PROTECT)
    complete = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["expansion_id", "number"]
        constraints = [models.UniqueConstraint(fields=["expansion", "number"], name="objective_expansion_number")]

    def __str__(self):
        return f"Objective tile {self.number}"


class ObjectiveSide(models.Model):
    tile = models.ForeignKey(ObjectiveTile, on_delete=models.CASCADE, related_name="sides")
    side = models.CharField(max_length=1, choices=[("a", "Side A"), ("b", "Side B")])
    counts = models.JSONField(help_text="What the side counts, as an effect-language counter.")
    text = models.TextField(blank=True, help_text="Rendered from `counts`.")
    automa_values = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tile", "side"]
        constraints = [models.UniqueConstraint(fields=["tile", "side"], name="objective_tile_side")]

    def __str__(self):
        return f"{self.tile} side {self.side.upper()}"


class BoardFact(models.Model):
    """A printed board fact (guild track, round VP, mat icons, income spaces), kept as editable data."""

    key = models.SlugField(max_length=80, unique=True)
    value = models.JSONField()
    complete = models.BooleanField(default=True, help_text="False where the fact is not known from print.")
    notes = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]

    def __str__(self):
        return self.key


# Every model whose rows are the catalogue: a write to any of them is a new catalogue version.
CATALOGUE_MODELS = (Expansion, Dragon, CaveCard, GuildTile, GuildAbility, ObjectiveTile, ObjectiveSide, BoardFact)


class CatalogueVersion(models.Model):
    """One row whose token changes with every catalogue write (cardsite/catalogue/catalogue_version.py): what every app
    server keys its catalogue caches on, so an edit made through one is seen by all on their next request."""

    token = models.CharField(max_length=32)
    changed_at = models.DateTimeField()

    def __str__(self):
        return f"catalogue version {self.token} ({self.changed_at:%Y-%m-%d %H:%M:%S})"
