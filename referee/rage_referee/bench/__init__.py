"""Benchmarks: figures measured beside a baseline run on the same machine in the same run."""
