"""The live ladder's core: its settings, its ratings and its matchmaker.

Pure: data in, data out (no gRPC, no database, no asyncio), so the hosted referee and the contest
benchmark run the same rules, and a restarted referee recomputes the same table from its stored sets.
"""
