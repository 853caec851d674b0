"""The analysis board's page: the drawn table, edited by clicks or by the position's text, and the engine's
questions answered step by step. The page calls /api/analysis/ (game/api_analysis.py); this view only hands it the
starting position from the URL (`?p=` the position's JSON, `?card=` a card to try, as old checker links do) and the
line tried in it (`?line=`: what was tried, every branch's decisions and the branch shown, as a study link shares a
move tree). The API checks the line's contents when the page sends it, naming what is wrong."""
import json
from urllib.parse import urlencode

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page

from game.analysis.from_view import position_from_view
from game.checker.errors import CheckerInputError
from game.checker.services import choices, current_cards
from game.engine.view import view_for
from game.language.vocabulary import CAVES
from game.matches import access, services as match_services
from game.matches.errors import InvalidInput, MatchError

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
    line = None
    if error is None and request.GET.get("line"):
        line, error = _line(request.GET["line"])
    card = request.GET.get("card", "")[:100]
    if start is None and error is None and card:
        start = _with_card(card)
    cards, _ = choices()
    return render(request, "game/analysis.html", {
        "start": start, "start_line": line, "start_error": error, "card": card,
        "card_choices": cards,
    }, status=400 if error else 200)


LINE_KEYS = {"try", "branches", "current"}


def _line(raw):
    """The line of a shared link, `{"try": {...}, "branches": [[decision, ...], ...], "current": k}`, or an error in
    words. Only its shape is checked here; the page sends it to the API, which checks each decision in the game."""
    if len(raw) > MAX_URL_POSITION:
        return None, f"the line in the link is longer than {MAX_URL_POSITION} characters"
    try:
        line = json.loads(raw)
    except json.JSONDecodeError as exc:
        return None, f"the line in the link is not valid JSON ({exc.msg} at character {exc.pos})"
    if not isinstance(line, dict) or set(line) - LINE_KEYS:
        return None, "the line in the link is not an object with try, branches and current"
    branches = line.get("branches", [[]])
    if not isinstance(line.get("try", {}), dict):
        return None, "the line's try is not an object"
    if (not isinstance(branches, list) or not branches
            or not all(isinstance(b, list) and all(isinstance(d, dict) for d in b) for b in branches)):
        return None, "the line's branches are not lists of decisions"
    current = line.get("current", 0)
    if isinstance(current, bool) or not isinstance(current, int) or not 0 <= current < len(branches):
        return None, f"the line's current branch is not a number from 0 to {len(branches) - 1}"
    return {"try": line.get("try", {}), "branches": branches, "current": current}, None


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


def _move(raw, last):
    """The `?move=` of 'Analyse from this move': a step of the match's log from 0 (as it was dealt) to `last`."""
    try:
        number = int(raw)
    except (TypeError, ValueError):
        number = None
    if number is None or not 0 <= number <= last:
        raise InvalidInput("move", f"expected a move from 0 to {last}")
    return number


def from_match(request, match_id):
    """'Analyse from here': the match as the visitor sees it now (their seat's view, or a spectator's), on the board,
    with what they cannot see dealt at random; with `?move=n`, as they saw it after the first n decisions (the
    replay's step n). Only the engine's player view is read, so nothing hidden leaks."""
    match = access.check(request, access.find(match_id))
    try:
        state = match_services.load_state(match)
    except MatchError:
        return redirect(match)  # the board says what is wrong with the match
    if state is None:
        return redirect(match)
    version = match.version
    if request.GET.get("move", "") != "":
        version = _move(request.GET["move"], match.version)
        if version != match.version:
            state = match_services.state_at(match, version)
    view = view_for(state, match_services.seat_of(match, request.user))
    position = position_from_view(state.cat, view, seed=version)
    return redirect(f"{reverse('analysis')}?{urlencode({'p': json.dumps(position, separators=(',', ':'))})}")
