"""What the tests share: a gRPC client of the subscriber service, and
events to send it."""

from __future__ import annotations

import json
from typing import Any, Iterator, Optional, Sequence, Tuple

import grpc
import pytest

from hookgate import Server, Subscriber
from hookgate.v1 import hookgate_pb2 as pb


def pre_tool_use(command: str = "ls", **fields: Any) -> Any:
    """A Claude Code PreToolUse of Bash running `command`, as the gateway
    sends it."""
    return pb.HookEvent(
        id="01TEST",
        agent=pb.AGENT_CLAUDE_CODE,
        dialect=pb.DIALECT_CLAUDE_CODE,
        native_event="PreToolUse",
        kind=pb.EVENT_KIND_PRE_TOOL_USE,
        blocking=True,
        capabilities=pb.Capabilities(deny=True, ask=True, context=True, input_rewrite=True),
        cwd="/home/dev/acme",
        tool=pb.Tool(
            name="Bash",
            input_json=json.dumps({"command": command}),
            command=command,
            **{"class": pb.TOOL_CLASS_SHELL},
        ),
        raw_json=json.dumps({"tool_input": {"command": command}}),
        **fields,
    )


class Client:
    """Calls `OnEvent` and the health service like the gateway does."""

    def __init__(self, server: Server, credentials: Any = None, authority: Optional[str] = None) -> None:
        options = [
            ("grpc.max_send_message_length", 64 << 20),
            ("grpc.max_receive_message_length", 64 << 20),
        ]
        if authority:
            options.append(("grpc.ssl_target_name_override", authority))
        target = server.address
        self.channel = (
            grpc.secure_channel(target, credentials, options=options)
            if credentials is not None
            else grpc.insecure_channel(target, options=options)
        )
        self._on_event = self.channel.unary_unary(
            "/hookgate.v1.Subscriber/OnEvent",
            request_serializer=pb.HookEvent.SerializeToString,
            response_deserializer=pb.Decision.FromString,
        )

    def on_event(
        self,
        event: Any,
        timeout: Optional[float] = 10.0,
        metadata: Sequence[Tuple[str, str]] = (),
    ) -> Any:
        return self._on_event(event, timeout=timeout, metadata=metadata or None)

    def health(self, service: str = "") -> int:
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        stub = health_pb2_grpc.HealthStub(self.channel)
        return int(stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10).status)

    def close(self) -> None:
        self.channel.close()


@pytest.fixture
def serve(tmp_path: Any) -> Iterator[Any]:
    """`serve(app, address=None, **options)`: the app on a Unix socket in
    `tmp_path` (or `address`), and a plain client of it; both stopped after
    the test."""
    running = []

    def start(app: Subscriber, address: Optional[str] = None, **options: Any) -> Tuple[Server, Client]:
        server = app.start(address or f"unix:{tmp_path}/s.sock", **options)
        client = Client(server)
        running.append((server, client))
        return server, client

    yield start
    for server, client in running:
        client.close()
        server.stop()
