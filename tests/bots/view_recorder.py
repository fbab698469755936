"""A deterministic bot that appends every view it is given, pickled, to the file named by ``RAGE_VIEW_DUMP``.

Its choice is a fixed function of the view, so asking it again about a recorded decision with the
same view gives the same answer.

    python tests/bots/view_recorder.py --port N      (or tests/bots/view_recorder.py:ViewRecorder)
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

DUMP_ENV = "RAGE_VIEW_DUMP"


def read_views(path: Path) -> list[SeatView]:
    """The views a recorder wrote, in order."""
    views = []
    with path.open("rb") as dump:
        while True:
            try:
                views.append(pickle.load(dump))
            except EOFError:
                return views


class ViewRecorder(Bot):
    name = "view-recorder"
    version = "1"

    def _keep(self, view: SeatView) -> int:
        with Path(os.environ[DUMP_ENV]).open("ab") as dump:
            pickle.dump(view, dump)
        return view.round_number * 7 + len(view.hand) * 3 + len(view.trick)

    def bid(self, view: SeatView) -> int:
        pick = self._keep(view)
        return view.legal_bids[pick % len(view.legal_bids)]

    def play(self, view: SeatView) -> Play:
        pick = self._keep(view)
        return view.legal_plays[pick % len(view.legal_plays)]


if __name__ == "__main__":
    main(ViewRecorder)
