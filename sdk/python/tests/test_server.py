"""The server side done for the author, through a real gRPC client:
dispatch, message limits, deadlines, health, token, TLS, Unix sockets."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from hookgate import Event, Kind, Subscriber, TLS, context, deny, none, rewrite
from hookgate.v1 import hookgate_pb2 as pb

from conftest import Client, pre_tool_use

SERVING = 1


def test_each_kind_goes_to_its_handler_and_the_rest_to_the_catch_all(serve: Any) -> None:
    app = Subscriber()
    seen = []

    @app.on_pre_tool_use
    def pre(event: Event) -> Any:
        seen.append(("pre", event.kind))
        return deny(f"no {event.command}")

    @app.on_event
    def anything(event: Event) -> Any:
        seen.append(("any", event.kind))
        return context("from the catch-all")

    _, client = serve(app)
    reply = client.on_event(pre_tool_use("rm -rf /"))
    assert (reply.permission, reply.reason) == (pb.PERMISSION_DENY, "no rm -rf /")
    stop = pb.HookEvent(id="2", kind=pb.EVENT_KIND_STOP, native_event="Stop")
    assert client.on_event(stop).additional_context == "from the catch-all"
    assert seen == [("pre", Kind.PRE_TOOL_USE), ("any", Kind.STOP)]


def test_no_handler_and_none_are_no_opinion(serve: Any) -> None:
    app = Subscriber()
    app.on_session_start(lambda event: None)
    app.on_stop(lambda event: none())
    _, client = serve(app)
    empty = pb.Decision()
    for kind in (pb.EVENT_KIND_SESSION_START, pb.EVENT_KIND_STOP, pb.EVENT_KIND_PRE_TOOL_USE):
        assert client.on_event(pb.HookEvent(id="x", kind=kind)) == empty


def test_async_handlers_and_rewrites(serve: Any) -> None:
    app = Subscriber()

    @app.on_pre_tool_use
    async def pre(event: Event) -> Any:
        await asyncio.sleep(0)
        return rewrite({**event.tool.input, "command": event.command + " --dry-run"})  # type: ignore[union-attr]

    _, client = serve(app)
    reply = client.on_event(pre_tool_use("terraform apply"))
    assert reply.updated_input_json == '{"command": "terraform apply --dry-run"}'


def test_one_handler_per_kind() -> None:
    app = Subscriber()
    app.on_stop(lambda e: None)
    with pytest.raises(ValueError):
        app.on(Kind.STOP)(lambda e: None)
    app.on_event(lambda e: None)
    with pytest.raises(ValueError):
        app.on_event(lambda e: None)


def test_a_20_mib_write_reaches_the_handler_and_past_32_mib_is_refused(serve: Any) -> None:
    app = Subscriber()
    sizes = []

    @app.on_pre_tool_use
    def pre(event: Event) -> Any:
        sizes.append(len(event.tool.input["content"]))  # type: ignore[union-attr,index]
        return none()

    _, client = serve(app)
    content = "x" * (20 << 20)
    write = pre_tool_use()
    write.tool.name = "Write"
    write.tool.input_json = '{"file_path": "big.txt", "content": "%s"}' % content
    write.tool.ClearField("command")
    client.on_event(write)
    assert sizes == [20 << 20]

    write.tool.input_json = '{"content": "%s"}' % ("x" * (33 << 20))
    with pytest.raises(grpc.RpcError) as refused:
        client.on_event(write)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert sizes == [20 << 20], "an event past the limit never reaches the handler"


def test_the_deadline_is_exposed_and_a_late_handler_answers_nothing(serve: Any) -> None:
    app = Subscriber()
    left = []
    finished = threading.Event()

    @app.on_pre_tool_use
    def slow(event: Event) -> Any:
        left.append(event.time_left())
        if event.command == "slow":
            time.sleep(1.5)
            finished.set()
        return deny("too late to matter")

    server, client = serve(app)
    client.on_event(pre_tool_use("fast"), timeout=5.0)
    # At most the client's 5 s, plus what the grpc-timeout header's
    # rounding up and the two clocks may add.
    assert left[0] is not None and 0 < left[0] <= 5.1, left
    with pytest.raises(grpc.RpcError) as late:
        client.on_event(pre_tool_use("slow"), timeout=0.3)
    assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert finished.wait(10), "the handler ran to its end"
    assert server.stats.late == 1, "the server dropped the late answer itself"


def test_a_handler_that_raises_fails_the_call(serve: Any) -> None:
    app = Subscriber()

    @app.on_pre_tool_use
    def broken(event: Event) -> Any:
        raise RuntimeError("boom")

    server, client = serve(app)
    with pytest.raises(grpc.RpcError) as failed:
        client.on_event(pre_tool_use())
    assert failed.value.code() == grpc.StatusCode.INTERNAL
    assert "boom" not in (failed.value.details() or ""), "the handler's error stays local"
    assert server.stats.errors == [("01TEST", "RuntimeError('boom')")]


def test_health_is_served(serve: Any) -> None:
    _, client = serve(Subscriber())
    assert client.health("") == SERVING
    assert client.health("hookgate.v1.Subscriber") == SERVING


def test_a_bearer_token_is_required_when_set(serve: Any) -> None:
    app = Subscriber()
    app.on_event(lambda e: context("ok"))
    server, client = serve(app, token=["old-secret", "new-secret"])
    for metadata in ((), (("authorization", "Bearer wrong"),), (("authorization", "old-secret"),)):
        with pytest.raises(grpc.RpcError) as refused:
            client.on_event(pre_tool_use(), metadata=metadata)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    for token in ("old-secret", "new-secret"):
        reply = client.on_event(pre_tool_use(), metadata=(("authorization", f"Bearer {token}"),))
        assert reply.additional_context == "ok"
    assert server.stats.unauthenticated == 3
    assert client.health() == SERVING, "health checks need no token"


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _pki(dir: Path) -> None:
    """A CA, a server certificate for localhost and a client certificate."""
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=test-ca", cwd=dir)
    for name, ext in (("server", "subjectAltName=DNS:localhost,IP:127.0.0.1"),
                      ("client", "extendedKeyUsage=clientAuth")):
        _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=dir)
        (dir / f"{name}.ext").write_text(ext + "\n")
        _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                 "-CAcreateserial", "-out", f"{name}.pem", "-days", "1", "-extfile", f"{name}.ext",
                 cwd=dir)


def test_tls_and_mutual_tls(tmp_path: Path) -> None:
    _pki(tmp_path)
    read = lambda name: (tmp_path / name).read_bytes()  # noqa: E731
    app = Subscriber()
    app.on_event(lambda e: context("over tls"))
    tls = TLS(str(tmp_path / "server.pem"), str(tmp_path / "server.key"))
    with app.start("127.0.0.1:0", tls=tls) as server:
        assert server.endpoint.startswith("https://127.0.0.1:")
        client = Client(server, grpc.ssl_channel_credentials(read("ca.pem")))
        assert client.on_event(pre_tool_use()).additional_context == "over tls"
        client.close()
    mtls = TLS(str(tmp_path / "server.pem"), str(tmp_path / "server.key"), str(tmp_path / "ca.pem"))
    with app.start("127.0.0.1:0", tls=mtls) as server:
        anonymous = Client(server, grpc.ssl_channel_credentials(read("ca.pem")))
        with pytest.raises(grpc.RpcError) as refused:
            anonymous.on_event(pre_tool_use())
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        anonymous.close()
        known = Client(
            server,
            grpc.ssl_channel_credentials(read("ca.pem"), read("client.key"), read("client.pem")),
        )
        assert known.on_event(pre_tool_use()).additional_context == "over tls"
        known.close()


def test_unix_sockets_stale_live_and_private(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(path))
    stale.close()  # a socket file nobody listens on, as a killed server leaves
    app = Subscriber()
    with app.start(f"unix:{path}") as server:
        assert server.endpoint == f"unix://{path}"
        assert os.stat(path).st_mode & 0o777 == 0o600
        with pytest.raises(OSError, match="another server is listening"):
            app.start(f"unix:{path}")
    assert not path.exists(), "removed at a stop"
    (tmp_path / "file").write_text("not a socket")
    with pytest.raises(OSError, match="not a socket"):
        app.start(f"unix:{tmp_path}/file")


def test_a_tcp_port_is_not_shared(serve: Any) -> None:
    server, _ = serve(Subscriber(), address="127.0.0.1:0")
    with pytest.raises(OSError, match="cannot listen"):
        Subscriber().start(server.address)


def _wait_for(condition: Any, what: str, process: "subprocess.Popen[bytes]") -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert process.poll() is None, f"exited before {what}"
        assert time.monotonic() < deadline, f"no {what} within 20 s"
        time.sleep(0.02)


def test_sigterm_finishes_the_call_in_flight_then_exits(tmp_path: Path) -> None:
    script = tmp_path / "policy.py"
    script.write_text(textwrap.dedent("""
        import time
        from hookgate import Subscriber, context
        app = Subscriber()
        @app.on_event
        def slow(event):
            open("in-handler", "w").close()
            time.sleep(1.0)
            return context("finished")
        app.serve("unix:s.sock")
    """))
    process = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path)
    try:
        _wait_for(lambda: _accepts(tmp_path / "s.sock"), "listening", process)

        class At:
            address = f"unix:{tmp_path}/s.sock"

        client = Client(At())  # type: ignore[arg-type]
        result = {}
        call = threading.Thread(target=lambda: result.update(reply=client.on_event(pre_tool_use())))
        call.start()
        _wait_for((tmp_path / "in-handler").exists, "call in the handler", process)
        process.terminate()
        call.join(20)
        assert result["reply"].additional_context == "finished"
        assert process.wait(20) == 0
        assert not (tmp_path / "s.sock").exists()
        client.close()
    finally:
        process.kill()
        process.wait()


def _accepts(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX)
    try:
        probe.connect(str(path))
        return True
    except OSError:
        return False
    finally:
        probe.close()
