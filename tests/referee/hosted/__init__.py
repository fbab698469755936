"""Tests of ``rage_referee.hosted``."""
