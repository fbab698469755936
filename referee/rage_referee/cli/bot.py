"""``rage bot``: serve a bot written with the SDK, or check one before a contest."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from .common import err, fail, out

app = typer.Typer(help="Serve a bot, or check one before entering a contest.", no_args_is_help=True)


@app.command("serve")
def serve_command(
    target: Annotated[str, typer.Argument(help="FILE.py:CLASS, a rage_sdk.Bot subclass.", show_default=False)],
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 50051,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "[::]",
    listen: Annotated[
        str | None, typer.Option(metavar="unix:PATH", help="A Unix socket to listen on instead of a port.")
    ] = None,
) -> None:
    """Serve a bot over gRPC until SIGTERM or Ctrl-C."""
    from rage_sdk.server import is_unix_address, serve

    if listen is not None and not is_unix_address(listen):
        fail(f"--listen {listen!r}: expected unix:PATH")
    from ..bots import BotSpecError, load_bot_class

    try:
        bot_class = load_bot_class(target)
    except BotSpecError as error:
        fail(str(error))
    serve(bot_class, port, host, listen=listen)


@app.command("check")
def check_command(
    target: Annotated[
        str, typer.Argument(help="HOST:PORT, a command to launch (with {port}), or FILE.py:CLASS.", show_default=False)
    ],
    decision_ms: Annotated[int, typer.Option(min=1, help="The deadline each answer must meet.")] = 1000,
) -> None:
    """Check a bot is fit for a contest: handshake, legal answers in time for every preset and card kind."""
    from ..bots import BotSpec, BotSpecError
    from ..check import check_bot

    try:
        spec = BotSpec.of("bot", target)
    except BotSpecError as error:
        fail(str(error))
    report = asyncio.run(check_bot(spec, decision_ms))
    for line in report.lines:
        (out if line.ok else err).print(("[green]ok[/]    " if line.ok else "[red]FAIL[/]  ") + line.text)
    if not report.ok:
        raise typer.Exit(1)
    out.print("[green]the bot passed every check[/]")
