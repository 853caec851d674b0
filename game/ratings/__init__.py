"""Ratings: Glicko-2 for players, bots and the Automa (glicko2.py: the method; service.py: when and what it updates)."""
