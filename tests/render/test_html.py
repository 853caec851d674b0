"""The HTML form: the same words, escaped, with an icon before each game item."""
import re
from pathlib import Path

from game.language.render import ITEMS, render_abilities, render_abilities_html

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"


def _strip_tags(text):
    return re.sub(r"<[^>]+>", "", text)


def test_item_gets_an_icon_span_followed_by_its_word():
    html = render_abilities_html([{"kind": "when_played", "effect": {"do": "gain", "item": "meat", "count": 2}}])
    assert '2 <span class="icon icon-meat" title="meat"></span>meat' in html


def test_html_without_tags_reads_exactly_as_the_plain_text():
    abilities = [
        {"kind": "once_per_round", "effect": {"do": "pay", "cost": [{"item": "any_resource"}, {"item": "coin"}],
                                              "buys": {"do": "gain", "item": "guild"}}},
        {"kind": "end_game", "effect": {"do": "score", "vp": 2, "per": {"what": "eggs", "scope": "cave"}}},
    ]
    card = {"training": ["dragon", "cave"]}
    assert _strip_tags(render_abilities_html(abilities, card)) == render_abilities(abilities, card)


def test_kind_prefix_has_its_own_icon():
    html = render_abilities_html([{"kind": "end_game", "effect": {"do": "score", "vp": 1}}])
    assert html.startswith('<span class="icon icon-kind-end-game" title="At game end"></span>At game end: ')


def test_vp_and_guild_have_icons():
    html = render_abilities_html([{"kind": "when_played", "effect": {"do": "seq", "steps": [
        {"do": "gain", "item": "guild"}, {"do": "score", "vp": 1}]}}])
    assert 'class="icon icon-guild"' in html and 'class="icon icon-vp"' in html


def test_text_is_escaped():
    # Reading a variable that no step bound falls back to a pronoun, so nothing from the data reaches the page raw;
    # the words we write still pass through escaping (the apostrophe in "mat's").
    html = render_abilities_html([{"kind": "when_played", "effect": {"do": "activate", "on": "mat"}}])
    assert "mat&#x27;s" in html and "mat's" not in html


def test_every_icon_the_renderer_names_has_an_svg_file():
    names = {icon for icon, _one, _many in ITEMS.values()} | {"vp"}
    names |= {f"kind-{k}" for k in ("when-played", "if-activated", "once-per-round", "end-game")}
    missing = sorted(name for name in names if not (ICONS / f"{name}.svg").exists())
    assert missing == []


def test_stylesheet_has_a_rule_for_every_icon():
    css = (ICONS.parent / "wyrmdex.css").read_text()
    missing = sorted(svg.stem for svg in ICONS.glob("*.svg") if f".icon-{svg.stem} " not in css)
    assert missing == []
