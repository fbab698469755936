"""Tests of the SDK, the referee and the project, one folder per package."""
