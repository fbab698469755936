"""Tests of the SDK: the rules engine, views, records, sampling and the example bots."""
