//! A subscriber: a handler per canonical event kind, and a catch-all.
//!
//! A handler is a plain function of `&Event` (run on tokio's blocking pool,
//! so a slow one never stalls the server) or, with the `*_async` methods,
//! an async function of `Event`; either returns a [`Decision`].

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::Decision;
use crate::event::{Event, Kind};

type Answer = Pin<Box<dyn Future<Output = Decision> + Send>>;
type Handler = Arc<dyn Fn(Event) -> Answer + Send + Sync>;

/// The handlers of one subscriber service; serve them with
/// [`Subscriber::serve`] or [`Subscriber::start`].
#[derive(Clone, Default)]
pub struct Subscriber {
    handlers: HashMap<i32, Handler>,
    fallback: Option<Handler>,
}

impl fmt::Debug for Subscriber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut kinds: Vec<String> = self
            .handlers
            .keys()
            .map(|k| crate::event::kind_name(Kind::try_from(*k).unwrap_or(Kind::Other)))
            .collect();
        kinds.sort();
        f.debug_struct("Subscriber")
            .field("kinds", &kinds)
            .field("catch_all", &self.fallback.is_some())
            .finish()
    }
}

/// A plain function of the event, run on the blocking pool.
fn blocking<F>(handler: F) -> Handler
where
    F: Fn(&Event) -> Decision + Send + Sync + 'static,
{
    let handler = Arc::new(handler);
    Arc::new(move |event: Event| {
        let handler = Arc::clone(&handler);
        Box::pin(async move {
            match tokio::task::spawn_blocking(move || handler(&event)).await {
                Ok(decision) => decision,
                // The handler's panic, carried to the server's task, which
                // reports it as the handler's failure.
                Err(err) if err.is_panic() => std::panic::resume_unwind(err.into_panic()),
                // The runtime is shutting down: nobody waits for an answer.
                Err(_) => Decision::default(),
            }
        }) as Answer
    })
}

fn asynchronous<F, Fut>(handler: F) -> Handler
where
    F: Fn(Event) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Decision> + Send + 'static,
{
    Arc::new(move |event: Event| Box::pin(handler(event)) as Answer)
}

impl Subscriber {
    pub fn new() -> Subscriber {
        Subscriber::default()
    }

    /// Handles events of `kind` with `handler`.
    ///
    /// # Panics
    /// If `kind` already has a handler (one per kind).
    pub fn on<F>(self, kind: Kind, handler: F) -> Subscriber
    where
        F: Fn(&Event) -> Decision + Send + Sync + 'static,
    {
        self.register(kind, blocking(handler))
    }

    /// Handles events of `kind` with the async `handler`.
    ///
    /// # Panics
    /// If `kind` already has a handler (one per kind).
    pub fn on_async<F, Fut>(self, kind: Kind, handler: F) -> Subscriber
    where
        F: Fn(Event) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Decision> + Send + 'static,
    {
        self.register(kind, asynchronous(handler))
    }

    /// Handles every event no handler of its kind takes (the catch-all).
    ///
    /// # Panics
    /// If there is a catch-all already.
    pub fn on_event<F>(self, handler: F) -> Subscriber
    where
        F: Fn(&Event) -> Decision + Send + Sync + 'static,
    {
        self.catch_all(blocking(handler))
    }

    /// The catch-all, async.
    ///
    /// # Panics
    /// If there is a catch-all already.
    pub fn on_event_async<F, Fut>(self, handler: F) -> Subscriber
    where
        F: Fn(Event) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Decision> + Send + 'static,
    {
        self.catch_all(asynchronous(handler))
    }

    fn register(mut self, kind: Kind, handler: Handler) -> Subscriber {
        let name = crate::event::kind_name(kind);
        assert!(
            self.handlers.insert(kind as i32, handler).is_none(),
            "a handler for {name} is already registered"
        );
        self
    }

    fn catch_all(mut self, handler: Handler) -> Subscriber {
        assert!(
            self.fallback.replace(handler).is_none(),
            "a catch-all handler is already registered"
        );
        self
    }

    /// Runs the handler for `event` and returns its decision (no handler:
    /// no opinion). A panicking handler panics here.
    pub async fn decide(&self, event: Event) -> Decision {
        match self
            .handlers
            .get(&(event.kind as i32))
            .or(self.fallback.as_ref())
        {
            Some(handler) => handler(event).await,
            None => Decision::default(),
        }
    }
}

/// `on_<kind>(handler)`: [`Subscriber::on`] for each kind.
macro_rules! on_kind {
    ($($method:ident => $kind:ident: $doc:literal),* $(,)?) => {
        impl Subscriber {
            $(
                #[doc = concat!("Handles the events where ", $doc, ".")]
                ///
                /// # Panics
                /// If the kind already has a handler.
                pub fn $method<F>(self, handler: F) -> Subscriber
                where
                    F: Fn(&Event) -> Decision + Send + Sync + 'static,
                {
                    self.on(Kind::$kind, handler)
                }
            )*
        }
    };
}

on_kind! {
    on_session_start => SessionStart: "a session starts",
    on_session_resume => SessionResume: "a session resumes",
    on_session_end => SessionEnd: "a session ends",
    on_prompt_submit => PromptSubmit: "the user submits a prompt",
    on_pre_tool_use => PreToolUse: "a tool is about to run",
    on_post_tool_use => PostToolUse: "a tool ran",
    on_tool_failure => ToolFailure: "a tool failed",
    on_file_read => FileRead: "the agent reads a file",
    on_file_edit => FileEdit: "the agent edited a file",
    on_agent_response => AgentResponse: "the agent answered",
    on_agent_thought => AgentThought: "the agent thought aloud",
    on_stop => Stop: "the agent is about to stop",
    on_subagent_start => SubagentStart: "a subagent starts",
    on_subagent_stop => SubagentStop: "a subagent stops",
    on_pre_compact => PreCompact: "the context is about to be compacted",
    on_post_compact => PostCompact: "the context was compacted",
    on_notification => Notification: "the agent notifies the user",
    on_permission_request => PermissionRequest: "the agent asks for a permission",
    on_task_error => TaskError: "a task failed",
    on_task_abort => TaskAbort: "a task was aborted",
    on_task_complete => TaskComplete: "a task completed",
    on_model_request => ModelRequest: "the agent calls its model",
    on_model_response => ModelResponse: "the model answered",
    on_config_change => ConfigChange: "the agent's config changed",
    on_other => Other: "an event of no other kind",
}
