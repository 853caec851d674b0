"""Stored data of the game app: saved score sheets from the score calculator, and matches played in the browser."""
import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from game.language.vocabulary import SCORE_PAD_CATEGORIES
from game.matches.ids import new_public_id

# The calculator's categories, in the order a score pad lists them: the engine's, then fledglings on their own.
CATEGORIES = SCORE_PAD_CATEGORIES


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
        ABORTED = "aborted", "Aborted"

    class OnTimeout(models.TextChoices):
        FORFEIT = "forfeit", "The player forfeits"
        BOT = "bot", "A bot plays on for them"

    class Ending(models.TextChoices):
        SCORED = "scored", "Scored at the end of the game"
        LAST_STANDING = "last", "Every other player left"
        ABORTED = "aborted", "Aborted before the first move"
        ABANDONED = "abandoned", "Abandoned: every player agreed to stop"

    DAYS_PER_MOVE = (1, 3, 7)

    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False,
                                 help_text="The match's name in every URL and in the API: drawn at random, so no one "
                                           "finds a match by counting (game/matches/ids.py). The number is internal.")
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_matches")
    players = models.PositiveSmallIntegerField(help_text="Seats: 2 to 5 (fewer if the creator starts early), or 1 against the Automa.")
    academy = models.BooleanField(default=False, help_text="Play with the Dragon Academy expansion.")
    updated = models.BooleanField(default=False, help_text="Use the updated printings of cards that have one.")
    seed = models.BigIntegerField(help_text="The engine's seed: with the log it decides every shuffle and draw.")
    catalogue = models.ForeignKey(MatchCatalogue, on_delete=models.PROTECT, related_name="matches")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    version = models.PositiveIntegerField(default=0, help_text="Decisions taken so far; a decision names the "
                                                                 "version it was chosen at.")
    state = models.JSONField(null=True, blank=True, help_text="The engine state after the last decision.")
    days_per_move = models.PositiveSmallIntegerField(default=3, help_text="Days each player has for a move.")
    on_timeout = models.CharField(max_length=7, choices=OnTimeout.choices, default=OnTimeout.FORFEIT,
                                  help_text="What happens to a seat whose player lets the time run out.")
    private = models.BooleanField(default=False, help_text="Not listed in the lobby; joined only by its invite link.")
    rated = models.BooleanField(default=True, help_text="The result counts for the ratings; a casual game's does not.")
    min_rating = models.PositiveSmallIntegerField(null=True, blank=True,
                                                  help_text="Lobby: the rating (every-game pool) a player needs to "
                                                            "join; empty for anyone. An invite link passes it.")
    bot_fill = models.BooleanField(default=False, help_text="Lobby: bots may take the seats still empty once the "
                                                            "match has waited long (game/matches/lobby.py).")
    timeout_level = models.CharField(max_length=12, default="random",
                                     help_text="The level of the bot that plays on for a player whose time runs out.")
    automa_level = models.PositiveSmallIntegerField(null=True, blank=True,
                                                    help_text="Solo: the Automa's difficulty level (empty: no Automa).")
    ravel = models.BooleanField(default=False, help_text="Solo: the Automa plays in Ravel mode.")
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="rematch")
    to_move = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="The seat whose decision the game waits for.")
    deadline = models.DateTimeField(null=True, blank=True, db_index=True,
                                    help_text="When the seat to move times out (or a bot's move is due).")
    reminded = models.BooleanField(default=False, help_text="The reminder for the current deadline was sent.")
    ending = models.CharField(max_length=9, choices=Ending.choices, blank=True)
    places = models.JSONField(null=True, blank=True, help_text="Final place of each seat (1 is first), "
                                                               "seats that left placed last.")
    # Integrity (game/matches/integrity.py): the last link of the hash chain over setup and decisions, and a seal
    # over setup, chain, version, state and the record (status, places, seats...). Both empty until the match is dealt.
    chain = models.CharField(max_length=64, blank=True, editable=False,
                             help_text="The hash chain's last link: the setup, then every decision in turn.")
    seal = models.CharField(max_length=64, blank=True, editable=False,
                            help_text="Hash of the setup, chain, version, state and record (status, places, "
                                      "seats); checked on every load and change.")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    changed = models.DateTimeField(auto_now=True)
    rated_at = models.DateTimeField(null=True, blank=True, editable=False,
                                    help_text="When the ratings took this match's result in (game/ratings); "
                                              "empty until then, and for a match still in play.")

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["changed", "id"], name="match_to_rate",
                                condition=models.Q(status__in=["finished", "aborted"], rated_at__isnull=True))]

    def __str__(self):
        return f"Match {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self):
        return reverse("match", args=[self.public_id])

    def engine_options(self):
        """The engine's setup options: with the seed and the decision log they reproduce the game."""
        options = {"players": self.players, "seed": self.seed, "academy": self.academy, "updated": self.updated}
        if self.automa_level is not None:
            options["automa"] = {"level": self.automa_level, "ravel": self.ravel}
        return options


