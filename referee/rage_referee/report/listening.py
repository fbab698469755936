"""Where the live pages listen: on every address, IPv4 and IPv6 alike, for the referee's default host ``[::]``
(as its gRPC port does; asyncio's own socket for ``::`` would take IPv6 only), else on the host given."""

from __future__ import annotations

import socket

ANY_ADDRESS = ("::", "")
"""Hosts meaning every address of both families (gRPC's ``[::]``)."""


def any_address_socket(host: str, port: int) -> socket.socket | None:
    """A bound socket taking IPv6 and IPv4 on every address when ``host`` is any address (``[::]``) and the
    machine has IPv6; None otherwise, for the server to bind ``host`` itself.

    :raises OSError: the port cannot be bound.
    """
    if host.strip("[]") not in ANY_ADDRESS or not socket.has_ipv6:
        return None
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    except OSError:  # IPv6 turned off: the server binds IPv4's any address
        return None
    try:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("::", port))
    except OSError:
        sock.close()
        raise
    return sock


def pages_url(host: str, port: int) -> str:
    """The pages' address to open: on this machine for any address, the host given otherwise."""
    bare = host.strip("[]")
    shown = "localhost" if bare in (*ANY_ADDRESS, "0.0.0.0") else f"[{bare}]" if ":" in bare else bare
    return f"http://{shown}:{port}/"
