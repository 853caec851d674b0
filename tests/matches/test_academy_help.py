"""A Dragon Academy match says on its board which parts of the expansion are placeholders; a base match does not."""
from game.matches import services


def test_an_academy_match_lists_its_placeholders(client, catalogue, alice):
    match = services.create_match(alice, players=2, academy=True)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="academy-placeholders"' in page
    assert "only the 6-coin spaces are known" in page and "King's Guild has no known" in page


def test_a_base_match_has_no_placeholder_note(client, started):
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    assert 'id="academy-placeholders"' not in page
