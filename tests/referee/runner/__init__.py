"""Tests of ``rage_referee.runner``."""
