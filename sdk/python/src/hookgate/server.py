"""Serving a `Subscriber`, with what the gateway needs done for the author:
its message limits, `grpc.health.v1`, the call's deadline exposed to the
handler and enforced (a late handler answers nothing rather than late),
TLS or mTLS and a bearer token as options, a graceful stop on SIGTERM, and
`unix:` sockets as well as TCP."""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import signal
import socket
import stat
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple, Union

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from .decision import Decision
from .event import Event
from .v1 import hookgate_pb2 as pb

if TYPE_CHECKING:
    from .app import Subscriber

log = logging.getLogger("hookgate")

#: The largest event the gateway sends (a payload may be 8 MiB, and an
#: event carries it twice).
MAX_RECEIVE_BYTES = 32 << 20
#: The largest reply the gateway accepts (what an agent's reply may be).
MAX_SEND_BYTES = (8 << 20) + (64 << 10)
#: The deadline of a call that carries none (the gateway always sends one).
DEFAULT_DEADLINE = 30.0
SERVICE = "hookgate.v1.Subscriber"


@dataclass(frozen=True)
class TLS:
    """Serve TLS with this certificate chain and key (PEM files); with
    `client_ca_file`, require a client certificate it issued (mTLS)."""

    cert_file: str
    key_file: str
    client_ca_file: Optional[str] = None


@dataclass
class Stats:
    """What the server saw (for tests and the test kit)."""

    calls: int = 0
    late: int = 0
    unauthenticated: int = 0
    errors: List[Tuple[str, str]] = field(default_factory=list)
    """(event id, the handler's exception) for each handler that raised."""


