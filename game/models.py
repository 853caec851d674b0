"""Stored data of the game app: saved score sheets from the score calculator."""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

# The calculator's categories, in the order a score pad lists them.
CATEGORIES = ("guild", "dragons", "abilities", "eggs", "cached", "tucked", "objectives", "coins", "items",
              "fledglings")


def new_code():
    return secrets.token_urlsafe(8)


class ScoreSheet(models.Model):
    """One finished table game: what was entered, and the result computed from it."""

    class Mode(models.TextChoices):
        QUICK = "quick", "Quick (category totals)"
        CARD = "card", "Card by card"

    code = models.CharField(max_length=16, unique=True, default=new_code, editable=False,
                            help_text="The permalink's key; hard to guess, so a sheet is shared only by its link.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="score_sheets")
    mode = models.CharField(max_length=5, choices=Mode.choices)
    title = models.CharField(max_length=80, blank=True)
    data = models.JSONField(help_text="The validated input, as the API accepts it.")
    result = models.JSONField(help_text="The computed breakdown and ranking.")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self):
        return self.title or f"Score sheet {self.code}"

    def get_absolute_url(self):
        return reverse("calculator-sheet", args=[self.code])


class ScoreEntry(models.Model):
    """One participant's line on a sheet; the categories are columns so statistics are database averages."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="entries")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    automa = models.BooleanField(default=False)
    mine = models.BooleanField(default=False, help_text="The owner's own line: used for their statistics.")
    guild = models.IntegerField(default=0)
    dragons = models.IntegerField(default=0)
    abilities = models.IntegerField(default=0)
    eggs = models.IntegerField(default=0)
    cached = models.IntegerField(default=0)
    tucked = models.IntegerField(default=0)
    objectives = models.IntegerField(default=0)
    coins = models.IntegerField(default=0)
    items = models.IntegerField(default=0)
    fledglings = models.IntegerField(default=0)
    total = models.IntegerField(default=0)
    visible_dragons = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["sheet", "seat"]
        constraints = [models.UniqueConstraint(fields=["sheet", "seat"], name="score_entry_seat")]

    def __str__(self):
        return f"{self.name}: {self.total} VP"
