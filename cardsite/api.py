"""Read-only catalogue API: dragons, cave cards, guild tiles, objective tiles and expansions.

Every resource is reachable by number and by slug (`/api/dragons/12/`, `/api/dragons/12-...-drake/`). Responses
carry an ETag and Last-Modified derived from the catalogue version, answer conditional GETs with 304, and JSON
answers are kept in the cache keyed on that version, so a reload of the catalogue makes every entry stale at once
(`CatalogueCacheMiddleware`).
"""
import hashlib

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import http_date, parse_http_date_safe, quote_etag
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response

from cardsite import card_index, catalogue_version, filters, query
from cardsite.models import CaveCard, Dragon, Expansion, GuildTile, ObjectiveTile, Printing
from cardsite.serializers import (
    CaveCardSerializer, DragonSerializer, ExpansionSerializer, GuildTileSerializer, ObjectiveTileSerializer,
)

MAX_PAGE_SIZE = 200
CACHE_SECONDS = 3600


class CataloguePagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
            raise ValidationError({"page_size": [f"expected a whole number from 1 to {MAX_PAGE_SIZE}"]})
        if int(raw) > MAX_PAGE_SIZE:
            raise ValidationError({"page_size": [f"at most {MAX_PAGE_SIZE} results per page, not {raw}"]})
        return int(raw)

    def paginate_queryset(self, queryset, request, view=None):
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and (not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 100000):
            raise ValidationError({"page": ["expected a page number from 1"]})
        return super().paginate_queryset(queryset, request, view)


class StrictOrderingFilter(OrderingFilter):
    """Ordering by an unknown field is a 400 naming the known ones, not silently ignored."""

    def get_ordering(self, request, queryset, view):
        params = request.query_params.get(self.ordering_param)
        if params:
            fields = [param.strip() for param in params.split(",")]
            valid = [name for name, _ in self.get_valid_fields(queryset, view, {"request": request})]
            bad = [field for field in fields if field.lstrip("-") not in valid]
            if bad:
                raise ValidationError({"ordering": [
                    f"cannot order by {bad[0]!r}; known: {', '.join(valid)} (prefix with - for descending)"
                ]})
        return super().get_ordering(request, queryset, view)


IN_MEMORY_PARAMS = {"q", "page", "page_size", "format"}


class EncodedPage(dict):
    """A page of results whose cards are already JSON (written once per catalogue version by card_index)."""

    def __init__(self, data, fragments):
        super().__init__(data)
        self.fragments = fragments


class CatalogueJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, which joins an EncodedPage's ready-made card JSON instead of encoding every card again:
    the bytes are the same as encoding the whole page (a test compares them)."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if not isinstance(data, EncodedPage) or self.get_indent(accepted_media_type or "", renderer_context or {}):
            return super().render(data, accepted_media_type, renderer_context)
        head = super().render({key: value for key, value in data.items() if key != "results"},
                              accepted_media_type, renderer_context)
        return head[:-1] + b',"results":[' + b",".join(data.fragments) + b"]}"


class CatalogueViewSet(viewsets.ReadOnlyModelViewSet):
    """Shared behaviour: lookup by number or slug and strict parameters (caching: CatalogueCacheMiddleware)."""

    authentication_classes = ()  # public, read-only data: no session or login is ever looked at
    permission_classes = (AllowAny,)
    lookup_field = "slug"
    lookup_value_regex = r"[-a-z0-9_]+"
    lookup_url_kwarg = "key"
    pagination_class = CataloguePagination
    renderer_classes = [CatalogueJSONRenderer, BrowsableAPIRenderer]
    filter_backends = [DjangoFilterBackend, StrictOrderingFilter]
    general_params = {"ordering", "page", "page_size", "format"}

    def list(self, request, *args, **kwargs):
        cards = self.search_in_memory(request)
        if cards is None:
            return super().list(request, *args, **kwargs)
        page = self.paginate_queryset(cards)
        data = self.get_paginated_response([card.representation for card in page]).data
        return Response(EncodedPage(data, [card.json for card in page]))

    def search_in_memory(self, request):
        """The representations of the cards a plain query asks for, from the in-memory index (card_index.py), or
        None when the request needs the FilterSet: other filters, an explicit ordering, the browsable API, or a
        query the index cannot answer exactly as the database would."""
        if self.queryset.model not in (Dragon, CaveCard) or request.accepted_renderer.format != "json":
            return None
        params = request.query_params
        if not set(params) <= IN_MEMORY_PARAMS:
            return None
        text = params.get("q", "")
        if not card_index.can_answer(text):
            return None
        return card_index.search_cards(self.queryset.model, text)

    def handle_exception(self, exc):
        if isinstance(exc, query.QueryError):
            return Response({"q": [str(exc)], **exc.as_dict()}, status=400)
        return super().handle_exception(exc)

    def get_object(self):
        key = self.kwargs["key"]
        queryset = self.get_queryset()
        if key.isdigit():
            found = self.by_number(queryset, int(key))
        else:
            found = queryset.filter(slug=key).first()
        if found is None:
            raise NotFound(f"no {self.noun} with number or slug {key!r}")
        return found

    def by_number(self, queryset, number):
        return queryset.filter(number=number).order_by("pk").first()

    def check_params(self, request):
        known = set(self.general_params)
        filterset_class = getattr(self, "filterset_class", None)
        if filterset_class is not None and self.action == "list":
            known |= set(filterset_class.base_filters)
        if self.action != "list":
            known = {"format"}
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            raise ValidationError({unknown[0]: [f"unknown parameter; known: {', '.join(sorted(known))}"]})

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        self.check_params(request)


