//! The README's Rust subscriber: no `terraform destroy`, and a line of
//! context when a session starts. `tests/example.rs` runs it through a real
//! gateway and shim.

use hookgate_subscriber::{Subscriber, context, deny, none};

#[tokio::main]
async fn main() -> Result<(), hookgate_subscriber::Error> {
    Subscriber::new()
        .on_pre_tool_use(|e| match e.runs("terraform", &["destroy"]) {
            true => deny("no terraform destroy"),
            false => none(),
        })
        .on_session_start(|_| context("hello from rust"))
        .serve("unix:policy.sock")
        .await
}
