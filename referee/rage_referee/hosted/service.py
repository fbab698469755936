"""The ``rage.v1.Referee`` servicer: check the token, validate the request, call the contest, answer.

Typed failures (:mod:`.errors`) leave with their status code and message; anything unexpected is
logged on the server and leaves as INTERNAL without details.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc
from rage_sdk.deal import key_commitment
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc

from ..seats.spec import seat_address
from . import events, messages
from .addresses import callable_address
from .auth import Caller, Role, new_token, token_hash
from .checks import MAX_BOT_NAME, MAX_LEAGUE_NAME, MAX_OWNER, check_name, check_text
from .contest import Contest
from .definition import forfeits_of, read_definition
from .errors import ContestError, FailedPrecondition, InvalidArgument, NotFound
from .events import Watcher
from .leagues import failure_text
from .registry import LeagueEntry, LeagueStatus
from .submissions import next_chunk

log = logging.getLogger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Referee"].full_name

S = TypeVar("S", bound="RefereeServicer")
Q = TypeVar("Q")
R = TypeVar("R")


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

    def _caller(self, context: Any) -> Caller:
        return self.contest.auth.identify(context.invocation_metadata())

    def _league(self, name: str) -> LeagueEntry:
        return self.contest.registry.league(check_name(name, "league", MAX_LEAGUE_NAME))

    def _info(self, entry: LeagueEntry) -> pb.LeagueInfo:
        done = self.contest.store.count(entry.league_id)
        commitment = self.contest.leagues.deal_commitment(entry)
        submissions = self.contest.submissions
        submitted = submissions.versions.submitted().intersection(entry.bots)
        sandbox = submissions.policy.describe() if submitted else ""
        pins = submissions.versions.pins(entry.league_id)
        return messages.league_info(entry, done, commitment, sandbox, pins)

    def _current(self, name: str) -> str:
        entry = self.contest.submissions.versions.current(name)
        return "" if entry is None else entry.short

    # ------------------------------------------------------------------ entrants
    @refusals
    async def RegisterBot(self, request: pb.RegisterBotRequest, context: Any) -> pb.RegisterBotReply:
        caller = self._caller(context)
        caller.require_entrant("register a bot")
        name = check_name(request.name, "name", MAX_BOT_NAME)
        seat = seat_address(await callable_address(request.address, self.contest.allow), resolve=False)
        owner = check_text(request.owner, "owner", MAX_OWNER)
        token = new_token()
        bot = self.contest.registry.add_bot(name, request.address, owner, token_hash(token), caller.holder, seat)
        log.info("bot %s registered at %s (%s)", name, request.address, owner or "no owner given")
        return pb.RegisterBotReply(bot=messages.bot_info(bot, show_address=True), token=token)

    @refusals
    async def UpdateBot(self, request: pb.UpdateBotRequest, context: Any) -> pb.BotInfo:
        self._caller(context).require_bot(request.name, "change it")
        name = check_name(request.name, "name", MAX_BOT_NAME)
        if name in self.contest.submissions.versions.submitted():
            raise FailedPrecondition(f"name: bot {name!r} is submitted code the referee runs: it has no address")
        address = await callable_address(request.address, self.contest.allow)
        bot = self.contest.registry.set_address(name, request.address, seat_address(address, resolve=False))
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
        with self.contest.submissions.receiving(caller.key):
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
                self.contest.registry.check_room(caller.holder)
            async with submissions.upload(first.format, first.data, chunks, submissions.room(name)) as upload:
                entry, result = await submissions.accept(name, upload)
            token = ""
            if new:
                token = new_token()
                try:
                    bot = self.contest.registry.add_bot(name, "", owner, token_hash(token), caller.holder)
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
    async def ListVersions(self, request: pb.ListVersionsRequest, context: Any) -> pb.ListVersionsReply:
        caller = self._caller(context)
        name = check_name(request.name, "name", MAX_BOT_NAME)
        submissions = self.contest.submissions
        versions = submissions.versions.of(name)
        if not versions:
            raise NotFound(f"name: no submitted bot {name!r}")
        current = submissions.versions.current(name)
        shown = caller.sees_address_of(name)
        return pb.ListVersionsReply(
            versions=[
                messages.version_info(entry, entry == current, submissions.build_log(entry) if shown else "")
                for entry in versions
            ]
        )

    # ------------------------------------------------------------------ the organizer
    @refusals
    async def CreateLeague(self, request: pb.CreateLeagueRequest, context: Any) -> pb.LeagueInfo:
        self._caller(context).require_admin("create a league")
        registered = self.contest.leagues.targets()
        # Off the event loop: a big schedule takes a second to build, and other calls must not wait for it.
        definition = await asyncio.to_thread(read_definition, request.definition, request.name, registered)
        entry = self.contest.leagues.create(definition, request.definition)
        log.info("league %s created: %d bots, %d games", entry.name, len(entry.bots), entry.games_total)
        return self._info(entry)

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
    async def RevealDealKey(self, request: pb.LeagueRequest, context: Any) -> pb.DealKey:
        self._caller(context).require_admin("reveal a deal key")
        name = self._league(request.league).name
        key = self.contest.leagues.reveal(name)
        return pb.DealKey(league=name, key=key.hex(), commitment=key_commitment(key))

    # ------------------------------------------------------------------ anyone with a token
    @refusals
    async def ListLeagues(self, request: pb.ListLeaguesRequest, context: Any) -> pb.ListLeaguesReply:
        self._caller(context)
        return pb.ListLeaguesReply(leagues=[self._info(entry) for entry in self.contest.registry.leagues()])

    @refusals
    async def GetStandings(self, request: pb.LeagueRequest, context: Any) -> pb.Standings:
        self._caller(context)
        entry = self._league(request.league)
        table = await self.contest.standings.table(entry.league_id, forfeits_of(entry.definition))
        pins = self.contest.submissions.versions.pins(entry.league_id)
        return messages.standings(entry.name, table, self.contest.leagues.deal_commitment(entry), pins)

    @refusals
    async def GetRecord(self, request: pb.GetRecordRequest, context: Any) -> pb.GameRecord:
        self._caller(context)
        entry = self._league(request.league)
        if request.game >= entry.games_total:
            raise InvalidArgument("game", f"league {entry.name!r} has games 0-{entry.games_total - 1}")
        record = self.contest.store.record(entry.league_id, request.game)
        if record is None:
            raise NotFound(f"game: game {request.game} of league {entry.name!r} has not finished")
        withheld = self.contest.leagues.withheld(entry, request.game)
        if withheld is not None:
            raise FailedPrecondition(withheld)
        return pb.GameRecord(league=entry.name, game=request.game, record=json.dumps(record))

    async def Watch(self, request: pb.WatchRequest, context: Any) -> AsyncIterator[pb.LeagueEvent]:
        try:
            caller = self._caller(context)
            entry = self._league(request.league)
            watcher = self.contest.hub.subscribe(entry.name, caller.key, admin=caller.role is Role.ADMIN)
        except ContestError as error:
            await context.abort(error.code, str(error))
            return
        try:
            async for event in self._events(entry.name, watcher, request.history):
                yield event
        finally:
            self.contest.hub.unsubscribe(watcher)
        if watcher.refusal is not None:
            await context.abort(watcher.refusal.code, str(watcher.refusal))

    async def _events(self, name: str, watcher: Watcher, history: bool) -> AsyncIterator[pb.LeagueEvent]:
        """The league's state now (subscribed first, so nothing falls between), then its live events."""
        registry, store = self.contest.registry, self.contest.store
        entry = registry.league(name)
        games = await asyncio.to_thread(store.games, entry.league_id, False) if history else None
        stored = store.count(entry.league_id) if games is None else len(games)
        yield messages.status_event(name, entry.status, stored, entry.games_total, entry.reason)
        seen: set[int] = set()
        for done, game in enumerate(games or (), start=1):
            seen.add(game.index)
            for event in messages.game_events(name, game, done, entry.games_total):
                yield event
        fitted = 0
        if stored:
            table = await self.contest.standings.points(entry.league_id, forfeits_of(entry.definition), games)
            fitted = table.games
            yield messages.standings_event(name, table, self.contest.submissions.versions.pins(entry.league_id))
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
                done = self.contest.store.count(entry.league_id)
                yield messages.status_event(name, entry.status, done, entry.games_total, entry.reason)
                return
            if live is None:
                return
            kind = live.WhichOneof("kind")
            if kind == "game_finished" and live.game_finished.game in seen:
                continue
            if kind == "bot_faulted" and live.bot_faulted.game in seen:
                continue
            if kind == "standings_changed" and live.standings_changed.games < fitted:
                continue  # fitted before the table sent above
            yield live
