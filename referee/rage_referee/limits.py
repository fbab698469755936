"""The ranges a league, a match or a hosted league accepts: one place, so every front end refuses alike.

Each bound keeps a setting inside what the referee can hold and run: a deal seed (and the deal seeds
derived from it, ``(seed << 32) + game``) fits a signed 64-bit database column, a deadline fits the
event loop's timers, and a count stays within what one process can schedule.
"""

from __future__ import annotations

from typing import Final

MAX_SEED: Final = 2**31 - 1
"""Largest explicit seed: ``(seed << 32) + game`` stays below 2**63."""
MAX_DECISION_MS: Final = 3_600_000
"""An hour per decision."""
MAX_BANK_MS: Final = 86_400_000
"""A day of bank per game."""
MAX_FAULTS: Final = 1_000_000
MAX_GAMES: Final = 1_000_000
"""Games of a local league or match (a hosted league allows fewer: :data:`MAX_HOSTED_GAMES`)."""
MAX_HOSTED_GAMES: Final = 100_000
"""Games of a hosted league, and of a ladder's final at most."""
MAX_WORKERS: Final = 4096
"""Ray worker processes for one league."""
MAX_CONCURRENCY: Final = 256
"""Games played at once by one process."""
MAX_GRACE_SECONDS: Final = 3600
"""How long a stopping referee gives the games in progress, at most: an hour."""
MAX_BOT_LOG_BYTES: Final = 16 * 2**20
"""What a launched bot's stdout and stderr add to its log in one run (a launch), in the sandbox or out of
it: what comes after is read and dropped, and the run's section ends in a line saying how much was cut."""
MAX_LEAGUE_FILE_BYTES: Final = 2**20
"""The largest league file read (a league of hundreds of bots is a few KB); a larger one is refused unread."""
MAX_RECORD_BYTES: Final = 64 * 2**20
"""The largest record file read (far above any game's: a 10-player game of 100 rounds is a few MB); a larger
one is refused unread."""

MAX_HOSTED_BOTS: Final = 1000
"""Bots registered on a hosted referee, at most (so the most finalists a ladder can have)."""
MAX_BOT_NAME: Final = 40
"""Characters of a hosted bot's or entrant's name."""
MAX_LEAGUE_NAME: Final = 60
"""Characters of a hosted league's or ladder's name."""
MAX_OWNER: Final = 100
"""Characters of the owner given with a hosted bot."""
MAX_VERSION: Final = 80
"""A version as a request names it: ``sha256:`` and 64 hex digits, or 16 of them."""
MAX_ADDRESS: Final = 260
"""Characters of a hosted bot's ``HOST:PORT``."""
MAX_TOKEN_LENGTH: Final = 256
"""Characters of a token the hosted referee reads."""
MAX_DEFINITION_BYTES: Final = 32 * 1024
"""The largest league or contest file a hosted referee takes."""
