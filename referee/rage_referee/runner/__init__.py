"""Runners: what plays games among bots, here or on a cluster; the caller stores what finishes."""
