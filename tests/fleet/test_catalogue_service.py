"""One catalogue service for the checker, the calculator and matches, keyed on the catalogue version: a write
made by another server is seen on the next call, and a match keeps the catalogue it started on."""
import pytest
from django.db import connection
from django.utils import timezone

from cardsite.catalogue.models import CatalogueVersion, Dragon, Printing
from game import catalogue as service
from game.calculator import lookups
from game.checker.services import current_cards
from game.matches import present


def vp_of(snapshot, number):
    return next(d.vp for d in snapshot.engine.dragons if d.number == number and d.printing == "original")


def edit_elsewhere(number, vp, token):
    """A card edit as another app server commits it: the row and the version together, no signal reaching us."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Dragon._meta.db_table} SET vp = %s, updated_at = %s "
                       "WHERE number = %s AND printing = 'original'", [vp, timezone.now(), number])
        cursor.execute(f"UPDATE {CatalogueVersion._meta.db_table} SET token = %s", [token])


def test_the_checker_calculator_and_matches_share_one_catalogue(catalogue):
    snapshot = service.current()
    assert service.current() is snapshot
    assert current_cards().cat is snapshot.engine
    assert lookups.current().engine is snapshot.engine
    stored = service.freeze_current()
    assert stored.digest == snapshot.digest
    assert service.frozen(stored.pk) is snapshot


def test_an_edit_on_another_server_is_seen_on_the_next_call(catalogue):
    before = vp_of(service.current(), 20)
    edit_elsewhere(20, before + 4, "edited-elsewhere")
    after = service.current()
    assert vp_of(after, 20) == before + 4
    assert current_cards().cat is after.engine
    calculator = lookups.current()
    index = calculator.find_dragon(20, academy=False)
    assert calculator.engine.dragons[index].vp == before + 4


def test_a_match_keeps_the_catalogue_it_started_on(catalogue):
    started_on = service.freeze_current()
    before = vp_of(service.frozen(started_on.pk), 20)
    edit_elsewhere(20, before + 4, "edited-elsewhere")
    now = service.freeze_current()
    assert now.pk != started_on.pk
    assert vp_of(service.frozen(started_on.pk), 20) == before
    assert vp_of(service.frozen(now.pk), 20) == before + 4
    board = present.board_cards(started_on.pk)
    assert board is service.frozen(started_on.pk).view("board", lambda snapshot: pytest.fail("built twice"))
    assert board["dragons"][0]["name"]


def test_an_edit_undone_comes_back_to_the_same_catalogue(catalogue):
    first = service.current()
    before = vp_of(first, 20)
    edit_elsewhere(20, before + 1, "one")
    assert service.current() is not first
    edit_elsewhere(20, before, "two")
    assert service.current() is first  # same digest, same snapshot: the engine is not built again


def test_the_views_never_change_the_shared_data(catalogue):
    snapshot = service.current()
    lookups.current()
    current_cards()
    assert service.digest_of(snapshot.data) == snapshot.digest


def test_an_admin_save_in_this_process_is_seen_at_once(catalogue):
    before = service.current()
    dragon = Dragon.objects.get(number=20, printing=Printing.ORIGINAL)
    dragon.vp += 2
    dragon.save()
    assert vp_of(service.current(), 20) == vp_of(before, 20) + 2
