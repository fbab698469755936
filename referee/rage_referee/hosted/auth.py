"""Tokens and callers: who is calling, read from the ``authorization: Bearer <token>`` metadata.

Tokens are random (:func:`secrets.token_urlsafe`) and the referee keeps only their SHA-256 hashes:
the admin and entry tokens in memory (the plain tokens live in files the organizer controls), bot
tokens in the database.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from .errors import PermissionDenied, Unauthenticated

MIN_TOKEN_LENGTH = 16
MAX_TOKEN_LENGTH = 256
METADATA_KEY = "authorization"
SCHEME = "bearer"


class Role(StrEnum):
    ADMIN = "admin"
    """The organizer: leagues, and everything an entrant may do."""
    ENTRANT = "entrant"
    """Holds the entry token: may register bots and read."""
    BOT = "bot"
    """Holds one bot's token: may change that bot and read."""


@dataclass(frozen=True)
class Caller:
    role: Role
    bot: str | None = None
    """The bot's name, for a bot token."""
    key: str = ""
    """The token's hash: what per-token limits count by."""

    @property
    def holder(self) -> str:
        """Whom the bots this caller registers count against (:data:`checks.MAX_BOTS_PER_TOKEN`): its
        token's hash; none for the organizer, bounded by the referee's limit alone."""
        return "" if self.role is Role.ADMIN else self.key

    def require_admin(self, what: str) -> None:
        if self.role is not Role.ADMIN:
            raise PermissionDenied(f"only the organizer's admin token may {what}")

    def require_entrant(self, what: str) -> None:
        if self.role not in (Role.ADMIN, Role.ENTRANT):
            raise PermissionDenied(f"only the entry token (or the admin token) may {what}")

    def require_bot(self, name: str, what: str) -> None:
        if self.role is not Role.BOT or self.bot != name:
            raise PermissionDenied(f"only the token of bot {name!r} may {what}")

    def sees_address_of(self, name: str) -> bool:
        return self.role is Role.ADMIN or self.bot == name


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str:
    """The token of an ``authorization: Bearer <token>`` entry; :class:`Unauthenticated` without one."""
    for key, value in metadata or ():
        if key.lower() != METADATA_KEY:
            continue
        text = value.decode(errors="replace") if isinstance(value, bytes) else value
        scheme, _, token = text.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != SCHEME or not token:
            raise Unauthenticated("authorization: expected 'Bearer <token>'")
        if len(token) > MAX_TOKEN_LENGTH:
            raise Unauthenticated("authorization: unknown token")
        return token
    raise Unauthenticated("no token: send the metadata 'authorization: Bearer <token>'")


class Authenticator:
    """Tells callers apart by their token's hash: admin, entrant, or one bot (looked up by hash)."""

    def __init__(self, admin_token: str, entry_token: str, bot_of_hash: Callable[[str], str | None]) -> None:
        self._admin = token_hash(admin_token)
        self._entry = token_hash(entry_token)
        self._bot_of_hash = bot_of_hash

    def identify(self, metadata: Iterable[tuple[str, str | bytes]] | None) -> Caller:
        """The caller; :class:`Unauthenticated` for a missing or unknown token."""
        digest = token_hash(bearer_token(metadata))
        if hmac.compare_digest(digest, self._admin):
            return Caller(Role.ADMIN, key=digest)
        if hmac.compare_digest(digest, self._entry):
            return Caller(Role.ENTRANT, key=digest)
        bot = self._bot_of_hash(digest)
        if bot is not None:
            return Caller(Role.BOT, bot, key=digest)
        raise Unauthenticated("authorization: unknown token")


class TokenFileError(ValueError):
    """A token file that cannot be read or written; the message names it."""


def token_from_file(path: Path) -> tuple[str, bool]:
    """The token in ``path``, or a new one written there (readable by its owner only).

    :returns: the token, and whether it was created now.
    :raises TokenFileError: the file cannot be read or written, or holds too short a token.
    """
    try:
        token = path.read_text().strip()
    except FileNotFoundError:
        token = new_token()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as handle:
                handle.write(token + "\n")
        except OSError as error:
            raise TokenFileError(f"{path}: cannot write a new token: {error.strerror or error}") from None
        return token, True
    except OSError as error:
        raise TokenFileError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(token) < MIN_TOKEN_LENGTH or any(c.isspace() for c in token):
        raise TokenFileError(f"{path}: a token is one word of at least {MIN_TOKEN_LENGTH} characters")
    return token, False
