"""Tests of ``rage_referee.play``."""
