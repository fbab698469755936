"""Tests of ``rage_referee.records``."""
