"""URLs of the card catalogue: API, search pages and card pages."""
from csp.decorators import csp_replace
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from cardsite.catalogue import api, views

router = SimpleRouter()
router.register("dragons", api.DragonViewSet, basename="api-dragon")
router.register("caves", api.CaveCardViewSet, basename="api-cave")
router.register("guild-tiles", api.GuildTileViewSet, basename="api-guild-tile")
router.register("objective-tiles", api.ObjectiveTileViewSet, basename="api-objective-tile")
router.register("expansions", api.ExpansionViewSet, basename="api-expansion")

urlpatterns = [
    path("api/", include(router.urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start script comes from its own URL (the split view) rather than inline; ReDoc injects <style>
    # elements and runs its search in a blob: worker, so its page alone allows those.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", csp_replace({"style-src": ["'self'", "'unsafe-inline'"], "worker-src": ["'self'", "blob:"]})(
        SpectacularRedocView.as_view(url_name="schema")), name="api-redoc"),
    path("cards/", views.search_page, name="card-search"),
    path("cards/help/", views.query_help, name="query-help"),
    path("cards/dragons/<int:number>/", views.dragon_by_number, name="dragon-by-number"),
    path("cards/dragons/<slug:slug>/", views.dragon_page, name="dragon-page"),
    path("cards/caves/<int:number>/", views.cave_by_number, name="cave-by-number"),
    path("cards/caves/<slug:slug>/", views.cave_page, name="cave-page"),
    path("cards/guilds/", views.guild_list, name="guild-list"),
    path("cards/guilds/<int:number>/", views.guild_by_number, name="guild-by-number"),
    path("cards/guilds/<slug:slug>/", views.guild_page, name="guild-page"),
    path("cards/objectives/", views.objective_list, name="objective-list"),
    path("cards/objectives/<int:number>/", views.objective_by_number, name="objective-by-number"),
    path("cards/objectives/<slug:slug>/", views.objective_page, name="objective-page"),
]
