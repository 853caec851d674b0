from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from cardsite.health import health

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("cardsite.catalogue_urls")),
    path("", include("game.urls")),
]
