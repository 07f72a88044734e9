//! A compiled policy and its bounded evaluation.
//!
//! Modules and data are parsed and checked once ([`Policy::compile`]); the
//! engine is then cloned per concurrent evaluation (its modules are shared,
//! not copied) and kept in a small pool, so an event pays for its input and
//! its query, never for parsing. Each evaluation is bounded: the input's
//! size, a wall-clock limit the interpreter checks as it works (a runaway
//! comprehension stops, it is not waited out), and the answer's size.

use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use hookgate_adapters::Decision;
use regorus::{Engine, LimitError};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::decision::{DecisionError, decision_from_value};

/// One `.rego` module: its name (the file, shown in errors) and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    pub text: String,
}

/// One JSON data document and where it goes under `data`.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFile {
    /// The file, shown in errors.
    pub name: String,
    /// Its place under `data` (`["roles"]` for `roles/data.json` in a bundle;
    /// empty: merged at the root).
    pub path: Vec<String>,
    pub value: Value,
}

/// The bounds on one evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time per evaluation.
    pub time: Duration,
    /// The input document's size, serialized.
    pub max_input_bytes: usize,
    /// The answer's size, serialized.
    pub max_output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_millis(100),
            max_input_bytes: 8 << 20,
            max_output_bytes: 1 << 20,
        }
    }
}

/// Why a policy could not be compiled. Messages name the file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    #[error("no policy modules")]
    NoModules,
    /// regorus's message, which starts with `file:line:column`.
    #[error("{0}")]
    Rego(String),
    #[error("{name}: {message}")]
    Data { name: String, message: String },
    #[error("query `{query}`: {message} (a rule reference such as `data.hookgate.decision`)")]
    Query { query: String, message: String },
}

/// Why one evaluation gave no decision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("the input document is {bytes} bytes, over the policy's limit of {limit}")]
    InputTooLarge { bytes: usize, limit: usize },
    #[error("evaluation passed its time limit of {} ms", limit.as_millis())]
    TimeLimit { limit: Duration },
    /// regorus's message (it names the policy file and line).
    #[error("{0}")]
    Rego(String),
    #[error("the answer is {bytes} bytes, over the limit of {limit}")]
    OutputTooLarge { bytes: usize, limit: usize },
    #[error("{0}")]
    Decision(#[from] DecisionError),
}

impl EvalError {
    /// A short, stable class for counters and the agent's message.
    pub fn class(&self) -> &'static str {
        match self {
            EvalError::InputTooLarge { .. } => "input too large",
            EvalError::TimeLimit { .. } => "time limit",
            EvalError::Rego(_) => "evaluation error",
            EvalError::OutputTooLarge { .. } => "answer too large",
            EvalError::Decision(_) => "bad decision",
        }
    }
}

/// Idle engines kept for reuse; more concurrent evaluations clone more.
const POOL: usize = 8;
/// Interpreter work units between two clock reads.
const TIME_CHECK_INTERVAL: u32 = 64;

/// Rego compiled once, evaluated many times, from any thread.
#[derive(Debug)]
pub struct Policy {
    prototype: Engine,
    idle: Mutex<Vec<Engine>>,
    query: String,
    revision: String,
    limits: Limits,
}

impl Policy {
    /// Compiles `modules` with `data`, to be asked `query`. `revision` names
    /// what was loaded (a bundle's revision); `None` makes it the digest of
    /// the modules and data ([`files_digest`]).
    pub fn compile(
        modules: &[Module],
        data: &[DataFile],
        query: &str,
        revision: Option<String>,
        limits: Limits,
    ) -> Result<Policy, CompileError> {
        if modules.is_empty() {
            return Err(CompileError::NoModules);
        }
        check_query(query)?;
        let mut engine = Engine::new();
        for module in modules {
            engine
                .add_policy(module.name.clone(), module.text.clone())
                .map_err(|err| CompileError::Rego(format!("{err:#}")))?;
        }
        for file in data {
            let mut value = file.value.clone();
            for key in file.path.iter().rev() {
                value = serde_json::json!({ key.as_str(): value });
            }
            engine
                .add_data(regorus::Value::from(value))
                .map_err(|err| CompileError::Data {
                    name: file.name.clone(),
                    message: format!("{err:#}"),
                })?;
        }
        let packages = engine
            .get_packages()
            .map_err(|err| CompileError::Rego(format!("{err:#}")))?;
        let named = packages
            .iter()
            .any(|p| query == p || query.starts_with(&format!("{p}.")));
        if !named {
            return Err(CompileError::Query {
                query: query.to_owned(),
                message: format!(
                    "no loaded package defines it (packages: {})",
                    packages.join(", ")
                ),
            });
        }
        engine.set_execution_timer_config(regorus::utils::limits::ExecutionTimerConfig {
            limit: limits.time,
            check_interval: NonZeroU32::new(TIME_CHECK_INTERVAL).unwrap_or(NonZeroU32::MIN),
        });
        // One evaluation now prepares the engine (rule indexes, scheduling),
        // so every clone starts ready; its answer does not matter.
        engine.set_input(regorus::Value::new_object());
        let _ = engine.eval_rule(query.to_owned());
        let revision = revision.unwrap_or_else(|| files_digest(modules, data));
        Ok(Policy {
            prototype: engine,
            idle: Mutex::new(Vec::new()),
            query: query.to_owned(),
            revision,
            limits,
        })
    }