CACHED_PREFIXES = ("/api/dragons/", "/api/caves/", "/api/guild-tiles/", "/api/objective-tiles/", "/api/expansions/")
UNCACHED_HEADERS = {"set-cookie", "etag", "last-modified", "cache-control"}


class CatalogueCacheMiddleware:
    """Conditional GET and a version-keyed answer cache for the catalogue API, placed right after WhiteNoise.

    It sits that early so a cached answer skips URL resolution, sessions, authentication and the view, and costs
    about what a static file does (docs/benchmarks.md). The key is the catalogue version, the method, the full path
    and the Accept header; a load or an edit changes the version, so no entry is ever invalidated by hand.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (request.method not in ("GET", "HEAD") or not request.path.startswith(CACHED_PREFIXES)
                or _wants_html(request)):
            return self.get_response(request)
        version, last_modified = catalogue_version.state()
        key = hashlib.sha1("|".join((
            version, request.method, request.get_full_path(), request.META.get("HTTP_ACCEPT", ""),
        )).encode()).hexdigest()
        etag = quote_etag(key[:24])
        if _not_modified(request, etag, last_modified):
            response = HttpResponseNotModified()
            _stamp(response, etag, last_modified)
            return response
        cached = cache.get("catalogue-api:" + key)
        if cached is not None:
            status, headers, content = cached
            response = HttpResponse(content, status=status)
            for name, value in headers:
                response[name] = value
        else:
            response = self.get_response(request)
            if (response.status_code in (200, 400, 404) and not response.streaming
                    and not response.has_header("Set-Cookie")):
                headers = [(name, value) for name, value in response.items()
                           if name.lower() not in UNCACHED_HEADERS]
                cache.set("catalogue-api:" + key, (response.status_code, headers, response.content), CACHE_SECONDS)
        if response.status_code == 200:
            _stamp(response, etag, last_modified)
        return response


def _wants_html(request):
    return request.GET.get("format") == "api" or (
        "text/html" in request.META.get("HTTP_ACCEPT", "") and request.GET.get("format") != "json"
    )


def _not_modified(request, etag, last_modified):
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
    if if_none_match is not None:
        tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
        return etag in tags or "*" in tags
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    return since is not None and last_modified is not None and int(last_modified.timestamp()) <= since


def _stamp(response, etag, last_modified):
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified.timestamp())
    response["Cache-Control"] = "public, max-age=0, must-revalidate"


KEY_PARAMETER = OpenApiParameter(
    "key", OpenApiTypes.STR, OpenApiParameter.PATH,
    description="The card's number (the original printing when two exist) or its slug.",
)
NUMERIC_DRAGON_FIELDS = [
    "number", "vp", "capacity", "cost_total", "cost_meat", "cost_gold", "cost_crystal", "cost_milk", "cost_coin",
    "cost_egg", "name",
]


@extend_schema_view(retrieve=extend_schema(parameters=[KEY_PARAMETER]))
class DragonViewSet(CatalogueViewSet):
    """Dragons. Filter with exact values, `_min`/`_max` ranges, habitats, words, or a query in `q`."""

    queryset = Dragon.objects.select_related("expansion", "original")
    serializer_class = DragonSerializer
    filterset_class = filters.DragonFilter
    ordering_fields = NUMERIC_DRAGON_FIELDS
    noun = "dragon"

    def by_number(self, queryset, number):
        matches = queryset.filter(number=number)
        return matches.filter(printing=Printing.ORIGINAL).first() or matches.first()


@extend_schema_view(retrieve=extend_schema(parameters=[KEY_PARAMETER]))
class CaveCardViewSet(CatalogueViewSet):
    """Cave cards."""

    queryset = CaveCard.objects.select_related("expansion", "original")
    serializer_class = CaveCardSerializer
    filterset_class = filters.CaveCardFilter
    ordering_fields = ["number"]
    noun = "cave card"

    def by_number(self, queryset, number):
        matches = queryset.filter(number=number)
        return matches.filter(printing=Printing.ORIGINAL).first() or matches.first()


@extend_schema_view(retrieve=extend_schema(parameters=[KEY_PARAMETER]))
class GuildTileViewSet(CatalogueViewSet):
    """Dragon Guild tiles with their rows. By number, the base game's tile comes first."""

    queryset = GuildTile.objects.select_related("expansion").prefetch_related("guild_abilities")
    serializer_class = GuildTileSerializer
    filterset_class = filters.GuildTileFilter
    ordering_fields = ["number", "name"]
    noun = "guild tile"

    def by_number(self, queryset, number):
        return queryset.filter(number=number).order_by("expansion_id").first()


@extend_schema_view(retrieve=extend_schema(parameters=[KEY_PARAMETER]))
class ObjectiveTileViewSet(CatalogueViewSet):
    """Objective tiles with both sides. By number, the base game's tile comes first."""

    queryset = ObjectiveTile.objects.select_related("expansion").prefetch_related("sides")
    serializer_class = ObjectiveTileSerializer
    filterset_class = filters.ObjectiveTileFilter
    ordering_fields = ["number"]
    noun = "objective tile"

    def by_number(self, queryset, number):
        return queryset.filter(number=number).order_by("expansion_id").first()


@extend_schema_view(retrieve=extend_schema(parameters=[
    OpenApiParameter("key", OpenApiTypes.STR, OpenApiParameter.PATH, description="The expansion's slug."),
]))
class ExpansionViewSet(CatalogueViewSet):
    """The base game and its expansions."""

    queryset = Expansion.objects.all()
    serializer_class = ExpansionSerializer
    ordering_fields = ["name"]
    noun = "expansion"

    def by_number(self, queryset, number):
        return queryset.filter(slug=str(number)).first()
