"""Sign-up and sign-in: both return to where the person was (`next`, carried through every form, its errors and the
links between the two, and refused unless it is a page of this site), and both hand a guest's matches to the
account when they come from a guest's session (docs/matches.md, "Guests")."""
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .matches import guests

HOME = "/"
MATCHES = "/matches/"


def safe_next(request):
    """The `next` the request carries (the form's field first, then the address), if it is a page of this site;
    else "". As Django's sign-in does: on an https page an http:// address, even our own host, is refused."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""


def _guest_of(request):
    return request.user if guests.is_guest_request(request) else None


class SignUpForm(UserCreationForm):
    def clean_username(self):
        name = super().clean_username()
        if name and name.lower().startswith(guests.NAME_PREFIX):
            raise ValidationError(f"Names starting with “{guests.NAME_PREFIX}” are kept for guests; choose another.")
        return name


def signup(request):
    target = safe_next(request)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        guest = _guest_of(request)
        try:
            with transaction.atomic():  # the account and the guest's matches handed to it: both or neither
                user = form.save()
                moved = guests.claim(guest, user)
        except IntegrityError:
            # The name was free when the form looked and taken when it wrote (sign-ups sent together): the form
            # asked again says so, as it does to a sign-up that comes second.
            form = SignUpForm(request.POST)
            if form.is_valid():
                raise
            return render(request, "game/calculator_signup.html", {"form": form, "next": target}, status=400)
        login(request, user)
        return redirect(target or (MATCHES if moved else HOME))
    return render(request, "game/calculator_signup.html", {"form": form, "next": target},
                  status=400 if form.errors else 200)


class SignInView(LoginView):
    """Django's sign-in, which from a guest's session also hands the guest's matches to the account signed in."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["next"] = safe_next(self.request)  # only a page of ours is carried on, to the form and the links
        return context

    def get_default_redirect_url(self):
        return MATCHES if getattr(self, "_moved", None) else HOME

    def form_valid(self, form):
        guest = _guest_of(self.request)
        self._moved = guests.claim(guest, form.get_user()) if guest is not None else []
        return super().form_valid(form)
