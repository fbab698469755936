"""Plays the first legal action and appends every message it receives to --dump PATH
(each as a 4-byte big-endian length and the serialized rage.v1.GameMessage). With --stall-ms MS it
holds its first answer that long, as a bot on a loaded machine may be held up.

    python tests/bots/recorder.py --dump PATH [--stall-ms MS] --port N
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb


class RecorderServicer(TamperingServicer):
    def __init__(self, dump: Path, stall_ms: int = 0) -> None:
        super().__init__("recorder")
        self.dump = dump
        self.stall_ms = stall_ms

    def Play(self, request_iterator: Iterator[pb.RefereeBatch], context: grpc.ServicerContext) -> Iterator[pb.BotBatch]:
        def recorded() -> Iterator[pb.RefereeBatch]:
            for batch in request_iterator:
                with self.dump.open("ab") as out:
                    for message in batch.messages:
                        data = message.SerializeToString()
                        out.write(len(data).to_bytes(4, "big") + data)
                if self.stall_ms and any(message.HasField("request") for message in batch.messages):
                    time.sleep(self.stall_ms / 1000)
                    self.stall_ms = 0
                yield batch

        yield from super().Play(recorded(), context)


def read_dump(path: Path) -> list[pb.GameMessage]:
    """The messages a recorder wrote, in order; one it is still writing is left out."""
    data, messages, at = path.read_bytes(), [], 0
    while at + 4 <= len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        if at + 4 + size > len(data):
            break
        messages.append(pb.GameMessage.FromString(data[at + 4 : at + 4 + size]))
        at += 4 + size
    return messages


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--dump", type=Path, required=True)
    parser.add_argument("--stall-ms", type=int, default=0)
    known, rest = parser.parse_known_args()
    serve_servicer(RecorderServicer(known.dump, known.stall_ms), rest)
