"""Tests of ``rage_referee.report``."""
