"""Who may take a seat in a contest: no bot run inside the referee where the sandbox is asked for, and no
process in two seats (one address registered or given twice)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.seats import BotSpec
from rage_referee.seats.spec import BotSpecError, seat_address, shared_seat
from rage_sdk.pb import referee_pb2 as pb

from tests.conftest import require
from tests.helpers.league import GREEDY, RANDOM, flat, rage, write_league
from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, Referee, run


def sandbox_league(folder: Path, bots: dict[str, str]) -> Path:
    return write_league(folder, players=2, games=2, bots=bots, tables="[sandbox]\nenabled = true")


def test_a_sandbox_league_refuses_a_bot_run_inside_the_referee(tmp_path: Path) -> None:
    league = sandbox_league(tmp_path, {"inside": GREEDY, "served": "python examples/random_bot.py"})
    result = rage("league", "run", league)
    assert result.exit_code == 2
    line = flat(result.output)
    assert "bots: bot 'inside':" in line and "would run inside the referee" in line
    assert "run the bot as a command instead" in line and "Traceback" not in line


def test_without_the_sandbox_a_bot_run_inside_the_referee_is_fine(tmp_path: Path) -> None:
    league = write_league(
        tmp_path, players=2, games=2, bots={"a": GREEDY, "b": RANDOM}, ruleset='preset = "amigo"\nrounds = [1]'
    )
    assert rage("league", "run", league, "--standings-every", "0").exit_code == 0


def test_rage_match_refuses_one_address_in_two_seats(tmp_path: Path) -> None:
    bots = ["--bot", "a=127.0.0.1:50999", "--bot", "b=localhost:50999", "--logs", str(tmp_path / "logs")]
    result = rage("match", *bots, "--games", "1")
    assert result.exit_code == 2
    line = flat(result.output)
    assert line == (
        "--bot: bots 'a' and 'b' are both at localhost:50999 (127.0.0.1:50999): one process would hold two seats "
        "and see both hands; give each bot its own"
    )


def test_a_league_refuses_one_address_in_two_seats(tmp_path: Path) -> None:
    bots = {"a": "[::1]:50998", "b": RANDOM, "c": "127.0.0.2:50998"}
    league = write_league(tmp_path, players=2, games=2, bots=bots)
    result = rage("league", "run", league)
    assert result.exit_code == 2
    assert "bots: bots 'a' and 'c' are both at 127.0.0.2:50998 ([::1]:50998): one process" in flat(result.output)


def test_bots_at_their_own_addresses_or_sockets_are_apart() -> None:
    specs = [BotSpec.of(name, target) for name, target in (("a", "127.0.0.1:1"), ("b", "127.0.0.1:2"))]
    specs += [BotSpec.of("c", "unix:/run/x/bot.sock"), BotSpec.of("d", "10.0.0.1:1"), BotSpec.of("e", GREEDY)]
    assert shared_seat(specs) is None
    assert shared_seat([*specs, BotSpec.of("f", "unix:/run/x/../x/bot.sock")]) is not None
    assert seat_address("localhost:7", resolve=False) == seat_address("[::1]:7") == "loopback:7"


def this_machines_address() -> str:
    """An address of this machine's own interfaces that is no loopback one (the one a route out leaves from)."""
    address = "127.0.0.1"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe, contextlib.suppress(OSError):
        probe.connect(("192.0.2.1", 9))  # a datagram socket's connect sends nothing: it only picks the route
        address = str(probe.getsockname()[0])
    require(
        not ipaddress.ip_address(address).is_loopback,
        "an IPv4 address of this machine's that is not loopback",
        "run the tests on a machine with a network interface and a route out",
    )
    return address


@pytest.mark.parametrize("other", ["0.0.0.0", "[::]", "[::ffff:127.0.0.1]", "this machine"])
def test_every_way_of_writing_this_machine_is_one_host(other: str) -> None:
    """A bot listening on all addresses at 127.0.0.1:P was given a second seat as 0.0.0.0:P, [::]:P,
    [::ffff:127.0.0.1]:P or the machine's own address, and its process saw both hands."""
    host = this_machines_address() if other == "this machine" else other
    specs = [BotSpec.of("a", "127.0.0.1:47900"), BotSpec.of("b", f"{host}:47900")]
    refused = shared_seat(specs)
    assert refused is not None and refused.startswith(f"bots 'a' and 'b' are both at {host}:47900"), refused
    assert shared_seat([specs[0], BotSpec.of("b", f"{host}:47901")]) is None


