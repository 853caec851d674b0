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
    # The time control (game/matches/clock.py, docs/matches.md "Time controls"): days per move, or a time bank.
    time_control = models.CharField(max_length=4, choices=[("move", "Days per move"), ("bank", "Time bank")],
                                    default="move", help_text="Days per move, or a bank of days each player spends.")
    bank_days = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Bank: the days each player starts with.")
    increment_days = models.PositiveSmallIntegerField(null=True, blank=True,
                                                      help_text="Bank: days added to a player's bank after each turn.")
    banks = models.JSONField(null=True, blank=True, help_text="Bank: each seat's bank in seconds, as it stood when "
                                                              "its clock last started (the seat to move spends it).")
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

    def time_control_text(self):
        """The time control in a few words ("3 days per move", "7 days in the bank + 1 a turn"), as the lobby and the
        match page say it (game/matches/clock.py)."""
        if self.time_control == "bank":
            return f"{self.bank_days} day{'s' if self.bank_days != 1 else ''} in the bank + " \
                   f"{self.increment_days} a turn"
        return f"{self.days_per_move} day{'s' if self.days_per_move != 1 else ''} per move"

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
    away_until = models.DateTimeField(null=True, blank=True, help_text="The end of the player's vacation: their "
                                                                       "clock is paused until then (game/matches/vacation.py).")

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
    by_order = models.BooleanField(default=False, db_default=False, editable=False,
                                   help_text="Answered by the player's standing order (game/matches/orders.py), "
                                             "not chosen by them at the table.")
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
    removed = models.BooleanField(default=False, help_text="Taken down by staff after a report: shown to no one.")

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
        # A leaderboard's page: its pool's people (or engine players) in the order shown, read from the cursor on
        # (game/ratings/service.py, `leaderboard`): one index each, so a page reads only the rows it shows.
        indexes = [models.Index(fields=["pool", "-rating", "id"], name="rating_board_people",
                                condition=models.Q(user__isnull=False)),
                   models.Index(fields=["pool", "-rating", "id"], name="rating_board_engines",
                                condition=models.Q(user__isnull=True))]

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


class ChatMute(models.Model):
    """A player who no longer sees another's chat lines, in any match (game/matches/moderation.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="muted_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
                       models.CheckConstraint(condition=~models.Q(user=models.F("muted")), name="chat_mute_other")]

    def __str__(self):
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A chat line reported to staff by someone who could read it; open until staff resolve it."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", "Abuse or harassment"
        SPAM = "spam", "Spam or advertising"
        CHEATING = "cheating", "Talk of cheating or sharing hidden cards"
        OTHER = "other", "Something else"

    class Outcome(models.TextChoices):
        OPEN = "", "Open"
        DISMISSED = "dismissed", "Looked at: the line stays"
        REMOVED = "removed", "The line was taken down"

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports")
    reason = models.CharField(max_length=8, choices=Reason.choices)
    note = models.CharField(max_length=300, blank=True, help_text="What the reporter adds, in their words.")
    created = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=9, choices=Outcome.choices, blank=True, default=Outcome.OPEN)
    resolved = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        # the staff page: open reports, oldest first, read from a cursor
        indexes = [models.Index(fields=["created", "id"], name="chat_reports_open",
                                condition=models.Q(outcome=""))]

    def __str__(self):
        return f"report {self.pk} of line {self.message_id} ({self.get_reason_display()})"


# -- Game history (game/matches/history.py): what the search of finished games reads, written when a match is rated --
# Copied out of the match and its sealed state once, so a search reads narrow rows through the named indexes below
# instead of states; each line and "versus" row repeats the game's date, player count, expansion and privacy so an
# index on (player, ..., date) can serve a filter and the newest-first order together (docs/matches.md, "Game
# history").

class FinishedGame(models.Model):
    """A finished match as the history lists it (one that ended before its first move is not listed)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="history")
    finished = models.DateTimeField(help_text="When the match ended.")
    players = models.PositiveSmallIntegerField()
    academy = models.BooleanField()
    private = models.BooleanField()

    class Meta:
        ordering = ["-finished", "-match"]
        indexes = [
            models.Index(fields=["-finished", "-match"], name="history_newest"),
            models.Index(fields=["players", "-finished", "-match"], name="history_players"),
            models.Index(fields=["academy", "-finished", "-match"], name="history_academy"),
        ]

    def __str__(self):
        return f"finished game {self.match_id}"


class FinishedSeat(models.Model):
    """One line of a finished game's result: a seat (a person or a bot), or the Automa of a solo game."""

    game = models.ForeignKey(FinishedGame, on_delete=models.CASCADE, related_name="lines")
    seat = models.PositiveSmallIntegerField(help_text="The engine's player number; the Automa's comes last.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="finished_seats")
    kind = models.CharField(max_length=20, help_text="human, bot:<level> or automa:<level>.")
    name = models.CharField(max_length=150)
    score = models.IntegerField(null=True, blank=True, help_text="Final VP; empty when the game was not scored.")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    out = models.CharField(max_length=8, blank=True)
    finished = models.DateTimeField()
    players = models.PositiveSmallIntegerField()
    academy = models.BooleanField()
    private = models.BooleanField()

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="history_line_seat")]
        indexes = [
            models.Index(fields=["user", "-finished", "-game"], name="history_player"),
            models.Index(fields=["user", "won", "-finished", "-game"], name="history_player_result"),
            models.Index(fields=["user", "players", "-finished", "-game"], name="history_player_count"),
            models.Index(fields=["user", "academy", "-finished", "-game"], name="history_player_academy"),
            models.Index(fields=["score", "game"], name="history_score"),
        ]

    def __str__(self):
        return f"{self.name} in game {self.game_id}: {self.score}"


class GameOpponent(models.Model):
    """That a person (`user`) met an opponent of `kind` in a finished game; with no user, that the game had an
    opponent of that kind for someone (two people, a bot level, the Automa's level)."""

    game = models.ForeignKey(FinishedGame, on_delete=models.CASCADE, related_name="versus")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    kind = models.CharField(max_length=20)
    finished = models.DateTimeField()
    players = models.PositiveSmallIntegerField()
    academy = models.BooleanField()
    private = models.BooleanField()

    class Meta:
        # PostgreSQL orders by an index only past columns held equal: `user IS NULL` is no equality, so the rows
        # of no user (an opponent kind searched without a player) have an index of their own.
        indexes = [models.Index(fields=["user", "kind", "-finished", "-game"], name="history_versus"),
                   models.Index(fields=["kind", "-finished", "-game"], name="history_versus_any",
                                condition=models.Q(user__isnull=True)),
                   models.Index(fields=["game", "user"], name="history_versus_game")]

    def __str__(self):
        return f"game {self.game_id}: {self.user_id or 'anyone'} against {self.kind}"


class Vacation(models.Model):
    """Days a player is away: the clocks of their matches stop meanwhile (game/matches/vacation.py). `days` are
    taken from the yearly allowance; returning early (`ended`) gives back the days not begun."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    start = models.DateTimeField()
    until = models.DateTimeField(help_text="When the vacation ends unless the player comes back earlier.")
    days = models.PositiveSmallIntegerField()
    ended = models.DateTimeField(null=True, blank=True, help_text="When the player came back early.")

    class Meta:
        ordering = ["-start", "-id"]
        indexes = [models.Index(fields=["user", "-until"], name="vacation_of_user")]

    def __str__(self):
        return f"vacation of {self.user_id} from {self.start:%Y-%m-%d} for {self.days} days"
