"""Match pages: the lobby (open matches, ongoing ones to watch, yours, and a form to open one), the board (which the
script in static/match.js keeps up to date from the matches API), invite links and notification preferences."""
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from cardsite.errors import TooManyRequests
from cardsite.middleware import client_address, hit

from .matches import access, bots, clock, guests, history, notify, orders, present, proposals, services
from .matches.errors import InvalidInput, MatchError
from .models import ChatMessage, Match, NotificationPreference

LOBBY_LENGTH = 30
TIMEOUT_CHOICES = Match.OnTimeout.choices


def _matches():
    return Match.objects.select_related("creator").prefetch_related("seats__user")


def number_or_text(value):
    """A form's number as the service takes it; text that is not a number is passed on so the service names the
    field in its error."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def _form_values(data):
    printing = data.get("printing", "auto")
    updated = {"updated": True, "original": False}.get(printing)
    if printing not in ("auto", "updated", "original"):
        updated = printing
    return {"players": number_or_text(data.get("players", "2")), "academy": data.get("academy") == "on",
            "updated": updated, "days_per_move": number_or_text(data.get("days_per_move", "3")),
            "on_timeout": data.get("on_timeout", "forfeit"), "private": data.get("private") == "on",
            "timeout_level": data.get("timeout_level", bots.DEFAULT_LEVEL), **time_control_values(data)}


def time_control_values(data):
    """The time control fields of a form (the match form's and the lobby's seek form): days per move unless
    `time_control` is "bank"; the bank's numbers as the service takes them, so it names a bad one."""
    if data.get("time_control", "move") == "move":
        return {}
    bank = data.get("bank_days", "").strip()
    increment = data.get("increment_days", "").strip()
    return {"time_control": data.get("time_control"), "bank_days": number_or_text(bank) if bank else None,
            "increment_days": number_or_text(increment) if increment else None}


def _lobby(request, error=None, status=200):
    user = request.user
    public = _matches().filter(private=False)
    open_matches = public.filter(status=Match.Status.OPEN)[:LOBBY_LENGTH]
    ongoing = public.filter(status=Match.Status.PLAYING).order_by("-changed")[:LOBBY_LENGTH]
    mine = []
    if user.is_authenticated:
        mine = list(_matches().filter(seats__user=user).exclude(status=Match.Status.ABORTED)[:LOBBY_LENGTH])
    for match in mine:
        seat = services.seat_of(match, user)
        match.your_turn = match.status == Match.Status.PLAYING and match.to_move == seat
    my_ids = {m.pk for m in mine}
    return render(request, "game/match_lobby.html", {
        "open_matches": open_matches, "ongoing_matches": ongoing, "my_matches": mine, "my_ids": my_ids,
        "error": error, "player_counts": range(services.MIN_PLAYERS, services.MAX_PLAYERS + 1),
        "days_choices": Match.DAYS_PER_MOVE, "timeout_choices": TIMEOUT_CHOICES, "bot_levels": bots.LEVELS.items(),
        "form": request.POST if request.method == "POST" else {},
    }, status=status)


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def lobby(request):
    if request.method != "POST":
        return _lobby(request)
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    try:
        match = services.create_match(request.user, **_form_values(request.POST))
    except MatchError as exc:
        return _lobby(request, error=str(exc), status=exc.status)
    return redirect(match)


BOT_SLOTS = range(1, services.MAX_BOTS + 1)


def _chosen(form):
    """The Play now forms' choices to show again: those sent (after an error, or carried through sign-in in the
    address), else the defaults. Only values the form offers are shown as chosen."""
    form = form or {}
    automa = form.get("opponent") == "automa"
    bots_sent = form.get("opponent") == "bots"
    slots = []
    for n in BOT_SLOTS:
        level = form.get(f"bot_{n}") if bots_sent else None
        if level not in bots.LEVELS and level != "none":
            level = "greedy" if n == 1 else "none"
        slots.append((n, level))
    level = str(form.get("automa_level", "1")) if automa else "1"
    return {"automa_level": level, "ravel": automa and form.get("ravel") == "on",
            "automa_academy": automa and form.get("academy") == "on",
            "bots_academy": bots_sent and form.get("academy") == "on", "bot_slots": slots}