class MatchSeat(models.Model):
    """A seat, played by a person or a bot; seat numbers are the engine's player numbers (0-based), in joining
    order. A person's seat goes to a bot when their time runs out and the match says so; a seat that left
    (resigned or forfeited) is `out` and only passes from then on."""

    class Controller(models.TextChoices):
        PERSON = "person", "Person"
        BOT = "bot", "Bot"

    class Out(models.TextChoices):
        RESIGNED = "resigned", "Resigned"
        TIMEOUT = "timeout", "Ran out of time"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="match_seats", help_text="Empty for a seat that was a bot from the start.")
    controller = models.CharField(max_length=6, choices=Controller.choices, default=Controller.PERSON)
    level = models.CharField(max_length=12, blank=True, help_text="The bot's level when a bot plays the seat.")
    out = models.CharField(max_length=8, choices=Out.choices, blank=True)
    out_at = models.DateTimeField(null=True, blank=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_number"),
            models.UniqueConstraint(fields=["match", "user"], name="match_seat_user"),
        ]

    def __str__(self):
        return f"{self.name} at seat {self.seat + 1}"

    @property
    def name(self):
        if self.user is None:
            return f"Bot ({self.level})"
        if self.controller == self.Controller.BOT:
            return f"{self.user.username} (bot playing)"
        return self.user.username

    @property
    def by_machine(self):
        """Decisions of this seat are made by the server: a bot's, or the passes of a seat that left."""
        return self.controller == self.Controller.BOT or bool(self.out)


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
    events = models.JSONField(null=True, blank=True, default=None, editable=False,
                              help_text="What the decision caused, as the engine recorded it (secrets included: "
                                        "shown only through view.events_for). Empty before events were kept.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="match_decision_number")]

    def __str__(self):
        return f"{self.match_id}#{self.number}: {self.label or self.kind}"

    def to_option(self):
        return {"kind": self.kind, "args": list(self.args)}


class MatchProposal(models.Model):
    """A seated player's request that the others answer (game/matches/proposals.py): take back their last turn, or
    abandon the match. Open while the match stays at `version`; any decision after it lapses it."""

    class Kind(models.TextChoices):
        TAKEBACK = "takeback", "Take back the last move"
        ABANDON = "abandon", "Abandon the match"

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for answers"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"
        LAPSED = "lapsed", "Lapsed: the match moved on"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="proposals")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(help_text="The seat that asked.")
    version = models.PositiveIntegerField(help_text="The match's version when it was asked.")
    back_to = models.PositiveIntegerField(null=True, blank=True,
                                          help_text="A take-back: the version the match goes back to.")
    answers = models.JSONField(default=dict, blank=True, help_text="Seat (as text) -> true (agrees) or false.")
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    closed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "id"]
        constraints = [models.UniqueConstraint(fields=["match"], condition=models.Q(status="open"),
                                               name="match_one_open_proposal")]

    def __str__(self):
        return f"{self.match_id}: {self.kind} by seat {self.seat} ({self.status})"


class ChatMessage(models.Model):
    """One line of a match's chat: written by a seated player, readable by anyone who may watch the match."""

    MAX_LENGTH = 500

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created", "id"]

    def __str__(self):
        return f"{self.user} in match {self.match_id}: {self.text[:40]}"


class NotificationPreference(models.Model):
    """How a user wants to hear that a match waits for them."""

    class TurnEmail(models.TextChoices):
        EACH = "each", "An email each time it becomes my turn"
        DIGEST = "digest", "One email a day listing my turns"
        OFF = "off", "No email"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification")
    turn_email = models.CharField(max_length=6, choices=TurnEmail.choices, default=TurnEmail.EACH)
    reminders = models.BooleanField(default=True, help_text="An email before a move's time runs out.")

    def __str__(self):
        return f"{self.user}: {self.turn_email}"


