"""The site's URLs (and its error handlers) plus two views that raise what nobody expected, one under /api/ and one a
page: wired only in the tests that ask for them (`@pytest.mark.urls`)."""
from django.urls import path

from cardsite.urls import *  # noqa: F401,F403 (the site's urlpatterns and handler500, which Django reads from here)
from cardsite.urls import urlpatterns as site


def broken(request):
    raise RuntimeError("a bug of ours, on purpose")


urlpatterns = [path("api/broken/", broken), path("broken/", broken), *site]


class BrokenMiddleware:
    """A middleware with a bug: every request it sees raises, before any view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raise RuntimeError("a middleware's bug, on purpose")