def play_now_context(error=None, field=None, form=None):
    return {"bot_levels": bots.LEVELS.items(), "bot_slots": BOT_SLOTS, "automa_levels": bots.AUTOMA_LEVELS,
            "play_error": error, "play_field": field, "form": form or {}, "chosen": _chosen(form)}


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def home(request):
    return render(request, "home.html", play_now_context(form=request.GET if "opponent" in request.GET else None))


def _play_now_values(data):
    """The Play now form as the service takes it: each "Bot n" select that is not "none" adds a bot."""
    values = {"opponent": data.get("opponent", ""), "academy": data.get("academy") == "on"}
    if values["opponent"] == "automa":
        values["automa_level"] = number_or_text(data.get("automa_level", "1"))
        values["ravel"] = data.get("ravel") == "on"
    else:
        values["bot_levels"] = [data[f"bot_{n}"] for n in BOT_SLOTS if data.get(f"bot_{n}", "none") != "none"]
    return values


@require_POST
def play_now(request):
    """One click from the home page: a game against the Automa or bots starts, and the player lands on it. Someone
    signed out plays at once as a guest (docs/matches.md, "Guests"): the options are checked first, so a refused
    form makes no guest."""
    values = _play_now_values(request.POST)
    try:
        services.play_now_options(**values)
        user = request.user
        if not user.is_authenticated:
            hit("guest", "addr:" + client_address(request))
            user = guests.start_guest(request, client_address(request))
        match = services.play_now(user, **values)
    except (MatchError, TooManyRequests) as exc:
        return render(request, "home.html", play_now_context(str(exc), exc.field, request.POST), status=exc.status)
    return redirect(match)


def _board(request, match, error=None, status=200, chat_text=""):
    access.check(request, match)  # a private match is a 404 to anyone without a seat or a link
    try:
        services.load_state(match)  # a damaged match is refused here with its reason, never drawn from its record
    except MatchError as exc:
        return _lobby(request, error=str(exc), status=exc.status)
    your_seat = services.seat_of(match, request.user)
    if your_seat is not None:
        notify.at_table(match.pk, request.user.pk)  # no turn emails while the page is open (game/matches/notify.py)
    seats = list(match.seats.all())
    mine = seats[your_seat] if your_seat is not None else None
    return render(request, "game/match_board.html", {
        "match": match, "your_seat": your_seat, "my_seat": mine, "error": error,
        "chat": present.chat_json(match, request.user), "chat_text": chat_text, "chat_max": ChatMessage.MAX_LENGTH,
        "ending": present.ending(match),
        "invite_url": request.build_absolute_uri(present.invite_url(match))
        if your_seat is not None and match.status == Match.Status.OPEN else None,
        "watch_url": request.build_absolute_uri(access.watch_url(match))
        if your_seat is not None and match.private else None,
        "can_abort": match.version == 0 and match.status in (Match.Status.OPEN, Match.Status.PLAYING)
        and (your_seat is not None or match.creator_id == request.user.pk),
        "can_resign": mine is not None and not mine.out and match.status == Match.Status.PLAYING,
        "rematch": getattr(match, "rematch", None) if match.status == Match.Status.FINISHED else None,
        "orders": orders.orders_json(match, request.user) if can_order(match, your_seat) else None,
        "page_key": present.page_key(match),
        **_proposal_context(match, request.user, mine),
        "poll_ms": settings.MATCH_POLL_MS,
        "player_links": history.profile_links(seats),
        "clock": clock.page(match, seats),
    }, status=status)


def _proposal_context(match, user, mine):
    shown, _, key = proposals.shown(match, user)
    return {"proposal": shown, "proposal_key": key,
            "can_propose": mine is not None and not mine.by_machine and match.status == Match.Status.PLAYING}


@require_POST
@login_required
def propose(request, match_id):
    """The board's take-back and abandon buttons; without the page's script they post here and come back."""
    match = access.find(match_id, _matches())
    try:
        proposals.propose(match_id, request.user, request.POST.get("kind", ""))
    except MatchError as exc:
        return _board(request, match, error=str(exc), status=exc.status)
    return redirect(f"{match.get_absolute_url()}#proposals")


