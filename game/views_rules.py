"""The rules reference page, with the official rulings."""
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page

from .rules import SECTIONS, Term, present_rulings, rulings as rulings_data


@gzip_page  # a public page: docs/deploy.md says which pages are compressed and why
def rules(request):
    def about(section):
        anchors = {section.slug} | {block.id for block in section.blocks if isinstance(block, Term)}
        return [ruling for ruling in rulings_data.all_rulings() if anchors & set(ruling.topics)]

    sections = [
        {"section": section,
         "blocks": [{"kind": "term" if isinstance(block, Term) else "list" if isinstance(block, list) else "text",
                     "value": block} for block in section.blocks],
         "rulings": about(section)}
        for section in SECTIONS
    ]
    return render(request, "game/rules.html", {"sections": sections,
                                               "rulings": present_rulings(rulings_data.all_rulings())})
