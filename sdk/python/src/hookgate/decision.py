"""What a handler answers: a `Decision`, built by the helpers `allow`,
`deny`, `ask`, `context`, `rewrite`, `halt`, `followup` and `none`. The
gateway merges every subscriber's decision (deny wins over ask over allow;
contexts are joined) and renders the agent's own reply."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Dict, Optional

from .v1 import hookgate_pb2 as pb

_PERMISSIONS = {
    None: pb.PERMISSION_UNSPECIFIED,
    "allow": pb.PERMISSION_ALLOW,
    "ask": pb.PERMISSION_ASK,
    "deny": pb.PERMISSION_DENY,
}


@dataclass(frozen=True)
class Decision:
    """A subscriber's answer. Every part is optional: `Decision()` (what
    `none()` returns) means "no opinion"."""

    permission: Optional[str] = None
    """`"allow"`, `"ask"`, `"deny"` or `None`."""
    reason: str = ""
    """Why, for the user (and, for most agents, the model)."""
    agent_message: str = ""
    """For the model: what to do instead."""
    context: str = ""
    """Extra context for the model."""
    updated_input: Optional[Dict[str, Any]] = None
    """A full replacement of the tool's input, in the agent's own shape
    (the `tool.input` you received, changed)."""
    halt: bool = False
    """Stop the agent's loop."""
    followup: str = ""
    """A message the agent submits as the user's next prompt (stop events)."""

    def __post_init__(self) -> None:
        if self.permission not in _PERMISSIONS:
            raise ValueError(f"permission must be allow, ask, deny or None, not {self.permission!r}")
        if self.updated_input is not None and not isinstance(self.updated_input, dict):
            raise TypeError("updated_input must be a dict (the tool's whole input)")

    def with_context(self, text: str) -> "Decision":
        """The same decision, with `text` as context for the model."""
        return replace(self, context=text)

    def with_agent_message(self, text: str) -> "Decision":
        """The same decision, telling the model `text`."""
        return replace(self, agent_message=text)

    def to_proto(self) -> Any:
        """The `hookgate.v1.Decision` sent to the gateway."""
        return pb.Decision(
            permission=_PERMISSIONS[self.permission],
            reason=self.reason,
            agent_message=self.agent_message,
            additional_context=self.context,
            updated_input_json=(
                json.dumps(self.updated_input) if self.updated_input is not None else ""
            ),
            halt=self.halt,
            followup_message=self.followup,
        )


def allow(reason: str = "") -> Decision:
    """Let the tool call run (for agents that can skip their own prompt)."""
    return Decision(permission="allow", reason=reason)


def deny(reason: str, agent_message: str = "") -> Decision:
    """Refuse the tool call (or prompt); `reason` is shown."""
    return Decision(permission="deny", reason=reason, agent_message=agent_message)


def ask(reason: str) -> Decision:
    """Ask the user (an agent that cannot ask denies instead)."""
    return Decision(permission="ask", reason=reason)


def context(text: str) -> Decision:
    """Give the model extra context."""
    return Decision(context=text)


def rewrite(tool_input: Dict[str, Any]) -> Decision:
    """Run the tool with `tool_input` instead (its whole input)."""
    return Decision(updated_input=tool_input)


def halt(reason: str) -> Decision:
    """Stop the agent's loop, with `reason`."""
    return Decision(halt=True, reason=reason)


def followup(text: str) -> Decision:
    """Keep the agent going with `text` as the next prompt (stop events)."""
    return Decision(followup=text)


def none() -> Decision:
    """No opinion."""
    return Decision()
