"""Work done later or on a timetable, by the task queue (Huey; settings HUEY, docs/deploy.md).

A task here is a plain function decorated with `db_task` (runs when a worker picks it up; `task.schedule(delay=..)`
runs it later) or `db_periodic_task` (runs on a crontab). The `db_` forms close stale database connections around
each run, as a request does. Tasks take ids, not model instances, and read what they need afresh: the database may
have changed between enqueueing and running.
"""
from django.contrib.sessions.models import Session
from django.utils import timezone
from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task


@db_task()
def clear_expired_sessions():
    """Delete the sessions past their expiry date (Django never deletes one on its own); returns how many went."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@db_periodic_task(crontab(hour="4", minute="17"))
def nightly_housekeeping():
    """At 04:17 UTC, when the site is quiet. Each job is its own task, so each runs and fails on its own.

    (A periodic task's return value is not kept, so the jobs are ordinary tasks whose results can be read.)
    """
    clear_expired_sessions()
