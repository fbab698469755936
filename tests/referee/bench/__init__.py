"""Tests of ``rage_referee.bench``."""
