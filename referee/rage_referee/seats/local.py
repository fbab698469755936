"""The in-process transport: a ``Bot`` subclass from a Python file, called directly on the referee's thread.

What the SDK says of the bot's failures (a line each, and its traceback) goes to the bot's log, as a
launched bot's stderr does, not to the referee's terminal: a bot failing every decision wrote
thousands of tracebacks over the referee's own lines. What the bot prints goes there too (:func:`bot_output`),
never into the referee's stdout (``rage match --json`` gave no JSON), and what it writes to stderr, never raw onto the
organizer's terminal. The log's folder is made before the bot is loaded; the log at its first line.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from rage_sdk.bot import Bot, BotFactory, BotNotMade, BotRunner, bot_class_of, unfinished
from rage_sdk.pb import bot_pb2 as pb

from ..faults import FaultKind
from ..text import bot_text
from .connection import Answer, BotIdentity, Connection, Key
from .errors import ConnectionLost, HandshakeError, SeatTimeout
from .spec import IN_PROCESS, BotSpecError


def load_bot_class(target: str, folder: Path | None = None) -> type[Bot]:
    """The :class:`Bot` subclass named by ``path/to/file.py:ClassName``, a relative path read from ``folder``
    (none: the current folder). :class:`BotSpecError` in one line for a class that cannot play, :class:`Bot`
    itself or a subclass that does not override ``bid`` or ``play`` (:func:`~rage_sdk.bot.unfinished`)."""
    match = IN_PROCESS.match(target)
    if not match:
        raise BotSpecError(f"{target!r}: expected FILE.py:CLASS")
    path = Path(match["path"])
    if folder is not None and not path.is_absolute():
        path = folder / path
    if not path.is_file():
        raise BotSpecError(f"{target!r}: no file {path}")
    spec = importlib.util.spec_from_file_location(f"rage_bot_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise BotSpecError(f"{target!r}: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except SystemExit as error:  # a main() run on import: it read the referee's command line and gave up
        del sys.modules[spec.name]
        raise BotSpecError(
            f"{target!r}: {path} exited as it was loaded (code {error.code}); "
            'run its main() only under: if __name__ == "__main__":'
        ) from None
    except Exception as error:
        del sys.modules[spec.name]
        raise BotSpecError(f"{target!r}: loading {path} failed: {error}") from error
    name = match["name"]
    bot_class = getattr(module, name, None)
    if not (isinstance(bot_class, type) and issubclass(bot_class, Bot)):
        wrong = (
            f"{path} has no class {name}" if bot_class is None else f"{name} in {path} is not a rage_sdk.Bot subclass"
        )
        raise BotSpecError(f"{target!r}: {wrong}; {bot_classes_text(module)}")
    lacking = unfinished(bot_class)
    if lacking is not None:  # it would fault every decision: refused before it plays
        others = f"; {bot_classes_text(module)}" if bot_class is Bot else ""
        raise BotSpecError(f"{target!r}: {lacking}{others}")
    return bot_class


def bot_classes_text(module: object) -> str:
    """The :class:`Bot` subclasses a loaded bot file holds, by the names it gives them, in a few words."""
    names = [
        name
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, Bot) and value is not Bot
    ]
    return f"its rage_sdk.Bot subclasses: {', '.join(names)}" if names else "it has no rage_sdk.Bot subclass"


class LocalConnection(Connection):
    """A bot in the referee's own process: the same messages, handed over by a function call.

    For fast local testing. The bot runs on the referee's thread, where nothing can stop it: an answer past its
    deadline is a timeout once it comes (the game plays the fallback, as for a served bot's late answer), and a
    bot that never answers holds the referee until it is stopped.
    """

    def __init__(self, factory: BotFactory, failures: FailureLog | None = None) -> None:
        self.factory = factory
        self.failures = failures
        """Where the bot's failures and prints are told; the referee's stderr when none."""
        self.runner = BotRunner(factory, failures=self.failures)

    async def open(self) -> BotIdentity:
        bot_class = bot_class_of(self.factory)
        self.identity = BotIdentity(bot_class.display_name(), bot_class.version)
        return self.identity

    def _handle(self, message: bytes) -> list[pb.Decision]:
        try:
            with bot_output(self.failures):
                return self.runner.handle([pb.GameMessage.FromString(message)])
        except KeyboardInterrupt:
            raise  # Ctrl-C, which came while the bot's code ran on the referee's thread
        except BotNotMade as error:  # the bot said so (its traceback is in its log); the runner says so again later
            raise ConnectionLost(str(error), FaultKind.BOT_ERROR) from None
        except BaseException as error:  # the bot's own code failed where the runner does not catch it: the bot's end
            raise ConnectionLost(_failure(error)) from None

    def send(self, message: bytes) -> None:
        with contextlib.suppress(ConnectionLost):
            self._handle(message)

    async def decide(self, message: bytes, key: Key, timeout: float | None) -> Answer:
        started = time.monotonic()
        decision = self._handle(message)[0]
        used = time.monotonic() - started
        if timeout is not None and used > timeout:
            raise SeatTimeout(f"answered after {used * 1000:.0f} ms")
        return Answer(decision, used)

    async def close(self) -> None:
        self.runner = BotRunner(self.factory, failures=self.failures)
        if self.failures is not None:
            self.failures.close()

    @property
    def alive(self) -> bool:
        return True


@contextlib.contextmanager
def bot_output(failures: FailureLog | None) -> Iterator[None]:
    """While an in-process bot's code runs, what it prints or writes to stderr goes where its failures are told
    (the referee's stderr when there is no log). Safe with several such bots: each one's code runs on the loop's
    thread with no await in it, so no other bot's code runs until stdout and stderr are given back."""
    target: io.TextIOBase | TextIO = failures or sys.stderr
    with contextlib.redirect_stdout(target), contextlib.redirect_stderr(target):
        yield


def _failure(error: BaseException) -> str:
    """What an in-process bot's failure is charged as. Its code runs with no await in it, so even a
    ``CancelledError`` is the bot's own, never the referee's game being cancelled."""
    if isinstance(error, SystemExit):
        return f"the bot called exit({error.code!r}): an in-process bot may not exit"
    return f"the bot failed: {type(error).__name__}: {error}"


class FailureLog(io.TextIOBase):
    """An in-process bot's log, appended to: opened at its first line, so a bot that never fails makes none.

    A log that cannot be written (its folder is a file, the disk is full) leaves what it is told on the
    referee's stderr instead.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: io.TextIOWrapper | None = None

    def make_folder(self) -> None:
        """Make the log's folder, as a launched bot's is made before it starts.

        :raises HandshakeError: the folder cannot be made (it is a file, or not writable).
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = "not a folder" if isinstance(error, FileExistsError | NotADirectoryError) else error.strerror
            raise HandshakeError(f"cannot write the bot's log {self.path}: {reason or error}") from None

    def write(self, text: str) -> int:
        if self._file is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("a", buffering=1, encoding="utf-8", errors="backslashreplace")
                when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
                self._file.write(f"\n=== {when}: the referee runs this bot in its own process\n")
            except OSError:
                return _on_stderr(text)
        try:
            return self._file.write(text)
        except OSError:
            return _on_stderr(text)

    def flush(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.flush()

    def close(self) -> None:
        """Close the file; a later line opens it again."""
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()


def _on_stderr(text: str) -> int:
    """Tell the referee's stderr what a log that cannot be written was told, each line escaped and capped."""
    sys.stderr.write("".join(f"{bot_text(line)}\n" for line in text.splitlines()))
    return len(text)
