"""A bot that attacks the machine it runs on, then plays the first legal action; for the sandbox tests.

    python tests/bots/hostile.py ATTACK [TARGET ...] --listen unix:PATH

Attacks made before serving, each reported on stderr as ``ATTACK TARGET: blocked: WHY`` or
``ATTACK TARGET: ESCAPED``: ``connect HOST:PORT ...``, ``read PATH ...`` (a file or a directory),
``write PATH ...`` (``written`` when it could: the test checks where it landed), ``orphan`` (a
detached child that sleeps). Attacks made in the first bid, which affect play: ``memory``
(allocate until refused, then crash), ``fork`` (fork until refused, the children sleeping),
``hugefile [PATH]`` (write until refused), ``spin`` (spin the CPU, never answer), ``flood [MIB]``
(write MIB MiB, 48 unless told, to stderr and stdout: half before serving, half while it plays),
``spread N MIB`` (N processes, each holding MIB MiB; how many are alive then). And in the first
bid of every game: ``burn MS`` (MS milliseconds of CPU time, as a search would use).
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

MiB = 1024 * 1024


def report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def connect(target: str) -> None:
    host, _, port = target.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2) as sock:
            sock.sendall(b"hello from the sandbox")
        report(f"connect {target}: ESCAPED")
    except OSError as error:
        report(f"connect {target}: blocked: {error}")


def read(target: str) -> None:
    path = Path(target)
    try:
        found = sorted(os.listdir(path)) if path.is_dir() else path.read_bytes()[:64]
        report(f"read {target}: ESCAPED: {found!r}")
    except OSError as error:
        report(f"read {target}: blocked: {error}")


def write(target: str) -> None:
    try:
        Path(target).write_text("written from the sandbox")
        report(f"write {target}: written")
    except OSError as error:
        report(f"write {target}: blocked: {error}")


def orphan() -> None:
    """A grandchild in its own session, which nobody waits for."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
    report("orphan: left a sleeping grandchild")


def allocate() -> None:
    held = []
    try:
        while True:
            held.append(bytearray(16 * MiB))  # zero-filled: every page is touched
    except MemoryError:
        report(f"memory: refused after {len(held) * 16} MiB")
    os._exit(3)


BOMB = """
import os, sys, time
children = 0
try:
    while children < 100_000:
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        children += 1
except OSError as error:
    print(f"fork: refused after {children} processes: {error}", file=sys.stderr, flush=True)
time.sleep(3600)
"""


def fork_bomb() -> None:
    """Fork without bound from a fresh process (forking the gRPC server's own threads is another matter)."""
    bomb = subprocess.Popen([sys.executable, "-c", BOMB], stderr=subprocess.PIPE, text=True)
    assert bomb.stderr is not None
    report(bomb.stderr.readline().strip())  # once the limit stops it; the processes stay


def huge_file() -> None:
    written = 0
    chunk = b"x" * MiB
    try:
        with open(HostileBot.targets[0] if HostileBot.targets else "huge", "wb") as file:
            while written < 100_000 * MiB:
                file.write(chunk)
                file.flush()
                written += MiB
    except OSError as error:
        report(f"hugefile: refused after {written // MiB} MiB: {error}")


def flood(mib: int) -> None:
    """``mib`` MiB in lines of 1 KiB, to stderr and stdout in turn: the first half before serving, the rest from
    a thread of its own while the bot plays."""
    line = b"flood " + b"x" * 1017 + b"\n"

    def write(lines: int) -> None:
        for i in range(lines):
            os.write(2 if i % 2 else 1, line)

    write(mib * 512)
    threading.Thread(target=write, args=(mib * 512,), daemon=True).start()


def spread() -> None:
    """Memory spread over processes, each under any limit per process: N children holding MIB MiB each; then,
    once each has written its memory or been killed (or after 3 s), how many of them are alive, holding it."""
    count, mib = (int(n) for n in HostileBot.targets)
    children = []
    for _ in range(count):
        ready, done = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(ready)
            held = b"x" * (mib * MiB)  # written: every page is held
            os.write(done, b".")
            time.sleep(3600 + len(held))
            os._exit(0)
        os.close(done)
        children.append((child, ready))
    waiting, deadline = {ready for _, ready in children}, time.monotonic() + 3
    while waiting and time.monotonic() < deadline:  # each has written its memory, or was killed (its end closed)
        readable, _, _ = select.select(list(waiting), [], [], max(0.0, deadline - time.monotonic()))
        for ready in readable:
            os.read(ready, 1)
            waiting.discard(ready)
    alive = sum(os.waitpid(child, os.WNOHANG) == (0, 0) for child, _ in children)
    report(f"spread: {alive} of {count} processes holding {mib} MiB alive")


def burn(milliseconds: float) -> None:
    """Use ``milliseconds`` of CPU time."""
    end = time.process_time() + milliseconds / 1000
    while time.process_time() < end:
        pass


IN_PLAY = {"memory": allocate, "fork": fork_bomb, "hugefile": huge_file, "spread": spread}


class HostileBot(Bot):
    name = "hostile"
    version = "1"
    attack = ""
    targets: ClassVar[list[str]] = []

    def bid(self, view: SeatView) -> int:
        if self.attack == "spin":
            while True:
                pass
        if self.attack == "burn" and view.round_number == 1:  # its one bid of the first round
            burn(float(self.targets[0]))
        if self.attack in IN_PLAY:
            IN_PLAY[self.attack]()
            type(self).attack = ""  # once
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


if __name__ == "__main__":
    argv = sys.argv[1:]
    cut = next((i for i, part in enumerate(argv) if part.startswith("--")), len(argv))  # then --listen or --port
    parser = argparse.ArgumentParser()
    parser.add_argument("attack", choices=["connect", "read", "write", "orphan", "spin", "flood", "burn", *IN_PLAY])
    parser.add_argument("targets", nargs="*")
    args, rest = parser.parse_args(argv[:cut]), argv[cut:]
    before = {"connect": connect, "read": read, "write": write}
    for target in args.targets if args.attack in before else []:
        before[args.attack](target)
    if args.attack == "orphan":
        orphan()
    if args.attack == "flood":
        flood(int(args.targets[0]) if args.targets else 48)
    HostileBot.attack, HostileBot.targets = args.attack, args.targets
    main(HostileBot, rest)