@require_POST
@login_required
def answer_proposal(request, match_id, proposal_id, action):
    match = access.find(match_id, _matches())
    try:
        if action == "cancel":
            proposals.cancel(match_id, request.user, proposal_id)
        elif action in ("accept", "decline"):
            version = number_or_text(request.POST["version"]) if request.POST.get("version") else None
            proposals.answer(match_id, request.user, proposal_id, action == "accept", version)
        else:
            raise InvalidInput("action", "expected accept, decline or cancel")
    except MatchError as exc:
        return _board(request, access.find(match_id, _matches()), error=str(exc), status=exc.status)
    return redirect(f"{match.get_absolute_url()}#proposals")


def can_order(match, seat):
    return seat is not None and match.status in (Match.Status.OPEN, Match.Status.PLAYING)


def board(request, match_id):
    return _board(request, services.read_match(match_id))


def _act(request, match_id, action):
    access.find(match_id)
    try:
        result = action(match_id, request.user)
    except MatchError as exc:
        return _board(request, access.find(match_id, _matches()), error=str(exc), status=exc.status)
    return redirect(result)


@require_POST
@login_required
def join(request, match_id):
    return _act(request, match_id, services.join_match)


@require_POST
@login_required
def start(request, match_id):
    return _act(request, match_id, services.start_match)


@require_POST
@login_required
def fill_with_bots(request, match_id):
    return _act(request, match_id, services.fill_with_bots)


@require_POST
@login_required
def resign(request, match_id):
    return _act(request, match_id, services.resign)


@require_POST
@login_required
def abort(request, match_id):
    return _act(request, match_id, services.abort_match)


@require_POST
@login_required
def rematch(request, match_id):
    return _act(request, match_id, services.rematch)


@require_POST
@login_required
def chat(request, match_id):
    match = access.find(match_id, _matches())
    text = request.POST.get("text", "")
    try:
        services.post_chat(match_id, request.user, text)
    except MatchError as exc:
        return _board(request, match, error=str(exc), status=exc.status, chat_text=text)
    return redirect(f"{match.get_absolute_url()}#chat")


@require_POST
@login_required
def standing_orders(request, match_id):
    """The board's standing-orders form; without the page's script it posts here and comes back to the board."""
    match = access.find(match_id, _matches())
    body = {field: request.POST.get(field, "") for field in orders.FIELDS}
    try:
        orders.set_orders(match_id, request.user, body)
    except MatchError as exc:
        return _board(request, match, error=str(exc), status=exc.status)
    return redirect(f"{match.get_absolute_url()}#orders")


def invite(request, token):
    """An invite link: shows the match and, for a signed-in player, a button that takes an open seat."""
    try:
        match_id = services.match_of_invite(token)
    except MatchError as exc:
        return render(request, "game/match_invite.html", {"error": str(exc)}, status=exc.status)
    match = access.find(match_id, _matches())
    access.grant(request, match)  # whoever was invited may watch, seated or not
    error = None
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        try:
            services.join_match(match.pk, request.user, invited=True)
        except MatchError as exc:
            error, status = str(exc), exc.status
        else:
            return redirect(match)
    return render(request, "game/match_invite.html", {
        "match": match, "error": error, "seated": services.seat_of(match, request.user) is not None,
    }, status=status)


def watch(request, token):
    """A watch link: this browser may watch the match from now on (a private one too), and is taken to it."""
    match = access.match_of_watch(token)
    access.grant(request, match)
    return redirect(match)


@login_required
def notifications(request):
    """Where a player chooses how they hear about their turns, and the address it goes to."""
    if guests.is_guest_request(request):  # a guest has no address to write to: an account first
        return redirect(f"{reverse('signup')}?{urlencode({'next': request.path})}")
    prefs = notify.preferences(request.user)
    errors = {}
    saved = False
    if request.method == "POST":
        email = request.POST.get("email", "").strip()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                errors["email"] = "This is not an email address."
        body = {"turn_email": request.POST.get("turn_email", ""), "reminders": request.POST.get("reminders") == "on"}
        if not errors:
            try:
                prefs = notify.update_preferences(request.user, body)
            except MatchError as exc:
                errors[exc.field] = str(exc)
        if not errors:
            request.user.email = email
            request.user.save(update_fields=["email"])
            saved = True
    return render(request, "game/match_notifications.html", {
        "prefs": prefs, "choices": NotificationPreference.TurnEmail.choices, "errors": errors, "saved": saved,
        "email": request.POST.get("email", request.user.email) if errors else request.user.email,
    }, status=400 if errors else 200)
