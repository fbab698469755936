"""A Ray cluster's token authentication, as the driver connecting to it needs it.

``ray start --head`` turns on token authentication when a token is at hand (``RAY_AUTH_TOKEN``,
the file at ``RAY_AUTH_TOKEN_PATH``, or ``~/.ray/auth_token``, which any earlier ``ray.init()`` on
the machine writes); every node and driver then has to send that token. Ray's driver sends it only
in token mode (``RAY_AUTH_MODE=token``), which it turns on by itself only for the cluster it finds
(``auto``), never for one named by its address; without it, ``ray.init`` retries for 20 s and
fails saying nothing of the token.

:func:`authenticate` asks the cluster's control service (the GCS, at ``HOST:PORT``) whether it
wants a token, and which: when it does and this process holds the token it accepts, the driver
connects in token mode; otherwise one line says exactly what to set.
"""

from __future__ import annotations

import os

import grpc
from rage_sdk.errors import RageError

PROBE = "/ray.rpc.NodeInfoGcsService/GetClusterId"
"""A call every GCS answers, with an empty request, once the caller's token is right."""
PROBE_SECONDS = 5.0
MODE = "RAY_AUTH_MODE"
SET_TOKEN = (
    "set RAY_AUTH_TOKEN to the cluster's token (`ray get-auth-token` on its head) "
    "or RAY_AUTH_TOKEN_PATH to a file holding it"
)


class AuthError(RageError, RuntimeError):
    """The cluster wants a token this process does not have (or has turned off); one line."""

    exit_code = 1


def authenticate(address: str) -> None:
    """Make this process send the token the cluster at ``address`` (``HOST:PORT``) asks for, if it asks.

    :raises AuthError: it asks for a token and none that it accepts is at hand, or token mode is
        turned off here (``RAY_AUTH_MODE=disabled``).
    """
    if _answers(address, ()):
        return
    if os.environ.get(MODE, "").lower() == "disabled":
        raise AuthError(f"it asks for its auth token, and {MODE}=disabled here: set {MODE}=token")
    token = _token()
    if token is None:
        raise AuthError(f"it asks for its auth token and none is set: {SET_TOKEN}")
    if not _answers(address, tuple(token.items())):
        raise AuthError(f"it refuses the auth token set here: {SET_TOKEN}")
    if os.environ.get(MODE, "").lower() != "token":
        _token_mode()


def _answers(address: str, metadata: tuple[tuple[str, str], ...]) -> bool:
    """Whether the GCS at ``address`` answers a call carrying ``metadata`` (false: it wants another token)."""
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(PROBE)
        try:
            call(b"", timeout=PROBE_SECONDS, metadata=metadata)
        except grpc.RpcError as error:  # another trouble than the token: ray.init says what it is
            return error.code() is not grpc.StatusCode.UNAUTHENTICATED
    return True


def _token() -> dict[str, str] | None:
    """The token Ray would send, as its header; none when it finds none (Ray reads the places the module names)."""
    from ray._raylet import AuthenticationTokenLoader  # type: ignore[attr-defined]
    from ray.exceptions import AuthenticationError

    loader = AuthenticationTokenLoader.instance()
    loader.reset_cache()
    try:
        if not loader.has_token(ignore_auth_mode=True):
            return None
    except AuthenticationError as error:  # a token path that holds none
        raise AuthError(f"it asks for its auth token, and {error.message}: {SET_TOKEN}") from None
    header: dict[str, str] = loader.get_token_for_http_header()
    return header or None


def _token_mode() -> None:
    """Token mode for this process and the processes it starts, as Ray's own ``auto`` turns it on."""
    from ray._private.authentication.authentication_token_setup import _enable_token_auth

    _enable_token_auth()
