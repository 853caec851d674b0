"""Players: their profiles (games, scores, ratings and their history, favourite dragons) and the leaderboards."""
