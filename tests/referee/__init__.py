"""Tests of the referee, one folder per package; the top-level modules' tests here."""
