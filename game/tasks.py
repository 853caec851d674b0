"""Work done later or on a timetable, by the task queue (Huey; settings HUEY, docs/deploy.md).

A task here is a plain function decorated with `db_task` (runs when a worker picks it up; `task.schedule(delay=..)`
runs it later) or `db_periodic_task` (runs on a crontab). The `db_` forms close stale database connections around
each run, as a request does. Tasks take ids, not model instances, and read what they need afresh: the database may
have changed between enqueueing and running.

Matches' tasks (emails, bots' moves, the deadline sweep, the daily digest) are safe to run late, twice or never:
the deadline is stored on the match and the periodic sweep acts on it under the match's lock, so a lost delayed
task only means the sweep makes that move within a minute.
"""
from django.dispatch import receiver
from django.utils import timezone
from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task, periodic_task

from cardsite import queue
from cardsite.accounts.models import Session

from .matches import notify, services
from .matches.signals import match_changed
from .ratings import service as ratings


@db_task()
def clear_expired_sessions():
    """Delete the sessions past their expiry date (Django never deletes one on its own); returns how many went."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@db_periodic_task(crontab(hour="4", minute="17"))
def nightly_housekeeping():
    """At 04:17 UTC, when the site is quiet. The jobs run here, not enqueued: nobody would read their results.

    (A periodic task's own return value is never kept, so each job is also an ordinary task that can be sent.)
    """
    clear_expired_sessions.call_local()


@periodic_task(crontab(minute="*"))
def worker_heartbeat():
    """Every minute: tell /health/ that a worker is running tasks (cardsite/queue.py)."""
    queue.beat()


@db_task()
def deliver_notice(notice_id):
    """Email one turn notice or reminder (once, however often this runs)."""
    return notify.deliver(notice_id)


@db_task()
def machine_move(match_id, version):
    """The machine's decisions from `version` on, while the match waits for a bot or a departed seat (all of a
    bot's turn, and the next bot's, in one task)."""
    return services.machine_move(match_id, version)


@db_periodic_task(crontab(minute="*"))
def sweep_deadlines():
    """Every minute: time out seats, make overdue bot moves, send due reminders and the turns held while players
    were at the table; rate any finished match that was not rated when it ended."""
    services.sweep()
    notify.send_held()
    ratings.rate_finished()


@db_task()
def rate_games():
    """Rate the matches that ended and were not rated yet, in the order they ended (game/ratings/service.py)."""
    return ratings.rate_finished()


@db_periodic_task(crontab(hour="7", minute="0"))
def daily_digest():
    """At 07:00 UTC: one email per player who asked for a digest, listing the turns they gained."""
    notify.send_digests()


@db_task()
def note_turn(match_id, user_id, version):
    """Note that a player gained the turn at `version` and email them now if they asked for it (once, however often
    this runs): done here, after the decision committed, so a move does not wait for it."""
    for notice_id in notify.turn_gained(match_id, user_id, version):
        notify.deliver(notice_id)


@receiver(match_changed)
def _queue_follow_up(sender, match_id, version, notices, machine_to_move, turn_to=None, ended=False, **kwargs):
    # Through queue.send: if Redis does not answer, these run in this process rather than fail a stored move.
    if turn_to is not None:
        queue.send(note_turn, match_id, turn_to, version)
    for notice_id in notices:
        queue.send(deliver_notice, notice_id)
    if machine_to_move:
        queue.send(machine_move, match_id, version)
    if ended:  # rated at once (the sweep rates any match this misses)
        queue.send(rate_games)
