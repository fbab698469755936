"""Tests of ``rage_referee.league``."""
