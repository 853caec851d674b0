"""Chat moderation pages: one chat line (report it, mute its author), muting from a form, and the staff's list of
open reports (game/matches/moderation.py)."""
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from .matches import access, moderation
from .matches.errors import MatchError
from .models import ChatMute, ChatReport


def _line_page(request, match, line, error=None, reported=None, status=200, form=None):
    muted = request.user.is_authenticated and ChatMute.objects.filter(user=request.user, muted=line.user).exists()
    return render(request, "game/chat_line.html", {
        "match": match, "line": line, "error": error, "reported": reported, "muted": muted,
        "reasons": ChatReport.Reason.choices, "form": form or {}, "note_length": moderation.NOTE_LENGTH,
        "own": request.user.is_authenticated and line.user_id == request.user.pk,
    }, status=status)


@login_required
def chat_line(request, match_id, message_id):
    """A chat line with what one can do about it: GET shows it, POST reports it."""
    match = access.check(request, access.find(match_id))
    try:
        line = moderation.line_of(match, message_id)
    except MatchError:
        raise Http404("there is no such chat line") from None
    if request.method != "POST":
        return _line_page(request, match, line)
    form = {"reason": request.POST.get("reason", ""), "note": request.POST.get("note", "")}
    try:
        report, made = moderation.report(request.user, match, line.pk, form["reason"], form["note"])
    except MatchError as exc:
        return _line_page(request, match, line, error=exc, status=exc.status, form=form)
    return _line_page(request, match, line, reported="made" if made else "again")


def _back(request, fallback):
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return redirect(target)
    return redirect(fallback)


@require_POST
@login_required
def mute(request, username):
    """Mute (muted=on) or unmute a player's chat lines, then go back where the form was."""
    try:
        if request.POST.get("muted") == "on":
            moderation.mute(request.user, username)
        else:
            moderation.unmute(request.user, username)
    except MatchError as exc:
        return render(request, "game/chat_line.html", {"error": exc, "line": None}, status=exc.status)
    return _back(request, "matches")


@login_required
def reports(request):
    """Staff only (anyone else finds no page): the reports still open, oldest first, with what to do."""
    try:
        page = moderation.open_reports(request.user, after=request.GET.get("after"))
    except moderation.NotStaff:
        raise Http404("there is no such page") from None
    except MatchError as exc:
        return render(request, "game/staff_reports.html", {"error": exc, "page": None}, status=exc.status)
    return render(request, "game/staff_reports.html", {"page": page})


@require_POST
@login_required
def resolve(request, report_id):
    try:
        moderation.resolve(request.user, report_id, request.POST.get("outcome", ""))
    except moderation.NotStaff:
        raise Http404("there is no such page") from None
    except MatchError as exc:
        page = moderation.open_reports(request.user)
        return render(request, "game/staff_reports.html", {"error": exc, "page": page}, status=exc.status)
    return redirect("staff-reports")
