"""Migration 0011 gives every match stored before public ids one of its own, each different, then makes the column
unique and required."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from game.matches import ids

BEFORE = [("game", "0010_guests")]


@pytest.mark.django_db(transaction=True)
def test_matches_stored_before_public_ids_each_get_a_distinct_one(catalogue, alice):
    from game.matches import services

    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("game")
    for _ in range(6):
        services.create_match(alice, players=2)
    try:
        executor.migrate(BEFORE)
        old = MigrationExecutor(connection).loader.project_state(BEFORE).apps.get_model("game", "Match")
        numbers = sorted(old.objects.values_list("pk", flat=True))
        assert len(numbers) == 6 and not hasattr(old(), "public_id")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    from game.models import Match

    found = dict(Match.objects.values_list("pk", "public_id"))
    assert sorted(found) == numbers
    assert len(set(found.values())) == 6 and all(ids.is_public_id(public_id) for public_id in found.values())
