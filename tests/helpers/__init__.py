"""Modules the tests share: bots, records, leagues, contests and pages made for a test."""
