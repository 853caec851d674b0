"""What the matches package announces once a change is committed, so the task queue (game/tasks.py) can act on it
without the services importing the queue."""
from django.dispatch import Signal

# Sent after commit with match_id, version, notices (TurnNotice ids to email now), machine_due (seconds until a
# bot's or a departed seat's move is due, or None) and turn_to (the user who gained the turn with this change, to be
# noted and told by the queue, or None).
match_changed = Signal()
