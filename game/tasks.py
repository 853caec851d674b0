"""Background work of matches, run by Huey: emails, bots' moves, the deadline sweep and the daily digest.

Every task is safe to run late, twice or never: the deadline is stored on the match and the periodic sweep acts on
it under the match's lock, so a lost delayed task only means the sweep makes that move a minute later.
"""
from django.dispatch import receiver
from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task

from .matches import notify, services
from .matches.signals import match_changed


@db_task()
def deliver_notice(notice_id):
    notify.deliver(notice_id)


@db_task()
def machine_move(match_id, version):
    services.machine_move(match_id, version)


@db_periodic_task(crontab(minute="*"))
def sweep_deadlines():
    services.sweep()


@db_periodic_task(crontab(hour="7", minute="0"))
def daily_digest():
    notify.send_digests()


@receiver(match_changed)
def _queue_follow_up(sender, match_id, version, notices, machine_due, **kwargs):
    for notice_id in notices:
        deliver_notice(notice_id)
    if machine_due is not None:
        machine_move.schedule((match_id, version), delay=machine_due)
