"""The test kit, and the SDK through the real gateway and shim: every
agent's samples reach the handler typed, every agent's shell call carries
the parsed commands, and large payloads pass."""

from __future__ import annotations

import json
from typing import Any, List

import pytest

from hookgate import Agent, Event, Kind, Subscriber, context, deny, none
from hookgate.testing import Kit, KitError, samples, shell_call, shell_dialects



def test_every_sample_of_every_agent_reaches_the_handler() -> None:
    app = Subscriber()
    app.on_event(lambda event: none())
    every = samples()
    assert {s.directory for s in every} >= {"claude-code", "cline", "codex", "cursor", "gemini-cli"}
    with Kit(app) as kit:
        for sample in every:
            before = len(kit.events)
            reply = kit.run(sample)
            if sample.path == "claude-code/WorktreeCreate.json":
                # The hook replaces `git worktree add`: whatever the
                # subscribers say, hookgate answers that it cannot.
                assert reply.exit_code == 1 and "cannot create worktrees" in reply.stderr
            else:
                assert reply.exit_code == 0, f"{sample.path}: {reply}"
            assert len(kit.events) == before + 1, f"{sample.path}: the handler was not called"
            event = kit.events[-1]
            assert event.agent != Agent.UNSPECIFIED, sample.path
            assert event.native_event, sample.path
            assert json.loads(event.raw_json) == json.loads(sample.payload), sample.path


@pytest.mark.parametrize("dialect", shell_dialects())
def test_a_shell_call_in_every_dialect_carries_its_parsed_commands(dialect: str) -> None:
    app = Subscriber()
    app.on_pre_tool_use(lambda e: deny("no terraform destroy") if e.runs("terraform", "destroy") else None)
    command = "cd infra && sudo terraform destroy -auto-approve"
    with Kit(app) as kit:
        reply = kit.shell(dialect, command)
        [event] = kit.events
        assert event.command == command
        assert event.commands_resolved
        assert [c.name for c in event.commands] == ["cd", "sudo", "terraform"]
        terraform = event.commands[-1]
        assert terraform.operands[0] == "destroy" and terraform.cwd and terraform.cwd.endswith("infra")
        assert kit.decisions[-1].permission == "deny"
        assert reply.says("no terraform destroy"), reply


def test_what_claude_code_cline_and_codex_receive() -> None:
    app = Subscriber()
    app.on_pre_tool_use(lambda e: deny("no terraform destroy") if e.runs("terraform", "destroy") else None)
    app.on_session_start(lambda e: context("hello from python"))
    with Kit(app) as kit:
        claude = kit.shell("claude-code", "terraform destroy").json()["hookSpecificOutput"]
        assert (claude["permissionDecision"], claude["permissionDecisionReason"]) == (
            "deny",
            "no terraform destroy",
        )
        codex = kit.shell("codex", "terraform destroy").json()["hookSpecificOutput"]
        assert codex["permissionDecision"] == "deny"
        assert codex["permissionDecisionReason"] == "no terraform destroy"
        cline = kit.shell("cline", "terraform destroy").json()
        assert cline == {"context": "no terraform destroy", "overrideInput": {}}
        assert kit.shell("claude-code", "terraform plan").stdout == "", "no opinion: no output"
        for agent in ("claude-code", "codex"):
            start = kit.sample(f"{agent}/SessionStart").json()["hookSpecificOutput"]
            assert start["additionalContext"] == "hello from python"


def test_a_large_write_through_the_gateway_reaches_the_handler() -> None:
    app = Subscriber()
    sizes: List[int] = []
    app.on_pre_tool_use(lambda e: sizes.append(len(e.tool.input["content"])))  # type: ignore[func-returns-value,union-attr,index]
    payload = json.loads(shell_call("claude-code", "true").payload)
    content = "x" * (7 << 20)  # the shim takes payloads up to 8 MiB
    payload.update(tool_name="Write", tool_input={"file_path": "big.txt", "content": content})
    with Kit(app) as kit:
        reply = kit.run("claude-code", payload)
        assert reply.exit_code == 0
    assert sizes == [7 << 20], "the event (the payload twice, ~14 MiB) reached the handler"


def test_a_token_the_gateway_sends() -> None:
    app = Subscriber()
    app.on_event(lambda e: context("with a token"))
    with Kit(app, token="kit-secret") as kit:
        start = kit.sample("claude-code/SessionStart").json()["hookSpecificOutput"]
        assert start["additionalContext"] == "with a token"


def test_a_handler_that_raises_fails_the_kit_call() -> None:
    app = Subscriber()

    @app.on_stop
    def broken(event: Event) -> Any:
        raise ValueError("bad policy")

    with Kit(app) as kit:
        with pytest.raises(KitError, match="bad policy"):
            kit.sample("claude-code/Stop")
        assert kit.events[-1].kind == Kind.STOP
