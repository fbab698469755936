"""Serves the Bot service (the first legal action) but not as proto/README.md asks of its health service:
with ``--health none`` it serves no health service at all, with ``--health not-serving`` one that says NOT_SERVING.

    python tests/bots/unhealthy.py --health none|not-serving --port N
"""

from __future__ import annotations

import argparse
import signal
from concurrent import futures

import grpc
from botbase import TamperingServicer
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from rage_sdk.pb import bot_pb2_grpc

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--health", choices=["none", "not-serving"], required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(TamperingServicer("unhealthy"), server)
    if args.health == "not-serving":
        servicer = health.HealthServicer()
        servicer.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
        health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    signal.signal(signal.SIGTERM, lambda signum, frame: server.stop(0.5))
    server.wait_for_termination()
