"""A Ray cluster started as Ray documents it, for the tests that need one: ``ray start --head`` and a worker
node joining it with ``ray start --address``, separate processes on this machine, token authentication on.

Each node is a ``ray start --block`` process of the test's own (its Ray processes die with it), on free
ports and in a folder of its own, so no other Ray on the machine is touched; the token is the cluster's
own, in a file named by ``RAY_AUTH_TOKEN_PATH`` (Ray turns token mode on for a head that has one).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil

RAY = Path(sys.executable).with_name("ray")
START_SECONDS = 90.0
WORKER_TITLE = "ray::GameWorker"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class RayCluster:
    address: str
    """The head's ``HOST:PORT``."""
    env: dict[str, str]
    """An environment holding the cluster's token (``RAY_AUTH_TOKEN_PATH``), for its drivers."""
    folder: Path
    worker_node: subprocess.Popen[bytes]

    def game_workers(self) -> list[psutil.Process]:
        """The ``GameWorker`` actors' processes, all on the worker node."""
        found = []
        for process in psutil.Process(self.worker_node.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if " ".join(process.cmdline()).startswith(WORKER_TITLE):
                    found.append(process)
        return found


def _node_ports() -> list[str]:
    """Free ports for everything a node listens on (a second Ray on the machine takes Ray's defaults)."""
    names = ("node-manager-port", "object-manager-port", "dashboard-agent-listen-port", "metrics-export-port")
    return [arg for name in names for arg in (f"--{name}", str(free_port()))] + [
        "--dashboard-agent-grpc-port",
        str(free_port()),
        "--runtime-env-agent-port",
        str(free_port()),
    ]


def _start(argv: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _wait_started(node: subprocess.Popen[bytes], log: Path, what: str) -> str | None:
    """None once the node says it runs; else why it does not."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if "Ray runtime started" in text:
            return None
        if node.poll() is not None:
            return f"the {what} exited ({node.returncode}): {text[-600:]}"
        time.sleep(0.3)
    return f"the {what} did not start within {START_SECONDS:.0f} s: {log.read_text(errors='replace')[-600:]}"


def _stop(node: subprocess.Popen[bytes]) -> None:
    """SIGTERM the ``ray start --block`` process (it stops its Ray processes), then SIGKILL what is left."""
    if node.poll() is None:
        node.send_signal(signal.SIGTERM)
        try:
            node.wait(30)
        except subprocess.TimeoutExpired:
            node.kill()
            node.wait(10)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(node.pid, signal.SIGKILL)


@contextlib.contextmanager
def ray_cluster(folder: Path, worker_cpus: int = 2) -> Iterator[RayCluster | str]:
    """A head (no CPUs: it runs no games) and a worker node of ``worker_cpus``; or why they could not start."""
    folder.mkdir(parents=True, exist_ok=True)
    token = folder / "auth_token"
    token.write_text(secrets.token_hex(32))
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env.update(RAY_AUTH_TOKEN_PATH=str(token), RAY_USAGE_STATS_ENABLED="0", PYTHONUNBUFFERED="1")
    port = free_port()
    # Ray's sockets live under its temp dir, and a Unix socket's path is at most 107 bytes: pytest's folders
    # are too deep for that, so the session files go to a short folder of the cluster's own under /tmp.
    ray_temp = Path(tempfile.mkdtemp(prefix="rage-ray-", dir="/tmp"))
    common = ["--block", "--temp-dir", str(ray_temp), "--disable-usage-stats", *_node_ports()]
    head_argv = [str(RAY), "start", "--head", "--port", str(port), "--num-cpus", "0", "--include-dashboard", "false"]
    head_argv += ["--ray-client-server-port", str(free_port()), "--node-ip-address", "127.0.0.1"]
    head = _start([*head_argv, *common], folder / "head.log", env)
    nodes = [head]
    try:
        why = _wait_started(head, folder / "head.log", "head (ray start --head)")
        if why is not None:
            yield why
            return
        worker_argv = [str(RAY), "start", "--address", f"127.0.0.1:{port}", "--num-cpus", str(worker_cpus)]
        worker_argv += ["--node-ip-address", "127.0.0.1", *common[:1], *_node_ports()]
        worker_env = {**env, "RAY_AUTH_MODE": "token"}  # a node joining a cluster with a token says so
        worker_env["RAGE_VERSIONS_CACHE"] = str(folder / "versions-cache")  # the node's own
        worker = _start(worker_argv, folder / "worker.log", worker_env)
        nodes.append(worker)
        why = _wait_started(worker, folder / "worker.log", "worker node (ray start --address)")
        if why is not None:
            yield why
            return
        yield RayCluster(f"127.0.0.1:{port}", env, folder, worker)
    finally:
        for node in reversed(nodes):
            _stop(node)
        shutil.rmtree(ray_temp, ignore_errors=True)
