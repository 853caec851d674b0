"""Every catalogue write, by any path, gives a new catalogue version; what is not a write leaves it alone."""
import json

import pytest
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from cardsite.catalogue import catalogue_version
from cardsite.catalogue.loader import export_catalogue, import_file
from cardsite.catalogue.models import CATALOGUE_MODELS, CatalogueVersion, Dragon, Printing
from tests.catalogue.test_admin import dragon_post_data


@pytest.fixture
def staff(client, django_user_model, catalogue):
    user = django_user_model.objects.create_superuser("editor", "editor@example.com", "a-long-password-1")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", CATALOGUE_MODELS, ids=lambda model: model.__name__)
def test_saving_any_catalogue_row_gives_a_new_version(catalogue, model):
    before = catalogue_version.current()
    model.objects.order_by("pk").first().save()
    assert catalogue_version.current() != before


def test_deleting_a_catalogue_row_gives_a_new_version(catalogue):
    before = catalogue_version.current()
    Dragon.objects.filter(printing=Printing.UPDATED).order_by("pk").first().delete()
    assert catalogue_version.current() != before


def test_an_admin_edit_gives_a_new_version_and_a_refused_one_does_not(staff):
    dragon = Dragon.objects.get(number=119, printing=Printing.ORIGINAL)
    url = reverse("admin:cardsite_dragon_change", args=[dragon.pk])
    before = catalogue_version.current()
    refused = staff.post(url, dragon_post_data(dragon, abilities=json.dumps([{"kind": "nonsense"}])))
    assert refused.status_code == 200
    assert catalogue_version.current() == before
    assert staff.post(url, dragon_post_data(dragon, cost_coin=3)).status_code == 302
    assert catalogue_version.current() != before


def test_an_import_gives_a_new_version_and_a_reload_that_changes_nothing_does_not(catalogue):
    record = next(d for d in export_catalogue()["dragons"] if d["number"] == 20)
    record["vp"] += 1
    before = catalogue_version.current()
    import_file("erratum.json", json.dumps({"dragons": [record]}))
    after_import = catalogue_version.current()
    assert after_import != before
    call_command("load_catalogue", verbosity=0)  # puts dragon 20 back as printed: a change
    reloaded = catalogue_version.current()
    assert reloaded != after_import
    call_command("load_catalogue", verbosity=0)  # nothing left to change
    assert catalogue_version.current() == reloaded


def test_a_write_that_rolls_back_leaves_the_version_as_it_was(catalogue):
    before = catalogue_version.state()
    with pytest.raises(RuntimeError), transaction.atomic():
        dragon = Dragon.objects.get(number=20, printing=Printing.ORIGINAL)
        dragon.vp += 5
        dragon.save()
        assert catalogue_version.current() != before[0]
        raise RuntimeError("changed my mind")
    assert catalogue_version.state() == before


def test_a_version_written_by_another_server_is_read_at_once_outside_a_request(catalogue):
    before = catalogue_version.current()
    with connection.cursor() as cursor:  # another process's write: no signal reaches this one
        cursor.execute(f"UPDATE {CatalogueVersion._meta.db_table} SET token = %s", ["from-elsewhere"])
    assert before != "from-elsewhere"
    assert catalogue_version.current() == "from-elsewhere"


def test_an_emptied_database_gets_a_fresh_version_never_an_old_one(catalogue):
    seen = catalogue_version.current()
    CatalogueVersion.objects.all().delete()
    fresh = catalogue_version.current()
    assert fresh != seen
    assert catalogue_version.current() == fresh
    assert CatalogueVersion.objects.count() == 1


def test_the_catalogue_api_is_keyed_on_the_version(client, catalogue):
    first = client.get("/api/dragons/20/", HTTP_ACCEPT="application/json")
    assert first.status_code == 200
    with connection.cursor() as cursor:  # the card and the version changed by another server, as it commits them
        cursor.execute(f"UPDATE {Dragon._meta.db_table} SET vp = vp + 7, updated_at = %s "
                       "WHERE number = 20 AND printing = 'original'", [timezone.now()])
        cursor.execute(f"UPDATE {CatalogueVersion._meta.db_table} SET token = %s", ["edited-elsewhere"])
    again = client.get("/api/dragons/20/", HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again.json()["vp"] == first.json()["vp"] + 7


def _written_elsewhere(token):
    with connection.cursor() as cursor:  # another server's committed write: no signal reaches this process
        cursor.execute(f"UPDATE {CatalogueVersion._meta.db_table} SET token = %s", [token])


def _in_a_request():
    """current() as a request outside any transaction sees it (request_started and _finished around it)."""
    request_started.send(sender=None)
    try:
        return catalogue_version.current()
    finally:
        request_finished.send(sender=None)


@pytest.mark.django_db(transaction=True)
def test_requests_reuse_the_version_for_a_short_while_then_read_another_servers_edit(catalogue, settings):
    settings.CATALOGUE_VERSION_REUSE_MS = 60000
    first = _in_a_request()
    _written_elsewhere("from-elsewhere")
    assert _in_a_request() == first  # within the reuse time
    settings.CATALOGUE_VERSION_REUSE_MS = 0
    assert _in_a_request() == "from-elsewhere"
    _written_elsewhere("again-elsewhere")
    assert _in_a_request() == "again-elsewhere"  # 0: read on every request


@pytest.mark.django_db(transaction=True)
def test_this_processs_own_edit_is_seen_by_its_next_request_at_once(catalogue, settings):
    settings.CATALOGUE_VERSION_REUSE_MS = 60000
    first = _in_a_request()
    dragon = Dragon.objects.get(number=20, printing=Printing.ORIGINAL)
    dragon.vp += 1
    dragon.save()
    assert _in_a_request() != first
    assert catalogue_version.current() == _in_a_request()  # outside a request: always read, the same row
