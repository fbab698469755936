"""Tests of ``rage_referee.cli``."""
