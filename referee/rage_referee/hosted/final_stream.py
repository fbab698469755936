"""A ladder's final on the ladder's own stream (``Watch``): the final's games, marked ``final``, and its standings.

The final is stored as a league of its own (``LADDER.final``) with its own game numbers; its games are
announced on the ladder's stream (:class:`~.ladder_final.FinalRun`), as are its standings after each of
its whole sets (``final_changed``). A stream of a finalized ladder begins with the final's stored games
(with ``history``) and its standings. Anyone but the organizer is sent a game of the final once its
duplicate set is stored whole, as for the ladder's own games.
"""

from __future__ import annotations

import asyncio

from rage_sdk.pb import referee_pb2 as pb

from ..league.release import SetRelease
from . import messages
from .contest import Contest
from .ladder_final import capped_games
from .ladder_messages import final_event
from .registry import LeagueEntry
from .released import Released


def is_final_game(event: pb.LeagueEvent) -> bool:
    """Whether ``event`` is a game's end or fault in a ladder's final."""
    kind = event.WhichOneof("kind")
    return (kind == "game_finished" and event.game_finished.final) or (
        kind == "bot_faulted" and event.bot_faulted.final
    )


class FinalStream:
    """The final's part of one stream of a ladder (``release``: None for the organizer, who sees every game)."""

    def __init__(self, contest: Contest, entry: LeagueEntry, release: SetRelease | None) -> None:
        self.contest = contest
        self.entry = entry
        self.release = release
        self.seen: set[int] = set()
        """The final's games sent as the stream began."""
        self.released: Released | None = None

    async def begin(self, history: bool) -> list[pb.LeagueEvent]:
        """The final's events as the stream begins, once the ladder is finalized: its stored games (with
        ``history``), then its standings."""
        leagues, store, name = self.contest.leagues, self.contest.store, self.entry.name
        final = await asyncio.to_thread(leagues.book.final, self.entry.league_id)
        if final is None:
            return []
        games = await asyncio.to_thread(store.games, final.final_league_id, False)
        shown = {game.index for game in (games if self.release is None else self.release.released(games))}
        if self.release is not None:
            self.released = Released(self.release, store, final.final_league_id, shown, 0 if history else len(shown))
        sent: list[pb.LeagueEvent] = []
        if history:
            total = capped_games(final, self.entry.players)
            for done, game in enumerate(games, start=1):
                self.seen.add(game.index)
                game_events = messages.game_events(name, game, done, total, final=True)
                sent += game_events if self.released is None else self.released.history(game.index, game_events)
        state = await asyncio.to_thread(leagues.state, self.entry)
        standings = await asyncio.to_thread(leagues.final_standings, self.entry, state)
        if standings is not None:
            sent.append(final_event(name, standings))
        return sent

    def live(self, event: pb.LeagueEvent) -> list[pb.LeagueEvent]:
        """What to send now of a live event of the final's games (:func:`is_final_game`) (blocking: brief reads)."""
        game = event.game_finished.game if event.WhichOneof("kind") == "game_finished" else event.bot_faulted.game
        if game in self.seen:
            return []
        if self.release is None:
            return [event]
        if self.released is None:  # finalized since the stream began
            final = self.contest.leagues.book.final(self.entry.league_id)
            if final is None:
                return []
            self.released = Released(self.release, self.contest.store, final.final_league_id, set(), 0)
        return self.released.live(event)
