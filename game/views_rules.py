"""The rules reference page."""
from django.shortcuts import render

from .rules import SECTIONS, Term


def rules(request):
    sections = [
        {"section": section,
         "blocks": [{"kind": "term" if isinstance(block, Term) else "list" if isinstance(block, list) else "text",
                     "value": block} for block in section.blocks]}
        for section in SECTIONS
    ]
    return render(request, "game/rules.html", {"sections": sections})
