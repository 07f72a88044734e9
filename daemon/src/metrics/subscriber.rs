//! The counters and state of one subscriber: what it was asked, what it
//! answered, how it failed, and whether it is up right now.
//!
//! Each subscriber gets its own [`SubscriberStats`] at startup and keeps the
//! `Arc`, so the hook path only touches atomics it already holds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

use hookgate_adapters::Permission;

use super::endpoint::EndpointStats;
use super::latency::Latency;
use hookgate_config::Layer;

const LAYERS: [Layer; 3] = [Layer::Default, Layer::System, Layer::User];

/// How a call failed (a timeout is counted apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The subscriber could not be reached (connection refused, DNS, ...).
    Connect,
    /// It answered with a gRPC error status.
    Status,
    /// It answered something the gateway cannot use.
    BadReply,
    /// The built-in guard found the call too complex to check (past its
    /// work budget, deadline or bounds) and denied it.
    TooComplex,
}

/// Whether a subscriber is up, as far as the gateway knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Nothing known yet (no call, no health check answered).
    Unknown,
    /// Serving (health check said so, or the last call succeeded).
    Up,
    /// Unreachable or failing (health check or last call).
    Down,
    /// Its health service says NOT_SERVING.
    NotServing,
    /// Runs inside the gateway (guard, audit): up while the gateway is.
    Builtin,
}

impl State {
    const ALL: [State; 5] = [
        State::Unknown,
        State::Up,
        State::Down,
        State::NotServing,
        State::Builtin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            State::Unknown => "unknown",
            State::Up => "up",
            State::Down => "down",
            State::NotServing => "not_serving",
            State::Builtin => "builtin",
        }
    }
}

/// A remote subscriber's circuit breaker (see `client::breaker`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerState {
    /// No breaker: built-ins, or `breaker_failures = 0`.
    Off,
    /// Calls go through.
    Closed,
    /// Not called; `on_error` applies at once.
    Open,
    /// One probe call is in flight.
    HalfOpen,
}

impl BreakerState {
    pub const ALL: [BreakerState; 4] = [
        BreakerState::Off,
        BreakerState::Closed,
        BreakerState::Open,
        BreakerState::HalfOpen,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BreakerState::Off => "off",
            BreakerState::Closed => "closed",
            BreakerState::Open => "open",
            BreakerState::HalfOpen => "half_open",
        }
    }
}

/// Where the current [`State`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateSource {
    /// Nothing yet.
    None,
    /// `grpc.health.v1` answered.
    Health,
    /// The subscriber has no health service: its last call tells.
    LastCall,
    /// A built-in subscriber.
    Builtin,
}

impl StateSource {
    const ALL: [StateSource; 4] = [
        StateSource::None,
        StateSource::Health,
        StateSource::LastCall,
        StateSource::Builtin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StateSource::None => "none",
            StateSource::Health => "health",
            StateSource::LastCall => "last_call",
            StateSource::Builtin => "builtin",
        }
    }
}

fn index<T: PartialEq>(all: &[T], value: &T) -> u8 {
    all.iter()
        .position(|x| x == value)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(0)
}

