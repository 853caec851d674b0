"""The vacation page (a setting beside turn emails): go on vacation for some days, or come back early; the clocks of
your matches stop meanwhile (game/matches/vacation.py, docs/matches.md "Vacation")."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

from .matches import guests, vacation as vacations
from .matches.errors import MatchError
from .views_matches import number_or_text


def _back(request):
    """Where to go after a change: the page that sent the form (a match page), if it is ours."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return reverse("match-vacation")


@login_required
def vacation(request):
    """GET: the allowance and the vacation going on. POST `days`: go on vacation; POST `end`: come back now."""
    if guests.is_guest_request(request):
        return redirect(f"{reverse('signup')}?{urlencode({'next': request.path})}")
    errors = {}
    if request.method == "POST":
        try:
            if request.POST.get("end"):
                vacations.end(request.user)
            else:
                days = request.POST.get("days", "").strip()
                vacations.start(request.user, number_or_text(days) if days else None)
        except MatchError as exc:
            errors[getattr(exc, "field", None) or "days"] = str(exc)
        else:
            return redirect(_back(request))
    return render(request, "game/match_vacation.html", {
        "summary": vacations.summary(request.user), "errors": errors, "days": request.POST.get("days", ""),
    }, status=400 if errors else 200)