@pytest.mark.parametrize("port", ["0", "65536", "95659", "0095659"])
def test_a_port_outside_1_to_65535_is_refused_naming_the_bot(port: str) -> None:
    """gRPC took 127.0.0.1:95659 as port 95659 - 65536 = 30123: a bot given there and at :30123 held two seats."""
    with pytest.raises(BotSpecError) as refused:
        BotSpec.of("a", f"127.0.0.1:{port}")
    assert str(refused.value) == f"bot 'a': '127.0.0.1:{port}': the port must be 1-65535, not {int(port)}"


def test_rage_match_refuses_a_port_past_65535_in_one_line(tmp_path: Path) -> None:
    bots = ["--bot", "a=127.0.0.1:30123", "--bot", "b=127.0.0.1:95659", "--logs", str(tmp_path / "logs")]
    result = rage("match", *bots, "--games", "1")
    assert result.exit_code == 2
    assert flat(result.output) == "bot 'b': '127.0.0.1:95659': the port must be 1-65535, not 95659"


def test_a_port_with_leading_zeros_is_the_same_seat() -> None:
    specs = [BotSpec.of("a", "127.0.0.1:3012"), BotSpec.of("b", "127.0.0.1:03012")]
    assert shared_seat(specs) is not None


def test_an_ipv4_address_written_as_ipv6_is_itself() -> None:
    assert seat_address("[::ffff:10.0.0.1]:7") == seat_address("10.0.0.1:7") == "10.0.0.1:7"


def test_the_hosted_referee_refuses_a_second_registration_of_an_address(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        async def refused(method: str, request: Any, token: str) -> tuple[Any, str]:
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await hosted.call(method, request, token)
            return info.value.code(), info.value.details() or ""

        one = await hosted.call("RegisterBot", pb.RegisterBotRequest(name="one", address="127.0.0.1:5001"), ENTRY)
        twice = pb.RegisterBotRequest(name="two", address="localhost:5001")
        assert await refused("RegisterBot", twice, ADMIN) == (
            grpc.StatusCode.ALREADY_EXISTS,
            "address: localhost:5001 is where bot 'one' is registered: one process may hold one seat of a game",
        )
        two = await hosted.call("RegisterBot", pb.RegisterBotRequest(name="two", address="127.0.0.1:5002"), ENTRY)
        moved = pb.UpdateBotRequest(name="two", address="127.0.0.1:5001")
        code, details = await refused("UpdateBot", moved, two.token)
        assert code is grpc.StatusCode.ALREADY_EXISTS and "bot 'one'" in details
        stay = pb.UpdateBotRequest(name="one", address="localhost:5001")
        assert (await hosted.call("UpdateBot", stay, one.token)).address == "localhost:5001"
        await hosted.call("UpdateBot", pb.UpdateBotRequest(name="one", address="127.0.0.1:5003"), one.token)
        await hosted.call("UpdateBot", moved, two.token)  # the address given up is free
        listed = await hosted.call("ListBots", pb.ListBotsRequest(), ADMIN)
        assert [(bot.name, bot.address) for bot in listed.bots] == [
            ("one", "127.0.0.1:5003"),
            ("two", "127.0.0.1:5001"),
        ]

    run(tmp_path, scenario)


def test_a_hosted_league_refuses_bots_registered_at_one_address_before_the_registry_refused_them(
    tmp_path: Path,
) -> None:
    async def scenario(hosted: Referee) -> None:
        for name in ("one", "two"):  # as a database of an earlier release may hold them
            hosted.contest.registry.add_bot(name, "localhost:5001", "", f"{name}-hash")
        hosted.contest.registry.add_bot("three", "127.0.0.1:5002", "", "three-hash")
        definition = 'players = 2\ngames = 2\n[ruleset]\npreset = "amigo"\n'
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=definition, name="cup"), ADMIN)
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details() == (
            "definition.bots: bots 'one' and 'two' are both at localhost:5001: one process would hold two seats "
            "and see both hands; give each bot its own"
        )
        apart = 'bots = ["one", "three"]\n' + definition
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=apart, name="cup"), ADMIN)

    run(tmp_path, scenario)
