"""Read-only catalogue API: dragons, cave cards, guild tiles, objective tiles and expansions.

Every resource is reachable by number and by slug (`/api/dragons/12/`, `/api/dragons/12-...-drake/`). Responses
carry an ETag and Last-Modified derived from the catalogue version, answer conditional GETs with 304, and JSON
answers are kept in the cache keyed on that version, so a reload of the catalogue makes every entry stale at once
(`CatalogueCacheMiddleware`). A plain query on a card list, what live search asks on every keystroke, is answered
from the in-memory index before DRF (`quick_answer`), with the viewset's answer byte for byte.
"""
import functools
import hashlib
import math

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, resolve
from django.utils.http import http_date, parse_http_date_safe
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.utils.urls import remove_query_param, replace_query_param

from cardsite import api_errors
from cardsite.catalogue import card_index, catalogue_version, filters, query
from cardsite.catalogue.models import CaveCard, Dragon, Expansion, GuildTile, ObjectiveTile, Printing
from cardsite.catalogue.serializers import (
    CaveCardSerializer,
    DragonSerializer,
    ExpansionSerializer,
    GuildTileSerializer,
    ObjectiveTileSerializer,
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
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:  # DRF's "Invalid page." names no field
            pages = self.django_paginator_class(queryset, self.get_page_size(request)).num_pages
            fills = f"{pages} page{'' if pages == 1 else 's'}"
            raise NotFound({"page": [f"there is no page {raw}: the answer fills {fills}"]}) from None


class StrictOrderingFilter(OrderingFilter):
    """Ordering by an unknown field is a 400 naming the known ones, not silently ignored. Ties are broken by the
    primary key, so a page asked twice (or page 2 after page 1) lists cards in one order: PostgreSQL gives rows of
    equal value in any order it likes."""

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
        ordering = super().get_ordering(request, queryset, view)
        if params and ordering and "pk" not in ordering and "-pk" not in ordering:
            ordering = [*ordering, "pk"]
        return ordering


class CatalogueViewSet(viewsets.ReadOnlyModelViewSet):
    """Shared behaviour: lookup by number or slug and strict parameters (caching: CatalogueCacheMiddleware)."""

    authentication_classes = ()  # public, read-only data: no session or login is ever looked at
    permission_classes = (AllowAny,)
    lookup_field = "slug"
    lookup_value_regex = r"[-a-z0-9_]+"
    lookup_url_kwarg = "key"
    pagination_class = CataloguePagination
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer]
    filter_backends = [DjangoFilterBackend, StrictOrderingFilter]
    general_params = {"ordering", "page", "page_size", "format"}

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
    about what a static file does (docs/benchmarks.md); so does a plain query on a card list, which the in-memory
    index answers (`quick_answer`) rather than the cache. The key is the catalogue version, the method, the full path
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
        etag = f'"{key[:24]}"'  # quote_etag's answer for hex digits, without its check
        if _not_modified(request, etag, last_modified):
            response = HttpResponseNotModified()
            _stamp(response, etag, last_modified)
            return response
        response = quick_answer(request)  # not cached: the index answers faster than the cache would
        if response is None:
            response = self.cached_or_fresh(request, "catalogue-api:" + key)
        if response.status_code == 200:
            _stamp(response, etag, last_modified)
        return response

    def cached_or_fresh(self, request, key):
        """The answer kept under `key`, or the view's, kept for next time."""
        cached = cache.get(key)
        if cached is not None:
            status, headers, content = cached
            response = HttpResponse(content, status=status)
            for name, value in headers:
                response[name] = value
            return response
        response = self.get_response(request)
        if response.status_code in (200, 400, 404) and not response.streaming and not response.has_header("Set-Cookie"):
            headers = [(name, value) for name, value in response.items() if name.lower() not in UNCACHED_HEADERS]
            cache.set(key, (response.status_code, headers, response.content), CACHE_SECONDS)
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


# --- plain queries answered from the index, before DRF ----------------------------------------------------------

QUICK_PARAMS = {"q", "page", "page_size", "format"}
QUICK_ANSWERS = True  # off, every request takes the viewset (tests compare the two answers)
JSON_TYPES = {"application/json", "application/*", "*/*"}
ALLOW = "GET, HEAD, OPTIONS"  # what DRF says a read-only list allows
_json = JSONRenderer()
_list_models = {}  # path -> the card model its list shows, or None (not a card list)


