"""Bot addresses and the allow-list: the referee calls no address the organizer has not allowed.

An address is ``HOST:PORT`` (``[IPv6]:PORT``). The allow-list holds networks (``10.0.0.0/8``,
``127.0.0.1``) and host names; by default it is loopback only. A host name on the list is called by
name. Any other name is resolved and every address it resolves to must be in an allowed network;
the referee then calls the first of those addresses itself, so a name cannot resolve one way when
checked and another when called. Addresses are checked at registration and again before connecting.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import re
import socket
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..limits import MAX_ADDRESS
from .errors import InvalidArgument

RESOLVE_TIMEOUT = 5.0
RESOLVERS = 4
"""Threads that resolve host names, apart from the referee's others: a name whose DNS server never
answers holds one for the system resolver's own time, past :data:`RESOLVE_TIMEOUT`, and registering many
such names held every thread the referee runs its builds, database reads and standings in."""
_resolver = ThreadPoolExecutor(RESOLVERS, thread_name_prefix="rage-resolve")
LOOPBACK = ("127.0.0.0/8", "::1/128")
_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*"
)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def _plain(ip: IPAddress) -> IPAddress:
    """An IPv4-mapped IPv6 address as the IPv4 address it is."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True)
class AllowList:
    networks: tuple[IPNetwork, ...]
    hosts: frozenset[str]

    @staticmethod
    def parse(items: Sequence[str]) -> AllowList:
        """``--allow`` values: networks (CIDR or a single address) and host names.

        :raises ValueError: an item that is neither; the message quotes it.
        """
        networks: list[IPNetwork] = []
        hosts: set[str] = set()
        for item in items:
            text = item.strip()
            try:
                networks.append(ipaddress.ip_network(text.strip("[]"), strict=False))
            except ValueError:
                if not _HOST_NAME.fullmatch(text.rstrip(".")):
                    raise ValueError(f"{item!r} is neither a network (CIDR or address) nor a host name") from None
                hosts.add(text.rstrip(".").lower())
        return AllowList(tuple(networks), frozenset(hosts))

    @staticmethod
    def loopback() -> AllowList:
        return AllowList.parse(LOOPBACK)

    def permits(self, ip: IPAddress) -> bool:
        ip = _plain(ip)
        return any(ip.version == network.version and ip in network for network in self.networks)

    def describe(self) -> str:
        return ", ".join([*map(str, self.networks), *sorted(self.hosts)]) or "nothing"


def split_address(text: str, field: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``[IPv6]:PORT`` as (host, port); :class:`InvalidArgument` naming ``field``."""
    if not text:
        raise InvalidArgument(field, "missing")
    if len(text) > MAX_ADDRESS:
        raise InvalidArgument(field, f"at most {MAX_ADDRESS} characters, not {len(text)}")
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
        valid = bool(sep) and _is_ip(host, version=6)
    else:
        host, sep, port = text.rpartition(":")
        valid = bool(sep) and (_is_ip(host, version=4) or bool(_HOST_NAME.fullmatch(host.rstrip("."))))
    if not valid:
        raise InvalidArgument(field, f"{text!r}: expected HOST:PORT (a host name or IPv4 address, or [IPv6]:PORT)")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise InvalidArgument(field, f"{text!r}: the port must be 1-65535")
    return host, int(port)


def _is_ip(text: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(text).version == version
    except ValueError:
        return False


def _joined(ip: IPAddress, port: int) -> str:
    return f"[{ip}]:{port}" if ip.version == 6 else f"{ip}:{port}"


async def callable_address(text: str, allow: AllowList, field: str = "address") -> str:
    """The address to call for ``text``, once the allow-list permits it (its port without leading zeros).

    :raises InvalidArgument: the address is malformed, cannot be resolved, or is not allowed.
    """
    host, port = split_address(text, field)
    if host.rstrip(".").lower() in allow.hosts:
        return f"{host}:{port}"
    try:
        ips: list[IPAddress] = [ipaddress.ip_address(host)]
    except ValueError:
        ips = await _resolve(host, port, field)
    refused = [ip for ip in ips if not allow.permits(ip)]
    if refused:
        shown = host if str(refused[0]) == host else f"{host} ({refused[0]})"
        raise InvalidArgument(field, f"{shown} is not an address this referee may call (allowed: {allow.describe()})")
    return _joined(_plain(ips[0]), port)


async def _resolve(host: str, port: int, field: str) -> list[IPAddress]:
    loop = asyncio.get_running_loop()
    try:
        lookup = functools.partial(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
        infos = await asyncio.wait_for(loop.run_in_executor(_resolver, lookup), timeout=RESOLVE_TIMEOUT)
    except (OSError, TimeoutError):
        raise InvalidArgument(field, f"cannot resolve the host {host!r}") from None
    ips: list[IPAddress] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).partition("%")[0])
        if ip not in ips:
            ips.append(ip)
    if not ips:
        raise InvalidArgument(field, f"cannot resolve the host {host!r}")
    return ips
