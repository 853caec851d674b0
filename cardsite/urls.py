from django.contrib import admin
from django.urls import include, path

from cardsite.health import health
from game.views_matches import home

urlpatterns = [
    path("", home, name="home"),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("cardsite.catalogue.urls")),
    path("", include("game.urls")),
]
