"""What the matches package announces once a change is committed, so the task queue (game/tasks.py) can act on it
without the services importing the queue."""
from django.dispatch import Signal

# Sent after commit with match_id, version, notices (TurnNotice ids to email now) and machine_due (seconds until a
# bot's or a departed seat's move is due, or None).
match_changed = Signal()
