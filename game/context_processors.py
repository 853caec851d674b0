"""Template context for every page: how many matches wait for the signed-in user (navigation and page title)."""
from .matches.notify import your_turn_count


def turns(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn_count": your_turn_count(user)}
