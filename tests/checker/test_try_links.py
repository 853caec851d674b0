"""Card pages, the rules page and the checker link to the analysis board and the checker with the card set up; each
link is followed and must open that very printing of the card."""
import html
import json
import re
from urllib.parse import parse_qs, urlparse

import pytest

from cardsite.catalogue.models import CaveCard, Dragon, GuildTile
from game.checker import services

pytestmark = pytest.mark.django_db


def try_links(page):
    """{"analysis": href, "checker": href} of the page's first "try it" links."""
    found = {}
    for kind in ("analysis", "checker"):
        match = re.search(r'href="([^"]+)" class="try-' + kind + '"', page)
        if match:
            found[kind] = html.unescape(match.group(1))
    return found


def card_of(href):
    url = urlparse(href)
    return url.path, parse_qs(url.query)["card"][0]


def opens(client, href, kind, number, printing):
    """The link opens its page, and the card it names is this printing of this card."""
    assert client.get(href).status_code == 200, href
    path, ref = card_of(href)
    info = services.card_info(ref)
    assert (info["kind"], info["number"], info["printing"]) == (kind, number, printing), (href, info)
    return path, ref


@pytest.mark.parametrize("number, printing", [(130, "original"), (119, "original"), (119, "updated")])
def test_a_dragon_page_links_to_the_board_and_the_checker_with_that_printing(client, catalogue, number, printing):
    dragon = Dragon.objects.get(number=number, printing=printing)
    links = try_links(client.get(f"/cards/dragons/{dragon.slug}/").content.decode())
    assert set(links) == {"analysis", "checker"}
    assert opens(client, links["analysis"], "dragon", number, printing)[0] == "/analysis/"
    assert opens(client, links["checker"], "dragon", number, printing)[0] == "/checker/"
    # The board puts the dragon on the mat, in the game (base or Academy) of its printing.
    board = client.get(links["analysis"]).content.decode()
    start = json.loads(re.search(r'<script id="an-start" type="application/json">(.*?)</script>', board, re.DOTALL).group(1))
    assert start["edits"][0]["card"] == number and start["edits"][0]["do"] == "dragon"
    assert start["setup"]["academy"] == (dragon.expansion.slug != "base")


def test_a_cave_card_page_and_a_guild_tile_page_link_to_both(client, catalogue):
    cave = CaveCard.objects.exclude(abilities=[]).order_by("number").first()
    links = try_links(client.get(f"/cards/caves/{cave.slug}/").content.decode())
    opens(client, links["analysis"], "cave", cave.number, cave.printing)
    opens(client, links["checker"], "cave", cave.number, cave.printing)
    tile = GuildTile.objects.get(name="Veterinary Guild")
    links = try_links(client.get(f"/cards/guilds/{tile.slug}/").content.decode())
    opens(client, links["analysis"], "guild", tile.number, "original")
    opens(client, links["checker"], "guild", tile.number, "original")


def test_the_rules_page_links_each_ruled_card_to_the_board_and_the_checker(client, catalogue):
    page = client.get("/rules/").content.decode()
    boards = [html.unescape(h) for h in re.findall(r'href="([^"]+)" class="try-analysis"', page)]
    checkers = [html.unescape(h) for h in re.findall(r'href="([^"]+)" class="try-checker"', page)]
    assert boards and len(boards) == len(checkers)
    for href in set(boards[:5] + checkers[:5]):
        assert client.get(href).status_code == 200, href
        services.card_info(card_of(href)[1])  # names a card the checker knows


def test_a_check_links_to_the_board_with_its_card(client, catalogue):
    page = client.get("/checker/", {"card": "130"}).content.decode()
    result = page[page.index('id="checker-result"'):]
    board = try_links(result)["analysis"]
    opens(client, board, "dragon", 130, "original")
