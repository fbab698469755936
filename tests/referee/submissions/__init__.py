"""Tests of ``rage_referee.submissions``."""
