"""A match's clock (docs/matches.md, "Time controls"): days per move, or a time bank with an increment, both paused
while the player to move is on vacation (game/matches/vacation.py).

- Days per move (`time_control` "move"): every decision restarts the clock of the seat to move at `days_per_move`.
- Time bank ("bank"): each seat starts with `bank_days`. The seat to move spends its bank: its deadline is when its
  clock started plus its bank (`Match.banks`, seconds, by seat). The clock runs on through the seat's own run of
  decisions; when it leaves the seat (another seat is to move), the seat keeps what was left plus `increment_days`,
  never more than `bank_cap` (twice the starting bank). A bank that runs out is a timeout like any other.
- A seat whose player is on vacation (`MatchSeat.away_until` in the future) starts its clock when the vacation ends,
  and the time it spends is counted from then: a decision made on vacation costs nothing.

Everything here is arithmetic on what the match and its seats were read with: no query of its own, so a decision
costs the same statements under either control.
"""
from datetime import timedelta

MOVE, BANK = "move", "bank"
TIME_CONTROLS = (MOVE, BANK)
BANK_DAYS = (1, 30)  # the range of a bank's starting days
INCREMENT_DAYS = (0, 7)  # the range of the days added after each turn
BANK_CAP_FACTOR = 2  # a bank never holds more than twice its starting days
DAY = 86400


def bank_cap(match):
    return match.bank_days * BANK_CAP_FACTOR * DAY


def away_until(seat, now):
    """The end of the vacation of the seat's player if they are on one now (a person's seat), else None."""
    until = getattr(seat, "away_until", None)
    if until is None or until <= now or seat.by_machine:
        return None
    return until


def clock_start(seat, now):
    """When a clock that starts now for `seat` starts counting: at once, or when its player's vacation ends."""
    return away_until(seat, now) or now


def remaining(match, seat, now):
    """Seconds the seat to move has left (its deadline less now, not counting vacation days still ahead)."""
    if match.deadline is None:
        return None
    return max(0, int((match.deadline - clock_start(seat, now)).total_seconds()))


def person_deadline(match, seats, to_move, now, machine_grace):
    """The fields of the clock after a change of the state, the seat `to_move` waiting next: its `deadline`,
    whether its reminder is still to come (`reminded`), and under a bank the banks (`banks`)."""
    seat = seats[to_move]
    if match.time_control != BANK:
        wait = machine_grace if seat.by_machine else timedelta(days=match.days_per_move)
        return {"deadline": (now if seat.by_machine else clock_start(seat, now)) + wait, "reminded": False}
    banks = list(match.banks or [match.bank_days * DAY] * len(seats))
    previous = match.to_move
    if previous == to_move and match.deadline is not None and not seat.by_machine:
        return {"deadline": match.deadline, "reminded": match.reminded, "banks": banks}  # the same turn goes on
    if previous is not None and previous < len(seats) and match.deadline is not None \
            and not seats[previous].by_machine:
        left = remaining(match, seats[previous], now)
        banks[previous] = min(bank_cap(match), left + match.increment_days * DAY)
    if seat.by_machine:
        return {"deadline": now + machine_grace, "reminded": False, "banks": banks}
    return {"deadline": clock_start(seat, now) + timedelta(seconds=banks[to_move]), "reminded": False,
            "banks": banks}


def remind_window(match):
    """How long before the deadline the reminder goes: a share (notify.REMIND_AT) of the time the move was given."""
    from .notify import REMIND_AT

    if match.time_control == BANK and match.banks and match.to_move is not None:
        return timedelta(seconds=match.banks[match.to_move]) * REMIND_AT
    return timedelta(days=match.days_per_move) * REMIND_AT


# The longest a bank can give a turn: the sweep looks this far ahead for a bank's reminders.
LONGEST_WAIT = timedelta(days=BANK_DAYS[1] * BANK_CAP_FACTOR)


def bank_reminders_due(now):
    """The bank matches whose reminder is due (read without locks; `remind` checks each again under its lock)."""
    from game.models import Match

    from .notify import REMIND_AT

    rows = Match.objects.filter(status="playing", reminded=False, time_control=BANK, to_move__isnull=False,
                                deadline__lte=now + LONGEST_WAIT * REMIND_AT).values_list("pk", "deadline", "banks",
                                                                                          "to_move")
    return [pk for pk, deadline, banks, to_move in rows
            if banks and to_move < len(banks) and deadline - now <= timedelta(seconds=banks[to_move]) * REMIND_AT]


def bank_left(match, seats, now):
    """Each seat's bank in seconds as the page shows it (the seat to move's as it runs down), or None for a match
    without a bank."""
    if match.time_control != BANK or not match.banks:
        return None
    left = list(match.banks)
    if match.status == "playing" and match.to_move is not None and match.deadline is not None \
            and not seats[match.to_move].by_machine:
        left[match.to_move] = remaining(match, seats[match.to_move], now)
    return left


def describe(match):
    """The time control in a few words, as the lobby and the match page say it."""
    return match.time_control_text()


def days_and_hours(seconds):
    days, rest = divmod(int(seconds), DAY)
    hours = rest // 3600
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} h"
    return f"{hours} h {rest % 3600 // 60} min"


def summary_json(match, seats, now=None):
    """The clock as the API tells it: the control, its parameters, each seat's bank left (seconds; a bank only)
    and the seats whose players are on vacation (`away`: seat and until when)."""
    from django.utils import timezone

    now = now or timezone.now()
    seats = sorted(seats, key=lambda s: s.seat)
    return {
        "time_control": match.time_control, "text": describe(match), "days_per_move": match.days_per_move,
        "bank_days": match.bank_days, "increment_days": match.increment_days,
        "bank_cap_days": match.bank_days * BANK_CAP_FACTOR if match.time_control == BANK else None,
        "banks": bank_left(match, seats, now) if len(seats) == len(match.banks or seats) else None,
        "away": [{"seat": s.seat, "name": s.name, "until": s.away_until.isoformat()} for s in seats
                 if away_until(s, now) is not None and not s.out],
    }


def page(match, seats, now=None):
    """What the match page's clock line shows: the control, each player's bank left, who is on vacation."""
    from django.utils import timezone

    now = now or timezone.now()
    seats = sorted(seats, key=lambda s: s.seat)
    left = bank_left(match, seats, now) if match.banks and len(match.banks) == len(seats) else None
    return {
        "text": describe(match),
        "banks": [{"seat": s.seat, "name": s.name, "left": days_and_hours(left[s.seat])}
                  for s in seats if left is not None and not s.by_machine] or None,
        "away": [{"name": s.name, "until": s.away_until} for s in seats
                 if away_until(s, now) is not None and not s.out],
    }
