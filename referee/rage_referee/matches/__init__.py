"""Contests among a few bots: a match, a trial of NEW against BASE with its sequential test, a bot check."""
