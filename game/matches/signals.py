"""What the matches package announces once a change is committed, so the task queue (game/tasks.py) can act on it
without the services importing the queue."""
from django.dispatch import Signal

# Sent after commit with match_id, version, notices (TurnNotice ids to email now), machine_to_move (a bot or a
# departed seat is to move and no machine task plays it yet: the queue starts one now), turn_to (the user who gained
# the turn with this change, to be noted and told by the queue, or None) and ended (the match is over: rate it).
match_changed = Signal()
