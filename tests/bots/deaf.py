"""Plays the first legal action and ignores SIGTERM: only SIGKILL ends it.

python tests/bots/deaf.py --port N
"""

from __future__ import annotations

import argparse
import signal
from concurrent import futures

import grpc
from botbase import SERVICE_NAME, TamperingServicer
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from rage_sdk.pb import bot_pb2_grpc

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(TamperingServicer("deaf"), server)
    servicer = health.HealthServicer()
    for service in ("", SERVICE_NAME):
        servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    server.wait_for_termination()