class Server:
    """One subscriber service on one address.

    `address` is `host:port` (port 0 picks a free one) or `unix:path`
    (relative to the working directory, or `unix:///absolute`). `token`: a
    bearer token (or several, during a rotation) every `OnEvent` call must
    carry; health checks need none. `grace`: seconds calls in flight get at
    a stop. `workers`: threads for plain-function handlers.
    """

    def __init__(
        self,
        app: "Subscriber",
        address: str,
        *,
        tls: Optional[TLS] = None,
        token: Union[str, Sequence[str], None] = None,
        grace: float = 5.0,
        workers: int = 16,
    ) -> None:
        self.app = app
        self.requested = address
        self.tls = tls
        tokens = [token] if isinstance(token, str) else list(token or [])
        if any(not t for t in tokens):
            raise ValueError("a bearer token must not be empty")
        self._tokens = [f"Bearer {t}".encode() for t in tokens]
        self.grace = grace
        self.stats = Stats()
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hookgate")
        self._bound: Optional[str] = None
        self._unix_path: Optional[str] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._thread: Optional[threading.Thread] = None

    # -- where it listens --------------------------------------------------

    @property
    def address(self) -> str:
        """The address it listens on (`127.0.0.1:41234`, `unix:/abs/path`)."""
        if self._bound is None:
            raise RuntimeError("the server is not started")
        return self._bound

    @property
    def endpoint(self) -> str:
        """The gateway config's `endpoint` for this server
        (`http://127.0.0.1:41234`, `https://…` over TLS, `unix:///abs/path`)."""
        if self._unix_path is not None:
            return "unix://" + self._unix_path
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{self.address}"

    # -- running -----------------------------------------------------------

    def run_until_signal(self) -> None:
        """Serves in this thread until SIGTERM or SIGINT, then stops
        gracefully."""

        async def main() -> None:
            loop = asyncio.get_running_loop()
            stop = asyncio.Event()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)
            await self._serve(stop, self._announce)

        asyncio.run(main())

    def start(self) -> "Server":
        """Serves on a background thread; returns once it listens (or
        raises why it cannot)."""
        ready = threading.Event()
        failure: List[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop

            async def main() -> None:
                stop = asyncio.Event()
                self._stop = stop
                await self._serve(stop, ready.set)

            try:
                loop.run_until_complete(main())
            except BaseException as err:  # reported to start()'s caller
                failure.append(err)
            finally:
                ready.set()
                loop.close()

        self._thread = threading.Thread(target=run, name="hookgate-server", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        """Stops a server `start` began, gracefully, and waits for it."""
        loop, stop, thread = self._loop, self._stop, self._thread
        if loop is None or stop is None or thread is None:
            return
        if thread.is_alive():
            loop.call_soon_threadsafe(stop.set)
            thread.join()
        self._executor.shutdown(wait=False)

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _announce(self) -> None:
        print(f"hookgate: serving on {self.address}", file=sys.stderr, flush=True)

    async def _serve(self, stop: asyncio.Event, ready: Callable[[], None]) -> None:
        server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", MAX_RECEIVE_BYTES),
                ("grpc.max_send_message_length", MAX_SEND_BYTES),
                # Two servers on one port would split the gateway's calls.
                ("grpc.so_reuseport", 0),
            ]
        )
        checks = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(checks, server)
        server.add_generic_rpc_handlers(
            (
                grpc.method_handlers_generic_handler(
                    SERVICE,
                    {
                        "OnEvent": grpc.unary_unary_rpc_method_handler(
                            self._on_event,
                            request_deserializer=pb.HookEvent.FromString,
                            response_serializer=pb.Decision.SerializeToString,
                        )
                    },
                ),
            )
        )
        self._bind(server)
        await server.start()
        if self._unix_path is not None:
            os.chmod(self._unix_path, 0o600)
        for name in ("", SERVICE):
            await checks.set(name, health_pb2.HealthCheckResponse.SERVING)
        ready()
        try:
            await stop.wait()
        finally:
            await checks.enter_graceful_shutdown()
            await server.stop(self.grace)
            if self._unix_path is not None and _is_socket(self._unix_path):
                os.unlink(self._unix_path)

    def _bind(self, server: Any) -> None:
        address = self.requested
        credentials = None
        if self.tls is not None:
            credentials = grpc.ssl_server_credentials(
                [(_read(self.tls.key_file), _read(self.tls.cert_file))],
                root_certificates=(
                    _read(self.tls.client_ca_file) if self.tls.client_ca_file else None
                ),
                require_client_auth=self.tls.client_ca_file is not None,
            )
        if address.startswith("unix:"):
            path = address[len("unix://") :] if address.startswith("unix://") else address[5:]
            path = os.path.abspath(path)
            _clear_stale(path)
            address = "unix:" + path
            self._unix_path = path
        try:
            port = (
                server.add_secure_port(address, credentials)
                if credentials is not None
                else server.add_insecure_port(address)
            )
        except RuntimeError as err:
            raise OSError(f"cannot listen on {self.requested}: {err}") from None
        if self._unix_path is not None:
            self._bound = "unix:" + self._unix_path
        else:
            host = address.rsplit(":", 1)[0]
            self._bound = f"{host}:{port}"

    # -- one call ----------------------------------------------------------

    async def _on_event(self, request: Any, context: Any) -> Any:
        self.stats.calls += 1
        if self._tokens and not self._authorized(context):
            self.stats.unauthenticated += 1
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "bad or missing bearer token")
        remaining = context.time_remaining()
        budget = DEFAULT_DEADLINE if remaining is None else min(remaining, DEFAULT_DEADLINE)
        deadline = time.monotonic() + budget
        event = Event.from_proto(request, deadline=deadline)
        outcome: Union[Decision, str]
        try:
            outcome = await asyncio.wait_for(
                self.app.decide(event, self._executor),
                timeout=max(0.0, deadline - time.monotonic()),
            )
        except asyncio.TimeoutError:
            self._late(event)
            outcome = "late"
        except asyncio.CancelledError:
            # gRPC cancels the call at its deadline (or when the gateway
            # gives up): nothing is sent.
            self._late(event)
            raise
        except Exception as err:  # the handler's own failure: the gateway's on_error applies
            self.stats.errors.append((event.id, repr(err)))
            log.exception("hookgate: the handler failed on event %s", event.id)
            outcome = "error"
        if outcome == "late":
            await context.abort(
                grpc.StatusCode.DEADLINE_EXCEEDED, "the handler missed the call's deadline"
            )
        if not isinstance(outcome, Decision):
            await context.abort(grpc.StatusCode.INTERNAL, "the subscriber's handler failed")
        assert isinstance(outcome, Decision)
        return outcome.to_proto()

    def _late(self, event: Event) -> None:
        self.stats.late += 1
        log.warning("hookgate: the handler missed event %s's deadline: no answer sent", event.id)

    def _authorized(self, context: Any) -> bool:
        sent = b""
        for key, value in context.invocation_metadata() or ():
            if key == "authorization":
                sent = value.encode() if isinstance(value, str) else value
        # Every token compared, in constant time.
        return sum(hmac.compare_digest(sent, t) for t in self._tokens) > 0


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _is_socket(path: str) -> bool:
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return False


def _clear_stale(path: str) -> None:
    """Removes a socket file nothing listens on (left by a killed server);
    refuses one a live server holds, and anything that is not a socket."""
    if not os.path.lexists(path):
        return
    if not _is_socket(path):
        raise OSError(f"cannot listen on unix:{path}: the path exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        os.unlink(path)
        return
    finally:
        probe.close()
    raise OSError(f"cannot listen on unix:{path}: another server is listening there")
