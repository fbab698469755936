"""The ``rage.v1.Referee`` servicer: check the token, validate the request, call the contest, answer.

Typed failures (:mod:`.errors`) leave with their status code and message; anything unexpected is
logged on the server and leaves as INTERNAL without details.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
from rage_sdk.deal import key_commitment
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc

from ..league.release import SetRelease
from ..limits import MAX_BOT_NAME, MAX_HOSTED_GAMES, MAX_LEAGUE_NAME, MAX_OWNER, MAX_VERSION
from ..play.finished import FinishedGame
from ..seats.spec import seat_address
from . import events, messages
from .addresses import callable_address
from .auth import Caller, Role, new_token, token_hash
from .checks import check_name, check_text
from .contest import Contest
from .definition import forfeits_of, read_definition
from .errors import ContestError, FailedPrecondition, InvalidArgument, NotFound, PermissionDenied
from .events import Watcher
from .final_stream import FinalStream, is_final_game
from .ladder_definition import is_ladder, read_ladder
from .ladder_messages import ladder, ladder_event
from .leagues import failure_text, memory_notice, release_of
from .registry import ENTRY_ENTRANT, EntrantEntry, LeagueEntry, LeagueStatus
from .released import Released
from .standings import Table, point_table
from .submissions import next_chunk

log = logging.getLogger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Referee"].full_name

S = TypeVar("S", bound="RefereeServicer")
Q = TypeVar("Q")
R = TypeVar("R")


@dataclass(frozen=True)
class _Fit:
    """A league's released games when it held ``stored`` and was ``over`` or not: how many, and their standings
    when not all are."""

    stored: int
    over: bool
    shown: int
    table: Table | None


def refusals(method: Callable[[S, Q, Any], Awaitable[R]]) -> Callable[[S, Q, Any], Awaitable[R]]:
    """A unary method whose typed failures leave with their status code."""

    @functools.wraps(method)
    async def guarded(self: S, request: Q, context: Any) -> R:
        try:
            return await method(self, request, context)
        except grpc.aio.AbortError:
            raise
        except ContestError as error:
            log.info("%s refused: %s", method.__name__, failure_text(error))
            await context.abort(error.code, str(error))
            raise
        except Exception:
            log.exception("%s failed", method.__name__)
            await context.abort(
                grpc.StatusCode.INTERNAL, "internal error (the organizer finds it in the referee's log)"
            )
            raise

    return guarded


class RefereeServicer(referee_pb2_grpc.RefereeServicer):
    def __init__(self, contest: Contest) -> None:
        self.contest = contest
        self._released_fits: dict[int, _Fit] = {}
        """Each league's released games, as last counted and fitted."""

    def _caller(self, context: Any) -> Caller:
        return self.contest.auth.identify(context.invocation_metadata())

    def _league(self, name: str) -> LeagueEntry:
        return self.contest.registry.league(check_name(name, "league", MAX_LEAGUE_NAME))

    def _info(self, entry: LeagueEntry, done: int | None = None) -> pb.LeagueInfo:
        """The league as told to the organizer, or with ``done`` games to anyone else (:meth:`_games_shown`)."""
        done = self.contest.store.count(entry.league_id) if done is None else done
        commitment = self.contest.leagues.deal_commitment(entry)
        submissions = self.contest.submissions
        ladder = is_ladder(entry.definition)
        submitted = submissions.versions.submitted()
        if not ladder:  # a ladder plays every submitted bot
            submitted &= set(entry.bots)
        sandbox = submissions.policy.describe() if submitted else ""
        pins = submissions.versions.pins(entry.league_id)
        info = messages.league_info(entry, done, commitment, sandbox, pins)
        info.ladder = ladder
        final = self.contest.leagues.book.final(entry.league_id) if ladder else None
        if final is not None:
            info.bots.extend(final.bots)  # its finalists, best first
            info.final_commitment = self.contest.leagues.commitment(final.final_league_id)
        return info

    def _held_versions(self, bot: str) -> dict[str, set[str]]:
        """The versions of ``bot`` each league or ladder not over plays, by its name (blocking): a league's
        pinned one, a ladder's playing ones and its final's."""
        leagues = self.contest.leagues
        held = {}
        for entry in self.contest.registry.leagues():
            if entry.status.over:
                continue
            if is_ladder(entry.definition):
                held[entry.name] = leagues.held_versions(entry, bot)
            else:
                pinned = self.contest.submissions.versions.pins(entry.league_id).get(bot)
                held[entry.name] = set() if pinned is None else {pinned}
        return held

    def _current(self, name: str) -> str:
        entry = self.contest.submissions.versions.current(name)
        return "" if entry is None else entry.short

    def _owners(self) -> dict[str, str]:
        """Each bot's entrant, by bot."""
        return {bot.name: bot.entrant for bot in self.contest.registry.bots()}

    def _versions(self, caller: Caller, name: str) -> pb.ListVersionsReply:
        submissions = self.contest.submissions
        versions = submissions.versions.of(name)
        if not versions:
            raise NotFound(f"name: no submitted bot {name!r}")
        current = submissions.versions.current(name)
        shown = caller.owns(name, self.contest.registry.bot(name).entrant)  # as its logs on the pages
        return pb.ListVersionsReply(
            versions=[
                messages.version_info(entry, entry == current, submissions.build_log(entry) if shown else "")
                for entry in versions
            ],
            logs_withheld=not shown,
        )

    async def _bot_address(self, text: str) -> tuple[str, str]:
        """The address to call for a bot at ``text``, and the seat it listens on; :class:`InvalidArgument` for
        one the allow-list refuses, or the referee's own however written."""
        address = await callable_address(text, self.contest.allow)
        seat = seat_address(address, resolve=False)
        if seat in self.contest.own_seats:
            raise InvalidArgument("address", f"{text} is this referee's own address: give the one your bot serves on")
        return address, seat

    # ------------------------------------------------------------------ entrants
    @refusals
    async def RegisterBot(self, request: pb.RegisterBotRequest, context: Any) -> pb.RegisterBotReply:
        caller = self._caller(context)
        caller.require_entrant("register a bot")
        name = check_name(request.name, "name", MAX_BOT_NAME)
        _, seat = await self._bot_address(request.address)
        owner = check_text(request.owner, "owner", MAX_OWNER)
        token = new_token()
        bot = self.contest.registry.add_bot(name, request.address, owner, token_hash(token), caller.entrant, seat)
        log.info("bot %s registered at %s (%s)", name, request.address, owner or "no owner given")
        return pb.RegisterBotReply(bot=messages.bot_info(bot, show_address=True), token=token)

    @refusals
    async def UpdateBot(self, request: pb.UpdateBotRequest, context: Any) -> pb.BotInfo:
        self._caller(context).require_bot(request.name, "change it")
        name = check_name(request.name, "name", MAX_BOT_NAME)
        if name in self.contest.submissions.versions.submitted():
            raise FailedPrecondition(f"name: bot {name!r} is submitted code the referee runs: it has no address")
        address, seat = await self._bot_address(request.address)
        bot = self.contest.registry.set_address(name, request.address, seat)
        self.contest.leagues.readdress(name, address)
        log.info("bot %s moved to %s", name, request.address)
        return messages.bot_info(bot, show_address=True)

    @refusals
    async def ListBots(self, request: pb.ListBotsRequest, context: Any) -> pb.ListBotsReply:
        caller = self._caller(context)
        bots = self.contest.registry.bots()
        return pb.ListBotsReply(
            bots=[messages.bot_info(bot, caller.sees_address_of(bot.name), self._current(bot.name)) for bot in bots]
        )

    @refusals
    async def SubmitBot(self, request: AsyncIterator[pb.SubmitBotChunk], context: Any) -> pb.SubmitBotReply:
        caller = self._caller(context)
        with self.contest.submissions.receiving(caller.holder):
            return await self._submit(caller, aiter(request))

    async def _submit(self, caller: Caller, chunks: AsyncIterator[pb.SubmitBotChunk]) -> pb.SubmitBotReply:
        first = await next_chunk(chunks)
        if first is None:
            raise InvalidArgument("name", "missing: the first message names the bot")
        name = check_name(first.name, "name", MAX_BOT_NAME)
        owner = check_text(first.owner, "owner", MAX_OWNER)
        submissions = self.contest.submissions
        names = {bot.name for bot in self.contest.registry.bots()}
        submissions.check_caller(caller, name, name in names)
        submissions.policy.require()
        async with submissions.lock(name):
            new = submissions.check_caller(caller, name, name in {bot.name for bot in self.contest.registry.bots()})
            if new:
                self.contest.registry.check_room(caller.entrant)
            owned = [*self.contest.registry.bots_of(caller.entrant), name] if caller.entrant else []
            async with submissions.upload(first.format, first.data, chunks, submissions.room(name, owned)) as upload:
                entry, result = await submissions.accept(name, upload, caller.holder, owned)
            token = ""
            if new:
                token = new_token()
                try:
                    bot = self.contest.registry.add_bot(name, "", owner, token_hash(token), caller.entrant)
                except ContestError:
                    submissions.discard(name)
                    raise
                log.info("bot %s submitted (%s)", name, owner or "no owner given")
            else:
                bot = self.contest.registry.bot(name)
        current = self._current(name)
        info = messages.version_info(entry, current == entry.short, result.log)
        return pb.SubmitBotReply(bot=messages.bot_info(bot, True, current), version=info, token=token)

    @refusals
    async def SignUp(self, request: pb.AddEntrantRequest, context: Any) -> pb.AddEntrantReply:
        caller = self._caller(context)
        entry = caller.role is Role.ENTRANT and caller.entrant == ENTRY_ENTRANT  # not a bot it registered
        if caller.role is not Role.ADMIN and not entry:
            raise PermissionDenied("only the entry token (or the admin token) may sign up an entrant")
        return self._add_entrant(request.name, bounded=True)

    def _add_entrant(self, name: str, bounded: bool) -> pb.AddEntrantReply:
        name = check_name(name, "name", MAX_BOT_NAME)
        token = new_token()
        entrant = self.contest.registry.add_entrant(name, token_hash(token), bounded)
        log.info("entrant %s %s", name, "signed up" if bounded else "added")
        return pb.AddEntrantReply(entrant=self._entrant_info(entrant), token=token)

    @refusals
    async def ListVersions(self, request: pb.ListVersionsRequest, context: Any) -> pb.ListVersionsReply:
        caller = self._caller(context)
        return self._versions(caller, check_name(request.name, "name", MAX_BOT_NAME))

    @refusals
    async def DeleteVersion(self, request: pb.DeleteVersionRequest, context: Any) -> pb.ListVersionsReply:
        caller = self._caller(context)
        name = check_name(request.name, "name", MAX_BOT_NAME)
        version = check_text(request.version, "version", MAX_VERSION)
        if not version:
            raise InvalidArgument("version", "missing: the version's sha256:HEX or its 16 hex digits")
        registry, submissions = self.contest.registry, self.contest.submissions
        caller.require_owner(name, registry.bot(name).entrant, "delete its versions")
        async with submissions.lock(name):
            held = await asyncio.to_thread(self._held_versions, name)
            await asyncio.to_thread(submissions.delete, name, version, held)
        return self._versions(caller, name)

    # ------------------------------------------------------------------ the organizer
    @refusals
    async def CreateLeague(self, request: pb.CreateLeagueRequest, context: Any) -> pb.LeagueInfo:
        self._caller(context).require_admin("create a league")
        if is_ladder(request.definition):
            ladder = await asyncio.to_thread(read_ladder, request.definition, request.name)
            entry = self.contest.leagues.create_ladder(ladder, request.definition)
            log.info("ladder %s created", entry.name)
            return self._info(entry)
        registered = self.contest.leagues.targets()
        # Off the event loop: a big schedule takes a second to build, and other calls must not wait for it.
        definition = await asyncio.to_thread(read_definition, request.definition, request.name, registered)
        entry = self.contest.leagues.create(definition, request.definition)
        log.info("league %s created: %d bots, %d games", entry.name, len(entry.bots), entry.games_total)
        info = self._info(entry)
        info.memory_notice = memory_notice(definition, registered)
        return info

    async def _change_league(self, request: pb.LeagueRequest, context: Any, verb: str) -> pb.LeagueInfo:
        """Start, pause, resume or cancel a league: the organizer's, by ``verb``."""
        self._caller(context).require_admin(f"{verb} a league")
        change = getattr(self.contest.leagues, verb)
        return self._info(await change(self._league(request.league).name))

    @refusals
    async def StartLeague(self, request: pb.LeagueRequest, context: Any) -> pb.LeagueInfo:
        return await self._change_league(request, context, "start")

    @refusals
    async def PauseLeague(self, request: pb.LeagueRequest, context: Any) -> pb.LeagueInfo:
        return await self._change_league(request, context, "pause")

    @refusals
    async def ResumeLeague(self, request: pb.LeagueRequest, context: Any) -> pb.LeagueInfo:
        return await self._change_league(request, context, "resume")

    @refusals
    async def CancelLeague(self, request: pb.LeagueRequest, context: Any) -> pb.LeagueInfo:
        return await self._change_league(request, context, "cancel")

    @refusals
    async def FinalizeLadder(self, request: pb.FinalizeRequest, context: Any) -> pb.LeagueInfo:
        self._caller(context).require_admin("finalize a ladder")
        if request.max_games > MAX_HOSTED_GAMES:
            cap = f"at most {MAX_HOSTED_GAMES:,} games in a final, not {request.max_games:,}"
            raise InvalidArgument("max_games", cap)
        name = self._league(request.league).name
        entry = await self.contest.leagues.finalize(name, request.top or None, request.max_games or None)
        return self._info(entry)

    async def ExportFinal(self, request: pb.LeagueRequest, context: Any) -> AsyncIterator[pb.BundleFile]:
        try:
            self._caller(context).require_admin("export a final")
            entry = self._league(request.league)
            with tempfile.TemporaryDirectory() as folder:
                await asyncio.to_thread(self.contest.leagues.final_bundle, entry, Path(folder))
                files = sorted(path for path in Path(folder).rglob("*") if path.is_file())
                contents = [(path.relative_to(folder).as_posix(), path.read_bytes()) for path in files]
        except ContestError as error:
            await context.abort(error.code, str(error))
            return
        for path, data in contents:
            yield pb.BundleFile(path=path, data=data)

    @refusals
    async def RevealDealKey(self, request: pb.LeagueRequest, context: Any) -> pb.DealKey:
        self._caller(context).require_admin("reveal a deal key")
        name = self._league(request.league).name
        key = self.contest.leagues.reveal(name)
        return pb.DealKey(league=name, key=key.hex(), commitment=key_commitment(key))

    @refusals
    async def AddEntrant(self, request: pb.AddEntrantRequest, context: Any) -> pb.AddEntrantReply:
        self._caller(context).require_admin("add an entrant")
        return self._add_entrant(request.name, bounded=False)

    @refusals
    async def ListEntrants(self, request: pb.ListEntrantsRequest, context: Any) -> pb.ListEntrantsReply:
        self._caller(context).require_admin("list the entrants")
        return pb.ListEntrantsReply(entrants=[self._entrant_info(entry) for entry in self.contest.registry.entrants()])

    @refusals
    async def DisableEntrant(self, request: pb.EntrantRequest, context: Any) -> pb.EntrantInfo:
        self._caller(context).require_admin("disable an entrant")
        entrant = self.contest.registry.disable_entrant(check_name(request.name, "name", MAX_BOT_NAME))
        log.info("entrant %s disabled", entrant.name)
        return self._entrant_info(entrant)

    def _entrant_info(self, entrant: EntrantEntry) -> pb.EntrantInfo:
        versions, size = self.contest.submissions.entrant_usage(entrant.bots)
        return messages.entrant_info(entrant, versions, size)

    # ------------------------------------------------------------------ anyone with a token
    @refusals
    async def ListLeagues(self, request: pb.ListLeaguesRequest, context: Any) -> pb.ListLeaguesReply:
        admin = self._caller(context).role is Role.ADMIN
        leagues = self.contest.registry.leagues()
        return pb.ListLeaguesReply(
            leagues=[self._info(entry, await self._games_shown(entry, admin)) for entry in leagues]
        )

    @refusals
    async def GetStandings(self, request: pb.LeagueRequest, context: Any) -> pb.Standings:
        """The league's standings; anyone but the organizer is shown those of its released games alone
        (point estimates) while a duplicate set is still being played."""
        caller = self._caller(context)
        entry = self._league(request.league)
        if is_ladder(entry.definition):
            leagues = self.contest.leagues
            state = await asyncio.to_thread(leagues.state, entry)
            final = await asyncio.to_thread(leagues.final_standings, entry, state)
            commitment = leagues.deal_commitment(entry)
            reply = pb.Standings(league=entry.name, deal_commitment=commitment, ladder=ladder(entry.name, state))
            if final is not None:
                reply.final.CopyFrom(final)
            return reply
        release = release_of(entry)
        fit = None if release.over or caller.role is Role.ADMIN else await self._released_fit(entry, release)
        table = fit.table if fit is not None else None
        if table is None:
            table = await self.contest.standings.table(entry.league_id, forfeits_of(entry.definition))
        pins = self.contest.submissions.versions.pins(entry.league_id)
        commitment = self.contest.leagues.deal_commitment(entry)
        return messages.standings(entry.name, table, commitment, pins, self._owners())

    @refusals
    async def GetRecord(self, request: pb.GetRecordRequest, context: Any) -> pb.GameRecord:
        self._caller(context)
        entry = self._league(request.league)
        if request.final:
            final = await asyncio.to_thread(self.contest.leagues.final_record, entry, request.game)
            return pb.GameRecord(league=entry.name, game=request.game, record=json.dumps(final))
        if request.game >= entry.games_total and not is_ladder(entry.definition):
            raise InvalidArgument("game", f"league {entry.name!r} has games 0-{entry.games_total - 1}")
        record = await asyncio.to_thread(self.contest.leagues.shown_record, entry, request.game)
        return pb.GameRecord(league=entry.name, game=request.game, record=json.dumps(record))

    async def Watch(self, request: pb.WatchRequest, context: Any) -> AsyncIterator[pb.LeagueEvent]:
        try:
            caller = self._caller(context)
            entry = self._league(request.league)
            watcher = self.contest.hub.subscribe(entry.name, caller.holder, admin=caller.role is Role.ADMIN)
        except ContestError as error:
            await context.abort(error.code, str(error))
            return
        try:
            async for event in self._events(entry.name, watcher, request.history, caller.role is Role.ADMIN):
                yield event
        finally:
            self.contest.hub.unsubscribe(watcher)
        if watcher.refusal is not None:
            await context.abort(watcher.refusal.code, str(watcher.refusal))

    async def _events(
        self, name: str, watcher: Watcher, history: bool, admin: bool = False
    ) -> AsyncIterator[pb.LeagueEvent]:
        """The league's state now (subscribed first, so nothing falls between), then its live events.

        Anyone but the organizer is sent a game's events once its duplicate set is stored whole (held till
        then, :class:`~.released.Released`), and standings of those games alone, after each set.
        """
        registry, store = self.contest.registry, self.contest.store
        entry = registry.league(name)
        release = None if admin else release_of(entry)
        games = await asyncio.to_thread(store.games, entry.league_id, False) if history else None
        stored = store.count(entry.league_id) if games is None else len(games)
        done = stored if release is None else (await self._released_fit(entry, release, games)).shown
        yield messages.status_event(name, entry.status, done, entry.games_total, entry.reason)
        ladder_shown = is_ladder(entry.definition)  # its leaderboard rates whole sets alone: shown to anyone
        fit = None if release is None or not stored or ladder_shown else await self._released_fit(entry, release, games)
        released = None
        if release is not None:
            shown = {game.index for game in release.released(games or ())}
            released = Released(release, store, entry.league_id, shown, 0 if history else fit.shown if fit else 0)
        seen: set[int] = set()
        for done, game in enumerate(games or (), start=1):
            seen.add(game.index)
            game_events = messages.game_events(name, game, done, entry.games_total)
            for event in game_events if released is None else released.history(game.index, game_events):
                yield event
        fitted = 0
        final = FinalStream(self.contest, entry, release) if ladder_shown else None
        if final is not None:
            yield ladder_event(name, await asyncio.to_thread(self.contest.leagues.state, entry))
            for event in await final.begin(history):
                yield event
        elif fit is not None and fit.table is not None:
            yield messages.standings_event(name, fit.table, self.contest.submissions.versions.pins(entry.league_id))
        elif stored:
            table = await self.contest.standings.points(entry.league_id, forfeits_of(entry.definition), games)
            fitted = table.games
            pins = self.contest.submissions.versions.pins(entry.league_id)
            yield messages.standings_event(name, table, pins, self._owners())
        if entry.status.ends_watch:
            return
        while True:
            try:
                live = await watcher.next(events.IDLE_SECONDS)
            except TimeoutError:
                entry = registry.league(name)
                if entry.status is LeagueStatus.RUNNING or self.contest.leagues.playing(name) or watcher.pending:
                    continue
                # A league that is not running may never start: the stream ends rather than hold a place
                # (once a paused league's games in progress have finished, and the watcher has had their events).
                done = await self._games_shown(entry, admin)
                yield messages.status_event(name, entry.status, done, entry.games_total, entry.reason)
                return
            if live is None:
                return
            kind = live.WhichOneof("kind")
            if final is not None and is_final_game(live):  # numbered apart from the ladder's games
                for event in final.live(live):
                    yield event
                continue
            if kind == "game_finished" and live.game_finished.game in seen:
                continue
            if kind == "bot_faulted" and live.bot_faulted.game in seen:
                continue
            if kind == "standings_changed" and (release is not None or live.standings_changed.games < fitted):
                continue  # fitted before the table sent above, or on games not shown
            if kind == "status_changed" and not admin:  # counted again: the games of whole sets alone
                entry = registry.league(name)
                changed = live.status_changed
                done = await self._games_shown(entry, admin)
                yield messages.status_event(name, entry.status, done, changed.games_total, changed.reason)
                continue
            if release is not None and released is not None and kind in ("game_finished", "bot_faulted"):
                sent = released.live(live)
                for event in sent:
                    yield event
                if not ladder_shown and any(event.WhichOneof("kind") == "game_finished" for event in sent):
                    forfeits = forfeits_of(entry.definition)
                    partial = (await self._released_fit(entry, release)).table  # none: every stored game is shown
                    whole = partial or await self.contest.standings.points(entry.league_id, forfeits)
                    yield messages.standings_event(name, whole, self.contest.submissions.versions.pins(entry.league_id))
                continue
            yield live

    async def _released_fit(
        self, entry: LeagueEntry, release: SetRelease, games: Sequence[FinishedGame] | None = None
    ) -> _Fit:
        """How many of the league's stored games (``games``, when read already) are released, and their
        standings when some are not; read and fitted once for every caller while no more are stored."""
        count = self.contest.store.count(entry.league_id) if games is None else len(games)
        cached = self._released_fits.get(entry.league_id)
        if cached is not None and (cached.stored, cached.over) == (count, release.over):
            return cached
        if games is None:
            games = await asyncio.to_thread(self.contest.store.games, entry.league_id, False)
        shown = release.released(games)
        table = None
        if len(shown) < len(games) and not is_ladder(entry.definition):  # a ladder's table rates whole sets
            table = await asyncio.to_thread(point_table, shown, forfeits_of(entry.definition))
        fit = self._released_fits[entry.league_id] = _Fit(len(games), release.over, len(shown), table)
        return fit

    async def _games_shown(self, entry: LeagueEntry, admin: bool) -> int:
        """How many of the league's games the caller is told of: the organizer, every stored one; anyone
        else, those of whole duplicate sets (a count of a set still being played tells how far it has gone)."""
        if admin:
            return self.contest.store.count(entry.league_id)
        return (await self._released_fit(entry, release_of(entry))).shown
