"""Template context for every page: how many matches wait for the signed-in user (navigation and page title), and
the game's nouns for the pages' scripts (base.html writes them once as JSON, so no script keeps a copy)."""
from django.conf import settings

from .language.vocabulary import CAVE_DISPLAY, CAVE_SHORT, CAVES, RESOURCES
from .matches.guests import is_guest_request
from .matches.notify import your_turn_count

VOCABULARY = {"vocabulary": {"caves": list(CAVES), "cave_names": CAVE_DISPLAY, "cave_short": CAVE_SHORT,
                             "resources": list(RESOURCES)}}


def vocabulary(request):
    return {**VOCABULARY, "push_url": settings.PUSH_URL}


def turns(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn_count": your_turn_count(user), "is_guest": is_guest_request(request)}
