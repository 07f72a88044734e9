"""Typed events from proto messages, and decisions to proto messages."""

from __future__ import annotations

import json

import pytest

from hookgate import (
    Agent,
    Decision,
    Event,
    Kind,
    ToolClass,
    allow,
    ask,
    context,
    deny,
    followup,
    halt,
    none,
    rewrite,
)
from hookgate.v1 import hookgate_pb2 as pb

from conftest import pre_tool_use


def test_an_event_carries_every_field() -> None:
    message = pre_tool_use(
        "sudo terraform destroy",
        session_id="s-1",
        agent_version="2.1.0",
        workspace_roots=["/home/dev/acme"],
        caller=pb.Caller(hostname="laptop", origin="eu", labels={"team": "payments"}, gateway_version="0.1.0"),
        shell=pb.ShellLine(
            resolved=True,
            commands=[
                pb.ShellCommand(name="sudo", args=["terraform", "destroy"], operands=["terraform", "destroy"]),
                pb.ShellCommand(name="terraform", args=["destroy"], operands=["destroy"], cwd="/home/dev/acme"),
            ],
        ),
    )
    event = Event.from_proto(message, deadline=123.0)
    assert (event.agent, event.kind, event.dialect) == (Agent.CLAUDE_CODE, Kind.PRE_TOOL_USE, "claude-code")
    assert event.agent == "claude-code" and event.kind == "pre_tool_use", "names as in the config"
    assert event.native_event == "PreToolUse" and event.blocking
    assert event.capabilities.deny and not event.capabilities.halt
    assert (event.session_id, event.agent_version, event.cwd) == ("s-1", "2.1.0", "/home/dev/acme")
    assert event.prompt is None and event.stop is None, "absent fields are None"
    assert event.tool is not None and event.tool.tool_class == ToolClass.SHELL
    assert event.tool.input == {"command": "sudo terraform destroy"}
    assert event.command == "sudo terraform destroy"
    assert event.caller.labels == {"team": "payments"} and event.caller.hostname == "laptop"
    assert event.commands_resolved
    assert [c.name for c in event.commands] == ["sudo", "terraform"]
    assert event.runs("terraform", "destroy") and event.runs("terraform")
    assert not event.runs("terraform", "apply") and not event.runs("destroy")
    assert event.deadline == 123.0
    assert event.time_left() == 0.0, "a deadline in the past leaves nothing"


def test_unknown_enum_values_from_a_newer_gateway() -> None:
    event = Event.from_proto(pb.HookEvent(agent=99, kind=99, dialect=99))
    assert (event.agent, event.kind, event.dialect) == (Agent.UNSPECIFIED, Kind.OTHER, "unspecified")
    assert event.time_left() is None and event.commands == ()


def test_every_proto_enum_value_has_a_name() -> None:
    assert len(Agent) == len(pb.Agent.keys())
    assert len(Kind) == len(pb.EventKind.keys())
    assert len(ToolClass) == len(pb.ToolClass.keys())
    for number in pb.EventKind.values():
        assert Event.from_proto(pb.HookEvent(kind=number)).kind.name == pb.EventKind.Name(number)[11:]


def test_helpers_build_the_decisions_they_say() -> None:
    def proto(d: Decision) -> pb.Decision:
        return d.to_proto()

    assert proto(allow()).permission == pb.PERMISSION_ALLOW
    denied = proto(deny("no terraform destroy", "use plan"))
    assert (denied.permission, denied.reason, denied.agent_message) == (
        pb.PERMISSION_DENY,
        "no terraform destroy",
        "use plan",
    )
    assert proto(ask("sure?")).permission == pb.PERMISSION_ASK
    assert proto(context("hello from python")).additional_context == "hello from python"
    assert json.loads(proto(rewrite({"command": "ls"})).updated_input_json) == {"command": "ls"}
    stopped = proto(halt("build is red"))
    assert stopped.halt and stopped.reason == "build is red"
    assert proto(followup("go on")).followup_message == "go on"
    assert proto(none()) == pb.Decision()
    both = proto(deny("no").with_context("why").with_agent_message("instead"))
    assert (both.additional_context, both.agent_message) == ("why", "instead")


def test_malformed_decisions_are_refused_when_built() -> None:
    with pytest.raises(ValueError):
        Decision(permission="block")
    with pytest.raises(TypeError):
        rewrite(["ls"])  # type: ignore[arg-type]
