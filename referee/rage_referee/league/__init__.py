"""Leagues: a schedule of games among many bots, stored as they finish, and the rating table."""
