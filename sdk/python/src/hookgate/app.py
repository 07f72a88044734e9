"""A subscriber: a handler per canonical event kind, and a catch-all.

    app = Subscriber()

    @app.on_pre_tool_use
    def check(event: Event) -> Optional[Decision]:
        ...

    app.serve("unix:policy.sock")

A handler takes an `Event` and returns a `Decision` (or `None`: no opinion);
it may be a plain function (run on a worker thread) or an `async def`.
"""

from __future__ import annotations

import asyncio
import inspect
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Dict, Optional, TypeVar, Union

from .decision import Decision
from .event import Event, Kind

if TYPE_CHECKING:
    from .server import Server

Handler = Callable[[Event], Union[Optional[Decision], Awaitable[Optional[Decision]]]]
H = TypeVar("H", bound=Handler)


class Subscriber:
    """The handlers of one subscriber service, and how to serve them."""

    def __init__(self) -> None:
        self._handlers: Dict[Kind, Handler] = {}
        self._fallback: Optional[Handler] = None

    def on(self, kind: Union[Kind, str]) -> Callable[[H], H]:
        """A decorator registering a handler for events of `kind`
        (`Kind.PRE_TOOL_USE` or `"pre_tool_use"`); one handler per kind."""
        key = Kind(kind)

        def register(handler: H) -> H:
            if key in self._handlers:
                raise ValueError(f"a handler for {key.value} is already registered")
            self._handlers[key] = handler
            return handler

        return register

    def on_event(self, handler: H) -> H:
        """Handles every event no handler of its kind takes (the catch-all)."""
        if self._fallback is not None:
            raise ValueError("a catch-all handler is already registered")
        self._fallback = handler
        return handler

    def on_session_start(self, handler: H) -> H:
        """Handles the events where a session starts."""
        return self.on(Kind.SESSION_START)(handler)

    def on_session_resume(self, handler: H) -> H:
        """Handles the events where a session resumes."""
        return self.on(Kind.SESSION_RESUME)(handler)

    def on_session_end(self, handler: H) -> H:
        """Handles the events where a session ends."""
        return self.on(Kind.SESSION_END)(handler)

    def on_prompt_submit(self, handler: H) -> H:
        """Handles the events where the user submits a prompt."""
        return self.on(Kind.PROMPT_SUBMIT)(handler)

    def on_pre_tool_use(self, handler: H) -> H:
        """Handles the events where a tool is about to run."""
        return self.on(Kind.PRE_TOOL_USE)(handler)

    def on_post_tool_use(self, handler: H) -> H:
        """Handles the events where a tool ran."""
        return self.on(Kind.POST_TOOL_USE)(handler)

    def on_tool_failure(self, handler: H) -> H:
        """Handles the events where a tool failed."""
        return self.on(Kind.TOOL_FAILURE)(handler)

    def on_file_read(self, handler: H) -> H:
        """Handles the events where the agent reads a file (Cursor)."""
        return self.on(Kind.FILE_READ)(handler)

    def on_file_edit(self, handler: H) -> H:
        """Handles the events where the agent edited a file."""
        return self.on(Kind.FILE_EDIT)(handler)

    def on_agent_response(self, handler: H) -> H:
        """Handles the events where the agent answered."""
        return self.on(Kind.AGENT_RESPONSE)(handler)

    def on_agent_thought(self, handler: H) -> H:
        """Handles the events where the agent thought aloud."""
        return self.on(Kind.AGENT_THOUGHT)(handler)

    def on_stop(self, handler: H) -> H:
        """Handles the events where the agent is about to stop."""
        return self.on(Kind.STOP)(handler)

    def on_subagent_start(self, handler: H) -> H:
        """Handles the events where a subagent starts."""
        return self.on(Kind.SUBAGENT_START)(handler)

    def on_subagent_stop(self, handler: H) -> H:
        """Handles the events where a subagent stops."""
        return self.on(Kind.SUBAGENT_STOP)(handler)

    def on_pre_compact(self, handler: H) -> H:
        """Handles the events where the context is about to be compacted."""
        return self.on(Kind.PRE_COMPACT)(handler)

    def on_post_compact(self, handler: H) -> H:
        """Handles the events where the context was compacted."""
        return self.on(Kind.POST_COMPACT)(handler)

    def on_notification(self, handler: H) -> H:
        """Handles the events where the agent notifies the user."""
        return self.on(Kind.NOTIFICATION)(handler)

    def on_permission_request(self, handler: H) -> H:
        """Handles the events where the agent asks the user for a permission."""
        return self.on(Kind.PERMISSION_REQUEST)(handler)

    def on_task_error(self, handler: H) -> H:
        """Handles the events where a task failed."""
        return self.on(Kind.TASK_ERROR)(handler)

    def on_task_abort(self, handler: H) -> H:
        """Handles the events where a task was aborted."""
        return self.on(Kind.TASK_ABORT)(handler)

    def on_task_complete(self, handler: H) -> H:
        """Handles the events where a task completed."""
        return self.on(Kind.TASK_COMPLETE)(handler)

    def on_model_request(self, handler: H) -> H:
        """Handles the events where the agent calls its model."""
        return self.on(Kind.MODEL_REQUEST)(handler)

    def on_model_response(self, handler: H) -> H:
        """Handles the events where the model answered."""
        return self.on(Kind.MODEL_RESPONSE)(handler)

    def on_config_change(self, handler: H) -> H:
        """Handles the events where the agent's config changed."""
        return self.on(Kind.CONFIG_CHANGE)(handler)

    def on_other(self, handler: H) -> H:
        """Handles the events where an event of no other kind."""
        return self.on(Kind.OTHER)(handler)

    def handler_for(self, kind: Kind) -> Optional[Handler]:
        """The handler an event of `kind` goes to, if any."""
        return self._handlers.get(kind, self._fallback)

    async def decide(self, event: Event, executor: Optional[Executor] = None) -> Decision:
        """Runs the handler for `event` (a plain function on `executor`) and
        returns its decision; no handler is no opinion."""
        handler = self.handler_for(event.kind)
        if handler is None:
            return Decision()
        if inspect.iscoroutinefunction(handler):
            result: Any = await handler(event)
        else:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(executor, handler, event)
            if inspect.isawaitable(result):
                result = await result
        if result is None:
            return Decision()
        if not isinstance(result, Decision):
            raise TypeError(
                f"a handler must return a Decision or None, not {type(result).__name__}"
            )
        return result

    def serve(self, address: str, **options: Any) -> None:
        """Serves until SIGTERM or SIGINT, then stops gracefully (health
        NOT_SERVING, no new calls, calls in flight finished within
        `grace` seconds). `address`: `host:port` or `unix:path`; options as
        `Server`'s (`tls=TLS(...)`, `token=...`, `grace=...`)."""
        from .server import Server

        Server(self, address, **options).run_until_signal()

    def start(self, address: str, **options: Any) -> "Server":
        """Starts serving on a background thread and returns the running
        `Server` (stop it with `stop()`, or use it as a context manager)."""
        from .server import Server

        return Server(self, address, **options).start()

