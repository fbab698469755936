"""``rage referee``: serve a hosted contest, and talk to one (entrants and the organizer).

Every command but ``serve`` calls a referee at ``--referee HOST:PORT`` (or ``$RAGE_REFEREE``) with a
token from ``--token`` (or ``$RAGE_TOKEN``): the admin token, an entrant's token (the entry token is the
entrant ``entry``'s), or a bot's token.
"""

from __future__ import annotations

import json
import logging
import shlex
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.text import Text

from ..limits import (
    MAX_ADDRESS,
    MAX_BOT_NAME,
    MAX_GAMES,
    MAX_GRACE_SECONDS,
    MAX_HOSTED_BOTS,
    MAX_HOSTED_GAMES,
    MAX_LEAGUE_NAME,
    MAX_OWNER,
    MAX_TOKEN_LENGTH,
    MAX_VERSION,
)
from ..report.listening import (
    HEADER_TIMEOUT,
    LEAST_HEADER_TIMEOUT,
    MAX_CONNECTIONS,
    MAX_PER_ADDRESS,
    MOST_CONNECTIONS,
    MOST_HEADER_TIMEOUT,
)
from ..submissions.version import short_version
from ..text import bot_text, figure, name_text
from .common import Format, err, fail, out, tell_made_folder
from .errors import saying
from .options import RayOption, RayWorkersOption, ray_settings
from .ratings import render

if TYPE_CHECKING:
    import grpc
    from google.protobuf.message import Message
    from rage_sdk.pb import referee_pb2 as pb

    from ..hosted.server import TlsFiles

app = typer.Typer(help="A referee server for hosted contests, and the commands that talk to it.", no_args_is_help=True)
entrant_app = typer.Typer(
    help="The contest's entrants, each with a token of its own (admin token).", no_args_is_help=True
)
version_app = typer.Typer(help="A submitted bot's versions.", no_args_is_help=True)
app.add_typer(entrant_app, name="entrant")
app.add_typer(version_app, name="version")

CALL_TIMEOUT = 30.0
OVER = ("finished", "cancelled")


def at_most(longest: int) -> Callable[[str | None], str | None]:
    """A parameter's check against the referee's bound on that field, made before any call: a text past the
    referee's request size came back as gRPC's RESOURCE_EXHAUSTED, naming no field."""

    def checked(value: str | None) -> str | None:
        if value is not None and len(value) > longest:
            raise typer.BadParameter(f"at most {longest} characters, not {len(value)}")
        return value

    return checked


BOT_NAME = at_most(MAX_BOT_NAME)
RefereeOption = Annotated[
    str, typer.Option("--referee", envvar="RAGE_REFEREE", help="The referee's HOST:PORT (or $RAGE_REFEREE).")
]
TokenOption = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="RAGE_TOKEN",
        help="Your token: admin, entrant or bot (or $RAGE_TOKEN).",
        show_default=False,
        callback=at_most(MAX_TOKEN_LENGTH),
    ),
]
TlsCaOption = Annotated[
    Path | None,
    typer.Option(
        "--tls-ca",
        envvar="RAGE_REFEREE_CA",
        help="Call over TLS, trusting this CA certificate (PEM).",
        show_default=False,
    ),
]
LeagueArgument = Annotated[
    str, typer.Argument(help="The league's name.", show_default=False, callback=at_most(MAX_LEAGUE_NAME))
]
DEFAULT_REFEREE = "localhost:50050"


@dataclass(frozen=True)
class Remote:
    """A referee to call, and the token to call it with."""

    address: str
    token: str | None
    tls_ca: Path | None

    def channel(self) -> grpc.Channel:
        import grpc

        if self.tls_ca is None:
            return grpc.insecure_channel(self.address)
        try:
            roots = self.tls_ca.read_bytes()
        except OSError as error:
            fail(f"--tls-ca: cannot read {self.tls_ca}: {error.strerror or error}")
        return grpc.secure_channel(self.address, grpc.ssl_channel_credentials(root_certificates=roots))

    def metadata(self) -> list[tuple[str, str]]:
        if not self.token:
            fail("no token: give --token or set RAGE_TOKEN (the admin token, your entrant's token or your bot's token)")
        return [("authorization", f"Bearer {self.token}")]

    def call(self, method: str, request: Message) -> Any:
        """One unary call; a refusal or an unreachable referee ends the command with a clear message."""
        import grpc
        from rage_sdk.pb import referee_pb2_grpc

        metadata = self.metadata()
        with self.channel() as channel:
            stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
            try:
                return getattr(stub, method)(request, metadata=metadata, timeout=CALL_TIMEOUT)
            except grpc.RpcError as error:
                refused(error, self.address)