def quick_answer(request):
    """The answer to a plain query on a card list (`q`, with `page`, `page_size`, `format` and nothing else: what the
    search page sends), written from the in-memory index without DRF's view, negotiation, filters and pagination;
    or None when the viewset must answer.

    It is the viewset's answer byte for byte, body and headers (`tests/search/test_quick_answers.py` compares them),
    including a 400 naming `q` for a query that cannot be read. The viewset still answers everything else: other
    parameters, the browsable API, an Accept header with parameters, paging that is wrong or past the end, text the
    index leaves to the database.
    """
    model = _card_list_model(request.path_info) if QUICK_ANSWERS else None
    params = request.GET
    if model is None or not params.keys() <= QUICK_PARAMS or not _plain_json_wanted(request):
        return None
    page_size = _whole(params.get(CataloguePagination.page_size_query_param), CataloguePagination.page_size,
                       MAX_PAGE_SIZE)
    page = _whole(params.get(CataloguePagination.page_query_param), 1, 100000)
    text = params.get("q", "")
    if page_size is None or page is None or not card_index.can_answer(text):
        return None
    request.get_host()  # an unknown Host is refused here as CommonMiddleware refuses it before the viewset
    try:
        cards = card_index.search_cards(model, text)
    except query.QueryError as error:
        status, body = api_errors.answer(error)
        return _json_response(_json.render(body), status)
    if cards is None:
        return None
    pages = max(1, math.ceil(len(cards) / page_size))
    if page > pages:
        return None  # the viewset's 404
    if pages == 1:  # what live search asks: the renderer's bytes for this head, written without it
        start = b'{"count":%d,"next":null,"previous":null,"results":[' % len(cards)
    else:
        head = {"count": len(cards), "next": None, "previous": None}
        url, name = request.build_absolute_uri(), CataloguePagination.page_query_param
        if page < pages:
            head["next"] = replace_query_param(url, name, page + 1)
        if page > 1:
            head["previous"] = remove_query_param(url, name) if page == 2 else replace_query_param(url, name, page - 1)
        start = _json.render(head)[:-1] + b',"results":['
    shown = [card.json for card in cards[(page - 1) * page_size:page * page_size]]
    return _json_response(start + b",".join(shown) + b"]}", 200)


def _card_list_model(path):
    """The card model whose list the viewset at `path` shows (one resolve per path, remembered), or None."""
    if path in _list_models:
        return _list_models[path]
    try:
        view = resolve(path).func
    except Resolver404:
        view = None
    viewset = getattr(view, "cls", None)
    model = None
    if (viewset is not None and issubclass(viewset, CatalogueViewSet) and getattr(view, "actions", {}).get("get")
            == "list" and viewset.queryset.model in card_index.KINDS):
        model = viewset.queryset.model
    if len(_list_models) >= 1000:
        _list_models.clear()
    _list_models[path] = model
    return model


def _plain_json_wanted(request):
    """Whether DRF would answer this request with its JSON renderer and no media type parameters (`indent`)."""
    fmt = request.GET.get("format")
    accept = request.META.get("HTTP_ACCEPT")
    if fmt not in (None, "json"):
        return False
    if accept is None:
        return True
    if ";" in accept or len(accept) > 1000:
        return False
    types = {part.strip() for part in accept.split(",")}
    if fmt is None and types & {"text/html", "text/*"}:
        return False  # the browsable API may be chosen
    return bool(types & JSON_TYPES)


def _whole(raw, default, high):
    """A page or page size: `default` when absent, the number when it is one from 1 to `high`, else None."""
    if raw is None:
        return default
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= high:
        return int(raw)
    return None


def _json_response(body, status):
    """The headers the viewset's answer carries: DRF's, then XFrameOptionsMiddleware's and CommonMiddleware's."""
    response = HttpResponse(body, content_type="application/json", status=status)
    response["Vary"] = "Accept"
    response["Allow"] = ALLOW
    response["X-Frame-Options"] = getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()
    response["Content-Length"] = str(len(body))
    return response


def _stamp(response, etag, last_modified):
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = _http_date(last_modified)
    response["Cache-Control"] = "public, max-age=0, must-revalidate"


@functools.lru_cache(maxsize=8)
def _http_date(moment):
    """Last-Modified as HTTP writes it: the same for every answer of one catalogue version, so written once."""
    return http_date(moment.timestamp())


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
