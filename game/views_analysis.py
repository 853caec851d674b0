"""The analysis board's page: the drawn table, edited by clicks or by the position's text, and the engine's
questions answered step by step. The page calls /api/analysis/ (game/api_analysis.py); this view only hands it the
starting position from the URL (`?p=` the position's JSON, `?card=` a card to try, as old checker links do)."""
import json

from urllib.parse import urlencode

from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page

from game.analysis.from_view import position_from_view
from game.checker.errors import CheckerInputError
from game.engine.view import view_for
from game.matches import services as match_services
from game.matches.errors import MatchError
from game.models import Match
from game.checker.services import choices, current_cards
from game.language.vocabulary import CAVES

MAX_URL_POSITION = 20000


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def analysis(request):
    raw = request.GET.get("p", "")
    start, error = None, None
    if raw:
        if len(raw) > MAX_URL_POSITION:
            error = f"the position in the link is longer than {MAX_URL_POSITION} characters"
        else:
            try:
                start = json.loads(raw)
            except json.JSONDecodeError as exc:
                error = f"the position in the link is not valid JSON ({exc.msg} at character {exc.pos})"
    card = request.GET.get("card", "")[:100]
    if start is None and error is None and card:
        start = _with_card(card)
    cards, _ = choices()
    return render(request, "game/analysis.html", {
        "start": start, "start_error": error, "card": card,
        "card_choices": cards,
    }, status=400 if error else 200)


def _with_card(card):
    """A starting position for a card link (`?card=`, as the checker's links give): a dragon goes on player 1's
    mat in the first cave it lives in, so its abilities can be tried at once; other cards are only named."""
    try:
        subject = current_cards().subject(card)
    except CheckerInputError:
        return None
    if subject.kind != "dragon":
        return None
    cave = CAVES[subject.record.habitats[0]]
    return {"setup": {"players": 2, "seed": 1, "academy": subject.record.expansion != "base"},
            "edits": [{"do": "dragon", "seat": 0, "card": subject.number, "cave": cave, "column": 1}], "seat": 0}


def from_match(request, pk):
    """'Analyse from here': the match as the visitor sees it now (their seat's view, or a spectator's), on the board,
    with what they cannot see dealt at random. Only the engine's player view is read, so nothing hidden leaks."""
    match = get_object_or_404(Match.objects.prefetch_related("seats"), pk=pk)
    try:
        state = match_services.load_state(match)
    except MatchError:
        return redirect("match", pk=pk)  # the board says what is wrong with the match
    if state is None:
        return redirect("match", pk=pk)
    view = view_for(state, match_services.seat_of(match, request.user))
    position = position_from_view(state.cat, view, seed=match.version)
    return redirect(f"{reverse('analysis')}?{urlencode({'p': json.dumps(position, separators=(',', ':'))})}")
