"""Tokens and callers: who is calling, read from the ``authorization: Bearer <token>`` metadata.

Tokens are random (:func:`secrets.token_urlsafe`) and the referee keeps only their SHA-256 hashes:
the admin token's in memory (the plain token lives in a file the organizer controls), entrants' and
bots' in the database. The shared entry token is the token of the entrant ``entry``.
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
from typing import TYPE_CHECKING

from rage_sdk.errors import RageError

from ..limits import MAX_TOKEN_LENGTH
from .errors import PermissionDenied, Unauthenticated
from .registry import ENTRY_ENTRANT

if TYPE_CHECKING:
    from .registry import TokenHolder

MIN_TOKEN_LENGTH = 16
METADATA_KEY = "authorization"
SCHEME = "bearer"


class Role(StrEnum):
    ADMIN = "admin"
    """The organizer: leagues, entrants, and everything an entrant may do."""
    ENTRANT = "entrant"
    """Holds an entrant's token: may register and submit bots, delete their versions, and read."""
    BOT = "bot"
    """Holds one bot's token: may change that bot and read."""


@dataclass(frozen=True)
class Caller:
    role: Role
    bot: str | None = None
    """The bot's name, for a bot token."""
    key: str = ""
    """The token's hash."""
    entrant: str = ""
    """The entrant: an entrant's token's, or a bot token's bot's (empty for the organizer's bots)."""

    @property
    def holder(self) -> str:
        """Whom the caller's uploads, builds and Watch streams count against: its entrant (its own token and
        all its bots' together), else its token (the admin's, an organizer's bot's)."""
        return f"entrant:{self.entrant}" if self.entrant else f"token:{self.key}"

    def require_admin(self, what: str) -> None:
        if self.role is not Role.ADMIN:
            raise PermissionDenied(f"only the organizer's admin token may {what}")

    def require_entrant(self, what: str) -> None:
        if self.role not in (Role.ADMIN, Role.ENTRANT):
            raise PermissionDenied(f"only an entrant's token (or the admin token) may {what}")

    def require_bot(self, name: str, what: str) -> None:
        if self.role is not Role.BOT or self.bot != name:
            raise PermissionDenied(f"only the token of bot {name!r} may {what}")

    def owns(self, name: str, entrant: str) -> bool:
        """Whether the caller is the admin, bot ``name``'s own token, or its entrant's (``entrant``, empty
        for the organizer's bot). The shared entry token owns none of the bots it registered: whoever holds
        it is anyone; each such bot is its own token's."""
        if self.role is Role.ADMIN or (self.role is Role.BOT and self.bot == name):
            return True
        return self.role is Role.ENTRANT and entrant not in ("", ENTRY_ENTRANT) and self.entrant == entrant

    def require_owner(self, name: str, entrant: str, what: str) -> None:
        """:meth:`owns`, or :class:`PermissionDenied`."""
        if not self.owns(name, entrant):
            raise PermissionDenied(f"only the token of bot {name!r}, its entrant's or the admin's may {what}")

    def sees_address_of(self, name: str) -> bool:
        return self.role is Role.ADMIN or self.bot == name


def holder_text(holder: str) -> str:
    """A :attr:`Caller.holder` in a message: ``entrant 'alice'``, or ``this token``."""
    kind, _, name = holder.partition(":")
    return f"entrant {name!r}" if kind == "entrant" else "this token"


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
    """Tells callers apart by their token's hash: the admin, an entrant, or one bot (both looked up by hash)."""

    def __init__(self, admin_token: str, holder_of_hash: Callable[[str], TokenHolder | None]) -> None:
        self._admin = token_hash(admin_token)
        self._holder_of_hash = holder_of_hash

    def identify(self, metadata: Iterable[tuple[str, str | bytes]] | None) -> Caller:
        """The caller; :class:`Unauthenticated` for a missing or unknown token, or a disabled entrant's."""
        digest = token_hash(bearer_token(metadata))
        if hmac.compare_digest(digest, self._admin):
            return Caller(Role.ADMIN, key=digest)
        holder = self._holder_of_hash(digest)
        if holder is None:
            raise Unauthenticated("authorization: unknown token")
        if holder.disabled:
            raise Unauthenticated(f"authorization: entrant {holder.entrant!r} is disabled")
        if holder.bot:
            return Caller(Role.BOT, holder.bot, key=digest, entrant=holder.entrant)
        return Caller(Role.ENTRANT, key=digest, entrant=holder.entrant)


class TokenFileError(RageError, ValueError):
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