def refused(error: grpc.RpcError, address: str) -> NoReturn:
    import grpc

    code, details = error.code(), error.details() or ""
    if code is grpc.StatusCode.UNAVAILABLE:
        fail(f"cannot reach the referee at {address}: {details}", 1)
    if code is grpc.StatusCode.DEADLINE_EXCEEDED:
        fail(f"the referee at {address} did not answer within {CALL_TIMEOUT:.0f} s", 1)
    fail(f"refused ({code.name}): {details}", 1)


def remote(referee: str, token: str | None, tls_ca: Path | None) -> Remote:
    return Remote(referee, token, tls_ca)


def status_name(value: int) -> str:
    """``running`` for ``LEAGUE_STATUS_RUNNING``."""
    from rage_sdk.pb import referee_pb2 as pb

    try:
        return str(pb.LeagueStatus.Name(value)).removeprefix("LEAGUE_STATUS_").lower()
    except ValueError:
        return "unknown"


# ---------------------------------------------------------------------- serving


def _database_url(db: str) -> str:
    return db if "://" in db else f"sqlite:///{Path(db).resolve()}"


def _beside_database(db: str, kind: str) -> Path:
    """Beside an SQLite database (``referee.admin-token`` for ``referee.sqlite``), else in the current folder."""
    url = _database_url(db)
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        path = Path(url.removeprefix("sqlite:///"))
        return path.with_name(f"{path.stem}.{kind}")
    return Path(f"referee.{kind}")


def _token_path(db: str, kind: str) -> Path:
    return _beside_database(db, f"{kind}-token")


def _token(path: Path, kind: str, option: str) -> str:
    from ..hosted.auth import TokenFileError, token_from_file

    with saying({TokenFileError: (f"{option}: {{error}}", 2)}):
        token, created = token_from_file(path)
    if created:
        err.print(f"{kind} token, written to {path} (readable by you only) and shown this once:\n  {token}")
    else:
        err.print(f"{kind} token: in {path}")
    return token


def _tls(cert: Path | None, key: Path | None) -> TlsFiles | None:
    from ..hosted.server import TlsFiles

    if cert is None and key is None:
        return None
    if cert is None or key is None:
        fail("--tls-cert and --tls-key go together")
    try:
        return TlsFiles(cert.read_bytes(), key.read_bytes())
    except OSError as error:
        fail(f"cannot read {error.filename}: {error.strerror or error}")


