"""Rage Arena referee: runs matches between bots, records and checks games, and the ``rage`` command."""
