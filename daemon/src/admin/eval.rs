//! The admin API's `Eval`: one payload through the live gateway's
//! pipeline (`gateway eval --socket`), answered with everything the call
//! went through, so a user asks the running config rather than a file that
//! may differ from it.
//!
//! The call is admitted as a shim's is (its bytes from the memory budget,
//! an evaluation slot within `queue_wait`) and runs the one path every
//! call takes, audit included. What marks it as an eval is the payload's
//! session (`hookgate-eval`, which `gateway eval` writes into every
//! payload it sends): like doctor's probes, it is counted apart from the
//! agents' traffic and marked `probe` in the decision log.
//!
//! The admin API starts before the pipeline exists and must not keep it
//! (and with it the audit and observe queues) alive past shutdown, so it
//! reaches the pipeline through a [`Door`]: set once the gateway serves,
//! and holding only a weak reference.

use std::sync::{Arc, OnceLock, Weak};

use hookgate_proto::v1;
use hookgate_wire::Request;

use crate::admission::Admission;
use crate::offline::Outcome;

/// The largest payload `Eval` takes: the shim's own limit.
pub(crate) const MAX_EVAL_PAYLOAD: usize = 32 << 20;

/// How the admin API finds the live pipeline for `Eval`.
#[derive(Debug, Default, Clone)]
pub(crate) struct Door(Arc<OnceLock<Weak<Admission>>>);

impl Door {
    /// Opens the door on `admission` (once; later calls change nothing).
    pub(crate) fn open(&self, admission: &Arc<Admission>) {
        let _ = self.0.set(Arc::downgrade(admission));
    }

    fn admission(&self) -> Result<Arc<Admission>, tonic::Status> {
        match self.0.get() {
            None => Err(tonic::Status::unavailable(
                "the gateway is starting: it does not evaluate events yet",
            )),
            Some(weak) => weak
                .upgrade()
                .ok_or_else(|| tonic::Status::unavailable("the gateway is shutting down")),
        }
    }
}

/// Runs `request`'s payload through the live pipeline.
pub(super) async fn eval(door: &Door, request: v1::EvalRequest) -> Result<String, tonic::Status> {
    if request.payload.len() > MAX_EVAL_PAYLOAD {
        return Err(tonic::Status::invalid_argument(format!(
            "the payload is over {MAX_EVAL_PAYLOAD} bytes, the shim's limit"
        )));
    }
    let admission = door.admission()?;
    let reservation = admission
        .budget
        .try_reserve_request(request.payload.len())
        .ok_or_else(|| {
            tonic::Status::resource_exhausted("the gateway's memory budget is full now")
        })?;
    let _slot = admission.slot().await.ok_or_else(|| {
        tonic::Status::resource_exhausted("the gateway is busy: no evaluation slot in queue_wait")
    })?;
    let request = Request {
        args: request.args,
        cwd: request.cwd,
        env: Vec::new(),
        stdin: request.payload,
    };
    let explained = admission
        .pipeline
        .explain_reserved(request, Some(reservation))
        .await;
    let outcome = Outcome::of(explained);
    serde_json::to_string(&outcome.document())
        .map_err(|err| tonic::Status::internal(format!("the outcome document: {err}")))
}