class TurnNotice(models.Model):
    """That `user` gained the turn at `version` of a match (or was reminded of its deadline): stored once, so a
    notice is sent at most once however often the work that sends it runs."""

    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        REMINDER = "reminder", "Time running out"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="notices")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_notices")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TURN)
    digest = models.BooleanField(default=False, help_text="Waits for the daily digest instead of its own email.")
    held = models.BooleanField(default=False, help_text="Gained while the player was at the table: no email then; "
                                                        "collected into one email if they leave without moving.")
    created = models.DateTimeField(auto_now_add=True)
    sent = models.DateTimeField(null=True, blank=True, db_index=True,
                                help_text="When it was dealt with: emailed, or (held) found answered at the table.")

    class Meta:
        ordering = ["created", "id"]
        constraints = [models.UniqueConstraint(fields=["match", "version", "user", "kind"], name="turn_notice_once")]

    def __str__(self):
        return f"{self.kind} for {self.user} in match {self.match_id} at version {self.version}"


class StandingOrder(models.Model):
    """How a seat answers other players' offers on their turns (an opponent's ability offering it something) when
    the offer comes: taken or declined at once by the order, or asked (the match waits). Editable any time."""

    class Answer(models.TextChoices):
        ASK = "ask", "Ask me"
        YES = "yes", "Always take it"
        NO = "no", "Always decline"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="orders")
    seat = models.PositiveSmallIntegerField()
    free_offer = models.CharField(max_length=3, choices=Answer.choices, default=Answer.ASK,
                                  help_text="An offer that costs nothing.")
    paid_offer = models.CharField(max_length=3, choices=Answer.choices, default=Answer.ASK,
                                  help_text="An offer that asks you to pay (coins, resources, cards or eggs).")
    changed = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="match_order_seat")]

    def __str__(self):
        return f"match {self.match_id} seat {self.seat}: free {self.free_offer}, paid {self.paid_offer}"


class PlayerRating(models.Model):
    """A Glicko-2 rating (game/ratings/glicko2.py) in one pool: every rated game (`all`), or games of one player
    count (`1` to `5`; `1` is solo against the Automa). Held by a person, or by an engine player: a bot level
    (`bot:strong`) or an Automa level and mode (`automa:2`, `automa:ravel:2`), rated from their games like anyone."""

    POOLS = ("all", "1", "2", "3", "4", "5")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="ratings")
    engine = models.CharField(max_length=20, blank=True, help_text="The engine player, for a bot or the Automa.")
    pool = models.CharField(max_length=3)
    rating = models.FloatField()
    rd = models.FloatField(help_text="The rating's deviation: how unsure it is (350 for a newcomer).")
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_game = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], condition=models.Q(user__isnull=False),
                                    name="rating_user_pool"),
            models.UniqueConstraint(fields=["engine", "pool"], condition=models.Q(user__isnull=True),
                                    name="rating_engine_pool"),
            models.CheckConstraint(condition=models.Q(user__isnull=True, engine__gt="")
                                   | models.Q(user__isnull=False, engine=""), name="rating_one_holder"),
        ]
        indexes = [models.Index(fields=["pool", "-rating"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user.username if self.user_id else self.engine} {self.pool}: {self.rating:.0f}"


class RatingChange(models.Model):
    """One rating's move from one game, for the rating's history (a profile's chart)."""

    rating = models.ForeignKey(PlayerRating, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    before = models.FloatField()
    after = models.FloatField()
    rd = models.FloatField(help_text="The deviation after the game.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rating", "match"], name="rating_change_once")]
        indexes = [models.Index(fields=["rating", "created"], name="rating_history")]


class Guest(models.Model):
    """A person playing the Automa or bots without an account: a real user row (unusable password, a name made
    here) signed in by its session, so seats, permissions and the player view treat it as any player. It may play
    only machines (docs/matches.md, "Guests"); signing up or in from its session hands its matches over and the row
    goes. Rows left unclaimed are removed by `manage.py clean_guests`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="guest")
    address = models.GenericIPAddressField(null=True, blank=True, help_text="Where the guest first played from.")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self):
        return f"guest {self.user_id}"


class Profile(models.Model):
    """A player's own settings for their public profile (game/players): made the first time they change one."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="profile")
    hidden = models.BooleanField(default=False, help_text="Only the player sees their profile; others find no page.")
    changed = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"profile of {self.user_id}{' (hidden)' if self.hidden else ''}"
