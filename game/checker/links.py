"""Links that open a card, set up, on the analysis board (`/analysis/?card=`) and in the ability checker
(`/checker/?card=`): both read the same card text, the one `Subject.ref()` writes."""
from urllib.parse import urlencode

from django.urls import reverse

from .cards import Subject


def card_ref(kind, number, printing="original", name=""):
    """The text that names one printing of a card to the board and the checker ("119 Chameleon Coatl (updated)",
    "Cave card 12", "Guild 6 Veterinary Guild"); `kind` is dragon, cave or guild."""
    return Subject(kind, None, number, printing, name, None).ref()


def try_links(ref):
    """{"analysis": url, "checker": url} for a card's text."""
    query = urlencode({"card": ref})
    return {"analysis": f"{reverse('analysis')}?{query}", "checker": f"{reverse('checker')}?{query}"}
