"""Tests of ``rage_referee.seats``."""
