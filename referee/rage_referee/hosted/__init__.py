"""The hosted contest referee: one server that entrants' bots connect to, running leagues among them.

- :mod:`.errors`: typed failures, each with its gRPC status code;
- :mod:`.auth`: tokens (generated with :mod:`secrets`, kept as SHA-256 hashes) and who a caller is
  (the admin, an entrant, or one of its bots: an entrant's limits count all its tokens together);
- :mod:`.addresses`: bot addresses and the organizer's allow-list;
- :mod:`.checks`: limits and validation of names and text;
- :mod:`.definition`: a league definition (the league TOML) read against the registry;
- :mod:`.registry`: entrants, bots and hosted leagues, in the database that holds the league games;
- :mod:`.build_queue`: submitted versions' builds, a few at once, served in turn by entrant;
- :mod:`.standings`: the rating table (cached) and the cheap live estimates;
- :mod:`.messages`: the service's messages built from the referee's values;
- :mod:`.events`: per-league fan-out of events to watchers;
- :mod:`.leagues`: leagues running inside the server (start, pause, resume, cancel, resume after a restart);
- :mod:`.contest`: the pieces wired together;
- :mod:`.decoding`: requests that do not decode, refused with INVALID_ARGUMENT;
- :mod:`.service`: the thin ``rage.v1.Referee`` servicer;
- :mod:`.server`: ``create_server`` (health and reflection beside) and ``serve`` with graceful stop.
"""
