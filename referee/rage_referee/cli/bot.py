"""``rage bot``: serve a bot written with the SDK, or check one before a contest."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .common import COMMAND_HELP, err, fail, out
from .errors import saying
from .options import DecisionMsOption

app = typer.Typer(help="Serve a bot, or check one before entering a contest.", no_args_is_help=True)


@app.command("serve")
def serve_command(
    target: Annotated[str, typer.Argument(help="FILE.py:CLASS, a rage_sdk.Bot subclass.", show_default=False)],
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 50051,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "[::]",
    listen: Annotated[
        str | None, typer.Option(metavar="unix:PATH", help="A Unix socket to listen on instead of a port.")
    ] = None,
) -> None:
    """Serve a bot over gRPC until SIGTERM or Ctrl-C."""
    from rage_sdk.server import ListenError, is_unix_address, serve

    if listen is not None and not is_unix_address(listen):
        fail(f"--listen {listen!r}: expected unix:PATH")
    from ..seats import load_bot_class

    bot_class = load_bot_class(target)
    try:
        serve(bot_class, port, host, listen=listen)
    except OSError as error:  # a ListenError names the option at fault; any other is the port's
        fail(f"--{error.option if isinstance(error, ListenError) else 'port'}: {error}")


@app.command("check")
def check_command(
    target: Annotated[str, typer.Argument(help=f"HOST:PORT, {COMMAND_HELP}, or FILE.py:CLASS.", show_default=False)],
    decision_ms: DecisionMsOption = 1000,
    logs: Annotated[Path, typer.Option(help="Folder for a launched bot's stderr log (kept).")] = Path("logs"),
) -> None:
    """Check a bot is fit for a contest: handshake, legal answers in time for every preset and card kind."""
    from ..matches.check import check_bot
    from ..seats import BotSpec

    spec = BotSpec.of("bot", target)
    report = asyncio.run(check_bot(spec, decision_ms, logs))
    for line in report.lines:
        mark = ("ok    ", "green") if line.ok else ("FAIL  ", "red")
        (out if line.ok else err).print(Text.assemble(mark, line.text), soft_wrap=True)
    if not report.ok:
        raise typer.Exit(1)
    out.print("the bot passed every check", style="green")


@app.command("build")
def build_command(
    source: Annotated[
        Path, typer.Argument(help="A bot's folder, .tar.gz or .zip with its rage-bot.toml.", show_default=False)
    ],
    versions: Annotated[Path, typer.Option(help="Where versions are stored.")] = Path("submissions"),
    no_sandbox: Annotated[
        bool, typer.Option("--no-sandbox", help="Build without the sandbox, with your own rights (trusted code only).")
    ] = False,
) -> None:
    """Store a submission as a version (by content hash) and build it once in the sandbox; print the build log."""

    from ..sandbox import Sandbox, SandboxError, SandboxSettings
    from ..submissions.archive import ArchiveError
    from ..submissions.build import build
    from ..submissions.manifest import ManifestError
    from ..submissions.store import store_submission

    if not source.exists():
        fail(f"{source}: no such folder or archive")
    with saying({(ArchiveError, ManifestError): (f"{source}: {{error}}", 2)}):
        submission = store_submission(source, versions)
    sandbox = None
    if no_sandbox:
        err.print("--no-sandbox: the build runs without the sandbox, with your rights and network")
    else:
        with saying({SandboxError: ("cannot build in a sandbox: {error} (--no-sandbox builds without one)", 1)}):
            sandbox = Sandbox.available(SandboxSettings(enabled=True))
    out.print(f"{submission.manifest.name} version {submission.short}: {submission.folder}")
    result = build(submission, sandbox)
    if result.log:
        out.print(result.log.rstrip(), highlight=False)
    (out if result.ok else err).print(f"build: {result.detail} ({result.seconds:.1f} s)")
    if not result.ok:
        raise typer.Exit(1)
