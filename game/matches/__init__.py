"""Matches played in the browser: frozen catalogues, the services that change a match, and what a player sees."""
