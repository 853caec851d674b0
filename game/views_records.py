"""The records page: paste or upload a game record; it is replayed through the engine and shown with its moves,
its final breakdown, and a way onto the analysis board from any move."""
import json
from urllib.parse import urlencode

from django.shortcuts import redirect, render
from django.urls import reverse

from cardsite.errors import InvalidField
from game.analysis.service import final_score
from game.engine.position import export_position

from .matches import records

MAX_UPLOAD = records.MAX_LENGTH * 4  # bytes of UTF-8


def _text(request):
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > MAX_UPLOAD:
            raise InvalidField("file", f"a record is at most {records.MAX_LENGTH:,} characters")
        try:
            return upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidField("file", "the file is not text (UTF-8)") from None
    return request.POST.get("record", "")


def page(request):
    context = {"text": "", "error": None, "field": None}
    if request.method == "POST":
        try:
            text = context["text"] = _text(request)
            parsed, st, snapshot = records.replay(text)
            move = request.POST.get("analyse")
            if move is not None:
                if not move.strip().isdigit():
                    raise InvalidField("move", "choose a move number")
                position = export_position(records.state_after(parsed, snapshot, int(move)))
                return redirect(f"{reverse('analysis')}?{urlencode({'p': json.dumps(position, separators=(',', ':'))})}")
        except InvalidField as error:
            context.update(error=error.message, field=error.field)
            return render(request, "game/records.html", context, status=400)
        final = final_score(st)
        if final is not None:
            final["names"] = records.names(parsed) + final["names"][parsed.options["players"]:]
        context.update(parsed=parsed, moves=records.moves(parsed, snapshot), final=final, names=records.names(parsed),
                       finished=st.result is not None)
    return render(request, "game/records.html", context)
