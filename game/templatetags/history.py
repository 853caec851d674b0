"""Template filters of the game history and the match pages: whose name links to a profile, and places in words."""
from django import template

from game.matches.history import linkable

register = template.Library()


@register.filter
def has_profile_page(user):
    """A person whose name may link to their profile: not a guest, and not one who hid their profile."""
    return linkable(user)


@register.filter
def ordinal_place(place):
    try:
        n = int(place)
    except (TypeError, ValueError):
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def seat_link(links, seat):
    """The profile address of a seat's player, from the page's {seat: address} (None when there is none)."""
    return (links or {}).get(seat)