/// Counters of one subscriber (remote or built-in).
#[derive(Debug)]
pub struct SubscriberStats {
    /// Events handed to it: decide calls made, observe events and audit
    /// records offered to the queue (drops included).
    pub calls: AtomicU64,
    /// Calls that gave a usable answer (or records written, for audit).
    pub ok: AtomicU64,
    /// Usable decide answers by permission.
    pub allow: AtomicU64,
    pub ask: AtomicU64,
    pub deny: AtomicU64,
    /// Every error (the sum of the kinds below, plus audit write errors).
    pub errors: AtomicU64,
    pub errors_connect: AtomicU64,
    pub errors_status: AtomicU64,
    pub errors_bad_reply: AtomicU64,
    pub errors_too_complex: AtomicU64,
    /// Calls that hit the subscriber's deadline.
    pub timeouts: AtomicU64,
    /// Calls cut short because the shim's deadline came first (what the
    /// shim had left was less than the subscriber's `timeout_ms`).
    pub deadline_cuts: AtomicU64,
    /// Failures answered as "no opinion" (`on_error = "allow"`).
    pub fail_open: AtomicU64,
    /// Failures answered with a deny (`on_error = "deny"`).
    pub fail_closed: AtomicU64,
    /// Events that did not fit in an observe or audit queue.
    pub drops: AtomicU64,
    /// Built-in checks handed to the blocking pool: the first attempt on
    /// the async worker ran out of its small budget (`builtin::bounded`).
    pub pooled: AtomicU64,
    /// Calls not made because the circuit breaker was open (`on_error`
    /// applied at once), and the breaker's transitions to open and back to
    /// closed.
    pub breaker_open: AtomicU64,
    /// Shadow subscribers: what they would have decided (never merged).
    pub would_allow: AtomicU64,
    pub would_ask: AtomicU64,
    pub would_deny: AtomicU64,
    pub breaker_opened: AtomicU64,
    pub breaker_closed: AtomicU64,
    /// Time per call (remote subscribers and the guard).
    pub latency: Latency,
    /// A remote subscriber's endpoints (each with its counters), as its
    /// latest build listed them.
    pub endpoints: arc_swap::ArcSwap<Vec<(String, Arc<EndpointStats>)>>,
    /// A `rego` subscriber's loaded policy and its bundle's fetches.
    pub policy: PolicyStats,
    /// A guard's hits per rule.
    pub rules: super::rules::Rules,
    /// A decision log's reopens and anchor failures.
    pub audit: super::audit::AuditStats,
    /// A memory's stores, compressions and failures.
    pub memory: super::memory::MemoryStats,
    /// An approval's notifications sent and failed.
    pub notify: super::notify::NotifyStats,
    breaker: AtomicU8,
    state: AtomicU8,
    source: AtomicU8,
    layer: AtomicU8,
    locked: AtomicBool,
}

impl Default for SubscriberStats {
    fn default() -> Self {
        SubscriberStats {
            calls: AtomicU64::new(0),
            ok: AtomicU64::new(0),
            allow: AtomicU64::new(0),
            ask: AtomicU64::new(0),
            deny: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            errors_connect: AtomicU64::new(0),
            errors_status: AtomicU64::new(0),
            errors_bad_reply: AtomicU64::new(0),
            errors_too_complex: AtomicU64::new(0),
            timeouts: AtomicU64::new(0),
            deadline_cuts: AtomicU64::new(0),
            fail_open: AtomicU64::new(0),
            fail_closed: AtomicU64::new(0),
            drops: AtomicU64::new(0),
            pooled: AtomicU64::new(0),
            breaker_open: AtomicU64::new(0),
            would_allow: AtomicU64::new(0),
            would_ask: AtomicU64::new(0),
            would_deny: AtomicU64::new(0),
            breaker_opened: AtomicU64::new(0),
            breaker_closed: AtomicU64::new(0),
            latency: Latency::new(2),
            endpoints: arc_swap::ArcSwap::from_pointee(Vec::new()),
            policy: PolicyStats::default(),
            rules: super::rules::Rules::default(),
            audit: super::audit::AuditStats::default(),
            memory: super::memory::MemoryStats::default(),
            notify: super::notify::NotifyStats::default(),
            breaker: AtomicU8::new(0),
            state: AtomicU8::new(0),
            source: AtomicU8::new(0),
            layer: AtomicU8::new(0),
            locked: AtomicBool::new(false),
        }
    }
}

/// What a `rego` subscriber has loaded and how its bundle fetches went.
#[derive(Debug, Default)]
pub struct PolicyStats {
    /// The revision deciding now: the bundle's, or the files' digest.
    pub revision: arc_swap::ArcSwapOption<String>,
    /// The last fetch's result, in words (`updated to 7`, `not modified`,
    /// `refused: ...`, `failed: ...`).
    pub last_fetch: arc_swap::ArcSwapOption<String>,
    /// Bundles accepted (the cached one at start included).
    pub updates: AtomicU64,
    /// Bundles refused: unsigned, tampered, older, not compiling.
    pub refused: AtomicU64,
    /// Fetches that got no bundle (network, HTTP status).
    pub fetch_errors: AtomicU64,
}

