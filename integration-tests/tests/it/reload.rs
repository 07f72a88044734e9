//! Config hot reload through the real binaries: `gateway reload`, SIGHUP
//! and the file watch, while real shims keep calling.

use std::sync::Arc;

use hookgate_integration_tests::{ShimOutput, TestGateway};
use tokio::sync::Semaphore;

use crate::support::{Dialect, EVENTUALLY, UnderTest, assert_claude_deny, total_fallbacks};

/// Valid and invalid configs alternately.
const ROUNDS: usize = 20;
/// Hook calls per round while the reload happens, plus one after it.
const CALLS_PER_ROUND: usize = 99;
/// Shims in flight at once.
const CONCURRENT: usize = 4;

/// The reason every call gets under generation label `label`; bracketed
/// so no label is a prefix of another.
fn reason(label: usize) -> String {
    format!("<rules {label}>")
}

/// A guard denying `rm`, saying which rules denied it.
fn config(label: usize) -> String {
    format!(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"{}\"\n",
        reason(label)
    )
}

/// `config(label)` with a misspelt key on line 7: refused.
fn invalid(label: usize) -> String {
    format!("{}reasno = \"typo\"\n", config(label))
}

async fn call(gateway: &TestGateway) -> ShimOutput {
    let payload = Dialect::ClaudeCode.shell_payload("rm notes.txt");
    gateway.shim(Some("claude-code")).run(payload).await
}

/// The label whose reason a deny carries, if it is one of `labels`.
fn label_of(out: &ShimOutput, labels: &[usize]) -> Option<usize> {
    labels.iter().copied().find(|l| {
        let text = format!("{}{}", out.stdout_str(), out.stderr_str());
        text.contains(&reason(*l))
    })
}

/// Runs `n` calls, `CONCURRENT` at a time.
async fn calls(gateway: Arc<TestGateway>, n: usize) -> Vec<ShimOutput> {
    let slots = Arc::new(Semaphore::new(CONCURRENT));
    let mut runs = tokio::task::JoinSet::new();
    for _ in 0..n {
        let (gateway, slots) = (Arc::clone(&gateway), Arc::clone(&slots));
        runs.spawn(async move {
            let _slot = slots.acquire().await.expect("semaphore");
            call(&gateway).await
        });
    }
    let mut outputs = Vec::with_capacity(n);
    while let Some(done) = runs.join_next().await {
        outputs.push(done.expect("shim task"));
    }
    outputs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_calls_across_twenty_reloads_all_get_gateway_answers() {
    let gateway = Arc::new(TestGateway::start(&config(0)).await);
    let mut label = 0;
    let mut generation = 1;
    let mut answered = 0;
    for round in 0..ROUNDS {
        let valid = round % 2 == 0;
        let next = if valid { label + 1 } else { label };
        // Calls in flight while the file changes and the reload happens.
        let running = tokio::spawn(calls(Arc::clone(&gateway), CALLS_PER_ROUND));
        if valid {
            gateway.write_config(&config(next));
        } else {
            gateway.write_config(&invalid(next));
        }
        let (code, stdout, stderr) = gateway.reload().await;
        if valid {
            // The file watch may have applied it first: then it is unchanged.
            generation += 1;
            assert_eq!(code, Some(0), "round {round}: {stdout}{stderr}");
            assert!(
                stdout == format!("config applied: generation {generation}\n")
                    || stdout == format!("config unchanged: generation {generation}\n"),
                "round {round}: {stdout}"
            );
        } else {
            assert_eq!(code, Some(2), "round {round}: {stdout}{stderr}");
            assert!(
                stderr.contains(&format!("generation {generation} stays"))
                    && stderr.contains("gateway.toml:8:1: `reasno`: unknown field")
                    && stderr.contains("reasno"),
                "round {round}: {stderr}"
            );
            let doc = gateway.status_json().await;
            let reload = &doc["reload"];
            assert_eq!(reload["generation"], generation, "{reload}");
            assert_eq!(reload["last_result"], "invalid", "{reload}");
            assert!(
                reload["last_error"]
                    .as_str()
                    .is_some_and(|e| e.contains("reasno")),
                "{reload}"
            );
        }
        // During the reload: the old rules or the new, never a fallback.
        for out in running.await.expect("calls task") {
            assert!(
                label_of(&out, &[label, next]).is_some(),
                "round {round}: neither <rules {label}> nor <rules {next}>: {out}"
            );
            assert_claude_deny(&out, "PreToolUse", "<rules ");
            answered += 1;
        }
        // After it: exactly the rules in effect.
        let out = call(&gateway).await;
        assert_claude_deny(&out, "PreToolUse", &reason(next));
        answered += 1;
        label = next;
    }
    assert_eq!(answered, ROUNDS * (CALLS_PER_ROUND + 1));
    assert_eq!(answered, 2_000);

    let doc = gateway.status_json().await;
    let events: u64 = doc["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["count"].as_u64())
        .sum();
    assert_eq!(events, 2_000, "every call reached the gateway");
    let fallbacks = total_fallbacks(&doc);
    assert_eq!(
        fallbacks, 0,
        "no shim answered on its own: {}",
        doc["fallbacks"]
    );
    assert_eq!(doc["reload"]["generation"], 11, "{}", doc["reload"]);
    assert_eq!(doc["reload"]["applied"], 10, "{}", doc["reload"]);
    let guard = doc["subscribers"]
        .as_array()
        .expect("subscribers")
        .iter()
        .find(|s| s["name"] == "guard")
        .expect("the guard");
    assert_eq!(guard["deny"], 2_000, "the guard's counters survive reloads");
}

#[tokio::test]
async fn sighup_reloads_instead_of_ending_the_gateway() {
    let mut gateway = TestGateway::start(&config(1)).await;
    gateway.hangup();
    let mut reloaded = false;
    let until = tokio::time::Instant::now() + EVENTUALLY;
    while tokio::time::Instant::now() < until {
        assert!(
            gateway.is_running(),
            "SIGHUP ended the gateway: {}",
            gateway.stderr()
        );
        let doc = gateway.status_json().await;
        if doc["reload"]["last_trigger"] == "signal" {
            assert_eq!(
                doc["reload"]["last_result"], "unchanged",
                "{}",
                doc["reload"]
            );
            reloaded = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(reloaded, "no reload after SIGHUP: {}", gateway.stderr());
    assert_claude_deny(&call(&gateway).await, "PreToolUse", &reason(1));
}

#[tokio::test]
async fn an_edited_config_file_is_picked_up_by_itself() {
    let gateway = TestGateway::start(&config(1)).await;
    gateway.write_config(&config(2));
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        if doc["reload"]["generation"] == 2 {
            assert_eq!(doc["reload"]["last_trigger"], "watch", "{}", doc["reload"]);
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the edit was not applied: {}",
            doc["reload"]
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_claude_deny(&call(&gateway).await, "PreToolUse", &reason(2));
}
