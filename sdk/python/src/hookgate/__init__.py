"""hookgate: subscribers for the hookgate gateway in a few lines.

    from hookgate import Subscriber, deny

    app = Subscriber()

    @app.on_pre_tool_use
    def no_destroy(event):
        if event.runs("terraform", "destroy"):
            return deny("no terraform destroy")

    app.serve("unix:policy.sock")
"""

from .app import Handler, Subscriber
from .decision import Decision, allow, ask, context, deny, followup, halt, none, rewrite
from .event import Agent, Capabilities, Caller, Command, Event, Kind, Stop, Tool, ToolClass
from .server import MAX_RECEIVE_BYTES, MAX_SEND_BYTES, TLS, Server, Stats

__version__ = "0.1.0"

__all__ = [
    "Agent",
    "Capabilities",
    "Caller",
    "Command",
    "Decision",
    "Event",
    "Handler",
    "Kind",
    "MAX_RECEIVE_BYTES",
    "MAX_SEND_BYTES",
    "Server",
    "Stats",
    "Stop",
    "Subscriber",
    "TLS",
    "Tool",
    "ToolClass",
    "allow",
    "ask",
    "context",
    "deny",
    "followup",
    "halt",
    "none",
    "rewrite",
]