@app.command("serve")
def serve_command(
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 50050,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "[::]",
    db: Annotated[str, typer.Option(help="The database: an SQLite path or any SQLAlchemy URL.")] = "referee.sqlite",
    admin_token_file: Annotated[
        Path | None,
        typer.Option(
            help="The organizer's token; generated there when missing (default: beside the database).",
            show_default=False,
        ),
    ] = None,
    entry_token_file: Annotated[
        Path | None,
        typer.Option(
            help="The entry token (the shared entrant's); generated there when missing (default: beside the database).",
            show_default=False,
        ),
    ] = None,
    allow: Annotated[
        list[str] | None,
        typer.Option(
            "--allow",
            help="A network (CIDR or address) or host name bots may be reached at; repeatable. Default: loopback only.",
            show_default=False,
        ),
    ] = None,
    tls_cert: Annotated[
        Path | None, typer.Option(help="Serve TLS with this certificate chain (PEM).", show_default=False)
    ] = None,
    tls_key: Annotated[
        Path | None, typer.Option(help="The certificate's private key (PEM).", show_default=False)
    ] = None,
    grace: Annotated[
        float,
        typer.Option(min=0, max=MAX_GRACE_SECONDS, help="Seconds for games in progress to finish when stopping."),
    ] = 5.0,
    http: Annotated[
        int | None,
        typer.Option(
            min=0, max=65535, help="Also serve every league's pages, live, over HTTP on this port.", show_default=False
        ),
    ] = None,
    http_max_connections: Annotated[
        int,
        typer.Option(
            min=1, max=MOST_CONNECTIONS, help="Connections the pages take at once; more are closed as they come."
        ),
    ] = MAX_CONNECTIONS,
    http_max_per_address: Annotated[
        int, typer.Option(min=1, max=MOST_CONNECTIONS, help="Connections the pages take at once from one address.")
    ] = MAX_PER_ADDRESS,
    http_header_timeout: Annotated[
        float,
        typer.Option(
            min=LEAST_HEADER_TIMEOUT,
            max=MOST_HEADER_TIMEOUT,
            help="Seconds a connection to the pages has to send a request's headers, else closed.",
        ),
    ] = HEADER_TIMEOUT,
    submissions: Annotated[
        Path | None,
        typer.Option(
            help="Where submitted bots' versions are kept (default: beside the database).", show_default=False
        ),
    ] = None,
    no_sandbox: Annotated[
        bool, typer.Option("--no-sandbox", help="Run submitted bots without the sandbox, with the referee's rights.")
    ] = False,
    build_slots: Annotated[
        int, typer.Option(min=1, max=64, help="Submitted versions built at once; the others wait in turn by entrant.")
    ] = 1,
    ray: RayOption = None,
    ray_workers: RayWorkersOption = None,
) -> None:
    """Serve the Referee service, health and reflection until SIGTERM or Ctrl-C; running leagues resume on restart.

    With --ray, every league plays on Ray with --ray-workers workers of its own, which run the submitted bots'
    versions (shipped to them) in their own sandbox."""
    import asyncio

    from ..hosted.addresses import LOOPBACK, AllowList
    from ..hosted.submissions import SandboxPolicy
    from ..league.store import StoreError, database_folder_made
    from ..report.front import Limits
    from ..report.listening import pages_url
    from ..runner.base import RunnerError
    from ..runner.settings import LOCAL, RunnerKind
    from ..serve import Settings, serve

    runner = ray_settings(ray, ray_workers) or LOCAL
    try:
        allowed = AllowList.parse(allow or LOOPBACK)
    except ValueError as error:
        fail(f"--allow: {error}")
    tls = _tls(tls_cert, tls_key)
    try:
        tell_made_folder(database_folder_made(_database_url(db)))
    except OSError as error:
        fail(f"--db: cannot make the folder of {db}: {error.strerror or error}")
    settings = Settings(
        db_url=_database_url(db),
        admin_token=_token(admin_token_file or _token_path(db, "admin"), "admin", "--admin-token-file"),
        entry_token=_token(entry_token_file or _token_path(db, "entry"), "entry", "--entry-token-file"),
        allow=allowed,
        port=port,
        host=host,
        tls=tls,
        grace=grace,
        http_port=http,
        http_limits=Limits(http_max_connections, http_max_per_address, http_header_timeout),
        submissions_dir=submissions or _beside_database(db, "submissions"),
        policy=SandboxPolicy.for_referee(no_sandbox),
        runner=runner,
        build_slots=build_slots,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def ready(bound: int, pages: int | None) -> None:
        scheme = "TLS" if settings.tls else "plaintext"
        err.print(f"referee serving on port {bound} ({scheme}); bots may be reached at: {allowed.describe()}")
        assert settings.policy is not None
        err.print(f"submitted bots: {settings.policy.describe()}", markup=False)
        if runner.kind is RunnerKind.RAY:
            err.print(f"leagues: {runner.describe()} a league; ladders: one worker a set", markup=False)
        if pages is not None:
            err.print(f"league pages on {pages_url(host, pages)} (read-only; sign in with a token)", markup=False)

    try:
        with saying({StoreError: ("{error}", 1), RunnerError: ("cannot serve: {error}", 1)}):
            asyncio.run(serve(settings, ready))
    except OSError as error:
        fail(f"cannot serve: {error.strerror or error}", 1)


# ---------------------------------------------------------------------- entrants


@app.command("register")
def register_command(
    name: Annotated[
        str, typer.Argument(help="The bot's name (letters, digits, _ . -).", show_default=False, callback=BOT_NAME)
    ],
    address: Annotated[
        str,
        typer.Argument(
            help="HOST:PORT where the referee reaches the bot.", show_default=False, callback=at_most(MAX_ADDRESS)
        ),
    ],
    owner: Annotated[str, typer.Option(help="Who enters the bot.", callback=at_most(MAX_OWNER))] = "",
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Register a bot (with your entrant's token). Prints the bot's token on stdout: it is shown this once."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call(
        "RegisterBot", pb.RegisterBotRequest(name=name, address=address, owner=owner)
    )
    err.print(
        f"registered {reply.bot.name} at {reply.bot.address}. Its token, shown this once (it alone may change the bot):"
    )
    print(reply.token)


@app.command("signup")
def signup_command(
    name: Annotated[
        str, typer.Argument(help="Your entrant's name (letters, digits, _ . -).", show_default=False, callback=BOT_NAME)
    ],
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Sign up as an entrant of your own (with the entry token). Prints your token on stdout: it is shown this once."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("SignUp", pb.AddEntrantRequest(name=name))
    err.print(
        f"signed up as {reply.entrant.name}. Your token, shown this once (it registers and submits your bots):",
        markup=False,
    )
    print(reply.token)


@app.command("update")
def update_command(
    name: Annotated[str, typer.Argument(help="The bot's name.", show_default=False, callback=BOT_NAME)],
    address: Annotated[
        str, typer.Argument(help="Its new HOST:PORT.", show_default=False, callback=at_most(MAX_ADDRESS))
    ],
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Give a bot a new address (with the bot's token); used from the referee's next connection to it."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("UpdateBot", pb.UpdateBotRequest(name=name, address=address))
    out.print(f"{reply.name} is now at {reply.address}")


@app.command("bots")
def bots_command(
    referee: RefereeOption = DEFAULT_REFEREE, token: TokenOption = None, tls_ca: TlsCaOption = None
) -> None:
    """The registered bots (addresses shown to the organizer and to each bot's own token)."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("ListBots", pb.ListBotsRequest())
    for bot in reply.bots:
        out.print(f"{bot.name}\t{bot.address or '-'}\t{bot.entrant or '-'}\t{bot.owner}", markup=False)


BUILD_TIMEOUT = 600.0
"""Seconds a submission's call may take: the upload and its build (at most 300 s) in the sandbox."""


@app.command("submit")
def submit_command(
    source: Annotated[
        Path,
        typer.Argument(help="The bot: a folder with rage-bot.toml (packed), a .tar.gz or a .zip.", show_default=False),
    ],
    name: Annotated[
        str,
        typer.Option(
            "--name",
            help="The bot's name on the referee: the one its rage-bot.toml gives.",
            show_default=False,
            callback=BOT_NAME,
        ),
    ],
    owner: Annotated[str, typer.Option(help="Who enters the bot (a new bot).", callback=at_most(MAX_OWNER))] = "",
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Upload a bot's code: with your entrant's token a new bot (its token printed on stdout, shown this once,
    and nothing else there), with the bot's own token a new version. The referee builds it in its sandbox;
    the build's log and outcome go to stderr."""
    import grpc
    from rage_sdk.pb import referee_pb2 as pb
    from rage_sdk.pb import referee_pb2_grpc

    from ..submissions.pack import archive_of, chunks

    try:
        fmt, data = archive_of(source)
    except ValueError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror or error}")
    target = remote(referee, token, tls_ca)
    metadata = target.metadata()

    def requests() -> Iterator[pb.SubmitBotChunk]:
        for number, piece in enumerate(chunks(data)):
            yield (
                pb.SubmitBotChunk(name=name, format=fmt, owner=owner, data=piece)
                if number == 0
                else pb.SubmitBotChunk(data=piece)
            )

    with target.channel() as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
        try:
            reply = stub.SubmitBot(requests(), metadata=metadata, timeout=BUILD_TIMEOUT)
        except grpc.RpcError as error:
            refused(error, target.address)
    version = reply.version
    err.print(
        f"{reply.bot.name}: version {short_version(version.version)} ({version.bytes:,} bytes)",
        markup=False,
    )
    _show_build(version)
    built = version.build == pb.BUILD_STATE_OK
    if reply.token and not built:
        err.print(_kept_line(source, reply.bot.name, reply.token, referee), markup=False, highlight=False)
    elif reply.token:
        err.print(f"{reply.bot.name} is a new bot. Its token, shown this once (it alone may submit its new versions):")
    if reply.token:
        print(reply.token)
    if not built:
        raise typer.Exit(1)


def _kept_line(source: Path, name: str, token: str, referee: str) -> str:
    """What a new bot whose first build failed goes on with, in a line: it is kept, and the commands (with
    its token, shown this once) that read its build's log and submit it again."""
    where = f" --token {token}" + ("" if referee == DEFAULT_REFEREE else f" --referee {shlex.quote(referee)}")
    return (
        f"{name} is kept, though its first build failed: see why with 'rage referee builds {name} --logs{where}', "
        f"then submit it again with 'rage referee submit {shlex.quote(str(source))} --name {name}{where}'"
    )


def _show_build(version: pb.VersionInfo) -> None:
    """A version's build, on stderr (stdout holds a new bot's token alone, for ``TOKEN=$(rage referee
    submit ...)``): its log (escaped by the referee), then its outcome in a line."""
    if version.build_log:
        err.print(version.build_log, markup=False, highlight=False, style="default")
    current = ", current" if version.current else ""
    err.print(f"build: {version.build_detail} ({version.build_seconds:.1f} s){current}", markup=False)


@app.command("builds")
def builds_command(
    name: Annotated[str, typer.Argument(help="The submitted bot's name.", show_default=False, callback=BOT_NAME)],
    logs: Annotated[
        bool, typer.Option(help="Show each build's log (the bot's own token, its entrant's or the admin's).")
    ] = False,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """A submitted bot's versions, newest first, with how each one's build went."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("ListVersions", pb.ListVersionsRequest(name=name))
    for version in reply.versions:
        ok = "built" if version.build == pb.BUILD_STATE_OK else "FAILED"
        current = "  (current)" if version.current else ""
        line = f"{short_version(version.version)}  {ok}: {version.build_detail}  {version.bytes:,} bytes{current}"
        out.print(line, markup=False)
        if logs and version.build_log:
            out.print(version.build_log, markup=False, highlight=False)
    if logs and reply.logs_withheld:
        fail(f"--logs: only the token of bot {name}, its entrant's or the admin's may read its build logs", 1)


@version_app.command("delete")
def version_delete_command(
    name: Annotated[str, typer.Argument(help="The submitted bot's name.", show_default=False, callback=BOT_NAME)],
    version: Annotated[
        str,
        typer.Argument(
            help="The version: its 16 hex digits (as builds shows them) or sha256:HEX.",
            show_default=False,
            callback=at_most(MAX_VERSION),
        ),
    ],
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Delete a version (the bot's token, its entrant's or the admin's), freeing its place and its files;
    not one a league not over plays, nor a bot's only one."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("DeleteVersion", pb.DeleteVersionRequest(name=name, version=version))
    out.print(f"{name}: version {short_version(version)} deleted; {len(reply.versions)} kept", markup=False)


# ---------------------------------------------------------------------- the organizer


EntrantArgument = Annotated[
    str, typer.Argument(help="The entrant's name (letters, digits, _ . -).", show_default=False, callback=BOT_NAME)
]


@entrant_app.command("add")
def entrant_add_command(
    name: EntrantArgument,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Add an entrant (admin token). Prints its token on stdout: it is shown this once."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("AddEntrant", pb.AddEntrantRequest(name=name))
    err.print(
        f"entrant {reply.entrant.name} added. Its token, shown this once (it registers and submits its bots):",
        markup=False,
    )
    print(reply.token)


@entrant_app.command("list")
def entrant_list_command(
    referee: RefereeOption = DEFAULT_REFEREE, token: TokenOption = None, tls_ca: TlsCaOption = None
) -> None:
    """The entrants (admin token): whether each is disabled, its bots, their versions and bytes."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("ListEntrants", pb.ListEntrantsRequest())
    for entrant in reply.entrants:
        state = "disabled" if entrant.disabled else "active"
        line = f"{entrant.name}\t{state}\t{entrant.bots} bots\t{entrant.versions} versions\t{entrant.bytes:,} bytes"
        out.print(line, markup=False)


@entrant_app.command("disable")
def entrant_disable_command(
    name: EntrantArgument,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Disable an entrant for good (admin token): its token and its bots' tokens are refused from now on."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("DisableEntrant", pb.EntrantRequest(name=name))
    out.print(f"{reply.name} is disabled: its token and its bots' tokens are refused", markup=False)


@app.command("create")
def create_command(
    file: Annotated[
        Path, typer.Argument(help="A league file (TOML); its \\[bots] name registered bots.", show_default=False)
    ],
    name: Annotated[
        str | None, typer.Option(help="The league's name (default: the file's, or its stem).", show_default=False)
    ] = None,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Create a league from a league file (admin token); start it with: rage referee start."""
    from rage_sdk.pb import referee_pb2 as pb

    from ..limits import MAX_DEFINITION_BYTES, MAX_LEAGUE_FILE_BYTES
    from ..records.file import UnreadableFileError, read_regular

    try:
        text = read_regular(file, MAX_LEAGUE_FILE_BYTES).decode("utf-8-sig")  # an editor's BOM too
    except (UnreadableFileError, UnicodeDecodeError) as error:
        fail(f"cannot read {file}: {error}")
    if not text.strip():
        fail(f"{file}: the file is empty; give a league file, or a contest file (one with a [ladder] table)")
    if len(text.encode()) > MAX_DEFINITION_BYTES:
        fail(f"{file}: at most {MAX_DEFINITION_BYTES // 1024} KiB for the referee, not {len(text.encode()):,} bytes")
    if name is None:
        try:
            name = None if "name" in tomllib.loads(text) else file.stem
        except tomllib.TOMLDecodeError:
            name = None  # the referee names the problem
        except RecursionError:
            fail(f"{file}: not valid TOML: nested too deeply")
    reply = remote(referee, token, tls_ca).call(
        "CreateLeague", pb.CreateLeagueRequest(definition=text, name=name or "")
    )
    out.print(_league_line(reply), markup=False)
    if reply.memory_notice:
        out.print(f"{reply.name}: {reply.memory_notice}", style="yellow", markup=False)


def _league_line(league: pb.LeagueInfo) -> str:
    status = status_name(league.status) + (f" ({league.reason})" if league.reason else "")
    deals = f"deal commitment {league.deal_commitment}" if league.deal_commitment else "public deals"
    if league.ladder:
        final = f", the final's deal commitment {league.final_commitment}" if league.final_commitment else ""
        line = (
            f"{league.name}: {status}, ladder, {league.games_done} games, {league.players} per table, "
            f"ruleset {league.ruleset}, {deals}{final}"
        )
        return line + (f"; submitted bots: {league.sandbox}" if league.sandbox else "")
    bots = ", ".join(f"{bot} {league.versions[bot]}" if bot in league.versions else bot for bot in league.bots)
    line = (
        f"{league.name}: {status}, {league.games_done}/{league.games_total} games, "
        f"{league.players} per table, ruleset {league.ruleset}, bots {bots}, {deals}"
    )
    return line + (f"; submitted bots: {league.sandbox}" if league.sandbox else "")


@app.command("leagues")
def leagues_command(
    referee: RefereeOption = DEFAULT_REFEREE, token: TokenOption = None, tls_ca: TlsCaOption = None
) -> None:
    """The leagues on the referee, with their status and progress."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("ListLeagues", pb.ListLeaguesRequest())
    for league in reply.leagues:
        out.print(_league_line(league), markup=False)


def _league_command(method: str, verb: str) -> Any:
    def command(
        league: LeagueArgument,
        referee: RefereeOption = DEFAULT_REFEREE,
        token: TokenOption = None,
        tls_ca: TlsCaOption = None,
    ) -> None:
        from rage_sdk.pb import referee_pb2 as pb

        reply = remote(referee, token, tls_ca).call(method, pb.LeagueRequest(league=league))
        out.print(_league_line(reply), markup=False)

    command.__doc__ = f"{verb} (admin token)."
    return command


app.command("start")(_league_command("StartLeague", "Start a league"))
app.command("pause")(_league_command("PauseLeague", "Pause a league: games in progress finish, no new game starts"))
app.command("resume")(_league_command("ResumeLeague", "Resume a paused league, or try a failed one again"))
app.command("cancel")(_league_command("CancelLeague", "Cancel a league for good: games in progress are dropped"))


@app.command("reveal")
def reveal_command(
    league: LeagueArgument,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Reveal a finished or cancelled league's deal key (admin token), so anyone can check its deals."""
    from rage_sdk.pb import referee_pb2 as pb

    reply = remote(referee, token, tls_ca).call("RevealDealKey", pb.LeagueRequest(league=league))
    out.print(f"{reply.league}: deal key {reply.key} (commitment {reply.commitment})")


@app.command("finalize")
def finalize_command(
    league: LeagueArgument,
    top: Annotated[
        int | None,
        typer.Option(
            min=2,
            max=MAX_HOSTED_BOTS,
            help="Finalists: the top K bots of the leaderboard (default, or K past their number: every active bot).",
            show_default=False,
        ),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_HOSTED_GAMES,
            help="The cap on the final's games, in whole round robins (default: 1000).",
            show_default=False,
        ),
    ] = None,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Finalize a ladder (admin token): freeze it, pin each finalist's active version and play a duplicate round
    robin among them until every adjacent pair of its standings is separated, or the cap; the ladder then finishes."""
    from rage_sdk.pb import referee_pb2 as pb

    request = pb.FinalizeRequest(league=league, top=top or 0, max_games=max_games or 0)
    reply = remote(referee, token, tls_ca).call("FinalizeLadder", request)
    out.print(_league_line(reply), markup=False)
    finalists = ", ".join(f"{bot} {reply.versions[bot]}" if bot in reply.versions else bot for bot in reply.bots)
    out.print(f"finalists, best first: {finalists}; follow it with: rage referee watch {league}", markup=False)
    if top is not None and top > len(reply.bots):
        out.print(f"--top {top}: the ladder has {len(reply.bots)} active bots; all {len(reply.bots)} play the final")


@app.command("export")
def export_command(
    league: LeagueArgument,
    folder: Annotated[
        Path, typer.Argument(help="The folder to write the bundle into (new or empty).", show_default=False)
    ],
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Write a finished ladder's final as a contest bundle (admin token), its deal key revealed; check it with
    rage league verify-bundle."""
    import grpc
    from rage_sdk.pb import referee_pb2 as pb
    from rage_sdk.pb import referee_pb2_grpc

    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        fail(f"{folder}: give a new or empty folder")
    target = remote(referee, token, tls_ca)
    with target.channel() as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
        try:
            files = list(stub.ExportFinal(pb.LeagueRequest(league=league), metadata=target.metadata()))
        except grpc.RpcError as error:
            refused(error, target.address)
    try:
        for file in files:
            path = folder / file.path
            if path.resolve().parent != folder.resolve() and folder.resolve() not in path.resolve().parents:
                fail(f"the referee sent a file outside the bundle: {file.path[:80]!r}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(file.data)
    except OSError as error:
        fail(f"cannot write {folder}: {error.strerror or error}")
    out.print(f"the final of {league}: {len(files)} files written to {folder}/", markup=False)
    out.print(f"check it with: rage league verify-bundle {folder}", markup=False)


# ---------------------------------------------------------------------- anyone with a token


@app.command("standings")
def standings_command(
    league: LeagueArgument,
    format: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.TABLE,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """The league's rating table, as rage ratings prints it; a ladder's leaderboard (rank, bot, owner, version,
    mu, sigma, rating = mu - 3 sigma, sets, games, last game, status)."""
    from rage_sdk.pb import referee_pb2 as pb

    from ..hosted.messages import audit_of, rating_row

    reply = remote(referee, token, tls_ca).call("GetStandings", pb.LeagueRequest(league=league))
    if reply.HasField("ladder"):
        from .ladder_table import render_ladder

        render_ladder(reply.ladder, format, reply.final if reply.HasField("final") else None)
        deals = (
            f"deals: secret, commitment {reply.deal_commitment}" if reply.deal_commitment else "deals: public (seed)"
        )
        if reply.final.deal_commitment:
            deals += f"; the final's: secret, commitment {reply.final.deal_commitment}"
        (out if format is Format.TABLE else err).print(deals)
        return
    owners = {row.bot: row.owner for row in reply.rows}
    audits = {row.bot: audit for row in reply.rows if (audit := audit_of(row)) is not None}
    rows = [rating_row(row) for row in reply.rows]
    render(rows, format, f"{reply.league}: {reply.games} games", owners=owners, audits=audits)
    deals = f"deals: secret, commitment {reply.deal_commitment}" if reply.deal_commitment else "deals: public (seed)"
    (out if format is Format.TABLE else err).print(deals)
    versions = ", ".join(f"{name_text(row.bot)} {row.version}" for row in reply.rows if row.version)
    if versions:
        (out if format is Format.TABLE else err).print(f"submitted bots' versions: {versions}", markup=False)


@app.command("record")
def record_command(
    league: LeagueArgument,
    game: Annotated[
        int,
        typer.Argument(min=0, max=MAX_GAMES - 1, help="The game's index in the league, from 0.", show_default=False),
    ],
    out_file: Annotated[
        Path | None, typer.Option("--out", help="Write it to this file (default: stdout).", show_default=False)
    ] = None,
    final: Annotated[
        bool, typer.Option("--final", help="A game of the ladder's final (numbered from 0 apart from the ladder's).")
    ] = False,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """A finished game's rage-record/1 (check it with: rage replay verify)."""
    from rage_sdk.pb import referee_pb2 as pb

    request = pb.GetRecordRequest(league=league, game=game, final=final)
    reply = remote(referee, token, tls_ca).call("GetRecord", request)
    text = json.dumps(json.loads(reply.record), indent=1)
    if out_file is None:
        print(text)
        return
    try:
        out_file.write_text(text + "\n")
    except OSError as error:
        fail(f"--out: cannot write {out_file}: {error.strerror or error}")
    err.print(f"{'final game' if final else 'game'} {game} of {league} written to {out_file}")


@app.command("watch")
def watch_command(
    league: LeagueArgument,
    history: Annotated[bool, typer.Option(help="First every game finished so far.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per event (protobuf JSON mapping).")] = False,
    referee: RefereeOption = DEFAULT_REFEREE,
    token: TokenOption = None,
    tls_ca: TlsCaOption = None,
) -> None:
    """Follow a league live: games, faults, standings; ends when the league finishes, is cancelled or fails."""
    import grpc
    from google.protobuf.json_format import MessageToJson
    from rage_sdk.pb import referee_pb2 as pb
    from rage_sdk.pb import referee_pb2_grpc

    target = remote(referee, token, tls_ca)
    metadata = target.metadata()
    status = "unknown"
    with target.channel() as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
        try:
            for seen, event in enumerate(
                stub.Watch(pb.WatchRequest(league=league, history=history), metadata=metadata)
            ):
                if event.WhichOneof("kind") == "status_changed":
                    status = status_name(event.status_changed.status)
                if seen == 0 and (note := joined_late(event, history)):
                    err.print(note)
                if as_json:
                    print(MessageToJson(event, indent=None), flush=True)
                else:
                    _show(event)
        except grpc.RpcError as error:
            refused(error, target.address)
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
    if status == "failed":
        fail(f"league {league} failed (the organizer may resume it)", 1)
    if status not in OVER:
        fail(f"the referee ended the stream while the league was {status}", 1)


def joined_late(first: pb.LeagueEvent, history: bool) -> str | None:
    """What a watch without ``--history`` of a league under way misses, from the stream's first event."""
    changed = first.status_changed
    if history or first.WhichOneof("kind") != "status_changed" or not changed.games_done:
        return None
    if status_name(changed.status) in OVER:
        return None
    return f"{changed.games_done} games finished before this watch began: --history shows them first"


def _place(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def _apart(row: pb.LadderRow) -> str:
    """How a final's row stands against the next: separated (its difference) or not."""
    if not row.HasField("separated"):
        return ""
    return f" ({'separated' if row.separated else 'not separated'}, {row.difference:+.2f})"


def _show(event: pb.LeagueEvent) -> None:
    kind = event.WhichOneof("kind")
    if kind == "status_changed":
        changed = event.status_changed
        status = status_name(changed.status) + (f" ({changed.reason})" if changed.reason else "")
        played = changed.games_done  # a ladder has no total: its games go on until it is finalized
        games = f"{played}/{changed.games_total} games" if changed.games_total else f"{played} games"
        out.print(Text.assemble((f"{event.league}: {status}", "bold"), f", {games}"))
    elif kind == "game_finished":
        game = event.game_finished
        seats = ", ".join(
            f"{name_text(name)} {total} ({_place(place)})"
            for name, total, place in zip(game.seats, game.totals, game.places)
        )
        forfeited = f"  forfeited: {', '.join(map(name_text, game.forfeited))}" if game.forfeited else ""
        done = (f"[{game.games_done}/{game.games_total}]" if game.games_total else f"[{game.games_done}]", "dim")
        out.print(Text.assemble(f"{'final game' if game.final else 'game'} {game.game}: {seats}{forfeited}  ", done))
    elif kind == "bot_faulted":
        fault = event.bot_faulted
        where = f"round {fault.round}" + (f", trick {fault.trick}" if fault.trick else ", bidding")
        which = f"{'final game' if fault.final else 'game'} {fault.game}"
        if fault.kind == "forfeited":
            line = f"  forfeited: {name_text(fault.bot)} in {which} from {where} on: {bot_text(fault.detail)}"
        else:
            line = f"  fault: {name_text(fault.bot)} {fault.kind} in {which} ({where}): {bot_text(fault.detail)}"
        out.print(line, style="yellow", markup=False)
    elif kind == "ladder_changed":
        ladder = event.ladder_changed
        rows = ", ".join(
            f"{row.rank}. {name_text(row.bot)} {row.version} {row.rating:.2f}" for row in ladder.rows if row.rank
        )
        out.print(f"  leaderboard after {ladder.sets} sets ({ladder.games} games): {rows}", style="cyan")
    elif kind == "final_changed":
        final = event.final_changed
        rows = ", ".join(f"{row.rank}. {name_text(row.bot)}{_apart(row)}" for row in final.rows if row.rank)
        out.print(f"  final after {final.sets} sets ({final.games} games): {rows}", style="cyan")
    elif kind == "standings_changed":
        table = event.standings_changed
        rows = ", ".join(f"{name_text(row.bot)} {figure(row.elo, '.0f')}" for row in table.rows)
        out.print(f"  standings after {table.games} games: {rows}", style="cyan")
