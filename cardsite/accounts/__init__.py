"""Sign-in sessions that carry their user: a request reads its session and its user in one query."""
