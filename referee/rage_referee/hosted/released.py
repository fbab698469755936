"""What a stream for anyone but the organizer is sent of a league's games: each once its duplicate set is whole."""

from __future__ import annotations

from rage_sdk.pb import referee_pb2 as pb

from ..league.release import SetRelease
from ..league.store import Store


class Released:
    """What a stream for anyone but the organizer is sent of the league's games: a game's events once its
    duplicate set is stored whole (held till then), each game's ``games_done`` counting the games the
    stream has shown (with those shown before it subscribed, without history), so it rises as it goes."""

    def __init__(self, release: SetRelease, store: Store, league_id: int, shown: set[int], done: int) -> None:
        self.release, self.store, self.league_id = release, store, league_id
        self._shown = shown
        """The stored games sent as the stream begins (with history)."""
        self._done = done
        """The games the stream has shown, and those it counts as shown before it began."""
        self._held: dict[int, list[pb.LeagueEvent]] = {}
        """The events of games whose set is still being played, by game."""

    def history(self, game: int, events: list[pb.LeagueEvent]) -> list[pb.LeagueEvent]:
        """A stored game's events, sent now (its set was whole as the stream began) or held."""
        if game in self._shown:
            return self._numbered(events)
        self._held[game] = events
        return []

    def live(self, event: pb.LeagueEvent) -> list[pb.LeagueEvent]:
        """A live game event held, and every held event whose set is whole now, in the order they came."""
        game = event.game_finished.game if event.WhichOneof("kind") == "game_finished" else event.bot_faulted.game
        self._held.setdefault(game, []).append(event)
        whole = [game for game in self._held if not self.release.waiting(self.store.set_games(self.league_id, game))]
        return self._numbered([event for game in whole for event in self._held.pop(game)])

    def _numbered(self, events: list[pb.LeagueEvent]) -> list[pb.LeagueEvent]:
        sent = []
        for event in events:
            copy = pb.LeagueEvent()
            copy.CopyFrom(event)  # the hub's, shared with other streams
            if copy.WhichOneof("kind") == "game_finished":
                self._done += 1
                copy.game_finished.games_done = self._done
            sent.append(copy)
        return sent