    /// What was loaded: the bundle's revision or the files' digest.
    pub fn revision(&self) -> &str {
        &self.revision
    }

    /// The query asked of every event.
    pub fn query(&self) -> &str {
        &self.query
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The decision for `input` (the [`crate::input`] document), bounded
    /// by [`Limits`]. Blocks the calling thread for up to the time limit.
    pub fn evaluate(&self, input: Value) -> Result<Decision, EvalError> {
        let answer = self.answer(input)?;
        Ok(decision_from_value(answer.as_ref())?)
    }

    /// The query's raw answer for `input` (`None` when undefined), for
    /// `gateway eval` and the decision above.
    pub fn answer(&self, input: Value) -> Result<Option<Value>, EvalError> {
        let bytes = serde_json::to_vec(&input).map_or(usize::MAX, |v| v.len());
        if bytes > self.limits.max_input_bytes {
            return Err(EvalError::InputTooLarge {
                bytes,
                limit: self.limits.max_input_bytes,
            });
        }
        let mut engine = self.take();
        engine.set_input(regorus::Value::from(input));
        let result = engine.eval_rule(self.query.clone());
        self.give_back(engine);
        let value = result.map_err(|err| match err.downcast_ref::<LimitError>() {
            Some(LimitError::TimeLimitExceeded { .. }) => EvalError::TimeLimit {
                limit: self.limits.time,
            },
            _ => EvalError::Rego(format!("{err:#}")),
        })?;
        if value == regorus::Value::Undefined {
            return Ok(None);
        }
        let text = value
            .to_json_str()
            .map_err(|err| EvalError::Rego(format!("{err:#}")))?;
        if text.len() > self.limits.max_output_bytes {
            return Err(EvalError::OutputTooLarge {
                bytes: text.len(),
                limit: self.limits.max_output_bytes,
            });
        }
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|err| EvalError::Rego(format!("the answer is not JSON: {err}")))
    }

    fn take(&self) -> Engine {
        let pooled = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        pooled.unwrap_or_else(|| self.prototype.clone())
    }

    fn give_back(&self, engine: Engine) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < POOL
        {
            idle.push(engine);
        }
    }
}

/// A query is a rule reference: `data` then identifiers, dot-separated.
fn check_query(query: &str) -> Result<(), CompileError> {
    let mut parts = query.split('.');
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    if parts.next() != Some("data") || parts.clone().count() == 0 || !parts.all(ident) {
        return Err(CompileError::Query {
            query: query.to_owned(),
            message: "not a rule reference".to_owned(),
        });
    }
    Ok(())
}

/// `sha256:` and the first 16 hex digits of a digest over every module and
/// data file (names and contents, in order): the revision of a policy
/// loaded from files, which changes exactly when they do.
pub fn files_digest(modules: &[Module], data: &[DataFile]) -> String {
    let mut hash = Sha256::new();
    for module in modules {
        hash.update(module.name.as_bytes());
        hash.update([0]);
        hash.update(module.text.as_bytes());
        hash.update([0]);
    }
    for file in data {
        hash.update(file.name.as_bytes());
        hash.update([0]);
        hash.update(file.value.to_string().as_bytes());
        hash.update([0]);
    }
    let digest = hash.finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