impl PolicyStats {
    pub fn set_revision(&self, revision: &str) {
        self.revision.store(Some(Arc::new(revision.to_owned())));
    }

    pub fn fetched(&self, result: String) {
        self.last_fetch.store(Some(Arc::new(result)));
    }

    /// The revision deciding now, if any.
    pub fn revision(&self) -> Option<Arc<String>> {
        self.revision.load_full()
    }
}

impl SubscriberStats {
    /// Counts one failed call of `kind`.
    pub fn error(&self, kind: ErrorKind) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let counter = match kind {
            ErrorKind::Connect => &self.errors_connect,
            ErrorKind::Status => &self.errors_status,
            ErrorKind::BadReply => &self.errors_bad_reply,
            ErrorKind::TooComplex => &self.errors_too_complex,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a usable answer and its permission.
    pub fn answered(&self, permission: Permission) {
        self.ok.fetch_add(1, Ordering::Relaxed);
        let counter = match permission {
            Permission::Allow => &self.allow,
            Permission::Ask => &self.ask,
            Permission::Deny => &self.deny,
            Permission::Unspecified => return,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a shadow subscriber's decision (its `on_error` one included).
    pub fn would(&self, permission: Permission) {
        let counter = match permission {
            Permission::Allow => &self.would_allow,
            Permission::Ask => &self.would_ask,
            Permission::Deny => &self.would_deny,
            Permission::Unspecified => return,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn call_took(&self, elapsed: Duration) {
        self.latency.record(elapsed);
    }

    /// The config layer it came from, for `gateway status`.
    pub fn set_layer(&self, layer: Layer, locked: bool) {
        self.layer.store(index(&LAYERS, &layer), Ordering::Relaxed);
        self.locked.store(locked, Ordering::Relaxed);
    }

    pub fn layer(&self) -> Layer {
        LAYERS
            .get(usize::from(self.layer.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or(Layer::Default)
    }

    pub fn locked(&self) -> bool {
        self.locked.load(Ordering::Relaxed)
    }

    pub fn set_state(&self, state: State, source: StateSource) {
        self.state
            .store(index(&State::ALL, &state), Ordering::Relaxed);
        self.source
            .store(index(&StateSource::ALL, &source), Ordering::Relaxed);
    }

    /// Says where the state comes from, leaving the state itself.
    pub fn set_source(&self, source: StateSource) {
        self.source
            .store(index(&StateSource::ALL, &source), Ordering::Relaxed);
    }

    /// The outcome of a call, as state, unless health checks own the state.
    pub fn call_outcome(&self, up: bool) {
        if self.source() == StateSource::Health {
            return;
        }
        let state = if up { State::Up } else { State::Down };
        self.set_state(state, StateSource::LastCall);
    }

    pub fn set_breaker(&self, state: BreakerState) {
        self.breaker
            .store(index(&BreakerState::ALL, &state), Ordering::Release);
    }

    /// Moves the breaker from `from` to `to`; false if it was not `from`.
    pub fn swap_breaker(&self, from: BreakerState, to: BreakerState) -> bool {
        let (from, to) = (
            index(&BreakerState::ALL, &from),
            index(&BreakerState::ALL, &to),
        );
        self.breaker
            .compare_exchange(from, to, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    pub fn breaker(&self) -> BreakerState {
        BreakerState::ALL
            .get(usize::from(self.breaker.load(Ordering::Acquire)))
            .copied()
            .unwrap_or(BreakerState::Off)
    }

    pub fn state(&self) -> State {
        State::ALL
            .get(usize::from(self.state.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or(State::Unknown)
    }

    pub fn source(&self) -> StateSource {
        StateSource::ALL
            .get(usize::from(self.source.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or(StateSource::None)
    }
}

#[cfg(test)]
mod tests;
