"""Where the live pages listen, bound here rather than by uvicorn (whose failure to bind exits the whole
referee with a traceback): on every address, IPv4 and IPv6 alike, for the referee's default host ``[::]``
(as its gRPC port does; asyncio's own socket for ``::`` takes IPv6 only), else on the host given."""

from __future__ import annotations

import socket

HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's headers, from its opening or its last answer."""
LEAST_HEADER_TIMEOUT = 0.1
MOST_HEADER_TIMEOUT = 600
"""The range the header timeout may be set in: ten minutes holds a connection long past any slow client's need."""
MAX_CONNECTIONS = 1000
"""Connections open at once, in all."""
MAX_PER_ADDRESS = 64
"""Connections open at once from one address."""
MOST_CONNECTIONS = 100_000
"""The most either limit may be set to: far past the file descriptors one process holds."""
ANY_ADDRESS = ("::", "")
"""Hosts meaning every address of both families (gRPC's ``[::]``)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, listening.

    :raises OSError: the host is unknown or the port cannot be bound.
    """
    bare = host.strip("[]")
    dual = bare in ANY_ADDRESS and socket.has_dualstack_ipv6()
    if bare in ANY_ADDRESS:
        bare = "::" if dual else "0.0.0.0"  # without IPv6 here: every IPv4 address
    family, _, _, _, address = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if dual:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen()
    except OSError:
        sock.close()
        raise
    return sock


def pages_url(host: str, port: int) -> str:
    """The pages' address to open: on this machine for any address, the host given otherwise."""
    bare = host.strip("[]")
    shown = "localhost" if bare in (*ANY_ADDRESS, "0.0.0.0") else f"[{bare}]" if ":" in bare else bare
    return f"http://{shown}:{port}/"
