from django.contrib import admin
from django.urls import include, path

from cardsite.health import health
from game.views_accounts import SignInView
from game.views_matches import home

# An exception no view or middleware answered: a database outage is a 503 there; a bug is a 500, in the one
# JSON error shape (with the request id) on the API, the error page elsewhere.
handler500 = "cardsite.api_errors.server_error"
# An address no route takes (a match's old number, say): the same 404 as a view's, JSON on the API.
handler404 = "cardsite.api_errors.not_found"

urlpatterns = [
    path("", home, name="home"),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/login/", SignInView.as_view(), name="login"),  # before Django's own: it hands over a guest's games
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("cardsite.catalogue.urls")),
    path("", include("game.urls")),
]
