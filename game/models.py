"""Stored data of the game app: saved score sheets from the score calculator, and matches played in the browser."""
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


# -- Matches: games played in the browser --------------------------------------------------------------------------
# A match is its setup options + seed + an append-only log of decisions; the state snapshot and version number are
# kept beside them so a page load needs no replay. Replaying the log must reproduce the snapshot.

class MatchCatalogue(models.Model):
    """The catalogue a match was set up with, frozen, so card indices in its log mean the same cards for ever
    (an admin edit or a newly loaded card would otherwise shift them under a game in progress)."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the catalogue's JSON.")
    data = models.JSONField(help_text="The catalogue in the fixture schema, as the database exported it.")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Catalogue {self.digest[:10]}"


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "In play"
        FINISHED = "finished", "Finished"

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_matches")
    players = models.PositiveSmallIntegerField(help_text="Seats: 2 to 5 (fewer if the creator starts early).")
    academy = models.BooleanField(default=False, help_text="Play with the Dragon Academy expansion.")
    updated = models.BooleanField(default=False, help_text="Use the updated printings of cards that have one.")
    seed = models.BigIntegerField(help_text="The engine's seed: with the log it decides every shuffle and draw.")
    catalogue = models.ForeignKey(MatchCatalogue, on_delete=models.PROTECT, related_name="matches")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    version = models.PositiveIntegerField(default=0, help_text="Decisions taken so far; a decision names the "
                                                                 "version it was chosen at.")
    state = models.JSONField(null=True, blank=True, help_text="The engine state after the last decision.")
    # Integrity (game/matches/integrity.py): the last link of the hash chain over setup and decisions, and a seal
    # over setup, chain, version and state. Both empty until the match is dealt.
    chain = models.CharField(max_length=64, blank=True, editable=False,
                             help_text="The hash chain's last link: the setup, then every decision in turn.")
    seal = models.CharField(max_length=64, blank=True, editable=False,
                            help_text="Hash of the setup, chain, version and state; checked on every load.")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"

    def __str__(self):
        return f"Match {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("match", args=[self.pk])


class MatchSeat(models.Model):
    """A user at a seat; seat numbers are the engine's player numbers (0-based), in joining order."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_seats")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_number"),
            models.UniqueConstraint(fields=["match", "user"], name="match_seat_user"),
        ]

    def __str__(self):
        return f"{self.user} at seat {self.seat + 1}"


class MatchDecision(models.Model):
    """One decision of the log, append-only: number n moved the match from version n - 1 to version n."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="decisions")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=30)
    args = models.JSONField(default=list)
    prompt = models.CharField(max_length=200, blank=True, help_text="What the game asked.")
    label = models.CharField(max_length=300, blank=True, help_text="The option in plain words, as it was shown.")
    link = models.CharField(max_length=64, blank=True, editable=False,
                            help_text="Hash of the previous decision's link (or the setup) and this decision.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="match_decision_number")]

    def __str__(self):
        return f"{self.match_id}#{self.number}: {self.label or self.kind}"

    def to_option(self):
        return {"kind": self.kind, "args": list(self.args)}
