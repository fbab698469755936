"""Tests of ``rage_referee.matches``."""
